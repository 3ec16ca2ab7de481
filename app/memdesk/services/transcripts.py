"""Conversation transcripts from files, for compaction: three formats, detected from the text.

- JSONL of ``{"role", "content", "timestamp"?}`` objects (content may also be a list of
  ``{"type": "text", "text"}`` parts);
- a pi session file: JSONL of typed events, where ``{"type": "message", "message": {...}}``
  carries a message (tool calls, tool results and other events are skipped);
- a Claude Code transcript or a Codex CLI rollout file, read as ``memdesk sources`` reads
  them (tool calls become short notes; other records are skipped);
- plain text: ``role: text`` lines; lines that do not start with a role continue the
  message before them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdesk.core.namespaces import check_session_id
from memdesk.core.records import ROLES
from memdesk.core.timefmt import parse_iso
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.context import MAX_DOCUMENT_CHARS

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
# Roles that carry tool traffic rather than conversation: left out, not an error.
SKIPPED_ROLES = ("tool", "function", "toolresult", "tool_result")
_ROLE_LINE = re.compile(r"^(user|assistant|system)\s*:\s?(.*)$", re.IGNORECASE)
_EPOCH_MS = 10**11  # numbers above this are milliseconds since 1970, below it seconds
_CLAUDE_CODE_TYPES = frozenset(
    {"user", "assistant", "system", "summary", "attachment", "queue-operation", "file-history-snapshot",
     "last-prompt", "cost-state"}
)
_CODEX_TYPES = frozenset({"session_meta", "response_item", "event_msg", "turn_context", "compacted"})


@dataclass(frozen=True)
class TranscriptMessage:
    role: str
    content: str
    at: datetime | None  # None when the file gives no time; an aware time is converted to UTC


@dataclass(frozen=True)
class Transcript:
    name: str  # the file's stem, for the default session id
    format: str  # "jsonl", "pi", "claude-code", "codex" or "text"
    messages: tuple[TranscriptMessage, ...]


def read_transcript(path: Path) -> Transcript:
    """Read and parse a transcript file; BadInputError says what is wrong and where."""
    try:
        with path.expanduser().open("rb") as handle:
            raw = handle.read(MAX_TRANSCRIPT_BYTES + 1)
    except OSError as exc:
        raise BadInputError(f"transcript {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_TRANSCRIPT_BYTES:
        raise BadInputError(f"transcript {path} is over {MAX_TRANSCRIPT_BYTES // (1024 * 1024)} MB")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise BadInputError(
            f"transcript {path} is not valid UTF-8 text (line {line}, byte {exc.start})",
            "save it as UTF-8 and try again",
        ) from None
    return parse_transcript(text, path.stem, where=str(path))


def parse_transcript(text: str, name: str = "transcript", where: str = "transcript") -> Transcript:
    lines = text.splitlines()
    first = next((line.strip() for line in lines if line.strip()), "")
    if not first:
        raise BadInputError(f"{where} is empty")
    if first.startswith("{"):
        events = list(_json_lines(lines, where))
        head = events[0][1]
        assistant = _assistant_format(head)
        if assistant is not None:
            fmt, messages = assistant, _assistant(assistant, events)
        elif "type" in head and "role" not in head:
            fmt, messages = "pi", _pi(events, where)
        else:
            fmt, messages = "jsonl", _jsonl(events, where)
    else:
        fmt, messages = "text", _plain(lines, where)
    if not messages:
        raise BadInputError(f"{where} holds no user or assistant messages")
    return Transcript(name, fmt, tuple(messages))


def _json_lines(lines: list[str], where: str) -> list[tuple[int, dict[str, Any]]]:
    objects = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            raise BadInputError(f"{where} line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise BadInputError(f"{where} line {number}: expected a JSON object, not {type(value).__name__}")
        objects.append((number, value))
    return objects


def _assistant_format(head: dict[str, Any]) -> str | None:
    """``claude-code`` or ``codex`` when the first record is one of theirs."""
    if "sessionId" in head or "parentUuid" in head or head.get("type") in _CLAUDE_CODE_TYPES:
        return "claude-code"
    if head.get("type") in _CODEX_TYPES and "payload" in head:
        return "codex"
    return None


def _assistant(name: str, events: list[tuple[int, dict[str, Any]]]) -> list[TranscriptMessage]:
    from memdesk.services.sources.catalog import BY_NAME
    from memdesk.services.sources.notes import ToolCalls, clean

    calls = ToolCalls()
    reader = BY_NAME[name].reader(calls)
    notes = [note for _number, event in events for note in reader.read(event)] + calls.unanswered()
    kept = [clean(note, MAX_DOCUMENT_CHARS) for note in notes]
    return [TranscriptMessage(note.role, note.text, note.at) for note in kept if note is not None]


def _jsonl(events: list[tuple[int, dict[str, Any]]], where: str) -> list[TranscriptMessage]:
    messages = []
    for number, event in events:
        if "role" not in event or "content" not in event:
            raise BadInputError(
                f'{where} line {number}: expected an object with "role" and "content"',
                'e.g. {"role": "user", "content": "hello", "timestamp": "2026-05-01T09:30:00Z"}',
            )
        message = _message(event["role"], event["content"], event.get("timestamp"), number, where)
        if message is not None:
            messages.append(message)
    return messages


def _pi(events: list[tuple[int, dict[str, Any]]], where: str) -> list[TranscriptMessage]:
    messages = []
    for number, event in events:
        if event.get("type") != "message":
            continue  # session header, model changes, compactions, labels...
        body = event.get("message")
        if not isinstance(body, dict) or "role" not in body:
            raise BadInputError(f"{where} line {number}: a message event without a message object")
        stamp = event.get("timestamp", body.get("timestamp"))
        role = str(body["role"]).lower()
        if role not in ROLES:
            continue  # tool results, bash executions, extension messages
        message = _message(role, body.get("content", ""), stamp, number, where)
        if message is not None:
            messages.append(message)
    return messages


def _message(
    role: object, content: object, stamp: object, number: int, where: str
) -> TranscriptMessage | None:
    """One message, or None for tool traffic and messages with no text (a tool call alone)."""
    name = str(role).lower()
    if name in SKIPPED_ROLES:
        return None
    if name not in ROLES:
        raise BadInputError(
            f"{where} line {number}: unknown role {role!r}", "expected user, assistant or system"
        )
    text = _text(content, number, where).strip()
    if not text:
        return None
    if len(text) > MAX_DOCUMENT_CHARS:
        raise BadInputError(
            f"{where} line {number}: the message has {len(text):,} characters; "
            f"the limit is {MAX_DOCUMENT_CHARS:,}"
        )
    return TranscriptMessage(name, text, _time(stamp, number, where))


def _text(content: object, number: int, where: str) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        # Only text parts: tool calls, images and thinking are not conversation to remember.
        return "\n".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str)
        )
    raise BadInputError(f"{where} line {number}: content must be text or a list of text parts")


def _time(stamp: object, number: int, where: str) -> datetime | None:
    if stamp is None or stamp == "":
        return None
    if isinstance(stamp, int | float) and not isinstance(stamp, bool):
        seconds = stamp / 1000 if stamp > _EPOCH_MS else stamp
        try:
            return datetime.fromtimestamp(seconds, UTC).replace(tzinfo=None)
        except (OverflowError, OSError, ValueError):
            raise BadInputError(f"{where} line {number}: timestamp {stamp!r} is out of range") from None
    if isinstance(stamp, str):
        try:
            return parse_iso(stamp)
        except BadInputError:
            raise BadInputError(
                f"{where} line {number}: timestamp {stamp!r} is not an ISO 8601 time",
                "expected e.g. 2026-05-01T09:30:00Z",
            ) from None
    raise BadInputError(f"{where} line {number}: timestamp {stamp!r} is not a time")


def _plain(lines: list[str], where: str) -> list[TranscriptMessage]:
    messages: list[TranscriptMessage] = []
    role: str | None = None
    body: list[str] = []

    def close() -> None:
        text = "\n".join(body).strip()
        if role is not None and text:
            messages.append(TranscriptMessage(role, text, None))

    for number, line in enumerate(lines, 1):
        match = _ROLE_LINE.match(line)
        if match:
            close()
            role, body = match.group(1).lower(), [match.group(2)]
        elif role is None:
            if line.strip():
                raise BadInputError(
                    f"{where} line {number}: expected a line starting with user:, assistant: or system:",
                    "plain transcripts are `role: text` lines; other lines continue the message above",
                )
        else:
            body.append(line)
    close()
    return messages


class Transcripts:
    """Conversation files brought into sessions, for compaction to read."""

    def __init__(self, app: Memdesk) -> None:
        self.app = app

    def default_session_id(self, name: str) -> str:
        """``import:<name>``, numbered when that session exists, so imports never mix."""
        stem = re.sub(r"\s+", "-", name.strip())[:180] or "transcript"
        candidate, number = f"import:{stem}", 1
        while self._exists(candidate):
            number += 1
            candidate = f"import:{stem}-{number}"
        return candidate

    def _exists(self, session_id: str) -> bool:
        try:
            self.app.sessions.get(session_id)
        except NotFoundError:
            return False
        return True

    def import_messages(self, transcript: Transcript, session_id: str | None = None) -> str:
        """Log the transcript's messages into a session (one history step); returns its id."""
        target = check_session_id(session_id) if session_id else self.default_session_id(transcript.name)
        now = self.app.now()
        count = len(transcript.messages)
        with self.app.ctx.change(f"Import {count} messages from {transcript.name} into {target}"):
            for message in transcript.messages:
                self.app.sessions.log(target, message.role, message.content, at=message.at or now)
        return target
