"""Connect Claude Code to Memdesk: its MCP server and its hooks, merged into Claude Code's files.

Claude Code reads user-scope MCP servers from ``~/.claude.json`` (``mcpServers``, as
``claude mcp add --scope user`` writes them) and hooks from ``~/.claude/settings.json``
(``hooks``); with ``CLAUDE_CONFIG_DIR`` set, both are in that folder. Connecting merges
Memdesk's entries into them and leaves everything else as it was; each file changed is
backed up first. Connecting twice changes nothing; disconnecting takes exactly these
entries out again.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdesk.errors import BadInputError, MemdeskError
from memdesk.services.claude_hook import EVENTS

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

SERVER_NAME = "memdesk"
HOOK_ARGS = ("hook", "claude-code")


@dataclass(frozen=True)
class FileChange:
    path: Path
    changes: tuple[str, ...]  # what was added or removed, a line each
    backup: Path | None  # the copy made before writing; None when the file was new or unchanged


def claude_files() -> tuple[Path, Path]:
    """(the file with user-scope MCP servers, the settings file with hooks)."""
    config = os.environ.get("CLAUDE_CONFIG_DIR")
    if config:
        root = Path(config).expanduser()
        return root / ".claude.json", root / "settings.json"
    return Path.home() / ".claude.json", Path.home() / ".claude" / "settings.json"


def hook_command(command: str, server_args: list[str]) -> str:
    """The hook's command line: ``memdesk``, the store options the MCP server gets, ``hook claude-code``."""
    store_options = server_args[:-1] if server_args and server_args[-1] == "mcp" else server_args
    return shlex.join([command, *store_options, *HOOK_ARGS])


def connect(command: str, server_args: list[str]) -> list[FileChange]:
    """Add Memdesk's MCP server and hooks; returns what changed in which file."""
    servers_file, settings_file = claude_files()
    hook = hook_command(command, server_args)
    entry = {"type": "stdio", "command": command, "args": server_args, "env": {}}
    return _apply(
        [
            _plan(servers_file, lambda data: _set_server(data, entry)),
            _plan(settings_file, lambda data: _set_hooks(data, hook)),
        ]
    )


def connect_store(app: Memdesk, command: str, server_args: list[str]) -> list[str]:
    """Connect Claude Code to the store ``app`` has open and turn on reading its transcripts;
    what changed, a line each (none: it was all in place)."""
    lines = change_lines(connect(command, server_args))
    if not app.settings.sources.claude_code:
        app.sources.set_enabled("claude-code", True)
        lines.append("Turned on the claude-code source (sources.claude_code = true).")
    return lines


def change_lines(changes: list[FileChange]) -> list[str]:
    """Each changed file, then what changed in it and where its backup is."""
    lines: list[str] = []
    for change in changes:
        if change.changes:
            lines.append(f"{change.path}:")
            lines += [f"  {line}" for line in change.changes]
            if change.backup:
                lines.append(f"  (the file was backed up as {change.backup})")
    return lines


def disconnect() -> list[FileChange]:
    servers_file, settings_file = claude_files()
    return _apply([_plan(servers_file, _drop_server), _plan(settings_file, _drop_hooks)])


def _set_server(data: dict[str, Any], entry: dict[str, Any]) -> list[str]:
    servers = data.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise BadInputError("mcpServers is not a JSON object; not changed")
    if servers.get(SERVER_NAME) == entry:
        return []
    servers[SERVER_NAME] = entry
    return [f"MCP server {SERVER_NAME}: {shlex.join([entry['command'], *entry['args']])}"]


def _drop_server(data: dict[str, Any]) -> list[str]:
    servers = data.get("mcpServers")
    if isinstance(servers, dict) and SERVER_NAME in servers:
        del servers[SERVER_NAME]
        return [f"removed MCP server {SERVER_NAME}"]
    return []


def _ours(hook: object) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return isinstance(command, str) and command.endswith(" " + " ".join(HOOK_ARGS))


def _set_hooks(data: dict[str, Any], command: str) -> list[str]:
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise BadInputError("hooks is not a JSON object; not changed")
    changes = []
    for event in EVENTS:
        groups = hooks.get(event, [])
        present = [h for g in groups if isinstance(g, dict) for h in g.get("hooks", []) if _ours(h)]
        if [h.get("command") for h in present] == [command]:
            continue
        _remove_ours(hooks, event)
        hooks.setdefault(event, []).append(
            {"hooks": [{"type": "command", "command": command, "timeout": 30}]}
        )
        changes.append(f"hook {event}: {command}")
    return changes


def _drop_hooks(data: dict[str, Any]) -> list[str]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    return [f"removed hook {event}" for event in EVENTS if _remove_ours(hooks, event)]


def _remove_ours(hooks: dict[str, Any], event: str) -> bool:
    """Take Memdesk's hooks out of ``event``, and the groups and event they leave empty."""
    groups = hooks.get(event)
    if not isinstance(groups, list):
        return False
    removed = False
    kept_groups = []
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            kept = [h for h in group["hooks"] if not _ours(h)]
            removed = removed or len(kept) != len(group["hooks"])
            if not kept:
                continue
            group = {**group, "hooks": kept}
        kept_groups.append(group)
    if kept_groups:
        hooks[event] = kept_groups
    else:
        del hooks[event]
    return removed


@dataclass
class _Plan:
    path: Path
    existed: bool
    data: dict[str, Any]
    changes: list[str]


def _apply(plans: list[_Plan]) -> list[FileChange]:
    """Write the files that change (each backed up first); every file was checked before any is written."""
    done = []
    for plan in plans:
        backup = None
        if plan.changes:
            if plan.existed:
                backup = plan.path.with_name(
                    f"{plan.path.name}.memdesk-backup-{datetime.now(UTC):%Y%m%d-%H%M%S}"
                )
                shutil.copy2(plan.path, backup)
            _write(plan.path, json.dumps(plan.data, indent=2, ensure_ascii=False) + "\n")
        done.append(FileChange(plan.path, tuple(plan.changes), backup))
    return done


def _plan(path: Path, change: Any) -> _Plan:
    """``change`` applied to a copy of the JSON object in ``path``, not written yet."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raw = ""
    except OSError as exc:
        raise MemdeskError(f"{path} cannot be read ({exc.strerror or exc}); nothing was changed") from None
    try:
        data = json.loads(raw) if raw.strip() else {}
    except ValueError as exc:
        raise BadInputError(
            f"{path} is not valid JSON ({exc}); nothing was changed", "fix or move the file, then try again"
        ) from None
    if not isinstance(data, dict):
        raise BadInputError(f"{path} does not hold a JSON object; nothing was changed")
    try:
        changes = change(data)
    except BadInputError as exc:
        raise BadInputError(f"{path}: {exc.message}") from None
    return _Plan(path, bool(raw), data, changes)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        if path.exists():
            shutil.copymode(path, tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
