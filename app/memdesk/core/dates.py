"""Relative dates ("last Saturday", "two weeks ago", "next month") made absolute.

A message's relative dates only make sense next to the time it was written. Memory keeps
text for months, so before compaction each relative date is followed by the date it
means, worked out from the message's own time: "last Saturday" in a message of Monday
2023-05-08 becomes "last Saturday (6 May 2023)". Pure functions, no I/O.

Rules (weeks run Monday to Sunday):
- yesterday / today / tonight / tomorrow, "last night", "this morning", "the day before
  yesterday", "the day after tomorrow": that day.
- "last Saturday": the latest Saturday before the message's day; "this Saturday" and
  "next Saturday": the first Saturday after it (or that day, for "this").
- "N days/weeks/months/years ago", "in N days/weeks/…": that many back or ahead; weeks and
  months are given as "the week of …" / the month, years as the year.
- "last/this/next week|weekend|month|year": that week (by its Monday), weekend (by its
  Saturday), month or year.
Vague amounts ("a few days ago", "recently") are left as they are, and so is the moment of
speaking onwards ("from now on", "henceforth"), which ``names_now`` reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
WEEKDAY_NAMES = (  # a weekday as written: "thu", "thurs", "thursday", "weds"
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:s|nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|"
    r"sat(?:urday)?|sun(?:day)?)"
)
MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
NUMBER_WORDS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "a couple of": 2,
    "couple of": 2,
}
_AMOUNT = (
    r"(?P<n>\d{1,3}|a couple of|couple of|an?|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)"
)
_UNIT = r"(?P<unit>day|week|month|year)s?"
_DAY_WORDS = {
    "the day before yesterday": -2,
    "the day after tomorrow": 2,
    "yesterday": -1,
    "last night": -1,
    "today": 0,
    "tonight": 0,
    "this morning": 0,
    "this afternoon": 0,
    "this evening": 0,
    "tomorrow": 1,
}
# Written in lower case and run on lowercased text (several times faster than IGNORECASE).
_SOURCE = (
    r"\b(?:"
    r"(?P<day>the day before yesterday|the day after tomorrow|yesterday|last night|today|tonight|"
    r"this (?:morning|afternoon|evening)|tomorrow)"
    r"|(?P<which>last|this|next|this coming|this past) (?P<weekday>" + WEEKDAY_NAMES + r")"
    r"|(?P<which2>last|this|next|this coming|this past) (?P<span>week|weekend|month|year)"
    r"|" + _AMOUNT + r" " + _UNIT + r" (?P<ago>ago|back|earlier)"
    r"|in "
    + _AMOUNT.replace("?P<n>", "?P<n2>")
    + r" "
    + _UNIT.replace("?P<unit>", "?P<unit2>")
    + r"(?: time)?"
    r")\b"
)
_PATTERN = re.compile(_SOURCE + r"(?! ?\()")  # not again when a date in brackets already follows
# The moment of speaking onwards: it names no other day, so ``annotate`` leaves it as it is.
# The date ``annotate`` writes after a relative one ("last month (February 2026)"), with the
# space before it: not the person's words.
WRITTEN_DATE = re.compile(r" ?\((?:the (?:week|weekend) of )?(?:\d{1,2} )?(?:[A-Z][a-z]+ )?\d{4}\)")
_ONWARDS = re.compile(
    r"\b(?:from (?:now|here|this (?:day|moment|point)) (?:on(?: out)?|onwards?|forward)|henceforth|"
    r"hereafter|as of now|starting now|going forward)\b"
)
_SPAN_DAYS = {"day": 1, "week": 7, "weekend": 2}
_FROM_NOW = re.compile(r"\bfrom now\b")
_SPAN_BEFORE = re.compile(rf"\b{_UNIT}\s+$")
_ONSET = re.compile(r"\b(?:from|as of|starting|beginning|effective)\s+$", re.IGNORECASE)
# Any day will do to compare a relative date with the day it is said: each is relative to it.
_SPOKEN = date(2001, 1, 10)
_PATTERN_ANY_CASE = re.compile(_PATTERN.pattern, re.IGNORECASE)
_READ = re.compile(_SOURCE, re.IGNORECASE)  # dated already or not  # for text whose length lower() changes


@dataclass(frozen=True)
class Resolved:
    """What a relative phrase means: a day, or a longer span named by its first day."""

    start: date
    span: str  # "day", "week", "weekend", "month" or "year"

    def __str__(self) -> str:
        if self.span == "day":
            return format_date(self.start)
        if self.span == "week":
            return f"the week of {format_date(self.start)}"
        if self.span == "weekend":
            return f"the weekend of {format_date(self.start)}"
        if self.span == "month":
            return f"{MONTHS[self.start.month - 1]} {self.start.year}"
        return str(self.start.year)


def format_date(day: date) -> str:
    """``6 May 2023``: unambiguous in every locale, and searchable by its words."""
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def resolve(phrase: str, at: datetime | date) -> Resolved | None:
    """The absolute date a relative ``phrase`` means when written at ``at``; None if it is not one."""
    match = _PATTERN.fullmatch(phrase.strip().lower())
    return _resolve(match, _day(at)) if match else None


def annotate(text: str, at: datetime | date) -> str:
    """``text`` with each relative date followed by the absolute one in brackets."""
    today = _day(at)
    lower = text.lower()
    # A few letters lowercase to two characters; positions would then no longer line up.
    same_length = len(lower) == len(text)
    matches = _PATTERN.finditer(lower) if same_length else _PATTERN_ANY_CASE.finditer(text)
    pieces: list[str] = []
    done = 0
    for match in matches:
        resolved = _resolve(match, today)
        if resolved:
            pieces += [text[done : match.end()], f" ({resolved})"]
            done = match.end()
    return "".join(pieces) + text[done:] if pieces else text


def without_dates(text: str) -> str:
    """``text`` with its relative dates and the dates written after them blanked: "from this
    month (March 2026) 450 manat" says when, and names no thing a "month" may be of."""
    return _READ.sub(" ", WRITTEN_DATE.sub(" ", text))


