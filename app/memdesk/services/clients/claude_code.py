"""Claude Code's hooks, which it reads from ``~/.claude/settings.json`` (or ``settings.json`` in
``CLAUDE_CONFIG_DIR``): the prompt at SessionStart, the transcript read at Stop, SessionEnd
and PreCompact. Its MCP server goes where every client's does (``known``)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Any

from memdesk.errors import BadInputError
from memdesk.services.claude_hook import EVENTS
from memdesk.services.clients.json_config import Change

HOOK_ARGS = ("hook", "claude-code")
TIMEOUT_S = 30


def settings_path() -> Path:
    folder = os.environ.get("CLAUDE_CONFIG_DIR")
    return (
        Path(folder).expanduser() / "settings.json" if folder else Path.home() / ".claude" / "settings.json"
    )


def hook_command(command: str, server_args: list[str]) -> str:
    """``memdesk``, the store options the MCP server gets, ``hook claude-code``."""
    store_options = server_args[:-1] if server_args and server_args[-1] == "mcp" else server_args
    return shlex.join([command, *store_options, *HOOK_ARGS])


def set_hooks(command: str) -> Change:
    def change(data: dict[str, Any]) -> list[str]:
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
                {"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_S}]}
            )
            changes.append(f"hook {event}: {command}")
        return changes

    return change


def drop_hooks(data: dict[str, Any]) -> list[str]:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    return [f"removed hook {event}" for event in EVENTS if _remove_ours(hooks, event)]


def _ours(hook: object) -> bool:
    command = hook.get("command") if isinstance(hook, dict) else None
    return isinstance(command, str) and command.endswith(" " + " ".join(HOOK_ARGS))


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
