"""JSON config files: the object in the file, changed in memory and written back.

The whole file is written again with two-space indents, so its own spacing is not kept; every
key and its order are. A file that is not plain JSON (one with comments, say) is not changed.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from memdesk.errors import BadInputError
from memdesk.services.clients.files import Edit, read_text
from memdesk.services.clients.known import command_line

# Changes the object in place; says what it changed, a line each.
Change = Callable[[dict[str, Any]], list[str]]


def load(path: Path) -> tuple[str, dict[str, Any]]:
    """The file's text and the JSON object it holds (an empty one for a missing or empty file)."""
    raw = read_text(path)
    try:
        data = json.loads(raw) if raw.strip() else {}
    except json.JSONDecodeError as exc:
        raise BadInputError(
            f"{path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); not changed"
        ) from None
    if not isinstance(data, dict):
        raise BadInputError(f"{path} does not hold a JSON object; not changed")
    return raw, data


def edit(path: Path, change: Change) -> Edit:
    raw, data = load(path)
    changed = copy.deepcopy(data)
    try:
        lines = change(changed)
    except BadInputError as exc:
        raise BadInputError(f"{path}: {exc.message}") from None
    text = json.dumps(changed, indent=2, ensure_ascii=False) + "\n"
    return Edit(path, bool(raw), text, tuple(lines))


def set_server(key: str, name: str, update: Callable[[Any], dict[str, Any] | None]) -> Change:
    """Put under ``key`` as ``name`` what ``update`` makes of the entry there (see
    ``Client.updated``), unless it is in place already."""

    def change(data: dict[str, Any]) -> list[str]:
        servers = data.setdefault(key, {})
        if not isinstance(servers, dict):
            raise BadInputError(f"{key} is not a JSON object; not changed")
        entry = update(servers.get(name))
        if entry is None:
            return []
        servers[name] = entry
        return [f"MCP server {name} ({key}): {command_line(entry)}"]

    return change


def drop_server(key: str, name: str) -> Change:
    def change(data: dict[str, Any]) -> list[str]:
        servers = data.get(key)
        if isinstance(servers, dict) and name in servers:
            del servers[name]
            return [f"removed MCP server {name} from {key}"]
        return []

    return change
