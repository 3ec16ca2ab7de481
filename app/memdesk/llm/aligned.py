"""Value-aligned changes: a new value of a kind a stored fact holds one of.

A sentence of the person's own that states something as it is now (not a question, a
supposition, a plan or a later date, an exception said to hold once, nor a relative's or a
friend's news: the mood reader of ``core.slots``; a number or address quoted from someone
else's message is theirs) and holds exactly one value of a kind (``core.values``: a phone
number, an e-mail address, an amount, a dose, a clock time, a weekday, a floor, a doctor…)
changes the one stored fact that holds exactly one value of that kind and shares an anchor
with what the person said — a word of the fact's or its label, in any of its forms, or the
end of its old number ("the 412 one"); of two such facts, the one whose value's own word is
said. Only that value is replaced; every other fact of the line stays as it is, and nothing
is changed when the sentence names another of a thing the fact names ("Tower D" beside the
new floor).

The anchor is looked for in the sentence first, then in its message, then, for an amount, in
the person's message before it ("Dr Rahman upped my amlodipine" … "yes 10mg"); where two stored
facts fit equally, nothing is changed, but of two people's contact lines the one whose whole
name the message says takes it ("update Zé Botelho … he change the number" is not his wife's
line). A message naming two values of a kind compares them and changes neither (a value a
sentence corrects, "105 not 110", is no value of it; a person the stored facts name with a
title is the old one). A person named with a title changes a fact only when said as who it is
now. A number said alone ("so it's 100 now") takes the unit of the one amount the fact gives,
when it is of its size.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from memdesk.core.dates import WEEKDAYS, names_now, tells_of_an_occasion
from memdesk.core.search_text import STOPWORDS
from memdesk.core.slots import NOW_SAID, claims_in, for_once, mood_at, placed_later, says_change, stem
from memdesk.core.values import (
    ADDRESS,
    CLAUSE_BREAK,
    CLOCK,
    COUNTED,
    DATE,
    DAY,
    EMAIL,
    HOURS,
    MEASURED,
    MONEY,
    NUMBER,
    PHONE,
    RANGE_JOIN,
    TAKES_BACK,
    TITLED,
    WAS_BEFORE,
    WEEKDAY,
    Value,
    clause_around,
    clock_written_as,
    date_written_as,
    end_named,
    family,
    nearer_reading,
    of_a_size,
    other_rates,
    said_as_before,
    said_as_difference,
    said_in_digits,
    values_in,
    with_end_said,
    year_gone_by,
)
from memdesk.core.whose import (
    HOUSEHOLD_LABELS,
    dictated,
    doer,
    line_owner,
    of_value,
    owner_before,
    reported,
    says_own,
)
from memdesk.llm.contact_lines import (
    CONTACT_KINDS,
    NAMED,
    NOT_IT,
    ONLY_ONE,
    Saying,
    line_fits,
    owner_said_whole,
)
from memdesk.llm.day_sets import day_sets, days_named, written_as

if TYPE_CHECKING:  # ``llm.changes`` reads this module's edits with its own
    from memdesk.llm.changes import Known, Said

_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_THEIR = re.compile(r"(?i:\b(?:his|her|their)\b)")
_POSSESSIVE = re.compile(r"['’]s\b")
_MIN_ANCHOR = 4  # letters: shorter words tie too much to too much
_LABEL = re.compile(r"\s*(?:[-*•]\s+)?([^:\n]{1,30}):")
_FIRST_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAMED = re.compile(r"\b([A-Z][a-z]+) ([A-Z0-9][\w-]*)")  # "Tower D", "Block 4"
_NEXT_WORD = re.compile(r"\s+([^\W\d_][\w'’-]*)")  # the word that describes a value: "10 min walk"
_LAST_WORD = re.compile(r"([^\W\d_][\w'’-]*)\s+$")  # the word a value is said right after: "Amlodipine 5 mg"
# What a value is for: "for left knee", "for my back" (a few words; "for now" says when).
_PURPOSE = re.compile(
    r"(?i:\bfor\s+(?!now\b|good\b|the\s+(?:moment|time)\b|a\s+while\b)((?:[^\W\d_][\w'’-]*\s*){1,3}))"
)
_PART_OF = re.compile(r"\s+of\s+(?:my|our|your|his|her|their|the)\b", re.IGNORECASE)  # "$200 of my deposit"
# A clock time that ends or opens a range the reader took apart ("2 til 3:30", "3:30 to 5"):
# no single time of anything.
_RANGE_BEFORE = re.compile(rf"(?i:\d{RANGE_JOIN}$)")
_RANGE_AFTER = re.compile(rf"(?i:{RANGE_JOIN}\d)")
_SIZE = 5
_PRICE_SIZE = 20  # prices change, rarely twentyfold
# The word a new value is said as the value of, right before it: "pickup's 4:45", "rent is 950".
_VALUE_OF = re.compile(r"([^\W\d_][\w-]*)(?:['’]s|\s+(?:is|are|was))\s+$")
# The clause a value is said as the value of, up to its "is": "The school tuck-shop budget the
# board set is US$300".
_SUBJECT = re.compile(r"([^.;:,!?—–]*?)\s+(?:is|are|was)\s+$")
_OTHER_WORDS = 2  # words of that clause the stored fact does not hold that make it another thing
# How far an anchor is looked for (``_scopes``): the sentence, its message, the message before.
# An amount, a time or a contact is often said alone after the message that named its subject ("upped
# my amlodipine" … "yes 10mg"; "the 111 one is gone" … "07911 555 222"); a day said once ("sunday
# night") only with what it is the day of; anything else within its message.
_REACH = {DAY: 1, PHONE: 3, EMAIL: 3, NUMBER: 3, MONEY: 3, CLOCK: 3, HOURS: 3, DATE: 3}


@dataclass(frozen=True)
class Aligned:
    """A stored fact's new text, and the person's sentence that gave its last new value."""

    number: int  # Known.number
    text: str
    evidence: str


def aligned_updates(said: Sequence[Said], known: Sequence[Known]) -> list[Aligned]:
    """The updates the person's sentences make by value, the last one said winning."""
    texts: dict[int, str] = {}
    evidence: dict[int, str] = {}
    old_people = _stored_people(known)
    conversation = tuple(sentence.text for sentence in said)
    messages: dict[int, list[str]] = {}
    for sentence in said:
        messages.setdefault(sentence.turn, []).append(sentence.text)
    # a message naming several values of a kind compares them ("quotes: Nationwide 4.39%.
    # Halifax 4.52%."); it does not change one. A value it says as not holding is no value of it,
    # and a value a sentence corrects ("105 not 110. 110 was what my brother reckoned") or a later
    # sentence takes back ("wait no.") is out of it wherever the message says it
    corrected_in = {
        turn: {(v.kind, v.key) for text in texts for v in _corrected(_values(text))} | _taken_back(texts)
        for turn, texts in messages.items()
    }
    corrected_before: set[tuple[str, str]] = set()
    for index, sentence in enumerate(said):
        # beside a sentence that places its value now, a value another one supposes or plans is
        # no rival to it ("from this month 450 manat. … next year maybe I pay 500")
        now = bool(NOW_SAID.search(sentence.text)) or names_now(sentence.text)
        said_there = [
            v
            for text in messages[sentence.turn]
            for v in _values(text)
            if not (now and text != sentence.text and mood_at(text, v.span[0]))
        ]
        # …and one corrected earlier in the conversation stays denied ("comes Wednesdays now, not
        # Thursdays" … "On Thursdays now I can sleep in")
        corrected = corrected_in[sentence.turn] | corrected_before
        corrected_before |= {(v.kind, v.key) for v in _corrected(_values(sentence.text))}
        message = [v for v in said_there if not v.denied and (v.kind, v.key) not in corrected]
        message_text = " ".join(messages[sentence.turn])
        companion: tuple[Known, int] | None = None  # the fact an earlier value went to, and its end
        for kind, value in _single_values(sentence.text, old_people):
            start, end = value.span
            if (kind, value.key) in corrected:
                continue
            if len({v.key for v in message if v.kind == kind and (kind, v.key) not in old_people}) > 1:
                continue
            if kind == TITLED and not (
                NOW_SAID.search(sentence.text) or _one_ended(sentence.text, old_people)
            ):
                continue  # a person named in passing ("Dr Mensah runs late"), not who it is now
            measured = any(_measured(v.kind) for v in message)
            if kind == NUMBER and measured and not _corrects_stored(sentence.text, known):
                continue  # it may be said with its unit too; not when it corrects one ("400, not 200")
            # a later date makes it a plan, unless it is the new value of a stored date ("the
            # line check is rescheduled to 19 November"); words quoted for someone to read
            if not _told_as_now(sentence, start, message_text, later_counts=kind != DATE):
                continue
            if dictated(message_text, message_text.find(sentence.text) + start):
                continue
            # said as his, her or their value ("his stays 5", "her number is now …"), or as what
            # someone else does with a thing of theirs ("he only make 2,000 steps with his
            # walker"): it may change only a line about someone else
            theirs = owner_before(sentence.text, start).others or _their_doing(sentence.text, start)
            if said_as_before(sentence.text, value.span):
                continue  # said as it was: no new value, at most an old record gone wrong
            if _PART_OF.match(sentence.text, end):
                continue  # a part of the thing, not its new value: "kept $200 of my deposit"
            if kind == CLOCK and (
                _RANGE_BEFORE.search(sentence.text, 0, start) or _RANGE_AFTER.match(sentence.text, end)
            ):
                continue  # one end of a range: "pushed us to 2 til 3:30" is no new time of "Friday 1:30pm"
            if _measured(kind) and said_as_difference(sentence.text, value.span):
                continue  # how much another amount differs: "£20 difference same basket"
            around = _scopes(said, index)
            scopes = around[: _REACH.get(kind, 3 if _measured(kind) else 2)]
            saying = Saying(sentence.text, start, around[1], conversation)
            target = _with_companion(kind, value, sentence.text, companion, texts) or _target(
                kind, value, saying, scopes, known, texts, theirs, sentence.at.year
            )
            if target is None:
                continue
            fact, old, named_in = target
            if not _change_told(sentence, scopes, named_in):
                continue
            companion = fact, end
            if old.key == value.key:
                continue  # the stored value said again ("15 minute" of "about 15 minutes"): nothing changed
            current = texts.get(fact.number, fact.text)
            if kind not in CONTACT_KINDS and _of_another_thing(sentence.text[:start], current):
                continue  # "pickup's 4:45" is no new time for "Daily stand-up 9:15"
            if _described_otherwise(current, old.span, sentence.text, value.span):
                continue  # "40 min driving" is not a new time for "10 min walk"
            if _measured(kind) and _of_another_name(current, old.span, sentence.text, value.span):
                continue  # "now I take Amlodipine 5 mg" is no new dose of "Lisinopril 10 mg"
            if kind != TITLED and _another_person_named(current, message, old_people):
                continue  # "the new vet is Doctor Kovács … Number is …": the line's person changed too
            if _for_another_purpose(current, sentence.text):
                continue  # "Mai take 1000 mg, for back" is not "glucosamine 500 mg … for left knee"
            if _renamed(current, sentence.text, value.span):
                continue  # more changed than the value: "Tower D …, 14th floor" of "Tower B, 9th floor"
            new = sentence.text[start:end]
            if kind == NUMBER:  # the number takes the stored amount's unit: "100" of "50mg"
                stored = current[old.span[0] : old.span[1]]
                new = _FIRST_NUMBER.sub(new, stored, count=1)
            elif kind.startswith(COUNTED) or (_measured(kind) and _same_unit(value, old)):
                # counted in the stored word ("95 hive" of "140 hives"), or in the unit as the line
                # spells it ("20 kilo" of "12.75kg" is "20kg")
                number = _FIRST_NUMBER.search(new)
                if number:
                    new = _FIRST_NUMBER.sub(number.group(), current[old.span[0] : old.span[1]], count=1)
            elif kind == PHONE and len(value.key) < len(old.key):  # "it's 555-0187" of "(210) 555-0178"
                new = with_end_said(current[old.span[0] : old.span[1]], old.key, new, value.key) or new
            elif kind == CLOCK:
                # "10 in the morning" of "4pm": "10am"; "6 o'clock" of "5:30 pm": "6 pm"
                key = nearer_reading(value.key, new, old.key)
                if key != value.key or not said_in_digits(new):
                    new = clock_written_as(key, current[old.span[0] : old.span[1]])
            elif kind == DATE:  # "21 March" of "March 14, 1991": "March 21, 1991"
                new = date_written_as(new, current[old.span[0] : old.span[1]])
            elif kind in (DAY, WEEKDAY):  # a day written as the stored one is: "every Friday"
                stored = current[old.span[0] : old.span[1]]
                new = value.key.capitalize() if stored[:1].isupper() else value.key
                new += "s" if stored.lower().endswith("days") else ""
            texts[fact.number] = current[: old.span[0]] + new + current[old.span[1] :]
            evidence[fact.number] = sentence.text
    for number, text, sentence in _day_set_changes(said, known, texts):
        texts[number], evidence[number] = text, sentence
    by_number = {fact.number: fact for fact in known}
    return [
        Aligned(number, text, evidence[number])
        for number, text in texts.items()
        if not _says_the_same(text, by_number[number].text)
    ]


