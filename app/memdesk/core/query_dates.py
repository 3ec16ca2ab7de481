"""Dates named in a question (``in May 2023``, ``on 8 May, 2023``, ``last week``, ``yesterday``)
as a time window, so recall can prefer what was written then.

The window only boosts; it never filters (explicit ``since``/``until`` do that). The words of
the date itself are taken out of the question, so ``8`` or ``2023`` do not match as text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
_MONTH = "(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d\d)"
# Most specific first; each names the parts it has.
_PATTERNS = [
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        rf"\b(?P<iso>{_YEAR}-(?P<m>\d\d)-(?P<d>\d\d))\b",
        rf"\b{_DAY}\s*(?:of\s+)?{_MONTH},?\s*{_YEAR}\b",
        rf"\b{_MONTH}\s+{_DAY},?\s*{_YEAR}\b",
        rf"\b{_MONTH},?\s+{_YEAR}\b",
        rf"\b{_DAY}\s+(?:of\s+)?{_MONTH}\b",
        rf"\b{_MONTH}\s+{_DAY}\b(?!:)",
        rf"\b(?:in|during|since)\s+{_MONTH}\b",
        rf"\b{_YEAR}\b",
    )
]
_RELATIVE = re.compile(
    r"\b(?P<what>yesterday|today|tonight|(?P<which>last|this|past)\s+(?P<unit>week|month|year|weekend)"
    r"|(?P<count>\d{1,3}|a|an|one|two|three|few)\s+(?P<ago>days?|weeks?|months?|years?)\s+ago)\b",
    re.IGNORECASE,
)
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "few": 3}
_UNIT_DAYS = {"day": 1, "week": 7, "weekend": 7, "month": 31, "year": 366}
# A day named in a conversation is often the day it was talked about, give or take one.
DAY_SLACK = timedelta(days=1)


@dataclass(frozen=True)
class TimeWindow:
    start: datetime
    end: datetime  # exclusive

    def contains(self, moment: datetime | None) -> bool:
        return moment is not None and self.start <= moment < self.end


@dataclass(frozen=True)
class DatedQuery:
    text: str  # the question without the date's words
    window: TimeWindow | None


def _month_window(year: int, month: int) -> TimeWindow:
    start = datetime(year, month, 1)
    end = datetime(year + month // 12, month % 12 + 1, 1)
    return TimeWindow(start, end)


def _day_window(day: datetime) -> TimeWindow:
    return TimeWindow(day - DAY_SLACK, day + timedelta(days=1) + DAY_SLACK)


def _absolute(match: re.Match[str], now: datetime) -> TimeWindow | None:
    parts = match.groupdict()
    try:
        if parts.get("iso"):
            return _day_window(datetime(int(parts["year"]), int(parts["m"]), int(parts["d"])))
        year = int(parts["year"]) if parts.get("year") else None
        month = _MONTHS[parts["month"].lower()] if parts.get("month") else None
        if month is None:
            return TimeWindow(datetime(year, 1, 1), datetime(year + 1, 1, 1)) if year else None
        if year is None:  # "8 May": the last such day up to now
            year = now.year if datetime(now.year, month, 1) <= now else now.year - 1
        if parts.get("day"):
            return _day_window(datetime(year, month, int(parts["day"])))
        return _month_window(year, month)
    except ValueError:  # 31 February and the like: not a date
        return None


def _relative(match: re.Match[str], now: datetime) -> TimeWindow:
    today = datetime(now.year, now.month, now.day)
    what = match["what"].lower()
    if what == "yesterday":
        return _day_window(today - timedelta(days=1))
    if what in ("today", "tonight"):
        return _day_window(today)
    if match["unit"]:
        days = _UNIT_DAYS[match["unit"].lower()]
        # Written about it then, or since: up to today (and the day after, for slack).
        back = days if match["which"].lower() == "this" else 2 * days
        return TimeWindow(today - timedelta(days=back), today + timedelta(days=1) + DAY_SLACK)
    count = match["count"].lower()
    number = _COUNTS[count] if count in _COUNTS else int(count)
    days = _UNIT_DAYS[match["ago"].lower().rstrip("s")] * number
    centre = today - timedelta(days=days)
    half = timedelta(days=max(days // 4, 1))
    return TimeWindow(centre - half, centre + half + timedelta(days=1))


def _first_absolute(question: str, now: datetime) -> tuple[re.Match[str], TimeWindow] | None:
    for pattern in _PATTERNS:
        for match in pattern.finditer(question):
            if match.groupdict().get("month") == "may" and not match.groupdict().get("year"):
                continue  # lower-case "may" without a year is the verb
            window = _absolute(match, now)
            if window is not None:
                return match, window
    return None


def _cut(question: str, match: re.Match[str]) -> str:
    return question[: match.start()] + " " + question[match.end() :]


def find_date(question: str, now: datetime) -> DatedQuery:
    """The date the question names, as a window, and the question without it.

    A relative date next to an absolute one (``last week, as of 6 November 2023``) counts
    from the absolute one; otherwise from ``now``.
    """
    absolute = _first_absolute(question, now)
    if absolute is not None:
        match, window = absolute
        question = _cut(question, match)
        relative = _RELATIVE.search(question)
        if relative is None:
            return DatedQuery(question, window)
        return DatedQuery(_cut(question, relative), _relative(relative, window.start + DAY_SLACK))
    relative = _RELATIVE.search(question)
    if relative is not None:
        return DatedQuery(_cut(question, relative), _relative(relative, now))
    return DatedQuery(question, None)
