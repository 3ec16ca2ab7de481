"""How times, sizes and counts read on screen (stored times are naive UTC; people see local time)."""

from __future__ import annotations

from datetime import UTC, datetime

# Counts read the same on screen as on the command line.
from memdesk.core.plural import plural as plural


def local(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC).astimezone()


def when(value: datetime | None) -> str:
    """``2026-03-01 13:00`` in local time; empty for no time."""
    return local(value).strftime("%Y-%m-%d %H:%M") if value else ""


def day(value: datetime | None) -> str:
    return local(value).strftime("%Y-%m-%d") if value else ""


def in_days(target: datetime, now: datetime) -> str:
    """``in 3 days``, ``in 5 hours``, ``2 days ago``: a rough distance for people."""
    seconds = (target - now).total_seconds()
    ahead = seconds >= 0
    seconds = abs(seconds)
    if seconds < 3600:
        amount, unit = max(1, round(seconds / 60)), "minute"
    elif seconds < 2 * 86400:
        amount, unit = round(seconds / 3600), "hour"
    else:
        amount, unit = round(seconds / 86400), "day"
    phrase = f"{amount} {unit}{'' if amount == 1 else 's'}"
    return f"in {phrase}" if ahead else f"{phrase} ago"


def size(count: int) -> str:
    """Bytes for people: ``812 B``, ``4.2 KB``, ``1.3 MB``."""
    if count < 1024:
        return f"{count} B"
    if count < 1024 * 1024:
        return f"{count / 1024:.1f} KB"
    return f"{count / (1024 * 1024):.1f} MB"


def duration(milliseconds: int) -> str:
    return f"{milliseconds:,} ms" if milliseconds < 1000 else f"{milliseconds / 1000:.1f} s"


def tokens(count: int, estimated: bool = False) -> str:
    """``≈1,200`` when the count was estimated from the text (the backend gave none)."""
    return f"{'≈' if estimated else ''}{count:,}"


def one_line(text: str, limit: int = 160) -> str:
    """Text squeezed onto one line, cut with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def document_title(namespace: str) -> str:
    if namespace == "global":
        return "Global notes"
    if namespace.startswith("sessions/"):
        return f"Session notes · {namespace.removeprefix('sessions/')}"
    return namespace.rsplit("/", 1)[-1].capitalize()