def _change_told(sentence: Said, scopes: list[str], named_in: int) -> bool:
    """A value whose fact only the sentence's message or the message before names (``named_in``,
    the index of the scope that names it, is past the sentence's), in a message that tells of one
    day or week gone by, is of that occasion ("this week the taxi went round by Thaba-Tseka …
    Eish 8 hours" is no new length of the usual trip), unless those words tell of a change
    ("yesterday the doc upped my amlodipine" … "10mg")."""
    if named_in == 0 or NOW_SAID.search(sentence.text) or says_change(sentence.text):
        return True
    return not tells_of_an_occasion(scopes[1]) or says_change(" ".join(scopes[: named_in + 1]))


def _says_the_same(text: str, stored: str) -> bool:
    """The same words and the same values, however a value is written: a value changed and then
    said back ("35 minute!!" today, "usually … 15 minute") leaves "about 15 minutes" as it was."""

    def read(written: str) -> tuple[str, list[tuple[str, str]]]:
        values = _values(written)
        blanked = written
        for value in sorted(values, key=lambda v: -v.span[0]):
            blanked = blanked[: value.span[0]] + "\0" + blanked[value.span[1] :]
        return blanked, [(value.kind, value.key) for value in values]

    return read(text) == read(stored)


def _told_as_now(sentence: Said, start: int, message: str, *, later_counts: bool = True) -> bool:
    """The value at ``start`` is said as holding now: not supposed, asked or planned, nor placed
    at a later date anywhere in the sentence ("with effect from 1 April, my court days move to
    Wednesdays"; unless ``later_counts`` is False), not an exception its message says holds once
    ("long run Sunday — 18k. one-off."), nor a relative's news or what someone else says."""
    later = later_counts and placed_later(sentence.text, (0, len(sentence.text)), sentence.at)
    return not (
        mood_at(sentence.text, start)
        or later
        or for_once(message)
        or of_value(sentence.text, start).others
        or reported(sentence.text, start).others
    )


