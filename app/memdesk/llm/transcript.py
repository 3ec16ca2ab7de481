"""The plain-text transcript form every step reads: ``role: text`` blocks, oldest first."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from memdesk.core.dates import annotate as annotate_dates

ROLES = ("user", "assistant", "system", "tool")
_ROLE_LINE = re.compile(r"^(" + "|".join(ROLES) + r")\s*:\s?", re.IGNORECASE)


def format_transcript(messages: Iterable[tuple[str, str]]) -> str:
    """``(role, content)`` pairs as ``role: content`` blocks separated by blank lines."""
    return "\n\n".join(f"{role}: {content.strip()}" for role, content in messages)


def split_turns(transcript: str) -> list[tuple[str, str]]:
    """The ``(role, text)`` turns of a transcript.

    A line starting with a known role and a colon opens a turn; other lines continue the
    current one. Text before the first role line counts as the user's (pasted notes).
    """
    turns: list[tuple[str, str]] = []
    role, lines = "user", []
    for line in transcript.splitlines():
        match = _ROLE_LINE.match(line)
        if match:
            if any(part.strip() for part in lines):
                turns.append((role, "\n".join(lines).strip()))
            role, lines = match.group(1).lower(), [line[match.end() :]]
        else:
            lines.append(line)
    if any(part.strip() for part in lines):
        turns.append((role, "\n".join(lines).strip()))
    return turns


def dated_turns(messages: Iterable[tuple[str, str, datetime]]) -> list[tuple[str, str]]:
    """``(role, content, time)`` as ``(role, content)`` with relative dates made absolute.

    "last Saturday" in a message of 2023-05-08 reads "last Saturday (6 May 2023)", so every
    backend, with a model or without, sees the dates the words meant when they were written.
    """
    return [(role, annotate_dates(content, at)) for role, content, at in messages]


def dated_transcript(messages: Iterable[tuple[str, str, datetime]]) -> str:
    """The transcript of ``dated_turns``."""
    return format_transcript(dated_turns(messages))
