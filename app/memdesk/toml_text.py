"""TOML files read and changed as text, so that a person's comments, order and layout stay.

``set_keys`` changes the lines of the keys it is given and nothing else; the result is parsed
again and must be the old document with just those keys changed. ``read_tables`` reads a file
that is not valid TOML as a whole (a table declared twice, one broken line) table by table.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from typing import Any

import tomli_w

Table = tuple[str, ...]
# tomllib ends its messages with where in the parsed text it failed; a table read on its own
# has its own line numbers, so that part is replaced by the table's place in the file.
_POSITION = re.compile(r"\s*\(at (line \d+, column \d+|end of document)\)$")


class NotEditable(ValueError):
    """The keys are written in a form only a person should change (inline table, dotted keys)."""


def table_header(line: str) -> Table | None:
    """The table a ``[table]`` or ``[[array]]`` header line opens, its key read by a TOML parser."""
    stripped = line.strip()
    if not stripped.startswith("["):
        return None
    array = stripped.startswith("[[")
    try:
        parsed = tomllib.loads(stripped + "\n")
    except tomllib.TOMLDecodeError:
        return None  # a line of a multi-line array or string
    keys: list[str] = []
    node: Any = parsed
    while isinstance(node, dict) and len(node) == 1:
        key, node = next(iter(node.items()))
        keys.append(key)
        if array and isinstance(node, list):
            break
    return tuple(keys)


def value_text(value: Any) -> str:
    """``value`` as TOML, on one line (a list too: a settings file is read by people)."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(value_text(item) for item in value) + "]"
    return tomli_w.dumps({"v": value}).split(" = ", 1)[1].rstrip("\n")


def _sections(lines: list[str]) -> list[tuple[Table, int, int]]:
    """Each table in the file with its [start, end) lines; the keys before any header are ``()``."""
    found: list[tuple[Table, int, int]] = []
    current: Table = ()
    start = 0
    for number, line in enumerate(lines):
        opened = table_header(line)
        if opened is not None:
            found.append((current, start, number))
            current, start = opened, number
    found.append((current, start, len(lines)))
    return found


def _key_line(lines: list[str], start: int, end: int, name: str) -> tuple[int, int] | None:
    """The [first, last+1) lines of ``name = …`` between ``start`` and ``end``."""
    pattern = re.compile(rf"\s*(?:{re.escape(name)}|\"{re.escape(name)}\"|'{re.escape(name)}')\s*=")
    for number in range(start, end):
        if pattern.match(lines[number]):
            for last in range(number + 1, end + 1):
                try:
                    tomllib.loads("".join(lines[number:last]))
                    return number, last
                except tomllib.TOMLDecodeError:
                    continue
    return None


def _trailing_comment(line: str) -> str:
    """The ``# …`` after a one-line value, with the spaces before it ("" when there is none)."""
    for found in re.finditer("#", line):
        try:
            tomllib.loads(line[: found.start()])
        except tomllib.TOMLDecodeError:
            continue
        head = line[: found.start()]
        return line[len(head.rstrip()) :].rstrip("\n")
    return ""


def _last_key_line(lines: list[str], start: int, end: int) -> int:
    """Where a new key goes in a table: after its last line that is neither blank nor a comment
    (those at its end belong to the table after it)."""
    while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    return end


def set_keys(text: str, values: dict[Table, Any]) -> str:
    """``text`` with each ``(table…, key)`` of ``values`` set: a key's line replaced where it
    stands (its comment kept), a new key added at the end of its table, a new table at the
    end of the file. Raises NotEditable when the result would change anything else."""
    expected = tomllib.loads(text)
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    appended: dict[Table, list[str]] = {}
    for path, value in values.items():
        table, name = path[:-1], path[-1]
        line = f"{name} = {value_text(value)}"
        place = next(((start, end) for found, start, end in _sections(lines) if found == table), None)
        span = _key_line(lines, *place, name) if place else None
        if span is not None:
            comment = _trailing_comment(lines[span[0]]) if span[1] == span[0] + 1 else ""
            lines[span[0] : span[1]] = [line + comment + "\n"]
        elif place is not None:
            lines.insert(_last_key_line(lines, *place), line + "\n")
        else:
            appended.setdefault(table, []).append(line + "\n")
        node = expected
        for key in table:
            node = node.setdefault(key, {})
        node[name] = list(value) if isinstance(value, tuple) else value
    for table, added in appended.items():
        if lines and lines[-1].strip():
            lines.append("\n")
        lines += [f"[{'.'.join(table)}]\n", *added]
    new = "".join(lines)
    try:
        written = tomllib.loads(new)
    except tomllib.TOMLDecodeError:
        written = None
    if written != expected:
        raise NotEditable(", ".join(".".join(path) for path in values))
    return new


@dataclass(frozen=True)
class TableRead:
    """What ``read_tables`` made of a file: the keys it could read, and what it could not."""

    data: dict[str, Any]
    problems: tuple[str, ...]


def read_tables(text: str) -> TableRead:
    """Each table of ``text`` parsed on its own; a table given twice has its keys merged, a
    later key winning (the later one is what a person added last)."""
    lines = text.splitlines(keepends=True)
    data: dict[str, Any] = {}
    problems: list[str] = []
    for table, start, end in _sections(lines):
        chunk = "".join(lines[start:end])
        if not chunk.strip():
            continue
        try:
            parsed = tomllib.loads(chunk)
        except tomllib.TOMLDecodeError as exc:
            where = f"[{'.'.join(table)}]" if table else "before the first table"
            reason = _POSITION.sub("", str(exc))
            problems.append(f"lines {start + 1}-{end} ({where}): {reason}; ignored")
            continue
        _merge(data, parsed)
    return TableRead(data, tuple(problems))


def _merge(into: dict[str, Any], more: dict[str, Any]) -> None:
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value
