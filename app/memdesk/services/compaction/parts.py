"""A session's new messages cut into parts, each one a timeline entry recall can rank.

A part ends where the conversation paused (a new sitting) or when it has grown long enough
to hold several topics; a single long entry would make recall return all or nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

PAUSE = timedelta(minutes=30)
PART_MAX_CHARS = 6000  # about 1,500 tokens of conversation per timeline entry
# With a model each extra part is one more summary call, so a very long session gets
# bigger parts rather than more of them.
MAX_PARTS = 12  # about: parts are at least a twelfth of the session, so one more can happen


class Timed(Protocol):
    @property
    def content(self) -> str: ...

    @property
    def at(self) -> datetime: ...


def split_parts(messages: Sequence[Timed]) -> list[tuple[int, int]]:
    """``[start, end)`` index ranges covering ``messages`` in order, none of them empty."""
    parts: list[tuple[int, int]] = []
    limit = max(PART_MAX_CHARS, sum(len(m.content) for m in messages) // MAX_PARTS + 1)
    start, size = 0, 0
    for index, message in enumerate(messages):
        if index > start:
            paused = message.at - messages[index - 1].at >= PAUSE
            if paused or size + len(message.content) > limit:
                parts.append((start, index))
                start, size = index, 0
        size += len(message.content)
    if messages:
        parts.append((start, len(messages)))
    return parts