def _day_set_changes(
    said: Sequence[Said], known: Sequence[Known], texts: dict[int, str]
) -> list[tuple[int, str, str]]:
    """``(fact number, new text, evidence)`` for each fact whose set of days (``llm.day_sets``) a
    sentence changes, read from ``texts`` (the facts as other changes left them): the person's
    message, told as now, names one set and no other day but those it ends ("rec center moved my
    lessons to mondays n wednesdays, … they need the gym tuesdays"), and exactly one fact holds
    one set and no other day and shares an anchor with the sentence. The same days said again
    ("same tue thu sat runs") change nothing."""
    found: list[tuple[int, str, str]] = []
    weekdays = {stem(day) for day in WEEKDAYS}
    for sentence in said:
        message = " ".join(s.text for s in said if s.turn == sentence.turn)
        sets = day_sets(sentence.text)
        if len(sets) != 1 or len(day_sets(message)) != 1:
            continue
        new = sets[0]
        if not _told_as_now(sentence, new.span[0], message):
            continue
        besides = Counter(days_named(message)) - Counter(days_named(new.written))
        words = _anchors(sentence.text[: new.span[0]] + " " + sentence.text[new.span[1] :]) - weekdays
        fitting = []
        for fact in known:
            text = texts.get(fact.number, fact.text)
            stored = day_sets(text)
            if (
                len(stored) == 1
                and len(days_named(text)) == len(days_named(stored[0].written))
                and set(besides) <= set(stored[0].days) - set(new.days)
                and words & _anchors(text)
            ):
                fitting.append((fact, text, stored[0]))
        if len(fitting) != 1 or set(fitting[0][2].days) == set(new.days):
            continue
        fact, text, old = fitting[0]
        found.append(
            (fact.number, text[: old.span[0]] + written_as(new, old) + text[old.span[1] :], sentence.text)
        )
    return found


