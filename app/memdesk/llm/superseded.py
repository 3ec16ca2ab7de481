"""A statement the offline proposal adds that takes a stored line's place: that line's end.

Memory health lists a fact added in the person's words that fills a slot a stored fact fills,
with another value, as a conflict (``core.slots``: ``named_claims`` and ``conflicting``, its
readers). Offline, when the compaction itself adds such a statement, it also proposes the end
of the one stored line the statement takes the place of, read by those same readers:

- the statement is one of the person's own sentences, their news: not a question, a
  supposition, a plan or a later date, a value said to hold once, nor someone else's news (the
  readers the rules use: ``core.slots.mood_at`` and ``placed_later``, ``core.whose``);
- exactly one stored fact disagrees with it, and it is a line of a document that is the
  person's own and still current: two facts that fit, a knowledge entry or an app memory (a
  note about something else), someone else's line and a line already past are left alone;
- the line's value is replaced when the value is its whole labelled item ("Gym: Fitness Hut"
  becomes "Gym: Solinca"); otherwise the clause holding it is marked past, with the month it
  was said ("Job: barista at Lantern Coffee, Stokes Croft (until March 2026)"), so a line that
  says more keeps every other fact.

Each end is proposed for the last check of ``llm.sure`` to judge: a suggestion, shown in
review and not applied by ``memdesk compact --yes``, unless that check passes it. The statement
itself is still added as said.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from memdesk.core.slots import (
    PERSON_WORDS,
    Claim,
    claims_in,
    conflicting,
    for_once,
    household_names,
    marked_past,
    mood_at,
    named_claims,
    placed_later,
    same_value,
    stem,
)
from memdesk.core.whose import (
    line_owner,
    nearest,
    of_value,
    owner_before,
    tells_of_another,
    told_of_another,
)
from memdesk.llm.changes import (
    OWN_LABEL,
    WHERE_LABELS,
    Edit,
    Known,
    Said,
    already_past,
    another_line_named,
    clause_end,
    until_mark,
    value_span,
)
from memdesk.llm.contact_lines import LINE_WORDS

_LINES = frozenset({"profile", "patterns", "facts"})  # ``Known.where`` of a document's line
_OPENING_WORDS = 3  # a line's subject, whose it is: "Husband Rob works", "Luca's swim lessons"
_ITEM_BREAK = re.compile(r"[,;(]")  # a value holding one of these says more than one thing


@dataclass(frozen=True)
class _Taken:
    """The one stored line a statement takes the place of: the fact, its value there, and the
    statement's claim that replaces it."""

    fact: Known
    old: Claim
    new: Claim


def superseded_ends(
    added: Sequence[str], said: Sequence[Said], known: Sequence[Known], changed: set[int]
) -> list[Edit]:
    """The end of each stored line that a statement of ``added`` takes the place of, one edit
    a line (the last statement wins); ``changed``: the ``Known.number`` of facts an edit of the
    rules already changes, left to it."""
    household = household_names("\n".join(fact.text for fact in known if fact.where == "profile"))
    this_year = min((sentence.at.year for sentence in said), default=0)
    # each current fact's claims, read once as Memory health reads them
    stored = [
        (fact, old)
        for fact in known
        if not already_past(fact.text, this_year)
        for old in named_claims(fact.text, household)
    ]
    ends: dict[int, Edit] = {}
    for statement in added:
        at = _sentence_of(said, statement)
        if at is None:
            continue
        taken = _taken(said, at, stored, known, household)
        if taken is None or taken.fact.number in changed:
            continue
        ends[taken.fact.number] = _end(taken, said[at], household)
    return list(ends.values())


def _sentence_of(said: Sequence[Said], statement: str) -> int | None:
    """Where the person said ``statement``: the sentence it is, or the one it holds whole."""
    text = statement.strip()
    for at, sentence in enumerate(said):
        if sentence.text.strip() == text:
            return at
    return next((at for at, sentence in enumerate(said) if sentence.text.strip() in text), None)


