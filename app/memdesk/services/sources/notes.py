"""What a transcript record becomes: a message to log, or a short note of a tool call.

A tool call and its result are one note — the tool, its key argument and the first line
of the result — so compaction sees what was done without the output. File contents
(what a read or write tool carried) are never kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memdesk.core.timefmt import parse_iso
from memdesk.errors import BadInputError

ARGUMENT_CHARS = 120
RESULT_CHARS = 160
MAX_PENDING = 200
# Tools whose result is a file's text (or whose argument is): only the path is kept.
FILE_TOOLS = frozenset(
    {
        "read",
        "write",
        "edit",
        "multiedit",
        "notebookedit",
        "notebookread",
        "read_file",
        "write_file",
        "apply_patch",
        "view_image",
    }
)
# The argument that says what a call did, in the order looked for.
KEY_ARGUMENTS = (
    "command",
    "cmd",
    "file_path",
    "path",
    "notebook_path",
    "pattern",
    "url",
    "query",
    "description",
    "prompt",
    "skill",
    "name",
)
_PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)
_EPOCH_MS = 10**11


@dataclass(frozen=True)
class Note:
    role: str  # user or assistant
    text: str
    at: datetime | None  # naive UTC


def record_time(stamp: object) -> datetime | None:
    """A record's time (ISO text or Unix seconds/milliseconds) as naive UTC; None when absent or bad."""
    if isinstance(stamp, str) and stamp:
        try:
            return parse_iso(stamp)
        except BadInputError:
            return None
    if isinstance(stamp, int | float) and not isinstance(stamp, bool):
        try:
            return datetime.fromtimestamp(stamp / 1000 if stamp > _EPOCH_MS else stamp, UTC).replace(
                tzinfo=None
            )
        except (OverflowError, OSError, ValueError):
            return None
    return None


def one_line(text: str, limit: int) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def key_argument(arguments: object) -> str:
    """The one argument that says what a call did (a command, a path, a pattern…)."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            patched = _PATCH_FILE.search(arguments)  # a raw patch: its first file, never its text
            return patched.group(1).strip() if patched else ""
    if isinstance(arguments, list):  # Codex's ["bash", "-lc", "ls"]
        return one_line(str(arguments[-1]), ARGUMENT_CHARS) if arguments else ""
    if not isinstance(arguments, dict):
        return ""
    for name in KEY_ARGUMENTS:
        value = arguments.get(name)
        if isinstance(value, list) and value:
            value = value[-1]
        if isinstance(value, str) and value.strip():
            return one_line(value, ARGUMENT_CHARS)
    if isinstance(arguments.get("input"), str):
        return key_argument(arguments["input"])
    return ""


def text_of(content: object) -> str:
    """The text of a result or message: a string, or the text parts of a list."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""


class ToolCalls:
    """Tool calls waiting for their result; kept between reads of a growing file."""

    def __init__(self, pending: dict[str, list[str]] | None = None) -> None:
        self.pending: dict[str, list[str]] = dict(pending or {})

    def called(self, call_id: object, name: object, arguments: object) -> None:
        if isinstance(call_id, str) and call_id:
            self.pending[call_id] = [str(name or "tool"), key_argument(arguments)]
            if len(self.pending) > MAX_PENDING:  # calls interrupted before their result: forget the oldest
                del self.pending[next(iter(self.pending))]

    def answered(self, call_id: object, result: object, at: datetime | None, failed: bool = False) -> Note:
        name, argument = self.pending.pop(str(call_id), ["tool", ""])
        text = f"Tool {name}" + (f": {argument}" if argument else "")
        outcome = "" if name.lower() in FILE_TOOLS else one_line(text_of(result), RESULT_CHARS)
        if failed:
            text += " — failed" + (f": {outcome}" if outcome else "")
        elif outcome:
            text += f" — {outcome}"
        return Note("assistant", text, at)

    def unanswered(self) -> list[Note]:
        """Calls whose result never came (the file ended): a note each, without a result."""
        notes = [
            Note("assistant", f"Tool {name}" + (f": {arg}" if arg else ""), None)
            for name, arg in self.pending.values()
        ]
        self.pending.clear()
        return notes


def clean(note: Note, max_chars: int) -> Note | None:
    """The note as a message can hold it: no NUL characters, at most ``max_chars``; None if empty."""
    text = note.text.replace("\x00", "").strip()[:max_chars]
    return Note(note.role, text, note.at) if text else None


def dump_pending(calls: ToolCalls) -> str:
    return json.dumps(calls.pending, ensure_ascii=False)


def load_pending(raw: str) -> dict[str, list[str]]:
    try:
        value: Any = json.loads(raw or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