def _with_companion(
    kind: str, value: Value, said: str, companion: tuple[Known, int] | None, texts: dict[int, str]
) -> tuple[Known, Value, int] | None:
    """The fact an earlier value of the same clause went to, when it holds one value of this
    kind: values said together are of one thing ("we settled on the 2nd of December at 9:15"
    moves the physical's day and its hour, not a day and another appointment's hour)."""
    if companion is None or CLAUSE_BREAK.search(said, companion[1], value.span[0]):
        return None
    fact = companion[0]
    own = [v for v in _values(texts.get(fact.number, fact.text)) if _of_kind(v.kind, kind)]
    if len(own) != 1 or own[0].key == value.key:
        return None
    return fact, own[0], 0  # named in the sentence, by the value said with it


def _number_named(key: str, said: str) -> bool:
    """The sentence says the stored number, in its digits however grouped ("5000", "5,000")."""
    return any(re.sub(r"[,.]", "", number) == key for number in _FIRST_NUMBER.findall(said))


def _their_doing(said: str, start: int) -> bool:
    """Someone else does what the value's clause says, with a thing of theirs, and nothing in it
    is the person's ("Poor Mr. Ferguson, he only make 2,000 steps with his walker")."""
    clause = said[slice(*clause_around(said, start, start))]
    return doer(said, start).others and bool(_THEIR.search(clause)) and not says_own(clause)


