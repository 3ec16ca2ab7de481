"""The specifics a sentence names: what a person looks for again in a summary of it.

Four families, found by their form alone (no word lists of places or people, so any
language's names are found the same way):
- names of people, places and things: a capitalised word, or a run of them ("Inês",
  "Porto Campanhã", "Alfa Pendular"), that does not merely open the sentence;
- codes: letters and digits together ("AP131", "TP-1234", "B12");
- dates and times: "6 March", "March 6th", "2026-03-06", a weekday or a month, "08:39",
  "8 pm";
- amounts: a number, with or without its currency or unit ("€31.20", "2,500 euros",
  "3 hours").

Each specific has a key, so the same thing written again matches: names and codes in lower
case ("AP-131" ~ "ap131"), dates as day and month ("6th of March" ~ "March 6"), times on
the 24-hour clock ("8 pm" ~ "20:00"), amounts by value ("€2,500.00" ~ "2500").
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import NamedTuple

from memdesk.core.dates import MONTHS, WEEKDAYS


class Family(StrEnum):
    NAME = "name"
    CODE = "code"
    DATE = "date"
    AMOUNT = "amount"


class Specific(NamedTuple):  # a tuple: hashed fast, as sets of them are compared often
    family: Family
    key: str

    @property
    def counted(self) -> bool:
        """A code, an amount, or a date or time given in figures (not a weekday alone)."""
        return any(char.isdigit() for char in self.key)


_MONTH_OF = {name[:3].lower(): name.lower() for name in MONTHS}  # "Mar" and "March" are March
_MONTH = r"(?:" + "|".join(sorted({*MONTHS, *(name[:3] for name in MONTHS)}, key=len, reverse=True)) + r")\.?"
# Spelt out in full: "Jan" alone may be a person.
_CALENDAR_WORDS = frozenset({*(name.lower() for name in MONTHS), *WEEKDAYS})
_ORDINAL = r"(?:st|nd|rd|th)?"
# Dates and times first, then codes, then plain numbers: the earlier alternative wins.
_DIGIT = re.compile(r"\d")
_NUMERIC = re.compile(
    r"(?P<iso>\b\d{4}-\d{2}-\d{2}\b)"
    rf"|\b(?P<day>\d{{1,2}}){_ORDINAL}(?:\s+of)?\s+(?P<month>{_MONTH})(?![\w])"
    rf"|\b(?P<month_first>{_MONTH})\s+(?P<day_after>\d{{1,2}}){_ORDINAL}\b(?![:\d])"
    r"|\b(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?\s*(?P<half>[aApP])\.?[mM]\b"
    r"|\b(?P<clock_hour>\d{1,2}):(?P<clock_minute>\d{2})\b"
    r"|(?<![\w-])(?P<code>[A-Za-z]{1,6}-?\d[A-Za-z\d]*(?:-[A-Za-z\d]+)*)\b"
    r"|(?<![\w.,])(?P<number>\d+(?:,\d{3})*(?:\.\d+)?)"
)
# Words that may be capitalised: any but those opening with a-z, the most of English text.
_CAPITALISED = re.compile(r"(?<![\w'’-])[^\W\da-z_][\w'’-]*")
_NOT_NAMES = re.compile(r"^(?:I(?:['’]\w+)?|OK|Ok)$")  # "I", "I'm", "I'll", "OK"
_OPENERS = ".!?:;"
_LOOK_BACK = 12  # characters: enough for the punctuation, quotes and list marks before a word
_EDGES = " \t\"'“”‘’([*_-•>"
_POSSESSIVE = re.compile(r"['’]s?$")


def specifics(text: str) -> frozenset[Specific]:
    """Every specific ``text`` names, once each."""
    found: set[Specific] = set()
    taken: list[tuple[int, int]] = []
    # Every date, time, code and amount has a digit: most sentences need no closer look.
    for match in _NUMERIC.finditer(text) if _DIGIT.search(text) else ():
        found.add(_numeric(match))
        taken.append(match.span())
    found.update(_names(text, taken))
    return frozenset(found)


def _numeric(match: re.Match[str]) -> Specific:
    kind = match.lastgroup
    if kind == "iso":
        return Specific(Family.DATE, match.group())
    if kind in ("month", "day_after"):
        day = match.group("day") or match.group("day_after")
        month = match.group("month") or match.group("month_first")
        return Specific(Family.DATE, f"{int(day)} {_MONTH_OF[month[:3].lower()]}")
    if kind in ("half", "clock_minute"):
        hour = int(match.group("hour") or match.group("clock_hour"))
        minute = int(match.group("minute") or match.group("clock_minute") or 0)
        half = (match.group("half") or "").lower()
        if half:
            hour = hour % 12 + (12 if half == "p" else 0)
        return Specific(Family.DATE, f"{hour}:{minute:02d}")
    if kind == "code":
        return Specific(Family.CODE, match.group().replace("-", "").lower())
    value = match.group().replace(",", "")
    if "." in value:
        value = value.rstrip("0").rstrip(".")
    return Specific(Family.AMOUNT, value.lstrip("0") or "0")


def _names(text: str, taken: list[tuple[int, int]]) -> list[Specific]:
    """Capitalised words and runs of them; weekdays and months are dates."""
    found: list[Specific] = []
    run: list[str] = []
    last_end = -1
    for match in _CAPITALISED.finditer(text):
        word = match.group()
        start = match.start()
        if not word[0].isupper() or (taken and any(begin <= start < end for begin, end in taken)):
            _close(run, found)
            continue
        lower = word.lower()
        if lower in _CALENDAR_WORDS:
            _close(run, found)  # a date ends a run of names
            found.append(Specific(Family.DATE, lower))
            continue
        if len(word) == 1 or _NOT_NAMES.match(word) or _opens(text, start):
            _close(run, found)
            continue
        if run and text[last_end:start] != " ":
            _close(run, found)
        run.append(_POSSESSIVE.sub("", lower))
        last_end = match.end()
    _close(run, found)
    return found


def _close(run: list[str], found: list[Specific]) -> None:
    if run:
        found.append(Specific(Family.NAME, " ".join(run)))
        run.clear()


def _opens(text: str, at: int) -> bool:
    """Whether the word at ``at`` opens the text or a sentence in it (so has a capital anyway)."""
    before = text[max(0, at - _LOOK_BACK) : at].rstrip(_EDGES)
    return not before or before[-1] in _OPENERS
