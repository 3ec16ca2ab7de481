"""When the offline rules are sure of a change to a stored fact: the last word on ``Edit.sure``.

The rules of ``llm.changes`` (with the value and ending readers it calls) propose edits and
mark those they are sure of. Each sure update or retirement is then checked here by the
structure of what was said and of what is stored, never by its wording, and made a suggestion
(shown in review, not applied by ``memdesk compact --yes``) when any of these holds:

- the evidence sentence is a question, a supposition, a plan or a later date (``mood_at``);
- the stored line says it is past: "Old email …", "(until …)", "(left 2023)", "fees were …";
- the stored line is someone else's (a possessive, a relative, a household name or "for Kwame"
  opens it or its label) and the person does not name them in the sentence or just before;
- the line is the person's own while the sentence tells of someone else and not of the
  person ("He new number is …", "my prima Daniela just moved to …", "Shona's wee sister
  Kayleigh's got a new phone"), or names nobody after a sentence of its message that does;
- a number, amount, dose, time or day is changed while neither the sentence nor what the
  person said just before it names the stored value, a word of its clause or label, or its slot;
- the sentence, or the one before it in its message, names another stored line by its label,
  and the message no word of this one ("moved offices. We're in Sandton now" is the office's
  news, not the home's); or by a word only that line holds, and the message no word only this
  one holds, for a sentence that names nothing stored ("Liffey Transit pays weekly now. First
  one came, €812." is not the credit union's);
- the same value, or another of its kind, is kept in another place of the same owner (the
  person's several e-mail lines, two times in one line, an office and a lunch spot on the same
  street) and the sentence says no word that tells this place from it;
- the new value's clause names another line of its kind rather than this one ("new personal
  is …, same provider as robin" is not Robin's line);
- the new value is a name the sentence goes on with after a comma ("a new bungalow in DHA
  Phase 6, Khayaban-e-Shahbaz"): the rules read only a part of the place;
- the new value's clause (a removal's whole sentence) reports what someone else said or heard
  of the person ("Ma heard I quit Big Sky");
- the edit writes one value of a shape over words of the line that are not the old value of
  that shape ("landline 304-555-0148 (no cell)" rewritten as "304-555-0172" drops the landline);
- another stored fact holds every name of the changed value too, and the message names words of
  that fact's own and none of this one's ("change the default, no more sabich" is news of the
  default order, not of the team lunch at Sabich Frishman);
- the new value is a number where the stored value has no digit ("renamed on 1st of …" over
  an employer's name);
- the sentence says a value ended that another stored fact holds and this one does not ("No
  more 312 batteries - …, which covers even a 200 km audax" is no news of the next ride);
- the new value is a weekday the sentence gives a date ("on Thursday, 6 February 2025"): a day
  something happened, not the day a schedule now falls on;
- the new value's clause says how often while the line is no schedule ("since I'm in Tulsa
  every week" is no new home);
- the message gives the new value with a word of place and a name other than the one the line
  goes on with, which the edit keeps ("… by Dr. Chebet at Lavington Animal Hospital …" does not
  make "sees Dr. Chebet at Karen Vet Clinic");
- a sentence that names nothing of the line (only the person's words before it do) says the
  new value of a word right after it that nothing stored names ("Yes, 3:45 reminder, with a loud
  sound please" after "the 5 am shift" is no new start of the shift);
- a new home said only by being there ("I am in Chaullay now, tomorrow we arrive to Machu
  Picchu"), when the message says nothing of living or moving and the person never names the
  place they left;
- an amount or a size whose sentence names, before it, something nothing stored names while the
  line names something the sentence does not ("my own Swapfiets, …, €19.90 a month" is not
  the old bike account's credit);
- the person says a thing the line names ended ("took me off ibuprofen", "cancelled Netflix")
  and the edit keeps it ("… Naproxen. 500, twice a day." is no new ibuprofen dose);
- in a later message, the person last gives the stored value itself, of a shape that says what
  it is ("my own number stays the same, call me on 079 555 01 23"; "our usual stays the same,
  20kg does us fine");
- a retirement whose sentence names something nothing stored names (a capitalised name past its
  first word): what took the ended value's place, which the rules did not read, and which a
  sure retirement would leave unsaid ("Harriet retired …, so my will stuff is with Deepak Rao
  at Marlow Legal now").

A sentence that names nothing stored (only the value: "07488 312 905.", "it's 75mg.") is read
with the sentence before it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise, takewhile

from memdesk.core.dates import (
    MONTHS,
    NUMBER_WORDS,
    WEEKDAYS,
    WRITTEN_DATE,
    count_of,
    names_now,
    without_dates,
)
from memdesk.core.search_text import STOPWORDS
from memdesk.core.slots import (
    PERSON_WORDS,
    claims_in,
    household_names,
    marked_past,
    mood_at,
    possessive_at,
    present_only,
    slots_named_in,
    stem,
    undecided,
)
from memdesk.core.values import (
    ADDRESS,
    CLOCK,
    COUNTED,
    DURATION,
    EMAIL,
    EVERY,
    MEASURED,
    NUMBER,
    PHONE,
    TITLED,
    WAS_BEFORE,
    Value,
    family,
    of_a_size,
    other_rates,
    said_as_before,
    values_in,
    year_gone_by,
)
from memdesk.core.whose import (
    CAPITALISED,
    LABEL,
    dictated,
    line_owner,
    names_in_common,
    only_relation,
    reported,
    subject_of_another,
    tells_of_another,
    without_others_titled,
    without_relatives_named,
)
from memdesk.llm.changes import Edit, Known, Said, offline_changes
from memdesk.llm.ended import says_ended
from memdesk.llm.text import rewritten_span

# A note is a knowledge entry or an app memory: what it tells may be an event of its own.
_NOTES = ("entry", "app")
_NOTE_SENTENCE = re.compile(r"[.;!?](?:\s|$)")
_PAST_VERB = re.compile(r"\b[a-z]{3,}ed\b")  # "fixed", "registered", "reported"
_EVENT_TIME = re.compile(
    rf"\b(?:in|on|since|during)\s+(?:{'|'.join(MONTHS)})\b|\blast\s+(?:week|month|year|summer|winter|spring|autumn)\b"
)
# A value whose shape says what it is: a phone number, an address, a titled name.
_SELF_DESCRIBING = frozenset({PHONE, EMAIL, ADDRESS, TITLED})
_SPAN_OF_TIME = f"{MEASURED}{DURATION}"  # "45 minutes": often another thing's
_WORD = re.compile(r"[^\W\d_][\w'’-]*|\d+[a-z]*")
_CONTRACTED = re.compile(r"['’](?:s|re|ll|d|ve|m)$")
_CLAUSE_BREAK = re.compile(r"[,;]\s|\s[—–-]\s|\s(?:and|but|so)\s")
# A clause in the past progressive, or a plan of then: "we were going to Whitby instead of
# Filey", "I was gonna switch", "she was living in Leeds".
_PAST_ONGOING = re.compile(r"(?i:\b(?:was|were)\s+(?:\w+\s+)?(?:[a-z]{2,}ing|gonna)\b)")
_MIN_VALUE = 3  # characters of a value looked for in other facts
_MIN_NAME_WORD = 4  # letters of a line's word read as naming a thing that may have ended
_OPENING_WORDS = 3  # a line's subject, whose it is: "Grandma Zainab's number", "Dad takes …"
_SAYING_WORDS = 2  # before a value in its clause, enough to say what it is: "team review 15:30"
# A line that says it is past: "Old …", "(former)", "fees were …", a year in its label.
_PAST_WORDS = re.compile(r"(?i:\b(?:old|former|previous|ex|was|were)\b)")
_YEAR = re.compile(r"\b((?:19|20)\d\d)\b")
# After a value of words, a comma and a capitalised word: the name goes on ("DHA Phase 6, Khayaban…").
_PART_BREAK = re.compile(r"[,;]\s")  # between the parts of a line: "Engine 33, Back Bay"
_FIRST_WORD = re.compile(r"^\s*(?:[-*•]\s*)?\S+")
# A line that tells a plan ("Plans to buy a cash register …; quote of 18,000 som"): a new value of
# it may come with the plan carried out ("Bought yesterday … 17,500 som"), which the value alone
# does not say.
_PLAN_LINE = re.compile(
    r"(?i:\s*(?:[-*•]\s*)?(?:[^:\n]{1,40}:\s*)?"  # a label: "Church choir practice: moving to Fridays"
    r"(?:plans?|planning|intends?|hoping|hopes|wants?|going|moving|switching|changing|shifting)\s+to\b)"
)
# The person's change to a name: "I changed finally to Pannon Zöld", "we switched over to Zen";
# not another thing's ("my savings moved to Monzo").
_CHANGED_TO_LEAD = (
    r"(?i:\b(?:I|we)\s+(?:\w+\s+)?(?:changed|switched|moved|went|swapped|transferred)\b[^.!?,;]{0,20}?"
    r"\bto\s+(?:the\s+)?|"
    # what the person has or uses now: "Now we have Kumasi Fibre Link in the house"
    r"\bnow\s+(?:I|we)\s+(?:have|use|got|are\s+with|am\s+with)\s+(?:the\s+)?)"
)
_CHANGED_TO = re.compile(_CHANGED_TO_LEAD + r"([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)*)")
# Texting in lower case writes names in lower case: a few words, to the first word of no content.
_CHANGED_TO_LOWER = re.compile(_CHANGED_TO_LEAD + r"([a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,3})")
_NAME_GOES_ON = re.compile(r",\s+[A-Z]")
# A capitalised word that does not open its sentence: a name.
_NAME = re.compile(r"(?<=[\s(])[A-Z][\w&'’-]*")
_NOT_NAMES = frozenset(
    {"i", *WEEKDAYS, *(f"{day}s" for day in WEEKDAYS), *(month.lower() for month in MONTHS)}
)
# After a value, a word of place and a name: " at Karen Vet Clinic", " of Ledger Kenya".
_PLACED_AFTER = re.compile(r"\s+(?P<by>at|in|of|from|with)\s+(?P<name>[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*)")
# A date right after a weekday: "Thursday, 6 February 2025", "Friday the 14th".
_DATE_AFTER = re.compile(
    r"(?i:s?,?\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+(?:of\s+)?(?:"
    + "|".join(MONTHS)
    + r")\b|(?<=st|nd|rd|th)\b))"
)
_DIGIT = re.compile(r"\d")
# A number and what it counts: "three sons", "2 daughters".
_COUNT = re.compile(
    r"(?i:\b(" + "|".join(word for word in NUMBER_WORDS if len(word) > 2) + r"|\d{1,3})\s+([^\W\d_]{3,}))"
)
_NOT_BEFORE = re.compile(r"(?i:\bnot\s+$)")  # "not three sons": a count denied
_EVERY = re.compile(r"(?i:\b(?:every|each|weekly|usually|always)\b)")  # a day said of every week
_ANSWER_WORDS = 5  # fewer words than this: a short answer, no story of a day
_NOW_OR_INSTEAD = re.compile(r"(?i:\b(?:now|instead)\b)")
# Words right before a day that make it what a thing is or moves to: "to Thursday", "is Thursday".
_SCHEDULED_BEFORE = re.compile(r"(?i:(?:\b(?:to|is|are|be|becomes?|from|until|till|onto)|['’]s)\s+$)")
_NUMBER_ALONE = re.compile(r"\d[\d.,]*(?:st|nd|rd|th)?")  # "15th", "2,400": a number and no more
_NUMBER = re.compile(r"\d[\d.,:]*")
_HALF_DAY = 12 * 60  # minutes
_RECURRENCE = "day:"  # the slot prefix of a claim saying how often or on which day ("every week")


@dataclass(frozen=True)
class _Place:
    """Where a stored value is: its fact and span, the stems of the words that say what it is,
    whose it is (empty: the person's own), and whether its line says it is past."""

    number: int
    span: tuple[int, int]
    head: frozenset[str]
    owner: frozenset[str]
    past: bool


@dataclass(frozen=True)
class _Evidence:
    """The evidence sentence (the store's written dates left out), the sentences of its
    message, and the sentence before it."""

    sentence: str
    message: tuple[str, ...]
    before: str
    before_in_message: bool
    earlier: str  # the message's sentences before it, and the person's message before that
    later: tuple[str, ...]  # the person's sentences after it, to the end of the conversation
    replies: tuple[str, ...]  # those of the person's later messages
    year: int


def offline_edits(said: Sequence[Said], known: Sequence[Known]) -> list[Edit]:
    """The offline rules' edits (``llm.changes``), each sure only when the checks above pass."""
    return offline_decided(offline_changes(said, known), said, known)


def offline_decided(edits: Sequence[Edit], said: Sequence[Said], known: Sequence[Known]) -> list[Edit]:
    """``edits`` with each sure update or retirement that a check above refuses made a suggestion."""
    by_number = {fact.number: fact for fact in known}
    household = household_names("\n".join(fact.text for fact in known if fact.where == "profile"))
    turns: dict[int, list[str]] = {}
    for sentence in said:
        turns.setdefault(sentence.turn, []).append(WRITTEN_DATE.sub("", sentence.text))
    decided = []
    for edit in edits:
        fact = by_number.get(edit.target) if edit.target is not None else None
        at = _sentence_at(said, edit.evidence)
        if fact is None or at is None or not edit.sure or edit.action == "add":
            decided.append(edit)
            continue
        evidence = _Evidence(
            WRITTEN_DATE.sub("", said[at].text),
            tuple(turns[said[at].turn]),
            WRITTEN_DATE.sub("", said[at - 1].text) if at else "",
            at > 0 and said[at - 1].turn == said[at].turn,
            _earlier(said, at),
            tuple(WRITTEN_DATE.sub("", s.text) for s in said[at + 1 :]),
            tuple(WRITTEN_DATE.sub("", s.text) for s in said[at + 1 :] if s.turn > said[at].turn),
            said[at].at.year,
        )
        reason = refusal(edit, fact, known, evidence, household)
        if reason:
            why = f"May be out of date: “{fact.text}” — the person said: “{edit.evidence}” ({reason})"
            edit = replace(edit, sure=False, why=why)
        decided.append(edit)
    return _one_line_a_value(decided, by_number)


def _one_line_a_value(edits: list[Edit], by_number: Mapping[int, Known]) -> list[Edit]:
    """``edits`` without the suggestions that write a value a sure edit of the same sentence
    already writes into another line: the sentence gave it to that line ("Gino raised chair
    rent to $1,550" is not also the home rent). A fact stored twice is then listed by Memory
    health, not rewritten on a guess."""

    def written(edit: Edit) -> tuple[str, str]:
        fact = by_number.get(edit.target) if edit.target is not None else None
        value = _new_value(fact.text, edit.text) if fact is not None and edit.action == "update" else ""
        return edit.evidence, value

    values = [written(edit) for edit in edits]
    sure = {value for edit, value in zip(edits, values, strict=True) if edit.sure and value[1]}
    return [edit for edit, value in zip(edits, values, strict=True) if edit.sure or value not in sure]


def _earlier(said: Sequence[Said], at: int) -> str:
    """The sentences of the evidence's message before it and of the person's message before."""
    turn = said[at].turn
    previous = max((s.turn for s in said[:at] if s.turn < turn), default=None)
    texts = [s.text for s in said[:at] if s.turn == turn or s.turn == previous]
    return WRITTEN_DATE.sub("", " ".join(texts))


def _sentence_at(said: Sequence[Said], evidence: str) -> int | None:
    """Where the evidence is among the person's sentences, the store's written dates aside."""
    quoted = WRITTEN_DATE.sub("", evidence).strip()
    return next((at for at, s in enumerate(said) if WRITTEN_DATE.sub("", s.text).strip() == quoted), None)


def refusal(
    edit: Edit, fact: Known, known: Sequence[Known], evidence: _Evidence, household: frozenset[str]
) -> str:
    """Why the rules are not sure of ``edit`` of ``fact``; "" when they are."""
    rewritten = rewritten_span(fact.text, edit.text)
    # a removal: the whole line is what ends
    place = _place_at(fact.number, fact.text, rewritten, household) if edit.text else _whole(fact, household)
    if place.past:
        return "the stored line says it is past"
    if edit.text and reported(fact.text, place.span[0]).others:
        # "doctor says cut back on sweet bread and soda": the advice stays what was said
        return "the stored value is in someone else's words, which the person's news does not change"
    new = _new_value(fact.text, edit.text)
    at = evidence.sentence.find(new) if new.strip() else -1
    mood = mood_at(evidence.sentence, at if at >= 0 else len(evidence.sentence))
    if mood or evidence.sentence.rstrip().endswith("?"):
        return "a question, a supposition or a plan, not a change"
    if edit.text and not marked_past(edit.text) and _hedged_after(evidence):
        return "the person says right after that it is not settled"
    if at >= 0 and year_gone_by(evidence.sentence, at, evidence.year):
        return "the sentence tells of a year gone by, not of now"
    if at >= 0 and _PAST_ONGOING.search(evidence.sentence, _clause_start(evidence.sentence, at), at):
        return "the clause tells what was going on or meant then, not what holds now"
    if not edit.text and fact.where in _NOTES and year_gone_by(fact.text, len(fact.text), evidence.year):
        return "the stored note tells of a year gone by, which no news of now ends"
    message = " ".join(evidence.message)
    if at >= 0 and dictated(message, message.find(evidence.sentence) + at):
        return "the value is in words quoted for someone to read, not said as the person's own"
    if _reported(evidence.sentence, at):
        return "the sentence tells what someone else said or heard, not what the person says"
    old_value = fact.text[place.span[0] : place.span[1]]
    if edit.text and _said_shorter(new, old_value):
        return "the person names the stored value in fewer of its words, not a new one"
    if edit.text and _DIGIT.match(new.strip()) and not _DIGIT.search(old_value):
        return "a number in place of a value written in words"
    if edit.text and _NUMBER_ALONE.fullmatch(old_value.strip()) and not _DIGIT.search(new):
        return "words in place of a number"
    if edit.text and _ends_another(evidence.sentence, new, fact, known):
        return "what the sentence says ended is kept in another stored fact, not this one"
    if edit.text and _dated_day(evidence.sentence, new):
        return "the day is said with its date: a day something happened, not a day it now falls on"
    if edit.text and _event_day(evidence.sentence, new):
        return "the day is when something happened, and the sentence says nothing changed"
    if edit.text and _habit_at(evidence.sentence, new, fact.text):
        return "the sentence says how often the person is there, not what the line holds now"
    whole_value = any(value.span == (0, len(new)) for value in values_in(new))
    if at >= 0 and not whole_value and _NAME_GOES_ON.match(evidence.sentence, at + len(new)):
        return "the sentence goes on with the new name past what the rules read"
    if edit.action == "retire" and _names_unstored(evidence.sentence, known):
        return "the sentence names something new, perhaps what took its place"
    if (not edit.text or marked_past(edit.text)) and _new_value_of_its_kind(fact, known, evidence):
        return "the person also gives a new value of the kind the line holds, which an end does not write"
    if edit.text and at < 0 and _bare_number_elsewhere(evidence.sentence, new, fact.text, place.head):
        return "the number is said alone in a clause that does not name what the line holds"
    if edit.text and _said_again_otherwise(edit.text, new, evidence.later, known):
        return "the person gives another value of this kind later in the conversation"
    if edit.text and _fewer_parts(fact.text, edit.text, rewritten):
        return "the edit writes one thing over several the line held"
    if edit.text and _beyond_its_value(fact.text, edit.text):
        return "the new value takes the place of more than the old value of its kind"
    if _another_holding_it_named(fact, known, place, evidence.message):
        return "another stored fact holds it too, and the message names that one, not this"
    if edit.text and _left_as_it_was(evidence.sentence, fact.text, rewritten, known, new):
        return "the sentence also gives a new value the edit leaves as it was"
    if edit.text and _count_left_as_it_was(evidence.sentence, fact.text, rewritten):
        return "the sentence also gives a new count of a thing the line counts, which the edit keeps"
    if edit.text and _changed_to_unwritten(evidence.sentence, edit.text, known):
        return "the sentence says it changed to a name the edit does not write"
    if fact.where in _NOTES and _event_record(fact.text, place.span):
        return "the stored note tells of something done at a time, whose values are of that time"
    if edit.text and _PLAN_LINE.match(fact.text) and _PLAN_LINE.match(edit.text):
        return "the line is a plan, and the edit keeps it one while changing a value of it"
    if edit.text and _goes_on_otherwise(fact.text, place.span, new, evidence.message):
        return "the message names the new value with another place than the one the edit keeps"
    if edit.text and place.owner and _held_as_own(new, fact, known, household):
        return "the person's own line holds this value already, and this line is someone else's"
    if edit.text and at >= 0 and not place.owner and _of_another_subject(evidence.sentence, at, fact, place):
        return "the new value's clause has someone else as its subject, and the line is the person's own"
    found = _whose(place, fact, evidence, known) or _which(edit, fact, known, place, evidence, new, household)
    if found:
        return found
    if (
        edit.text
        and at >= 0
        and present_only(evidence.sentence, at, " ".join(evidence.message))
        and not _place_left_named(old_value, evidence)
    ):
        return "the sentence says where the person is now, and nothing that they live there"
    if not new.strip() or marked_past(edit.text):
        return ""  # a removal, or the line marked past: it keeps the old words on purpose
    if _keeps_what_ended(fact.text, edit.text, f"{evidence.earlier} {evidence.sentence}"):
        return "the person says a thing the line names ended, and the edit keeps it"
    if _old_value_said_again(fact.text, place.span, new, evidence.replies):
        return "the person gives the stored value again in a later message, as it is"
    return ""


def _hedged_after(evidence: _Evidence) -> bool:
    """A sentence that only hedges ("Maybe.", "Nothing decided yet.") follows the new value in
    its message. (A hedge in the next message answers the assistant; after an end, one is of
    starting again: "I stopped the French class … Maybe another year".)"""
    rest_of_message = evidence.later[: len(evidence.later) - len(evidence.replies)]
    return any(undecided(sentence) for sentence in rest_of_message)


def _event_record(note: str, span: tuple[int, int]) -> bool:
    """The note's sentence holding the value tells of something done at a named time: a verb in
    the past before the value and a month, a year or a "last" time in the sentence ("Kak Dilshad
    … fixed the white Toyota Hilux gearbox in March for 450,000 IQD"); a new car is no news of
    that repair. A schedule ("credited … on the 25th of each month") names no such time."""
    start = max((m.end() for m in _NOTE_SENTENCE.finditer(note, 0, span[0])), default=0)
    stop = _NOTE_SENTENCE.search(note, span[1])
    sentence_end = stop.start() if stop else len(note)
    timed = _EVENT_TIME.search(note, start, sentence_end) or _YEAR.search(note, start, sentence_end)
    return bool(_PAST_VERB.search(note, start, span[0])) and bool(timed)


def _fewer_parts(old: str, new: str, rewritten: tuple[int, int]) -> bool:
    """The edit rewrites parts of the line set apart by commas or semicolons with fewer parts, in
    words that name nothing ("Job: firefighter, Boston Fire Dept, Engine 33, Back Bay" as "Job:
    just a truck"): what the other parts held is lost, not said to have changed. A name or a
    value over them is a new one whole ("Home: Westbury, Leeds, near the ring road" as "Home:
    Otley")."""
    start, end = rewritten
    written = new[start : len(new) - (len(old) - end)].strip()
    before = len(_PART_BREAK.findall(old, start, end))
    fewer = before > 0 and len(_PART_BREAK.findall(written)) < before
    return fewer and not written[:1].isupper() and not written[:1].isdigit()


def _place_left_named(old_value: str, evidence: _Evidence) -> bool:
    """The person names the stored place anywhere they speak: a move names the place left."""
    spoken = " ".join((evidence.earlier, evidence.sentence, *evidence.later))
    return bool(_stems(old_value) & _stems(spoken))


def _keeps_what_ended(old: str, new: str, said: str) -> bool:
    """The edit keeps a word of the line, past its label, naming a thing the person says ended
    ("took me off ibuprofen … Naproxen. 500, twice a day." does not make `ibuprofen 500 mg`;
    "dropped my phone" ends no `Phone:` line), or someone the person says is gone ("Dr Elsa has
    retired … His number is 056 555 0176" does not give Dr Elsa a new number)."""
    label = LABEL.match(old)
    kept = {word for word in _WORD.findall(new) if len(word) >= _MIN_NAME_WORD}
    kept -= {word for word in kept if word.lower() in STOPWORDS}
    named = set(_WORD.findall(old[label.end() if label else 0 :]))
    if any(says_ended(said, word) for word in kept & named):
        return True
    still = {word.lower() for word in kept & named}
    gone = [  # names said to be gone ("Dr Elsa has retired"), not "dropped the agreed value to …"
        claim.value.split()
        for claim in claims_in(said)
        if claim.past and claim.value and said[claim.span[0] : claim.span[0] + 1].isupper()
    ]
    return any(words and all(word in still for word in words) for words in gone)


def _old_value_said_again(line: str, span: tuple[int, int], new: str, later: Sequence[str]) -> bool:
    """In the person's later messages, the last of the two values they give is the stored one,
    of a shape that names it alone (a phone number, an e-mail, an address: "My own number stays
    the same, call me on 079 555 01 23") or with a unit of things ("Our usual stays the same,
    20kg does us fine"): it still holds. (In the same message it may be what is wrong now:
    "couriers keep going to 12"; a day, a time or a span of time may be another thing's: "the
    lunch break of the pickers, 45 minutes".)"""
    values = values_in(line)
    old = {value.key for value in values if _overlap(value.span, span) and _says_what_it_is(value.kind)}
    fresh = {value.key for value in values_in(new)}
    last = ""
    for sentence in later:
        # a name owning what follows it, or said as it was, is no value given: "Flora's staying
        # with Dr. Rankin's nurse", "as patient with me as Dr. Kenny was"
        said = {
            value.key
            for value in values_in(sentence)
            if not value.denied
            and not possessive_at(sentence, value.span[1])
            and not _AS_IT_WAS.match(sentence, value.span[1])
        }
        last = "old" if said & old and not said & fresh else "new" if said & fresh else last
    return bool(old) and last == "old"


_AS_IT_WAS = re.compile(r"\s+(?:was|were|used\s+to|had\s+been)\b")


def _says_what_it_is(kind: str) -> bool:
    """A value's shape names what it is: a phone number, an e-mail, an address, a titled name, a
    quantity of things with its unit (a mass, a volume, a length; not a span of time)."""
    return kind in _SELF_DESCRIBING or (kind.startswith(MEASURED) and kind != _SPAN_OF_TIME)


def _bare_number_elsewhere(sentence: str, new: str, line: str, head: frozenset[str]) -> bool:
    """The new amount's number is said without its unit, and another clause of the sentence
    names what the line holds with a number of its own that the line does not give ("the doc
    bumped the lisinopril to 20 …, I'm up at 4"): the number said alone is another thing's."""
    number = _NUMBER.search(new)
    if number is None:
        return False
    found = list(re.finditer(rf"(?<![\d.,]){re.escape(number.group())}(?![\d.,]*\d)", sentence))
    if len(found) != 1:
        return False
    stored = set(_NUMBER.findall(line))
    bounds = [0, *(m.end() for m in _CLAUSE_BREAK.finditer(sentence)), len(sentence)]
    for start, end in pairwise(bounds):
        clause = sentence[start:end]
        if start <= found[0].start() < end or not head & _stems(clause):
            continue
        if set(_NUMBER.findall(clause)) - stored:
            return True
    return False


def _said_again_otherwise(text: str, new: str, later: Sequence[str], known: Sequence[Known]) -> bool:
    """After the evidence, the person last says another value of the new value's kind that
    nothing stored holds, and not the new one again: a correction ("Correct number is
    555-0187"), or a second new value the rules cannot tell from the first. Not one said as it
    was ("I sell still 14 euro"), a rate of another measure than the edit's ("the kilo"), nor one
    supposed or planned."""
    end = text.find(new) + len(new)
    kinds = {value.kind for value in values_in(new)}
    keys = {value.key for value in values_in(new)}
    stored = {value.key for fact in known for value in values_in(fact.text)}
    # a number said alone may be another amount counted in the word, of its size ("to 25 euros" …
    # "the bank paper says 30")
    counted = any(kind.startswith(COUNTED) for kind in kinds)
    otherwise = False
    for sentence in later:
        said = {
            v.key
            for v in values_in(sentence)
            if (v.kind in kinds or (counted and v.kind == NUMBER and _near_in_size(v.key, keys)))
            and not v.denied
            and not said_as_before(sentence, v.span)
            and not other_rates(text, end, sentence, v.span[1])
            and not mood_at(sentence, v.span[0])  # supposed or planned: "next year maybe I pay 500"
        } - stored
        if said & keys:
            otherwise = False  # said again: confirmed
        elif said:
            otherwise = True
    return otherwise


def _near_in_size(number: str, keys: set[str]) -> bool:
    """The number is within a factor of two of one of ``keys`` that are amounts ("2150")."""
    return any(of_a_size(number, key, 2) for key in keys)


def _left_as_it_was(
    sentence: str, line: str, span: tuple[int, int], known: Sequence[Known], new: str
) -> bool:
    """The sentence gives a value of another kind that the line also holds with another key,
    and the edit leaves the line's as it was ("Now I swim Tuesday and Thursday at 6:30am" of
    "Mon/Wed/Fri at 7am"): the edit would keep half of what changed. A value another stored
    fact holds is that fact's, unless it is said in the clause that gives the new value ("now
    is Saturday 4 o'clock" of "Sundays 7pm", with "Saturday 6am-2pm: on the bus" stored too)."""
    changed = {family(v.kind) for v in values_in(line) if _overlap(v.span, span)}
    kept = {family(v.kind) for v in values_in(line) if not _overlap(v.span, span)} - changed
    own = {_same(value) for value in values_in(line)}
    stored = {_same(value) for fact in known for value in values_in(fact.text)}
    given = {_same(value) for value in values_in(new)}
    clauses = [
        (_clause_start(sentence, v.span[0]), _clause_end(sentence, v.span[1]))
        for v in values_in(sentence)
        if _same(v) in given
    ]
    return any(
        family(v.kind) in kept
        and not v.denied
        and _same(v) not in own
        and (_same(v) not in stored or any(start <= v.span[0] < end for start, end in clauses))
        for v in values_in(sentence)
    )


def _count_left_as_it_was(sentence: str, line: str, span: tuple[int, int]) -> bool:
    """The sentence counts a thing the line also counts outside the rewritten part, and with
    another number ("Two sons and two daughters, not three sons" over "three sons, one
    daughter" rewritten as "two sons, one daughter"): the edit would keep a count that changed."""
    kept = {
        stem(match.group(2)): count_of(match.group(1))
        for match in _COUNT.finditer(line)
        if not _overlap(match.span(), span)
    }
    said = [
        (stem(match.group(2)), count_of(match.group(1)))
        for match in _COUNT.finditer(sentence)
        if not _NOT_BEFORE.search(sentence, 0, match.start())
    ]
    return any(kept.get(thing, count) != count for thing, count in said)


def _goes_on_otherwise(line: str, span: tuple[int, int], new: str, message: Sequence[str]) -> bool:
    """The line goes on past its old value with a word of place and a name ("Dr. Mutua at Karen
    Vet Clinic"), and the message gives the new value going on with the same word and another
    name ("Dr. Chebet at Lavington Animal Hospital"): the edit would keep the old place."""
    kept = _PLACED_AFTER.match(line, span[1])
    if kept is None or not new.strip():
        return False
    for said in message:
        at = said.find(new.strip())
        given = _PLACED_AFTER.match(said, at + len(new.strip())) if at >= 0 else None
        if given and given["by"].lower() == kept["by"].lower() and given["name"] != kept["name"]:
            return True
    return False


def _same(value: Value) -> tuple[str, str]:
    """What a value compares by: a clock time said without "am" or "pm" is either."""
    if value.kind == CLOCK:
        return CLOCK, str(int(value.key) % _HALF_DAY)
    return family(value.kind), value.key


def _changed_to_unwritten(sentence: str, after: str, known: Sequence[Known]) -> bool:
    """The sentence says the person changed to a name that nothing stored holds and the edit does
    not write, while the edit keeps a name of the line that is not of the new one ("I changed
    finally to Pannon Zöld, same 10 GB but only 2,990 Ft a month" over "Mobile plan: Vonalas
    Mobil, 10 GB, 4,990 Ft a month"; "I moved phone to Heron Mobile, €15 a month, Clover was
    robbing me" over "Clover Mobile, €20/month"): the edit would keep the old name. ("I moved to
    Paris … I quit coffee, only tea now" says nothing of a name in "Drinks coffee every morning".)"""
    label = LABEL.match(after)
    body = after[label.end() :] if label else _FIRST_WORD.sub("", after)  # not "Drinks tea …"
    kept = {name.lower() for name in _NAME.findall(f" {body}")} - _NOT_NAMES  # the first after a label too
    stored = {word.lower() for fact in known for word in _WORD.findall(fact.text)} | {
        word.lower() for word in _WORD.findall(after)
    }
    lower_case = sentence == sentence.lower()
    for match in (_CHANGED_TO_LOWER if lower_case else _CHANGED_TO).finditer(sentence):
        words = [word.lower() for word in _WORD.findall(match.group(1))]
        if lower_case:
            words = list(takewhile(lambda word: word not in STOPWORDS, words))
        new = set(words)
        if new - stored and kept - new:
            return True
    return False


def _new_value_of_its_kind(fact: Known, known: Sequence[Known], evidence: _Evidence) -> bool:
    """Around an end, the person gives a phone number, an e-mail, an address or a titled person
    of a kind the ended line holds, that nothing stored holds ("cancelled the 0163 line" after
    "new # … 907-555-0118"; "canceled Pacific Shore" beside "agent one guy Brandon,
    808-555-0153"): what took its place, which ending the old one does not write. (A time or a
    day said beside an end is seldom its successor: "I come home at 9 every night".)"""
    kinds = {family(value.kind) for value in values_in(fact.text) if value.kind in _SELF_DESCRIBING}
    stored = {(family(value.kind), value.key) for other in known for value in values_in(other.text)}
    spoken = " ".join((evidence.earlier, *evidence.message, *evidence.later))
    return any(
        family(value.kind) in kinds and not value.denied and (family(value.kind), value.key) not in stored
        for value in values_in(spoken)
    )


def _names_unstored(sentence: str, known: Sequence[Known]) -> bool:
    """The sentence names something (a capitalised word past its first) that no stored fact names."""
    stored = {word.lower() for fact in known for word in _WORD.findall(fact.text)}
    names = {_CONTRACTED.sub("", name.lower()) for name in _NAME.findall(sentence)}
    return bool(names - stored - _NOT_NAMES)


def _reported(sentence: str, at: int) -> bool:
    """The new value's clause (a removal's whole sentence, up to its full stop, which would open
    a sentence of its own) reports what someone else said or heard of the person ("Ma heard I
    quit …"; not "my brother says I'm overreacting, but I've moved to a new address, …")."""
    if at < 0:
        return reported(sentence, len(sentence.rstrip(" .!?"))).others
    return reported(sentence[_clause_start(sentence, at) :], at - _clause_start(sentence, at)).others


def _of_a_new_thing(sentence: str, line: str, known: Sequence[Known]) -> bool:
    """The sentence before the new value (what an amount is of comes first: "my own Swapfiets,
    …, €19.90 a month"; "a new phone: Galaxy S24" names the value itself, after) names something
    no stored fact names while the stored line names something it does not: the amount is the
    new thing's."""
    opened = line.lstrip("-*• ")  # the word opening the line is capitalised as any first word
    line_names = {_CONTRACTED.sub("", name.lower()) for name in _NAME.findall(opened)} - _NOT_NAMES
    said = {word.lower() for word in _WORD.findall(sentence)}
    return bool(line_names) and not line_names & said and _names_unstored(sentence, known)


def _names_what_it_is(sentence: str, new: str, stored: set[str]) -> bool:
    """A word right after the new value says what it is of, and nothing stored names it ("Yes,
    3:45 reminder, with a loud sound please" is no new start of a shift)."""
    at = sentence.find(new.strip()) if new.strip() else -1
    following = _WORD.match(sentence, at + len(new.strip()) + 1) if at >= 0 else None
    if following is None or sentence[at + len(new.strip()) : following.start()] != " ":
        return False
    word = following.group().lower()
    return word not in STOPWORDS and not _DIGIT.search(word) and stem(word) not in stored


def _before_value(sentence: str, new: str) -> str:
    """The sentence before the new value, found as written or by its number ("£15/mo" written
    for "paying 15 a month"); all of it but the value when neither is there."""
    number = _NUMBER.search(new)
    for said in (new.strip(), number.group() if number else ""):
        at = sentence.find(said) if said else -1
        if at >= 0:
            return sentence[:at]
    return _without(sentence, new)


def _ends_another(sentence: str, new: str, fact: Known, known: Sequence[Known]) -> bool:
    """The sentence says a value ended that another stored fact holds and this one does not,
    while the new value's own clause says nothing of this line's kind: the change is that
    fact's, and the value is no news of this line ("I moved to Paris and I quit coffee" still
    moves the person)."""
    line_slots = {claim.slot for claim in claims_in(fact.text) if claim.slot}
    if any(claim.slot in line_slots and not claim.past for claim in claims_in(_clause_of(sentence, new))):
        return False
    for claim in claims_in(sentence):
        if not claim.past:
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(claim.value)}(?!\w)", re.IGNORECASE)
        if not pattern.search(fact.text) and any(
            pattern.search(other.text) for other in known if other.number != fact.number
        ):
            return True
    return False