def _one_ended(said: str, people: set[tuple[str, str]]) -> bool:
    """The sentence says a stored titled person ended ("Dr. Rankin's retired … I've been taken
    on by Dr. Anil Mehta"): the other titled person it names is who it is now."""
    keys = {key for _kind, key in people}
    return any(
        claim.past and claim.value.split()[-1:] in ([key] for key in keys) for claim in claims_in(said)
    )


def _described_otherwise(stored: str, old: tuple[int, int], said: str, new: tuple[int, int]) -> bool:
    """The word after the new value describes it otherwise than the word after the old one,
    and neither side says the other's word ("40 min driving" of "10 min walk")."""
    if other_rates(stored, old[1], said, new[1]):
        return True  # "14 euro the kilo" is not "1.20 euro a litre"
    before, after = _NEXT_WORD.match(stored, old[1]), _NEXT_WORD.match(said, new[1])
    if before is None or after is None:
        return False
    words = (before.group(1).lower(), after.group(1).lower())
    if any(word in STOPWORDS for word in words):
        return False
    return stem(words[0]) not in _stems(said) and stem(words[1]) not in _stems(stored)


def _of_another_name(stored: str, old: tuple[int, int], said: str, new: tuple[int, int]) -> bool:
    """The word right before the new amount is a name the stored fact does not hold, where the
    fact names its own thing right before the old one: the amount is that other thing's ("now I
    take Amlodipine 5 mg" of "takes Lisinopril 10 mg"; not "metformin become 850 mg", "one pill
    1000 mg")."""
    before_new, before_old = _LAST_WORD.search(said, 0, new[0]), _LAST_WORD.search(stored, 0, old[0])
    if before_new is None or before_old is None or not before_new.group(1)[0].isupper():
        return False
    # "it's", "doc's": the word before its ending
    words = [re.split(r"['’]", match.group(1).lower())[0] for match in (before_new, before_old)]
    if any(word in STOPWORDS or len(word) < _MIN_ANCHOR for word in words):
        return False
    return stem(words[0]) not in _stems(stored)


def _another_person_named(stored: str, message: list[Value], old_people: set[tuple[str, str]]) -> bool:
    """The stored fact names a person with a title, and the message names another whom no stored
    fact names: who the fact is about changed, which a new number or address alone does not
    write."""
    if not any(v.kind == TITLED for v in _values(stored)):
        return False
    # a name's key is one of its words, and names are written in either order ("Dr. Halász Péter")
    words = set(_WORD.findall(stored.lower()))
    return any(v.kind == TITLED and v.key not in words and (v.kind, v.key) not in old_people for v in message)


def _for_another_purpose(stored: str, said: str) -> bool:
    """The stored fact and the sentence each say what the value is for, and not one word of the
    two purposes is shared: another thing's value."""
    purposes = [_PURPOSE.findall(text) for text in (stored, said)]
    if not all(purposes):
        return False
    words = [_anchors(" ".join(found)) | _stems(" ".join(found), 3) for found in purposes]
    # "a prescription for amlodipine" names the line's own thing: no other purpose
    return all(words) and not words[0] & _stems(said) and not words[1] & _stems(stored)


def _of_another_thing(before: str, stored: str) -> bool:
    """The sentence says the value as the value of a thing the stored fact does not name: the
    word right before it ("pickup's 4:45", "rent is 950"), or the words of its clause before
    "is" of which two or more are not the fact's ("The school tuck-shop budget the board set is
    US$300" of "groceries …; budget about US$250")."""
    said = _VALUE_OF.search(before)
    if said is not None and said.group(1).lower() not in STOPWORDS and len(said.group(1)) >= _MIN_ANCHOR:
        return stem(said.group(1).lower()) not in _stems(stored)
    subject = _SUBJECT.search(before)
    return subject is not None and len(_anchors(subject.group(1)) - _stems(stored)) >= _OTHER_WORDS


def valued_turns(said: Sequence[Said]) -> set[int]:
    """The person's messages that hold a value, and the person's message before each: where
    a value-aligned change and its anchor are said."""
    turns = sorted({s.turn for s in said})
    holding = {s.turn for s in said if _values(s.text)}
    return holding | {turns[turns.index(turn) - 1] for turn in holding if turns.index(turn) > 0}


def _stored_people(known: Sequence[Known]) -> set[tuple[str, str]]:
    """The people the stored facts name with a title: one said beside the new one is the old
    ("Dr Fennimore has retired … I'm to see Dr Kaur now"), not a second new one. Other values
    named beside a new one stay a comparison ("Nationwide 4.39%. Halifax 4.52%.")."""
    return {(TITLED, v.key) for fact in known for v in _values(fact.text) if v.kind == TITLED}


