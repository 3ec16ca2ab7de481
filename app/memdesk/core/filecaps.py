"""Pure text logic for MEMORY.md files: capping an index, and finding its entries.

Capping keeps the first N lines or B bytes, whichever comes first. The cut is made on the
raw bytes at a line boundary. A newline byte never occurs inside a UTF-8 multibyte
sequence, so a character is never split; a line that would cross the byte cap is left out
whole.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class CappedIndex:
    """The part of an index that is injected, and how much of the file that is."""

    text: str
    injected_bytes: int
    total_bytes: int
    injected_lines: int
    total_lines: int
    valid_utf8: bool

    @property
    def truncated(self) -> bool:
        return self.injected_bytes < self.total_bytes


def cap_index(data: bytes, max_lines: int, max_bytes: int) -> CappedIndex:
    """Keep whole lines from the start while both caps hold.

    Invalid UTF-8 is decoded with U+FFFD replacement characters and flagged, so a damaged
    file still shows what it can instead of failing.
    """
    lines = io.BytesIO(data).readlines()  # splits on b"\n" only, keeping the newline
    kept = 0
    size = 0
    for line in lines:
        if kept == max_lines or size + len(line) > max_bytes:
            break
        kept += 1
        size += len(line)
    try:
        data.decode("utf-8")
        valid = True
    except UnicodeDecodeError:
        valid = False
    return CappedIndex(
        text=data[:size].decode("utf-8", errors="replace"),
        injected_bytes=size,
        total_bytes=len(data),
        injected_lines=kept,
        total_lines=len(lines),
        valid_utf8=valid,
    )


# --- entries: the units a person archives or restores -----------------------------------

_SECTION = re.compile(r"##[ \t]+\S")
_TOP_HEADING = re.compile(r"#{1,2}[ \t]")  # a level-1 or level-2 heading ends a section
_BULLET = re.compile(r"([-*+]|\d+[.)])[ \t]+\S")
_FENCE = re.compile(r"```|~~~")


@dataclass(frozen=True)
class MemoryEntry:
    """A ``##`` section (its heading up to the next level-1 or level-2 heading) or a top-level
    bullet with its indented continuation lines. Lines carry no newline; trailing blank lines
    are not part of an entry.
    """

    kind: str  # "section" or "bullet"
    start: int  # index of the first line in the file
    lines: tuple[str, ...]

    @property
    def title(self) -> str:
        return self.lines[0].rstrip("\r")

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip("\r") for line in self.lines)


def _blank(line: str) -> bool:
    return not line.strip()


def parse_entries(text: str) -> tuple[MemoryEntry, ...]:
    """Sections and bullets in document order; a section comes before the bullets inside it.

    Lines inside fenced code blocks are content, never headings or bullets.
    """
    lines = text.split("\n")
    in_fence = []
    fenced = False
    for line in lines:
        is_fence = bool(_FENCE.match(line))
        fenced ^= is_fence
        in_fence.append(fenced or is_fence)
    entries = []
    for i, line in enumerate(lines):
        if in_fence[i]:
            continue
        if _SECTION.match(line):
            end = i + 1
            while end < len(lines) and (in_fence[end] or not _TOP_HEADING.match(lines[end])):
                end += 1
            entries.append(_entry("section", lines, i, end))
        elif _BULLET.match(line):
            end = i + 1
            while end < len(lines) and not _blank(lines[end]) and lines[end][0] in " \t":
                end += 1
            entries.append(_entry("bullet", lines, i, end))
    return tuple(entries)


def _entry(kind: str, lines: list[str], start: int, end: int) -> MemoryEntry:
    while end > start + 1 and _blank(lines[end - 1]):
        end -= 1
    return MemoryEntry(kind, start, tuple(lines[start:end]))


def find_entry(text: str, entry: MemoryEntry) -> MemoryEntry | None:
    """The entry with the same kind and lines, preferring the one still at the same place.

    Matching on content means a file edited since it was listed never loses the wrong lines.
    """
    matches = [e for e in parse_entries(text) if (e.kind, e.lines) == (entry.kind, entry.lines)]
    return next((e for e in matches if e.start == entry.start), matches[0] if matches else None)


def remove_entry(text: str, entry: MemoryEntry) -> str:
    """The text without ``entry`` (as found by ``find_entry`` in this same text)."""
    lines = text.split("\n")
    start, end = entry.start, entry.start + len(entry.lines)
    if entry.kind == "section":  # the blank lines after a section go with it
        while end < len(lines) - 1 and _blank(lines[end]):
            end += 1
    if all(_blank(line) for line in lines[end:]):  # the last entry: leave no blank tail
        while start > 0 and _blank(lines[start - 1]):
            start -= 1
    del lines[start:end]
    return "\n".join(lines)


def append_entry(text: str, entry: MemoryEntry) -> str:
    """``text`` with ``entry`` added at the end; a section gets a blank line before it."""
    body = "\n".join(entry.lines) + "\n"
    if not text:
        return body
    if not text.endswith("\n"):
        text += "\n"
    if entry.kind == "section" and not text.endswith("\n\n"):
        text += "\n"
    return text + body