def _dated_day(sentence: str, new: str) -> bool:
    """The new value is a weekday the sentence gives a date ("We met for the first time on the
    new day on Thursday, 6 February 2025"): one day, not the day a schedule falls on."""
    day = new.strip().lower().rstrip("s")
    at = sentence.lower().find(day) if day in WEEKDAYS else -1
    return at >= 0 and bool(_DATE_AFTER.match(sentence, at + len(day)))


def _event_day(sentence: str, new: str) -> bool:
    """The new value is one weekday said as when something happened ("Dropped my keys down a
    drain Thursday"): not said as what a thing is or moves to ("to Thursday", "is Thursday"),
    nor with "now" or a word of every week in its clause, nor as a short answer."""
    day = new.strip().lower()
    # said as one day, not "Tuesdays" (every week), and with no onset ("from this week")
    said = re.search(rf"(?i:\b{day}\b)", sentence) if day in WEEKDAYS else None
    if said is None or names_now(sentence):
        return False
    clause = _clause_of(sentence, said.group())
    return not (
        len(_WORD.findall(sentence)) < _ANSWER_WORDS  # "yep Thursday night": an answer naming it
        or _SCHEDULED_BEFORE.search(sentence, 0, said.start())
        or _EVERY.search(clause)
        or _NOW_OR_INSTEAD.search(clause)
    )


