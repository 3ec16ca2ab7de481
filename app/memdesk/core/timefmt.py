"""Time in Memdesk: naive datetimes that mean UTC inside, ISO 8601 with ``Z`` outside."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import overload

from memdesk.errors import BadInputError


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None, microsecond=0)


@overload
def naive_utc(value: datetime) -> datetime: ...
@overload
def naive_utc(value: None) -> None: ...
def naive_utc(value: datetime | None) -> datetime | None:
    """The one door for times coming in: an aware time becomes naive UTC; naive means UTC already."""
    if value is None or value.tzinfo is None:
        return value
    try:
        return value.astimezone(UTC).replace(tzinfo=None)
    except OverflowError:
        raise BadInputError(f"time {value.isoformat()} is out of range") from None


def parse_iso(text: str, what: str = "time") -> datetime:
    """Parse ISO 8601; a time without a zone is UTC; a bare date is midnight UTC."""
    cleaned = text.strip()
    if cleaned.endswith(("Z", "z")):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        value = datetime.fromisoformat(cleaned)
    except ValueError:
        raise BadInputError(
            f"{what}: {text!r} is not an ISO 8601 date or time",
            "expected e.g. 2026-05-01 or 2026-05-01T09:30:00Z",
        ) from None
    return naive_utc(value)


# What a moment given from outside may be, as every channel says it.
MOMENT_FORMS = "ISO 8601 (2026-05-01 or 2026-05-01T09:30:00Z) or Unix seconds (1777624200)"
_UNIX_SECONDS = re.compile(r"^-?\d+(?:\.\d+)?$")


def parse_moment(value: object, what: str = "time") -> datetime:
    """A moment as every channel takes it: ISO 8601 text, or seconds since 1970 UTC as a number
    or as text of digits (a query string has only text)."""
    if isinstance(value, str) and _UNIX_SECONDS.match(value.strip()):
        value = float(value)
    if isinstance(value, str):
        try:
            return parse_iso(value, what)
        except BadInputError:
            raise BadInputError(
                f"{what}: {value!r} is neither ISO 8601 nor Unix seconds", MOMENT_FORMS
            ) from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadInputError(f"{what}: expected ISO 8601 or Unix seconds", MOMENT_FORMS)
    try:
        return datetime.fromtimestamp(value, UTC).replace(tzinfo=None)
    except (OverflowError, OSError, ValueError):
        raise BadInputError(f"{what}: {value!r} is not a usable Unix time") from None


def format_iso(value: datetime) -> str:
    return value.isoformat(timespec="seconds") + "Z"


def format_day(value: datetime) -> str:
    return value.strftime("%Y-%m-%d")


def format_minute(value: datetime) -> str:
    return value.strftime("%Y-%m-%d %H:%M")


def days(count: float) -> timedelta:
    return timedelta(days=count)