def names_now(text: str) -> bool:
    """Whether ``text`` places what it says from the moment it is said on: "from now on",
    "from now" after no span of time, "henceforth", or a day or a span that holds the day it is
    said as an onset ("as of today", "starting this morning", "from this month"; a weekend may be
    still to come); "tonight I'll go" is an event of later that day, not a change from then."""
    lower = text.lower()
    if _ONWARDS.search(lower):
        return True
    # "From now he is my mentor": from now on, unless a span comes before ("two weeks from now")
    if any(not _SPAN_BEFORE.search(lower, 0, match.start()) for match in _FROM_NOW.finditer(lower)):
        return True
    for match in _READ.finditer(text):
        named = _resolve(match, _SPOKEN) if _ONSET.search(text, 0, match.start()) else None
        if named is not None and named.span != "weekend" and named.start <= _SPOKEN < _after(named):
            return True  # "as of today", "from this month": a span that holds the day it is said
    return False


def tells_of_an_occasion(text: str) -> bool:
    """Whether ``text`` names a day or a week gone by or under way as when something happened
    ("yesterday", "this week", "last night"), not as an onset ("as of today", "from this
    week"): a story of one occasion, whose values are of that occasion."""
    for match in _READ.finditer(text):
        named = _resolve(match, _SPOKEN)
        if (
            named is not None
            and named.span in ("day", "week", "weekend")
            and named.start <= _SPOKEN
            and not _ONSET.search(text, 0, match.start())
        ):
            return True
    return False


def _after(span: Resolved) -> date:
    """The first day past ``span``."""
    if span.span == "month":
        return _add_months(span.start, 1)
    if span.span == "year":
        return date(span.start.year + 1, 1, 1)
    return span.start + timedelta(days=_SPAN_DAYS[span.span])


def _day(at: datetime | date) -> date:
    return at.date() if isinstance(at, datetime) else at


def _resolve(match: re.Match[str], today: date) -> Resolved | None:
    groups = match.groupdict()
    if groups["day"]:
        return Resolved(today + timedelta(days=_DAY_WORDS[" ".join(groups["day"].lower().split())]), "day")
    if groups["weekday"]:
        weekday = [day[:3] for day in WEEKDAYS].index(groups["weekday"][:3].lower())
        return Resolved(_weekday(groups["which"].lower(), weekday, today), "day")
    if groups["span"]:
        return _span(groups["which2"].lower(), groups["span"].lower(), today)
    if groups["n"]:
        return _shift(-count_of(groups["n"]), groups["unit"].lower(), today)
    if groups["n2"]:
        return _shift(count_of(groups["n2"]), groups["unit2"].lower(), today)
    return None


def _weekday(which: str, weekday: int, today: date) -> date:
    if which in ("last", "this past"):
        back = (today.weekday() - weekday) % 7 or 7
        return today - timedelta(days=back)
    ahead = (weekday - today.weekday()) % 7
    if which != "this" and ahead == 0:
        ahead = 7
    return today + timedelta(days=ahead)


def _span(which: str, span: str, today: date) -> Resolved:
    step = {"last": -1, "this past": -1, "next": 1}.get(which, 0)
    if span in ("week", "weekend"):
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=step)
        if span == "week":
            return Resolved(monday, "week")
        return Resolved(monday + timedelta(days=5), "weekend")
    if span == "month":
        return Resolved(_add_months(today.replace(day=1), step), "month")
    return Resolved(date(today.year + step, 1, 1), "year")


def _shift(amount: int, unit: str, today: date) -> Resolved:
    if unit == "day":
        return Resolved(today + timedelta(days=amount), "day")
    if unit == "week":
        day = today + timedelta(weeks=amount)
        return Resolved(day - timedelta(days=day.weekday()), "week")
    if unit == "month":
        return Resolved(_add_months(today.replace(day=1), amount), "month")
    return Resolved(date(today.year + amount, 1, 1), "year")


def _add_months(first: date, months: int) -> date:
    index = first.year * 12 + first.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def count_of(raw: str) -> int:
    """The number a count is written as: digits or a word ("12", "three", "a couple of")."""
    raw = " ".join(raw.lower().split())
    return int(raw) if raw.isdigit() else NUMBER_WORDS[raw]