def _habit_at(sentence: str, new: str, line: str) -> bool:
    """The new value's clause says how often (a claim of a day or a frequency) while the
    stored line is no schedule: a place the person goes to, not the line's value (a day or a
    time said as the new value is the schedule's own)."""
    if _DIGIT.search(new) or {word.lower().rstrip("s") for word in _WORD.findall(new)} & set(WEEKDAYS):
        return False
    clause = _clause_of(sentence, new)
    if not any(c.slot.startswith(_RECURRENCE) for c in claims_in(clause)):
        return False
    return not any(c.slot.startswith(_RECURRENCE) for c in claims_in(line))


def _whose(place: _Place, fact: Known, evidence: _Evidence, known: Sequence[Known]) -> str:
    """Why the value is not the person's to change this way: someone else's line the person
    does not name, or the person's own line and someone else's news, when the message names
    nothing the line names (``core.whose.names_in_common``)."""
    said = without_relatives_named(f"{evidence.earlier} {evidence.sentence}")
    if place.owner and not place.owner & _stems(without_others_titled(said, place.owner, stem)):
        return "the stored line is someone else's and the person does not name them there"
    if (
        not place.owner
        and _of_someone_else(evidence, known)
        and not names_in_common(fact.text, " ".join(evidence.message))
    ):
        return "the sentence tells of someone else, not the person"
    return ""