def value_kinds(texts: Iterable[str]) -> set[str]:
    """The kinds of the values the texts hold (a number alone is not one of its own)."""
    return {value.kind for text in texts for value in _values(text) if value.kind not in (NUMBER, DAY)}


def _corrects_stored(sentence: str, known: Sequence[Known]) -> bool:
    """The sentence denies a number a stored fact holds, beside its new one: "this year 400, not
    200" of "Orders 200 amber glass bottles"."""
    denied = {v.key for v in _values(sentence) if v.denied}
    return bool(denied & {v.key for fact in known for v in _values(fact.text)})


def _taken_back(message: Sequence[str]) -> set[tuple[str, str]]:
    """The values of the message (its sentences) a later sentence of it takes back, by opening
    with "no" or "wait" and giving one of their kind again ("new # 907-555-0188" … "wait no." …
    "907-555-0118")."""
    taken: set[tuple[str, str]] = set()
    for at, text in enumerate(message):
        if not TAKES_BACK.match(text):
            continue
        again = {(family(v.kind), v.key) for later in message[at:] for v in _values(later) if not v.denied}
        earlier = [v for before in message[:at] for v in _values(before)]
        # one said again as it was is confirmed, not taken back ("No wait, let me look… yes, 0124")
        taken |= {
            (v.kind, v.key)
            for v in earlier
            if any(kind == family(v.kind) for kind, _ in again) and (family(v.kind), v.key) not in again
        }
    return taken


def _corrected(found: tuple[Value, ...]) -> list[Value]:
    """The values a sentence says as not holding beside one of their kind that does: a
    correction ("105 not 110"), not a bound or a source ("it'll be from Mr Achebe")."""
    holding = {value.kind for value in found if not value.denied}
    return [value for value in found if value.denied and value.kind in holding]


def _values(text: str) -> tuple[Value, ...]:
    """The values the rules align: not a postal address, whose town or district a move may
    change beside it ("we moved, 3 Harbour Road now" of "Lives at 14 Leith Walk, Edinburgh");
    a labelled address is the slots' to replace whole."""
    return tuple(value for value in values_in(text) if value.kind != ADDRESS)


def _single_values(text: str, old: set[tuple[str, str]]) -> list[tuple[str, Value]]:
    """The kinds the text holds exactly one value of (a value said as not holding, and an old
    one named beside it, aside)."""
    found = [value for value in _values(text) if (value.kind, value.key) not in old and not value.denied]
    families = dict.fromkeys(family(value.kind) for value in found)  # in the text's order
    return [
        (only[0].kind, only[0])
        for kind in families
        if len(only := [value for value in found if family(value.kind) == kind]) == 1
    ]


def _renamed(fact: str, said: str, span: tuple[int, int]) -> bool:
    """Beside the value, the sentence names another of a thing the fact names: the same
    capitalised word before another name ("Tower D" where the fact says "Tower B")."""
    rest = f"{said[: span[0]]} {said[span[1] :]}"
    for head, name in _NAMED.findall(rest):
        stored = re.search(rf"\b{re.escape(head)} ([\w-]+)", fact)
        if stored and stored.group(1) != name:
            return True
    return False


def _scopes(said: Sequence[Said], index: int) -> list[str]:
    """Where an anchor is looked for, nearest first: the sentence, its message, and the
    person's message before it."""
    sentence = said[index]
    turn = " ".join(s.text for s in said if s.turn == sentence.turn)
    earlier = [s.turn for s in said[:index] if s.turn < sentence.turn]
    before = " ".join(s.text for s in said if earlier and s.turn == earlier[-1])
    return [sentence.text, turn, before]


