"""A growing JSONL file read from an offset, one complete line at a time, in bounded memory.

A last line without its newline is still being written: reading stops before it, so the
offset stays there until it is whole. A line over ``MAX_LINE_BYTES`` is skipped without
being held in memory, and so is a line that is not UTF-8 or not a JSON object; each is
reported by its line's byte offset.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

MAX_LINE_BYTES = 16 * 1024 * 1024
FINGERPRINT_BYTES = 4096
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class Line:
    start: int
    end: int  # the offset after its newline
    record: dict | None  # None: skipped, ``problem`` says why
    problem: str = ""


def fingerprint(handle: BinaryIO) -> str | None:
    """A hash of the file's first line (its first 4 KiB), or None while that line is unfinished."""
    handle.seek(0)
    head = handle.readline(FINGERPRINT_BYTES)
    if not head or (not head.endswith(b"\n") and len(head) < FINGERPRINT_BYTES):
        return None
    return hashlib.sha256(head).hexdigest()[:32]


def read_lines(handle: BinaryIO, start: int) -> Iterator[Line]:
    handle.seek(start)
    position = start
    while True:
        raw = handle.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        if not raw.endswith(b"\n"):
            if len(raw) <= MAX_LINE_BYTES:
                return  # the last line, still being written
            length = _skip_rest(handle, len(raw))
            if length is None:
                return
            yield Line(position, position + length, None, f"over {MAX_LINE_BYTES // (1024 * 1024)} MB")
            position += length
            continue
        end = position + len(raw)
        yield _parse(raw, position, end)
        position = end


def _skip_rest(handle: BinaryIO, length: int) -> int | None:
    """Read past the rest of an over-long line; its whole length, or None if it is unfinished."""
    while True:
        chunk = handle.readline(_CHUNK)
        if not chunk:
            return None
        length += len(chunk)
        if chunk.endswith(b"\n"):
            return length


def _parse(raw: bytes, start: int, end: int) -> Line:
    if not raw.strip():
        return Line(start, end, None)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Line(start, end, None, "not valid UTF-8")
    try:
        value = json.loads(text)
    except ValueError:
        return Line(start, end, None, "not valid JSON")
    if not isinstance(value, dict):
        return Line(start, end, None, "not a JSON object")
    return Line(start, end, value)