def _which(
    edit: Edit,
    fact: Known,
    known: Sequence[Known],
    place: _Place,
    evidence: _Evidence,
    new: str,
    household: frozenset[str],
) -> str:
    """Why the sentence does not say that this place holds what changed."""
    sentence = _without(evidence.sentence, _as_said(evidence.sentence, new))
    stems_of = {other.number: _stems(other.text) for other in known}
    held = Counter(word for words in stems_of.values() for word in words)  # by how many facts
    stored_words = set(held)
    # a sentence that names nothing stored is read with the one before it
    saying = sentence if _stems(sentence) & stored_words else f"{evidence.before} {sentence}"
    said_words = _stems(saying)
    message_words = _stems(" ".join(evidence.message)) | said_words
    old_value = fact.text[place.span[0] : place.span[1]]
    own_words = place.head | _stems(old_value)
    by_value = _stems(old_value) & said_words
    kind = _kind(fact.text, place.span) if edit.text else ""
    if kind and kind not in _SELF_DESCRIBING:
        if _of_a_new_thing(_before_value(evidence.sentence, new), fact.text, known):
            return "the sentence names something new the value is of, not what the line names"
        if not own_words & _stems(evidence.sentence) and _names_what_it_is(
            evidence.sentence, new, stored_words
        ):
            return "the value is said of a thing right after it that nothing stored names"
        slots = {c.slot for c in claims_in(fact.text) if c.slot and _overlap(c.span, place.span)}
        # named in the sentence, or just before it ("upped my amlodipine" … "yes 10mg")
        if not any(
            (own_words & _stems(text)) or (slots & slots_named_in(text))
            for text in (saying, evidence.earlier)
        ):
            return "the sentence names neither the stored value nor what holds it"
    # what the sentence goes on from: the sentence before it in its message
    near = _stems(f"{evidence.before if evidence.before_in_message else ''} {sentence}")
    if not own_words & message_words and _another_line_named(fact, known, near):
        return "the sentence goes on from another stored line, not this one"
    # a sentence that names nothing stored goes on from the one before it: whose news is that?
    # (For a phone number, an e-mail, an address or a titled person, only a line that holds one
    # of its kind may be: "so I take new one. New number is …" is no news of "Shop opens 6 am".)
    could_hold = {
        other.number
        for other in known
        if kind not in _SELF_DESCRIBING or any(value.kind == kind for value in values_in(other.text))
    }
    if (
        saying != sentence
        and not _only_its(fact.number, own_words, stems_of, held) & message_words
        and any(
            _only_its(number, stems, stems_of, held) & near
            for number, stems in stems_of.items()
            if number != fact.number and number in could_hold
        )
    ):
        return "the sentence goes on from another stored line, by words only that line holds"
    others = [
        other
        for other in [*_places(known, kind, household), *_holding(known, fact, old_value, household)]
        if not other.past
        and not (other.number == place.number and _overlap(other.span, place.span))
        and not _recorded_before(known, other, evidence.year)
    ]
    for other in others:
        same_owner = other.owner == place.owner or bool(other.owner & place.owner)
        told_apart = (place.head - other.head) & said_words or _told_by_value(by_value, other, known)
        if same_owner and not told_apart:
            return "the store keeps this value in more than one place and the sentence does not say which"
    clause = _stems(without_dates(_without(_clause_of(evidence.sentence, new), new)))
    if not own_words & clause and any((other.head - own_words) & clause for other in others):
        return "the sentence names another line of this kind"
    return ""


