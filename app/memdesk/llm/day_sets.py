"""A schedule's days changed as a whole: "rec center moved my lessons to mondays n wednesdays"
of "Teaches trumpet lessons Tuesdays and Thursdays 4-6pm".

A set of weekdays is two or more days written together, as a list ("Tue/Thu", "Mondays and
Wednesdays", "Mon, Wed, Fri") or a range ("Mon–Fri", "Tuesday to Saturday"). A sentence of the
person's own that states something as it is now (the mood and date readers of ``core.slots``;
not someone else's news, not an exception said to hold once) and whose message names one set
of days, and no other day but those it ends, changes the one stored fact that holds one set and
no other day and shares a word with the sentence: the new days are written in the place of the
old, the way the fact writes days (short or whole, plural or not, its separator, a range as a
range). The same days said again ("same tue thu sat runs") change nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from memdesk.core.dates import WEEKDAY_NAMES, WEEKDAYS
from memdesk.core.search_text import STOPWORDS
from memdesk.core.slots import for_once, mood_at, placed_later, stem
from memdesk.core.whose import of_value, reported

if TYPE_CHECKING:
    from memdesk.llm.changes import Known, Said

_DAY = rf"\b{WEEKDAY_NAMES}s?\b\.?"
_RANGE_JOIN = r"\s*(?:[–—-]|\bto\b|\bthrough\b|\bthru\b|\btil+\b|\btill\b)\s*"
_LIST_JOIN = r"\s*(?:[/,&+]|\band\b|\bn\b)\s*(?:\band\b\s*)?"
_WORD_JOINS = ("and", "&")
_SET = re.compile(rf"(?i:{_DAY}(?:(?:{_RANGE_JOIN}|{_LIST_JOIN}){_DAY})+)")
_ONE_DAY = re.compile(rf"(?i:{_DAY})")
_RANGE = re.compile(rf"(?i:^{_DAY}{_RANGE_JOIN}{_DAY}$)")
_WORD = re.compile(r"[^\W\d_]{4,}")
_SHORT = 3  # letters of a day written short: "Tue"


@dataclass(frozen=True)
class DaySet:
    """Days written together, where they are written, and whether as a range."""

    days: tuple[int, ...]  # indexes into WEEKDAYS, in the order of the week
    span: tuple[int, int]
    written: str


def day_set_changes(
    said: Sequence[Said], known: Sequence[Known], texts: dict[int, str]
) -> list[tuple[int, str, str]]:
    """``(fact number, new text, evidence)`` for each fact whose set of days a sentence changes,
    read from ``texts`` (the facts as other changes left them) where they hold one."""
    found: list[tuple[int, str, str]] = []
    for sentence in said:
        message = " ".join(s.text for s in said if s.turn == sentence.turn)
        sets = day_sets(sentence.text)
        if len(sets) != 1 or len(day_sets(message)) != 1:
            continue
        new = sets[0]
        start = new.span[0]
        later = placed_later(sentence.text, (0, len(sentence.text)), sentence.at)
        if mood_at(sentence.text, start) or later or for_once(message):
            continue
        if of_value(sentence.text, start).others or reported(sentence.text, start).others:
            continue
        # days said besides the set: only the ones it ends ("they need the gym tuesdays")
        besides = Counter(_days_named(message)) - Counter(_days_named(new.written))
        words = _stems(sentence.text[:start] + " " + sentence.text[new.span[1] :])
        fitting = []
        for fact in known:
            text = texts.get(fact.number, fact.text)
            stored = day_sets(text)
            if (
                len(stored) == 1
                and len(_days_named(text)) == len(_days_named(stored[0].written))
                and set(besides) <= set(stored[0].days) - set(new.days)
                and words & _stems(text)
            ):
                fitting.append((fact, text, stored[0]))
        if len(fitting) != 1:
            continue
        fact, text, old = fitting[0]
        if set(old.days) == set(new.days):
            continue  # the same days said again
        rewritten = text[: old.span[0]] + written_as(new, old) + text[old.span[1] :]
        found.append((fact.number, rewritten, sentence.text))
    return found


def day_sets(text: str) -> list[DaySet]:
    """The sets of two or more days ``text`` writes together; a range holds the days it runs
    through ("Mon–Thu": Monday to Thursday)."""
    found = []
    for match in _SET.finditer(text):
        named = _days_named(match.group())
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
        joiner = re.search(_RANGE_JOIN, old.written, re.IGNORECASE)
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


def _days_named(text: str) -> tuple[int, ...]:
    return tuple(_index(day.group()) for day in _ONE_DAY.finditer(text))


def _stems(text: str) -> set[str]:
    return {stem(word) for word in _WORD.findall(text.lower()) if word not in STOPWORDS} - {
        stem(day) for day in WEEKDAYS
    }