def _target(
    kind: str,
    value: Value,
    saying: Saying,
    scopes: list[str],
    known: Sequence[Known],
    texts: dict[int, str],
    theirs: bool,
    year: int,
) -> tuple[Known, Value, int] | None:
    """The one stored value of ``kind`` that the nearest scope anchors, its fact, and the index
    of that scope: the one value of a fact, or of a clause of a fact that holds several
    ("Monthly budget: £1,900; savings transfer of £300 to the Chase saver"); None when none is,
    or two are. A contact only on a line it fits (``llm.contact_lines``)."""
    sentence = saying.sentence
    lines = [texts.get(fact.number, fact.text) for fact in known]
    holding: list[tuple[Known, Value, str, tuple[int, int]]] = []
    named: set[int] = set()  # contacts whose line the person names: anchored already
    for fact in known:
        text = texts.get(fact.number, fact.text)
        # a number alone stands for the one amount a fact gives with its unit
        own = [
            v
            for v in _values(text)
            if _of_kind(v.kind, kind)
            # "he changed the number" may go to a relative's line, or to a contact's the message names whole
            and (not theirs or _of_another(text, v) or _contact_named_whole(kind, text, v, saying.message))
            and not WAS_BEFORE.search(text, 0, v.span[0])
            # a number alone stands only for an amount of its size: "110" for "44 mcg", not "2
            # puffs"; for one counted in a word only when its message names the stored one ("I send
            # her 7000, not 5000", "6,000 goal is joke. Set it to 10,000")
            and (kind != NUMBER or _comparable(value.key, v.key))
            and (kind != NUMBER or not v.kind.startswith(COUNTED) or _number_named(v.key, saying.message))
        ]
        regions = [(0, len(text))] if len(own) == 1 else _clauses(text)
        for region in regions:
            inside = [v for v in own if region[0] <= v.span[0] and v.span[1] <= region[1]]
            if len(inside) != 1:
                continue
            fit = line_fits(text, inside[0].span, saying, lines) if kind in CONTACT_KINDS else ONLY_ONE
            if fit == NAMED:
                named.add(fact.number)
            if fit != NOT_IT:
                holding.append((fact, inside[0], text, region))
    said_value = sentence[value.span[0] : value.span[1]]
    # the sentence's values are what it says, not what of: "every second Friday at 10 in the
    # morning" ties the time to no fact by its "Friday"
    others = {sentence[v.span[0] : v.span[1]] for v in _values(sentence)} - {said_value}
    for named_in, scope in enumerate(scopes):
        # the new value's own digits name no old number ("₱52,000" is not "the 000 one" of "₱5,000")
        rest = scope.replace(said_value, " ")
        for other in others:
            rest = rest.replace(other, " ")
        # what a date is of may be said owning it ("my physical's moved"); any value, as what it is
        # the value of, right before it ("changeover's Tuesdays now", "pickup is 4:45")
        words = _anchors(_POSSESSIVE.sub("", rest) if kind == DATE else rest) | _value_of(sentence, value)
        anchored = [
            (fact, old)
            for fact, old, text, region in holding
            if fact.number in named or _anchored(text, region, old, words, rest)
        ]
        if kind == DATE:  # a date changes only with what it is the date of: "my physical's moved"
            anchored = [(f, v) for f, v in anchored if _of_what(texts.get(f.number, f.text), v) & words]
        if len(anchored) > 1:
            # a record dated in a year gone by ("2022 contract …: 1.20 euro a litre") keeps its
            # value; the current line beside it takes the new one
            current = [
                (f, v) for f, v in anchored if not year_gone_by(texts.get(f.number, f.text), v.span[0], year)
            ]
            anchored = current or anchored
        if len(anchored) > 1:
            # two people's lines: the one whose whole name the message says
            whole = [
                (f, v)
                for f, v in anchored
                if _contact_named_whole(kind, texts.get(f.number, f.text), v, saying.message)
            ]
            anchored = whole if len(whole) == 1 else anchored
        if len(anchored) > 1:
            # two facts share a word with what was said: the one whose value's own noun the
            # person names ("double the amlodipine to 10 mg" of "amlodipine 5 mg nightly", not
            # "atorvastatin 20 mg at night"), and of those the one that is not someone else's
            # ("Husband Joe takes Amlodipine 5 mg too")
            headed = [(f, v) for f, v in anchored if _head(texts.get(f.number, f.text), v) & words]
            if len(headed) > 1:
                headed = [(f, v) for f, v in headed if not _of_another(texts.get(f.number, f.text), v)]
            if len(headed) != 1:
                return None
            anchored = headed
        if anchored:
            fact, old = anchored[0]
            if kind == NUMBER and not _comparable(value.key, old.key):
                return None
            if kind == MONEY and not of_a_size(value.key, old.key, _PRICE_SIZE):
                return None  # "$0.15 each" for flyers is no new price of "brisket plates $14"
            if kind.startswith(MEASURED) and not of_a_size(value.key.split()[0], old.key.split()[0], _SIZE):
                return None  # "50 bigger, 100 ml" is another bottle than "(10 ml)"
            if kind == NUMBER and _another_number_named(known, texts, scopes, said_value):
                return None
            return None if old.key == value.key else (fact, old, named_in)
    return None


def _same_unit(said: Value, stored: Value) -> bool:
    """Both quantities are in one unit, however each is spelled ("20 kilo" and "12.75kg")."""
    return said.key.split()[-1] == stored.key.split()[-1]