def _beyond_its_value(old: str, new: str) -> bool:
    """The edit writes one value of a shape (a phone number, an e-mail, an amount…) over words
    of the stored line that are not the old value of that shape ("landline 304-555-0148 (no
    cell)" rewritten as "304-555-0172" drops the landline and what qualified it); words such as
    "on" or "every" aside ("on Sundays" rewritten as "Saturdays")."""
    start, end = rewritten_span(old, new)
    written = _values_written(old, new, start, end)
    if len(written) != 1 or written[0].kind == NUMBER:
        return False
    kind = family(written[0].kind)
    # the rewritten part of the old line, widened to the whole of any value it cuts into
    first, last = start, end
    for value in values_in(old):
        if value.span[0] < end and start < value.span[1] and family(value.kind) == kind:
            first, last = min(first, value.span[0]), max(last, value.span[1])
    rest = list(old[first:last])
    for value in values_in(old):
        if family(value.kind) == kind and first <= value.span[0] and value.span[1] <= last:
            every = EVERY.search(old, first, value.span[0])  # "every Monday" rewritten as "Tuesdays"
            for at in range(every.start() if every else value.span[0], value.span[1]):
                rest[at - first] = " "
    return any(word.lower() not in STOPWORDS for word in _WORD.findall("".join(rest)))


