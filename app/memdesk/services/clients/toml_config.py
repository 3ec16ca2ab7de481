"""TOML config files (Codex CLI's), edited as text so that comments and layout stay.

Reading the file, writing it back with a TOML writer would drop every comment. Instead the
lines of the server's table (``[mcp_servers.memdesk]`` and its sub-tables) are cut out or
replaced where they stand, and the result is parsed again: it must be the old document with
only that table changed. A file that defines the table another way (inline, or with dotted
keys under ``[mcp_servers]``) fails that check and is not changed.
"""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tomli_w

from memdesk.errors import BadInputError
from memdesk.services.clients.files import Edit, read_text
from memdesk.services.clients.known import command_line
from memdesk.toml_text import Table, table_header


def load(path: Path) -> tuple[str, dict[str, Any]]:
    raw = read_text(path)
    try:
        return raw, tomllib.loads(raw)
    except tomllib.TOMLDecodeError as exc:
        # Its message ends with "(at line N, column M)".
        raise BadInputError(f"{path} is not valid TOML ({exc}); not changed") from None


def set_table(path: Path, name: Table, update: Callable[[Any], dict[str, Any] | None]) -> Edit:
    """The table ``name`` made what ``update`` makes of it (see ``Client.updated``)."""
    raw, data = load(path)
    entry = update(_get(data, name))
    if entry is None:
        return Edit(path, bool(raw), raw, ())
    lines = raw.splitlines(keepends=True)
    spans = _spans(lines, name)
    text = tomli_w.dumps(_nested(name, entry))
    if spans:
        start = spans[0][0]
        kept = _without(lines, spans)
        new = "".join(kept[:start]) + text + _separated("".join(kept[start:]))
    else:
        new = _ended(raw) + ("\n" if raw.strip() and not raw.endswith("\n\n") else "") + text
    expected = copy.deepcopy(data)
    _put(expected, name, entry)
    _check(path, name, new, expected)
    return Edit(path, bool(raw), new, (f"[{'.'.join(name)}]: {command_line(entry)}",))


def drop_table(path: Path, name: Table) -> Edit:
    raw, data = load(path)
    if _get(data, name) is None:
        return Edit(path, bool(raw), raw, ())
    new = "".join(_without(raw.splitlines(keepends=True), _spans(raw.splitlines(keepends=True), name)))
    expected = copy.deepcopy(data)
    _pop(expected, name)
    _check(path, name, new, expected)
    return Edit(path, True, new, (f"removed [{'.'.join(name)}]",))


def _check(path: Path, name: Table, new: str, expected: dict[str, Any]) -> None:
    try:
        written = tomllib.loads(new)
    except tomllib.TOMLDecodeError:
        written = None
    if written is None or _pruned(written) != _pruned(expected):
        raise BadInputError(
            f"{path} defines [{'.'.join(name)}] in a form Memdesk does not edit (inline or with dotted "
            "keys); not changed (change that table by hand)"
        )


def _spans(lines: list[str], name: Table) -> list[tuple[int, int]]:
    """[start, end) line ranges of ``name``'s table and its sub-tables; comments and blank lines
    at a range's end are left to the table after it."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for number, line in enumerate([*lines, "[end-of-file]"]):
        opened = table_header(line) if number < len(lines) else ()
        if opened is None:
            continue
        if start is not None and opened[: len(name)] != name:
            end = number
            while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
                end -= 1
            spans.append((start, end))
            start = None
        if start is None and opened is not None and opened[: len(name)] == name and opened:
            start = number
    return spans


def _without(lines: list[str], spans: list[tuple[int, int]]) -> list[str]:
    """``lines`` with the spans cut out, and a blank line that would end up doubled (or last) with them."""
    kept = list(lines)
    for start, end in reversed(spans):
        del kept[start:end]
        after_blank = start == len(kept) or not kept[start].strip()
        if start > 0 and not kept[start - 1].strip() and after_blank:
            del kept[start - 1]
    return kept


def _ended(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def _separated(rest: str) -> str:
    """What follows a table written in place, a blank line away from it."""
    return rest if not rest or rest.startswith("\n") else "\n" + rest


def _nested(name: Table, value: Any) -> dict[str, Any]:
    for key in reversed(name):
        value = {key: value}
    return value


def _get(data: dict[str, Any], name: Table) -> Any:
    node: Any = data
    for key in name:
        node = node.get(key) if isinstance(node, dict) else None
    return node


def _put(data: dict[str, Any], name: Table, value: Any) -> None:
    node = data
    for key in name[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            child = node[key] = {}  # the check after writing refuses this document
        node = child
    node[name[-1]] = value


def _pop(data: dict[str, Any], name: Table) -> None:
    parent = _get(data, name[:-1])
    if isinstance(parent, dict):
        parent.pop(name[-1], None)


def _pruned(value: Any) -> Any:
    """``value`` without empty tables: taking the last server out leaves no ``mcp_servers``."""
    if isinstance(value, dict):
        kept = {key: _pruned(item) for key, item in value.items()}
        return {key: item for key, item in kept.items() if item != {}}
    return value
