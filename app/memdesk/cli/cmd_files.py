"""``memdesk files``: the MEMORY.md folders of the global and project scopes.

These commands read the settings and the folders only, never the database, so they work
while the store is locked, damaged or from a newer version.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.cli.io import say_aside, warn_about_settings
from memdesk.core.scopes import GLOBAL, PROJECT, SCOPES
from memdesk.errors import BadInputError

if TYPE_CHECKING:  # the services load when a files command runs, not for every command
    from memdesk.config import Settings
    from memdesk.services.files import FilesStatus, ScopeStatus
    from memdesk.services.projects import Project


@dataclass(frozen=True)
class Folders:
    """What these commands need: the settings, their file, and where the global scope lives."""

    settings: Settings
    config_file: Path
    global_dir: Path


def _folders(args: argparse.Namespace) -> Folders:
    from memdesk.config import global_folder, load_settings
    from memdesk.paths import resolve_paths

    paths = resolve_paths(args.data_dir, args.db, args.config)
    loaded = load_settings(paths.config_file)
    warn_about_settings(loaded.problems)
    return Folders(loaded.settings, paths.config_file, global_folder(loaded.settings, paths))


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
        ("trust", run_trust, "trust a project: its MEMORY.md reaches assistants working in it"),
        ("untrust", run_untrust, "stop trusting a project: its memory folder is no longer read"),
    ):
        sub = commands.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        sub.add_argument(
            "folder", nargs="?", default=".", metavar="FOLDER", help="the project folder (default: this one)"
        )
        sub.set_defaults(handler=handler, needs_store=False)
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
    parser.add_argument("--project", metavar="DIR", help="a project folder (uses its .pi/memory)")
    parser.add_argument(
        "--trusted",
        action="store_true",
        help="trust the project for this once; an untrusted project is never read",
    )


def _project(args: argparse.Namespace, folders: Folders) -> Project | None:
    from memdesk.services.projects import project_for

    if args.trusted and not args.project:
        raise BadInputError("--trusted needs --project DIR")
    if not args.project:
        return None
    return project_for(args.project, folders.settings.files.trusted_projects, args.trusted)


def _scope_folder(args: argparse.Namespace) -> Path:
    from memdesk.services.files import project_memory_dir

    folders = _folders(args)
    project = _project(args, folders)
    if args.scope == GLOBAL:
        return folders.global_dir
    if project is None or not project.trusted:
        raise BadInputError(
            "the project scope needs --project DIR of a trusted project",
            "Trust it with `memdesk files trust DIR` (or add --trusted for this once); an untrusted "
            "project's memory folder is never touched.",
        )
    return project_memory_dir(project.root)


def run_status(args: argparse.Namespace, _app: None) -> int:
    from memdesk.services.files import files_status

    folders = _folders(args)
    project = _project(args, folders)
    caps = folders.settings.files
    status = files_status(
        folders.global_dir,
        project.root if project else None,
        project is not None and project.trusted,
        caps.max_inject_lines,
        caps.max_inject_bytes,
    )
    print(format_status(status, caps.enabled, caps.trusted_projects))
    return 0


def run_trust(args: argparse.Namespace, _app: None) -> int:
    return _change_trust(args, True)


def run_untrust(args: argparse.Namespace, _app: None) -> int:
    return _change_trust(args, False)


def _change_trust(args: argparse.Namespace, trusted: bool) -> int:
    """Add the folder to the setting files.trusted_projects, or take it out; say what changed."""
    from memdesk.config import save_settings
    from memdesk.services.files import INDEX_NAME, project_memory_dir
    from memdesk.services.projects import TRUSTED_KEY, real_folder, with_trust

    folders = _folders(args)
    folder = real_folder(args.folder)
    if trusted and not folder.is_dir():
        raise BadInputError(f"{folder} is not a folder", "Give the project's folder.")
    changed = with_trust(folders.settings.files.trusted_projects, folder, trusted)
    if changed is not None:
        save_settings(folders.config_file, {TRUSTED_KEY: list(changed)})
    memory = project_memory_dir(folder) / INDEX_NAME
    if trusted:
        print(
            f"Trusted {folder}: an assistant working in it (or below it, when it is a repository's "
            f"root) gets {memory} in its prompt."
            if changed is not None
            else f"{folder} was trusted already; nothing changed."
        )
        if not folders.settings.files.enabled:
            say_aside("memdesk: file scopes are off: turn them on with the files.enabled setting.")
    else:
        print(
            f"No longer trusted: {folder}; its memory folder is not read any more."
            if changed is not None
            else f"{folder} was not trusted; nothing changed."
        )
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


def format_status(status: FilesStatus, setting_enabled: bool, trusted_projects: tuple[str, ...]) -> str:
    """The human-readable status: injection state and caps, one paragraph per scope, then the
    trusted projects."""
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
    lines.append("")
    if trusted_projects:
        lines.append("Trusted projects (files.trusted_projects):")
        lines.extend(f"  {folder}" for folder in trusted_projects)
    else:
        lines.append("Trusted projects: none yet (`memdesk files trust FOLDER` adds one)")
    return "\n".join(lines)


def _format_scope(scope: ScopeStatus) -> list[str]:
    title = "Global" if scope.scope == GLOBAL else "Project"
    if not scope.trusted:
        return [
            f"{title} scope: {scope.folder} (untrusted: not read; trust the project with "
            "`memdesk files trust`)"
        ]
    trust = " (trusted)" if scope.scope == PROJECT else ""
    lines = [f"{title} scope: {scope.folder}{trust}"]
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
    if scope.index is None and not scope.problems:
        lines.append(
            "  no MEMORY.md yet: an assistant that keeps MEMORY.md writes it, or create it yourself "
            f"at {scope.index_path}"
        )
    if scope.over_cap:
        lines.append("  warning: MEMORY.md is over the cap; keep it concise and move detail to topic files")
    lines.extend(f"  problem: {problem}" for problem in scope.problems)
    return lines