def _another_holding_it_named(
    fact: Known, known: Sequence[Known], place: _Place, message: Sequence[str]
) -> bool:
    """Another stored fact holds every name of the changed value too, and the message names
    words of that fact's own and none of this one's: "change the default, no more sabich" is
    news of `Default lunch order: sabich from Sabich Frishman`, not of `Team lunch: usually
    Sabich Frishman for everyone`."""
    names = {name.lower() for name in CAPITALISED.findall(fact.text[place.span[0] : place.span[1]])}
    names -= _NOT_NAMES  # "20 December" names no thing
    if not names:
        return False
    said, this = _stems(" ".join(message)), _stems(fact.text)
    for other in known:
        if other.number == fact.number or not names <= set(_WORD.findall(other.text.lower())):
            continue
        that = _stems(other.text)
        if (that - this) & said and not (this - that) & said:
            return True
    return False


def _new_value(old: str, new: str) -> str:
    """What ``new`` writes in place of a part of ``old``, as the whole value it rewrites
    ("junhao.teo@veridianbio.com", not only its last letters); "" for a removal."""
    if not new:
        return ""
    start, end = rewritten_span(old, new)
    written = _values_written(old, new, start, end)
    if written:
        return new[written[0].span[0] : written[0].span[1]]
    return new[start : len(new) - (len(old) - end)]