def _taken(
    said: Sequence[Said],
    at: int,
    stored: Sequence[tuple[Known, Claim]],
    known: Sequence[Known],
    household: frozenset[str],
) -> _Taken | None:
    """The one line the sentence at ``at`` takes the place of, when it is the person's own news;
    ``stored``: the current facts' claims."""
    sentence = said[at]
    text = sentence.text
    message = " ".join(s.text for s in said if s.turn == sentence.turn)
    before = said[at - 1].text if at and said[at - 1].turn == sentence.turn else ""
    lines = [fact.text for fact in known]
    if text.rstrip().endswith("?") or for_once(message):
        return None
    if told_of_another(text, message, lines, LINE_WORDS) or tells_of_another(
        text, before, [message, *lines], PERSON_WORDS
    ):
        return None
    claims = [
        claim
        for claim in named_claims(text, household)
        if claim.slot
        and not claim.past
        and not mood_at(text, claim.span[0])
        and not placed_later(text, claim.span, sentence.at)
        and not owner_before(text, claim.span[0]).others
        and not of_value(text, claim.span[0]).others
        and not nearest(text[: claim.span[0]]).others
    ]
    found: dict[int, _Taken] = {}
    for new in claims:
        if any(old.slot == new.slot and same_value(new.value, old.value) for _fact, old in stored):
            continue  # the statement repeats what a stored fact says
        for fact, old in stored:
            if conflicting(new, old):
                found.setdefault(fact.number, _Taken(fact, old, new))
    if len(found) != 1:
        return None  # nothing stored disagrees, or two facts fit
    (taken,) = found.values()
    fact = taken.fact
    if fact.where not in _LINES or marked_past(fact.text) or _someone_elses(fact.text, household):
        return None
    # the message tells of another stored line by its label ("moved offices … We're in Sandton
    # now" is the "Office:" line's news, not "Lives in Greenside"'s)
    return None if another_line_named(fact, message, known) else taken


def _someone_elses(line: str, household: frozenset[str]) -> bool:
    """The line is someone else's by its label or the words that open it (``core.whose``):
    "Husband Rob works offshore", "Luca's swim lessons: …", "Dev drives a Polestar"."""
    label = OWN_LABEL.fullmatch(line)
    describing = label.group(1) if label else " ".join(line.lstrip("-*• ").split()[:_OPENING_WORDS])
    return bool(line_owner(describing, PERSON_WORDS | household, stem))


def _end(taken: _Taken, sentence: Said, household: frozenset[str]) -> Edit:
    """The line with its value replaced, when the value is its whole labelled item; else with
    the clause holding the value marked past."""
    fact, old, new = taken.fact, taken.old, taken.new
    text = fact.text
    what = f"{WHERE_LABELS[fact.where]} {fact.ref}"
    why = (
        f"The person said: “{sentence.text}”. It fills what {what} says (“{text}”) with another "
        "value, so that line no longer holds; the statement is added as said."
    )
    label = OWN_LABEL.fullmatch(text)
    span, whole = value_span(text, old.span)
    stored_value = text[span[0] : span[1]]
    item = label is not None and label.span(2) == span and whole and not _ITEM_BREAK.search(stored_value)
    said_value = sentence.text[new.span[0] : new.span[1]]
    if item and new in claims_in(sentence.text, household) and not _ITEM_BREAK.search(said_value):
        replaced = text[: span[0]] + said_value + text[span[1] :]
        return Edit("update", fact.number, replaced, why, evidence=sentence.text)
    end = clause_end(text, span[1])
    if text.count("(", 0, end) > text.count(")", 0, end):  # a clause inside brackets: after them
        end = text.find(")", end) + 1 or end
    marked = text[:end] + until_mark("", sentence.at) + text[end:]
    return Edit("retire", fact.number, marked, why, evidence=sentence.text)
