"""Sets of weekdays as a schedule writes them, read and written (``llm.aligned`` decides when a
sentence changes one: "rec center moved my lessons to mondays n wednesdays" of "Teaches trumpet
lessons Tuesdays and Thursdays 4-6pm").

A set of weekdays is two or more days written together, as a list ("Tue/Thu", "Mondays and
Wednesdays", "Mon, Wed, Fri") or a range ("Mon–Fri", "Tuesday to Saturday", which holds the
days between). New days are written the way the stored set writes days: short or whole, plural
or not, its separator, a range as a range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from memdesk.core.dates import WEEKDAY_NAMES, WEEKDAYS
from memdesk.core.values import RANGE_JOIN

_DAY = rf"\b{WEEKDAY_NAMES}s?\b\.?"
_LIST_JOIN = r"\s*(?:[/,&+]|\band\b|\bn\b)\s*(?:\band\b\s*)?"
_WORD_JOINS = ("and", "&")
_SET = re.compile(rf"(?i:{_DAY}(?:(?:{RANGE_JOIN}|{_LIST_JOIN}){_DAY})+)")
_ONE_DAY = re.compile(rf"(?i:{_DAY})")
_RANGE = re.compile(rf"(?i:^{_DAY}{RANGE_JOIN}{_DAY}$)")
_SHORT = 3  # letters of a day written short: "Tue"


@dataclass(frozen=True)
class DaySet:
    """Days written together, where they are written, and whether as a range."""

    days: tuple[int, ...]  # indexes into WEEKDAYS, in the order of the week
    span: tuple[int, int]
    written: str


def day_sets(text: str) -> list[DaySet]:
    """The sets of two or more days ``text`` writes together; a range holds the days it runs
    through ("Mon–Thu": Monday to Thursday)."""
    found = []
    for match in _SET.finditer(text):
        named = days_named(match.group())
        if len(set(named)) != len(named):
            continue
        if _RANGE.match(match.group()):  # "Sun–Wed" runs through the week's end
            named = tuple(
                (named[0] + step) % len(WEEKDAYS) for step in range((named[1] - named[0]) % len(WEEKDAYS) + 1)
            )
        found.append(DaySet(named, match.span(), match.group()))
    return found


def written_as(new: DaySet, old: DaySet) -> str:
    """The new days in the old set's way of writing days: "Mon/Wed" for "Tue/Thu", "Mondays and
    Wednesdays" for "Tuesdays and Thursdays", "Tue–Sat" for "Mon–Fri" when the new days run on."""
    sample = _ONE_DAY.search(old.written)
    assert sample is not None  # a set holds days
    first = sample.group().rstrip(".")
    plural = first.lower().endswith("days")
    short = len(first.rstrip("s")) <= _SHORT + 1 and not first.lower().startswith(WEEKDAYS[_index(first)])
    names = [_name(day, short, plural, first[0].isupper()) for day in new.days]
    if _RANGE.match(old.written) and _runs_on(new.days):
        joiner = re.search(RANGE_JOIN, old.written, re.IGNORECASE)
        return f"{names[0]}{joiner.group() if joiner else '–'}{names[-1]}"
    separator = re.search(_LIST_JOIN, old.written, re.IGNORECASE)
    joiner = separator.group() if separator and not _RANGE.match(old.written) else ", "
    if joiner.strip().lower() in _WORD_JOINS:  # "Mondays, Wednesdays and Fridays"
        return f"{', '.join(names[:-1])} {joiner.strip()} {names[-1]}"
    return joiner.join(names)


def _name(day: int, short: bool, plural: bool, capital: bool) -> str:
    name = WEEKDAYS[day][:_SHORT] if short else WEEKDAYS[day]
    name += "s" if plural and not short else ""
    return name.capitalize() if capital else name


def _index(written: str) -> int:
    lower = written.lower().rstrip(".")
    return next(index for index, day in enumerate(WEEKDAYS) if day.startswith(lower[:_SHORT]))


def _runs_on(days: tuple[int, ...]) -> bool:
    return len(days) > 1 and all((b - a) % len(WEEKDAYS) == 1 for a, b in pairwise(days))


def days_named(text: str) -> tuple[int, ...]:
    """The days ``text`` names, in its order, as indexes into ``WEEKDAYS``."""
    return tuple(_index(day.group()) for day in _ONE_DAY.finditer(text))