def _values_written(old: str, new: str, start: int, end: int) -> list[Value]:
    """The values of ``new`` that hold the whole of what it writes in place of ``old[start:end]``."""
    stop = len(new) - (len(old) - end)
    return [value for value in values_in(new) if value.span[0] <= start and stop <= value.span[1]]


def _place_at(number: int, text: str, changed: tuple[int, int], household: frozenset[str]) -> _Place:
    """The place of the stored value ``changed`` touches: the shortest value or claim over it,
    or, for a mark inserted after it, the clause it ends."""
    start, end = changed
    last = max(start, end - 1)
    found = [v.span for v in values_in(text) if v.span[0] <= last and start <= v.span[1]]
    found += [c.span for c in claims_in(text) if c.span[0] <= last and start <= c.span[1]]
    label = LABEL.match(text)
    label_end = label.end() if label and label.end() <= start else 0
    if start == end and not found:
        found = [(max(_clause_start(text, start), label_end), start)]
    # one that covers all the edit rewrites, when one does: "56" is not the place of a new home
    # written over "Kawangware, Nairobi, near stage 56"
    covering = [span for span in found if span[0] <= start and last < span[1]]
    if covering:
        span = min(covering, key=lambda s: s[1] - s[0])
    elif found:  # several values rewritten at once ("18 November, 10:30am"): all of them
        span = (min(s[0] for s in found), max(s[1] for s in found))
    else:
        span = (start, max(start, end))
    clause_start = _clause_start(text, span[0])
    # a clause of a word or none before the value ("…, around 14km", "…, 4.4%"): the one before says
    if len(_stems(text[clause_start : span[0]])) < _SAYING_WORDS and clause_start > 0:
        clause_start = _clause_start(text, clause_start - 2)
    clause_start = max(clause_start, label_end if label_end <= span[0] else 0)
    after = _CLAUSE_BREAK.search(text, span[1])
    clause = text[clause_start : after.start() if after else len(text)]
    head = clause.replace(text[span[0] : span[1]], " ")
    labelled = label is not None and label.end() <= span[0]
    if labelled and label:
        head = f"{label.group(1)} {head}"
    # whose it is and whether it is past: its label, or the line's opening
    describing = label.group(1) if labelled and label else _opening(text[: span[0]], household)
    direct = labelled and label is not None and not _stems(text[label.end() : span[0]])
    related = direct and only_relation(describing, PERSON_WORDS)
    owner = frozenset() if related else _owner(describing, household)
    past = marked_past(text) or bool(_PAST_WORDS.search(describing))
    past = past or (labelled and bool(_YEAR.search(describing))) or bool(WAS_BEFORE.search(text, 0, span[0]))
    return _Place(number, span, frozenset(_stems(head)), owner, past)


def _opening(before: str, household: frozenset[str]) -> str:
    """The words opening a line that say whose it is, when its first word does ("Grandma
    Zainab's number", "Dad takes", "Chloe's preschool fees"; not "Posts Dad's update")."""
    words = before.lstrip("-*• ").split()[:_OPENING_WORDS]
    if not words or not (_owner(words[0], household) or _PAST_WORDS.fullmatch(words[0])):
        return ""
    return " ".join(words)