def _contact_named_whole(kind: str, text: str, value: Value, message: str) -> bool:
    """The stored contact value is a person's the message names by every word of their name."""
    return kind in CONTACT_KINDS and owner_said_whole(text, value.span, message)


def _value_of(sentence: str, value: Value) -> set[str]:
    """The word the sentence says the value is the value of, right before it, in its stem."""
    said = _VALUE_OF.search(sentence, 0, value.span[0])
    return _anchors(said.group(1)) if said else set()


def _of_another(text: str, value: Value) -> bool:
    """The stored value is someone else's, by the words of its line before it ("Husband Joe
    takes Amlodipine 5 mg", "Sister Meron …, mobile …")."""
    return bool(line_owner(text[: value.span[0]], HOUSEHOLD_LABELS, stem))


def _another_number_named(
    known: Sequence[Known], texts: dict[int, str], scopes: list[str], said: str
) -> bool:
    """A stored fact gives a plain number under a name said nearby ("gate code 4410" and "the
    landlord changed the gate code … it's 2958 now"): the number said alone is that one's, not
    an amount's new value ("pays rent TT$5,200")."""
    nearby = _anchors(" ".join(scopes).replace(said, " "))
    for fact in known:
        text = texts.get(fact.number, fact.text)
        # a bound is no number the fact gives ("lease with Mme Kirsch since 2021")
        if any(v.kind == NUMBER and not v.denied and _head(text, v) & nearby for v in _values(text)):
            return True
    return False


def _of_kind(stored: str, said: str) -> bool:
    """A stored value the said one may replace: of its kind; any amount with a unit, or counted
    in a word ("5000 som"), for a number said alone; a day a habit is on for a weekday said as
    recurring ("Blocks Wednesday 12–1 for lunch" and "lunch is fridays now")."""
    if said == NUMBER:
        return _measured(stored) or stored.startswith(COUNTED)
    return stored == said or (said == WEEKDAY and stored == DAY)


def _clauses(text: str) -> list[tuple[int, int]]:
    """Where the clauses of a text are: between full stops, semicolons and commas."""
    bounds = [0, *(m.end() for m in CLAUSE_BREAK.finditer(text)), len(text)]
    return [(start, end) for start, end in pairwise(bounds) if end > start]


def _measured(kind: str) -> bool:
    return kind.startswith(MEASURED) or kind == MONEY


def _comparable(said: str, stored: str) -> bool:
    """A number alone is the stored amount's new value only when it is of its size (within a
    factor of ``_SIZE``): "100" for "50mg", not "3" for "£1,150". Digits that open with a
    nought ("ends in 0932") are a code or the end of a number, never an amount."""
    if said.startswith("0") and said[1:2].isdigit():
        return False
    return of_a_size(said, stored.split()[0], _SIZE)


def _head(text: str, value: Value) -> set[str]:
    """The word right before a stored value, other values passed over, in its stem, when it is a
    content word: what the value is of ("amlodipine" of "amlodipine 5 mg"; "appointment" of "eye
    appointment 18 November, 2pm")."""
    words = _WORD.findall(_values_blanked(text[: value.span[0]], text))
    return _anchors(words[-1]) if words else set()


def _of_what(text: str, value: Value) -> set[str]:
    """The content word nearest before a stored value, other values and function words passed
    over, in its stem: "physical" of "Annual physical with Dr. Rankin, 18 November"."""
    words = [word for word in _WORD.findall(_values_blanked(text[: value.span[0]], text)) if _anchors(word)]
    return _anchors(words[-1]) if words else set()


def _values_blanked(before: str, text: str) -> str:
    """``before``, a start of ``text``, with the values of ``text`` it holds blanked out."""
    for other in _values(text):
        if other.span[1] <= len(before):
            before = before[: other.span[0]] + " " * (other.span[1] - other.span[0]) + before[other.span[1] :]
    return before


def _anchors(text: str) -> set[str]:
    """The words that may tie a text to a stored fact: content words, in their stem."""
    return _stems(text, _MIN_ANCHOR)


def _stems(text: str, shortest: int = 1) -> set[str]:
    """The text's content words of ``shortest`` letters or more, in their stem."""
    words = _WORD.findall(text.lower())
    return {stem(word) for word in words if len(word) >= shortest and word not in STOPWORDS}


def _anchored(text: str, region: tuple[int, int], old: Value, words: set[str], scope: str) -> bool:
    """The stored value's fact (or clause) shares a word with the scope (its label's too), or
    the scope names the end of its old number."""
    start, end = region
    label = _LABEL.match(text)
    around = (
        text[start : old.span[0]] + " " + text[old.span[1] : end] + (f" {label.group(1)}" if label else "")
    )
    if _anchors(around) & words:
        return True
    return end_named(old.key, scope)
