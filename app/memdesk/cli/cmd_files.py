"""``memdesk files``: the MEMORY.md folders of the global and project scopes.

These commands read the settings and the folders only, never the database, so they work
while the store is locked, damaged or from a newer version.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.cli.io import warn_about_settings
from memdesk.core.scopes import GLOBAL, PROJECT, SCOPES
from memdesk.errors import BadInputError

if TYPE_CHECKING:  # the services load when a files command runs, not for every command
    from memdesk.config import Settings
    from memdesk.services.files import FilesStatus, ScopeStatus


@dataclass(frozen=True)
class Folders:
    """What these commands need: the settings, and where the global scope lives."""

    settings: Settings
    global_dir: Path


def _folders(args: argparse.Namespace) -> Folders:
    from memdesk.config import global_folder, load_settings
    from memdesk.paths import resolve_paths

    paths = resolve_paths(args.data_dir, args.db, args.config)
    loaded = load_settings(paths.config_file)
    warn_about_settings(loaded.problems)
    return Folders(loaded.settings, global_folder(loaded.settings, paths))


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "files",
        help="MEMORY.md folders: the global and project scopes",
        description="Show and tidy the markdown memory folders an assistant edits itself.",
    )
    commands = parser.add_subparsers(dest="files_command", metavar="COMMAND", required=True)
    status = commands.add_parser("status", help="each scope's files, sizes, injected bytes and trust state")
    _add_project_options(status)
    status.set_defaults(handler=run_status, needs_store=False)
    for name, handler, text in (
        ("archive", run_archive, "move a file into the scope's archive/ folder"),
        ("restore", run_restore, "move a file back from the scope's archive/ folder"),
    ):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("scope", choices=SCOPES, metavar="SCOPE", help="global or project")
        sub.add_argument("file", metavar="FILE", help="a file name such as build.md")
        _add_project_options(sub)
        sub.set_defaults(handler=handler, needs_store=False)


def _add_project_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--project", metavar="DIR", help="a project folder (uses DIR/.pi/memory)")
    parser.add_argument(
        "--trusted", action="store_true", help="the project is trusted; without this it is never read"
    )


def _project_dir(args: argparse.Namespace) -> Path | None:
    if args.trusted and not args.project:
        raise BadInputError("--trusted needs --project DIR")
    return Path(args.project).expanduser() if args.project else None


def _scope_folder(args: argparse.Namespace) -> Path:
    from memdesk.services.files import project_memory_dir

    project = _project_dir(args)
    if args.scope == GLOBAL:
        return _folders(args).global_dir
    if project is None or not args.trusted:
        raise BadInputError(
            "the project scope needs --project DIR and --trusted",
            "An untrusted project's memory folder is never touched.",
        )
    return project_memory_dir(project)


def run_status(args: argparse.Namespace, _app: None) -> int:
    from memdesk.services.files import files_status

    folders = _folders(args)
    caps = folders.settings.files
    status = files_status(
        folders.global_dir,
        _project_dir(args),
        args.trusted,
        caps.max_inject_lines,
        caps.max_inject_bytes,
    )
    print(format_status(status, caps.enabled))
    return 0


def run_archive(args: argparse.Namespace, _app: None) -> int:
    from memdesk.services.files import archive_file

    folder = _scope_folder(args)
    target = archive_file(folder, args.file)
    print(f"Moved {folder / args.file} to {target}")
    return 0


def run_restore(args: argparse.Namespace, _app: None) -> int:
    from memdesk.services.files import ARCHIVE_DIR, restore_file

    folder = _scope_folder(args)
    target = restore_file(folder, args.file)
    print(f"Moved {folder / ARCHIVE_DIR / args.file} to {target}")
    return 0


def format_status(status: FilesStatus, setting_enabled: bool) -> str:
    """The human-readable status: injection state and caps, then one paragraph per scope."""
    if not setting_enabled:
        injection = "off (turn it on with the files.enabled setting)"
    elif not status.enabled:
        injection = 'off (a config.json sets "enabled": false)'
    else:
        injection = "on"
    lines = [
        f"Injection into the prompt: {injection}",
        f"Caps: the first {status.max_lines} lines or {status.max_bytes} bytes of each MEMORY.md",
    ]
    for scope in status.scopes:
        lines.append("")
        lines.extend(_format_scope(scope))
    return "\n".join(lines)


def _format_scope(scope: ScopeStatus) -> list[str]:
    title = "Global" if scope.scope == GLOBAL else "Project"
    if not scope.trusted:
        return [f"{title} scope: {scope.folder} (untrusted: not read; add --trusted to use it)"]
    trust = " (trusted)" if scope.scope == PROJECT else ""
    lines = [f"{title} scope: {scope.folder}{trust}"]
    if not scope.exists:
        lines.append("  not created yet (the first write creates it)")
    width = max((len(f.name) for f in scope.files), default=0)
    for item in scope.files:
        line = f"  {item.name:<{width}}  {item.size:>8} bytes"
        if item.kind == "index" and scope.index is not None:
            index = scope.index
            line += (
                f"  injected {index.injected_bytes} of {index.total_bytes} bytes,"
                f" {index.injected_lines} of {index.total_lines} lines"
            )
        lines.append(line)
    if scope.exists and scope.index is None and not scope.problems:
        lines.append("  no MEMORY.md yet: nothing is injected from this scope")
    if scope.over_cap:
        lines.append("  warning: MEMORY.md is over the cap; keep it concise and move detail to topic files")
    lines.extend(f"  problem: {problem}" for problem in scope.problems)
    return lines