def _whole(fact: Known, household: frozenset[str]) -> _Place:
    """A whole line as one place: what says whose it is, its label or its opening."""
    label = LABEL.match(fact.text)
    describing = _opening(fact.text, household)
    if label:  # the label and who it gives: "Our cat: Miso, a grey tabby"
        after = _CLAUSE_BREAK.search(fact.text, label.end())
        describing = f"{label.group(1)} {fact.text[label.end() : after.start() if after else len(fact.text)]}"
    past = marked_past(fact.text) or bool(_PAST_WORDS.search(describing))
    return _Place(fact.number, (0, len(fact.text)), frozenset(), _owner(describing, household), past)


def _held_as_own(new: str, fact: Known, known: Sequence[Known], household: frozenset[str]) -> bool:
    """A line of the person's own already holds the new value ("keeping the ford" beside "Drives
    a 2016 Ford F-150"): what the person says of their own is not news of someone else's line."""
    words = _stems(new)
    return bool(words) and any(
        other.number != fact.number and words <= _stems(other.text) and not _whole(other, household).owner
        for other in known
    )


def _owner(describing: str, household: frozenset[str]) -> frozenset[str]:
    """Whose a value is, by the words that open its line or its label (``core.whose``), as stems."""
    return line_owner(describing, PERSON_WORDS | household, stem)


def _of_someone_else(evidence: _Evidence, known: Sequence[Known]) -> bool:
    """The sentence tells of someone else and not of the person (its label names another:
    "- Reiko (Emi's colleague): new number …"), or goes on from a sentence of its message
    that does (``core.whose``)."""
    label = LABEL.match(evidence.sentence)
    if label and _owner(label.group(1), frozenset()):
        return True
    texts = [*evidence.message, evidence.earlier, *(fact.text for fact in known)]
    before = evidence.before if evidence.before_in_message else ""
    return tells_of_another(evidence.sentence, before, texts, PERSON_WORDS)


def _another_line_named(fact: Known, known: Sequence[Known], said: set[str]) -> bool:
    """Another stored line's label has a word the message says ("Office:" and "moved offices")."""
    for other in known:
        label = LABEL.match(other.text)
        if other.number != fact.number and label and _stems(label.group(1)) & said:
            return True
    return False


def _only_its(
    number: int, words: Iterable[str], stems_of: Mapping[int, set[str]], held: Counter[str]
) -> set[str]:
    """Those of ``words`` that no stored fact but fact ``number`` holds (``held``: in how many
    facts each stem is), as another line's name is ("Liffey Transit pays weekly now … First one
    came, €812" is the salary line's news, not the credit union repayment's)."""
    mine = stems_of.get(number, set())
    return {word for word in words if held[word] == (1 if word in mine else 0)}


def _recorded_before(known: Sequence[Known], place: _Place, year: int) -> bool:
    """The place's clause names a year before ``year``: a record of what was done then
    ("Started sertraline 50mg in March 2024"), not a value that holds now."""
    text = next(fact.text for fact in known if fact.number == place.number)
    after = _CLAUSE_BREAK.search(text, place.span[1])
    clause = text[_clause_start(text, place.span[0]) : after.start() if after else len(text)]
    return any(int(found) < year for found in _YEAR.findall(clause))


def _told_by_value(by_value: set[str], other: _Place, known: Sequence[Known]) -> bool:
    """The words of the stored value the person said are not in the other place's value."""
    text = next(fact.text for fact in known if fact.number == other.number)
    return bool(by_value) and not by_value & _stems(text[other.span[0] : other.span[1]])


def _holding(known: Sequence[Known], fact: Known, value: str, household: frozenset[str]) -> list[_Place]:
    """The places of other facts than ``fact`` that hold ``value`` in its words ("Bath Street"
    of an office and of a lunch spot)."""
    if len(value.strip()) < _MIN_VALUE:
        return []
    pattern = re.compile(rf"(?<!\w){re.escape(value.strip())}(?!\w)", re.IGNORECASE)
    return [
        _place_at(other.number, other.text, match.span(), household)
        for other in known
        if other.number != fact.number
        for match in pattern.finditer(other.text)
    ]


def _places(known: Sequence[Known], kind: str, household: frozenset[str]) -> list[_Place]:
    """Every stored place of a value of ``kind`` (none for no kind)."""
    if not kind:
        return []
    return [
        _place_at(fact.number, fact.text, value.span, household)
        for fact in known
        for value in values_in(fact.text)
        if value.kind == kind
    ]


def _said_shorter(new: str, old_value: str) -> bool:
    """Every word of the new value is one of the stored value's, which has more: the same
    value named shorter ("Dr. Nana" of "Dr. Nana Gelashvili")."""
    said = [word.lower() for word in _WORD.findall(new)]
    stored = [word.lower() for word in _WORD.findall(old_value)]
    return bool(said) and len(said) < len(stored) and set(said) <= set(stored)


def _of_another_subject(sentence: str, at: int, fact: Known, place: _Place) -> bool:
    """The clause of the new value at ``at`` has "he", "she" or "they" as its subject and names
    the person nowhere ("now they live in Cholula"), for a value that is who or where someone
    is: an amount or a time may be one others set for the person ("they pay 1.35 a litre")."""
    return _kind(fact.text, place.span) in ("", *_SELF_DESCRIBING) and subject_of_another(sentence, at).others


def _kind(text: str, span: tuple[int, int]) -> str:
    return next((v.kind for v in values_in(text) if _overlap(v.span, span)), "")


def _clause_of(sentence: str, new: str) -> str:
    """The clause of ``sentence`` that holds the new value (all of it when not found)."""
    at = sentence.find(new) if new.strip() else -1
    if at < 0:
        return sentence
    after = _CLAUSE_BREAK.search(sentence, at + len(new))
    return sentence[_clause_start(sentence, at) : after.start() if after else len(sentence)]


def _clause_start(text: str, position: int) -> int:
    return max([m.end() for m in _CLAUSE_BREAK.finditer(text, 0, max(0, position))], default=0)


def _clause_end(text: str, position: int) -> int:
    after = _CLAUSE_BREAK.search(text, position)
    return after.start() if after else len(text)


def _as_said(sentence: str, new: str) -> str:
    """The new value as the sentence says it, its unit with it: "11,000 step" for the edit's
    "11,000 steps" (written in the line's word), so the unit it is counted in is not read as a
    word naming the line."""
    at = sentence.find(new) if new.strip() else -1
    if at < 0:  # the edit wrote it in the line's words: "11,000 steps" said "11,000 step"
        keys = {value.key for value in values_in(new)}
        said = [value.span for value in values_in(sentence) if value.key in keys]
        return sentence[slice(*said[0])] if len(said) == 1 else new
    spans = [(at, at + len(new))]
    spans += [value.span for value in values_in(sentence) if _overlap(value.span, spans[0])]
    return sentence[min(start for start, _ in spans) : max(end for _, end in spans)]


def _without(text: str, value: str) -> str:
    return text.replace(value, " ") if value.strip() else text


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _stems(text: str) -> set[str]:
    """The content words of ``text`` in their stem ("it's" and "is" are none)."""
    words = (_CONTRACTED.sub("", word) for word in _WORD.findall(text.lower()))
    return {stem(word) for word in words if word not in STOPWORDS}
