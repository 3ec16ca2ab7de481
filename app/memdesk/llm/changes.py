"""What a conversation changes in the facts already stored: update, retire or add.

The input is what the person said (their sentences, dates made absolute) and the stored
facts it may touch (``Known``: a line of a document, a knowledge entry, an app memory).
The offline rules match by slot (``memdesk.core.slots``) and by the old value the new
statement names:

- a value the person says has ended ("I quit coffee", "Dr. Okafor retired", "moved from
  Berlin") and that a stored fact holds: that fact is updated with what replaced it in the
  same turn ("only tea now", "registered with Dr. Lindqvist"), or retired when nothing did;
- a slot the person fills anew while saying it changed ("got promoted to senior designer",
  "moved standup to 10:15"): the stored fact with another value in that slot is updated;
- a statement of change that touches nothing stored is added as a fact; one that fills a
  stored slot with another value without saying it changed is not guessed at: it is added
  and named as a conflict.

Precision first: an edit is ``sure`` (applied by ``compact --yes``) only when the rules are
sure of all of it: a value they read in the stored text, replaced by one of the same slot or
marked past. A value found only by its words is replaced only where it ends its sentence, never
inside a longer name or in a knowledge entry; a line of several sentences is never removed
whole; a new employer where the old role cannot be read, a value of no known kind from another
sentence, and a clause marked past around words the rules did not read are suggestions
(``sure=False``, "May be out of date: …"), and their statement is added as said. A plan or a
later date, a third person's news (someone the store does not name, told of and then called
"he", "she" or "they"), a question, a supposition and a value said to hold once change
nothing; what a stored name does changes only the facts naming it.

The model backend sends the same material in one call (``memdesk.llm.steps``) and falls
back to these rules when its reply cannot be used.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from memdesk.core.dates import MONTHS, NUMBER_WORDS
from memdesk.core.search_text import STOPWORDS
from memdesk.core.slots import (
    LABELS,
    PLURAL_SLOTS,
    SEVERAL_VALUES,
    Claim,
    claims_in,
    for_once,
    household_names,
    later_claims,
    marked_past,
    mood_at,
    named_claims,
    normalise,
    placed_later,
    said_in_mark,
    same_value,
    says_change,
    says_replacement,
    slots_named_in,
    stem,
)
from memdesk.core.values import (
    ADDRESS,
    EMAIL,
    MONEY,
    NUMBER,
    PHONE,
    TAKES_BACK,
    TITLED,
    URL,
    end_named,
    values_in,
    with_end_said,
)
from memdesk.core.whose import HOUSEHOLD_LABELS, LABEL, doer, owner_before, told_of_another
from memdesk.llm.aligned import Aligned, aligned_updates, value_kinds
from memdesk.llm.contact_lines import CONTACT_SLOTS, LINE_WORDS, Saying, line_fits
from memdesk.llm.ended import ended_names

Action = Literal["update", "retire", "add"]
WHERE_LABELS = {  # each followed by the namespace, entry key or memory id
    "profile": "a line of",
    "patterns": "a line of",
    "facts": "a line of",
    "entry": "knowledge entry",
    "app": "app memory",
}
# A date that ``core.dates`` wrote after a relative one: "last month (February 2026)".
_RESOLVED = re.compile(
    r"\(((?:the (?:week|weekend) of )?\d{1,2} [A-Z][a-z]+ \d{4}|[A-Z][a-z]+ \d{4}|\d{4})\)"
)
# A clause that places what comes before it: a preposition of place, a closed class.
_WHERE_IT_IS = re.compile(r"(?:near|by|off|behind|opposite|beside|next\s+to|close\s+to|across\s+from)\s")
_NEXT_WORD = re.compile(r" ([a-z][\w'’-]*)")  # a lower-case word right after a value
_REST_OF_WORD = re.compile(r"[^\s,;:.!?()]*")  # what follows a value in its own word: "/mo"
_CLAUSE = re.compile(r"[,;:]\s|\s(?:and|but|so|then|while)\s")
_ITEM = re.compile(r"[,;:]\s")  # where an item of a labelled list starts or ends
_ARTICLE = re.compile(r"\b(an?)\s+$", re.IGNORECASE)
# A sentence ends at . ! ? and a space, but not after a title ("Dr. Okafor", "St. Ives").
# …nor after a short capitalised abbreviation before a number ("Rs. 3,000", "No. 12", "Apt. 4").
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)"
    r"(?!(?:(?<=\b[A-Z][a-z]\.)|(?<=\b[A-Z][a-z]{2}\.))\s+\d)\s+|\n+"
)
_MAX_SENTENCES = 200  # the latest; a long session's changes are in what was said last
_MIN_VALUE_CHARS = 3
# A doctor's title makes a name of no known kind fill the slot of a doctor the person sees
# ("I'm now with Dr. Evans").
_TITLED = re.compile(r"(?:Dr|Doctor|Prof)\b")
_CARERS = frozenset({"doctor", "dentist", "therapist"})
_REACHED_BY = frozenset({PHONE, EMAIL, URL, ADDRESS})  # the value kinds of a place's contact
# A value ended by the person: after a verb in the past or a negation, or before "anymore".
_ENDED_BEFORE = re.compile(
    r"(?i:\b(?:[a-z]{3,}ed|no\s+more|no\s+longer)\s+(?:(?:the|a|an|my|our|that|this)\s+)*)$"
)
_ENDED_AFTER = re.compile(r"(?i:\s+(?:\w+\s+)?any\s?more\b)")
# Right after a value's words: a lowercase word they describe ("PureGym hoodie"), or a verb
# in the past that they did ("Sister Kaur recommended").
_DESCRIBES = re.compile(r" [a-z]")
_DID = re.compile(r" (?:[a-z]+ed|was|were|had)\b")
_IN_YEAR = re.compile(r"\bin ((?:19|20)\d\d)\b")  # when a thing was done: "fitted in 2021"
# A span of years in brackets ("(2004–2006)"); the end is its group.
_CLOSED_YEARS = re.compile(r"\((?:[^()]*\b)?(?:19|20)\d\d\s*[-–]\s*((?:19|20)\d\d)\)")
# A thing ended in a year ("closed in 2016", "cancelled 2019"); the year is its group.
_ENDED_IN = re.compile(
    r"(?i:\b(?:closed|cancelled|canceled|ended|disconnected|deleted|sold|abandoned|shut)\s+(?:in\s+)?((?:19|20)\d\d)\b)"
)
# The capitalised words that go on a name ("Ferrow Logistics" after "Ferrow").
_NAME_GOES_ON = re.compile(r"(?: [A-Z][\w&'’-]*)*")
# What a place holds in a line: the noun before "on", "at" or "in" ("the falafel place on").
_PLACED = re.compile(r"([^\W\d_][\w-]*)\s+(?:on|at|in)\s+(?:the\s+)?$", re.IGNORECASE)
_CAPITALISED = re.compile(r"\b[A-Z][a-z]{2,}\b")
# After a name, the verb it is the subject of: "Thandi is doing Fridays now".
_SUBJECT_VERB = re.compile(r"\s+(?:is|was|has|had|does|did)\b")
_POSSESSIVE = ("'", "’")  # after a name: "Northwind's design tokens" are about the tokens
# A one-line fact with a label of its own: "Optician: Specsavers on High Street."
OWN_LABEL = re.compile(r"[ \t]*(?:[-*•][ \t]+)?([A-Za-z][A-Za-z -]{0,24}?)[ \t]*:[ \t]*(\S[^\n]*?)[ \t.]*")


@dataclass(frozen=True)
class Known:
    """A stored fact the conversation may change, numbered as the model sees it."""

    number: int
    where: str  # a key of WHERE_LABELS
    ref: str  # the document's namespace, the entry's key or the memory's id
    text: str  # the line of the document, or the entry's or memory's whole text


@dataclass(frozen=True)
class Said:
    """One sentence of the person's, with its turn (a turn's sentences are read together)."""

    turn: int
    text: str
    at: datetime


@dataclass(frozen=True)
class Edit:
    """One change to stored facts. ``text``: an update's new text; a retirement's text
    rewritten as past ("" removes it); an addition's statement. ``evidence``: the person's
    sentence that states the change, as the model quoted it. ``sure``: False when the rules
    are not sure of the whole edit, so it is proposed without being accepted."""

    action: Action
    target: int | None  # Known.number; None for an addition
    text: str
    why: str
    conflict: str = ""  # for an addition: the stored fact it disagrees with
    evidence: str = ""  # the person's sentence that states the change
    sure: bool = True  # False: only a suggestion, shown in review and not applied unasked


def said_in(turns: Sequence[tuple[str, str, datetime]]) -> list[Said]:
    """The person's sentences of ``(role, content, time)`` turns, the latest ``_MAX_SENTENCES``."""
    said: list[Said] = []
    for number in range(len(turns) - 1, -1, -1):  # from the end: a long session stops early
        role, content, at = turns[number]
        if role == "user":
            sentences = [part.strip() for part in _SENTENCE_END.split(content) if part.strip()]
            said[:0] = [Said(number, sentence, at) for sentence in sentences]
            if len(said) >= _MAX_SENTENCES:
                break
    return said[-_MAX_SENTENCES:]


def offline_changes(said: Sequence[Said], known: Sequence[Known]) -> list[Edit]:
    """The updates, retirements and additions the person's sentences make, by rule.

    When two sentences change the same fact, the later one wins and its reason says so. A fact
    that says it is past ("Former employer: …", "(until March 2026)", "(2004–2006)") is never
    changed: what the person says now is not about it.
    """
    this_year = min((sentence.at.year for sentence in said), default=0)
    known = [fact for fact in known if not already_past(fact.text, this_year)]
    edits: dict[int, Edit] = {}
    additions: list[tuple[Said, list[Claim]]] = []
    kept: list[Edit] = []
    # Every sentence of a turn that says a change: what replaced a value may be said in another
    # ("Clover passed away. The kids talked us into a kitten called Pepper.").
    changing = {id(sentence) for sentence in said if says_change(sentence.text)}
    changing_turns = {sentence.turn for sentence in said if id(sentence) in changing}
    # What a partner, child or pet named in the profile does is theirs ("Dev drives a Polestar").
    others = household_names("\n".join(fact.text for fact in known if fact.where == "profile"))
    turns: dict[int, list[tuple[Said, list[Claim]]]] = {}
    messages = {turn: " ".join(s.text for s in said if s.turn == turn) for turn in changing_turns}
    lines = [fact.text for fact in known]
    for sentence in said:
        if sentence.turn in changing_turns:
            # A value placed after the moment it was said is a plan, not the current fact; one
            # a third person owns is their news, and so is a sentence about someone the store
            # does not name; a message saying its value holds once tells of an exception.
            message = messages[sentence.turn]
            if told_of_another(sentence.text, message, lines, LINE_WORDS) or for_once(message):
                continue
            claims = [
                c
                for c in claims_in(sentence.text, others)
                if not placed_later(sentence.text, c.span, sentence.at) and not _owned(sentence.text, c)
            ]
            turns.setdefault(sentence.turn, []).append((sentence, claims))
    stored = {fact.number: _stored_claims(fact.text, others) for fact in known}
    conversation = tuple(sentence.text for sentence in said)
    kept += _dated(said, known, stored, others)
    edited_in: dict[int, int] = {}  # the turn of each fact's edit
    for sentences in turns.values():
        used: set[int] = set()  # sentences that gave a value to a change
        for sentence, claims in sentences:
            if not claims or id(sentence) not in changing:
                continue
            touched = False
            subject = _stored_subject(sentence.text, known)
            for fact in known:
                if subject and not re.search(rf"\b{subject}\b", fact.text):
                    continue  # "Thandi is doing Fridays now" is no news of the recycling day
                previous = edits.get(fact.number)
                # Another sentence of the same turn changing more of it ("I quit Amazon in
                # December. Joined Google as a senior engineer."): both changes are kept.
                more = (
                    previous is not None
                    and previous.action == "update"
                    and edited_in[fact.number] == sentence.turn
                )
                base = Known(fact.number, fact.where, fact.ref, previous.text) if more and previous else fact
                claims_there = _stored_claims(base.text, others) if more else stored[fact.number]
                found = _edit(base, claims_there, sentence, claims, sentences, known, conversation)
                if found is None:
                    continue
                edit, sources = found
                if edit.sure:  # a suggestion keeps its statement, to be added as said
                    used |= sources
                    touched = touched or id(sentence) in sources
                edited_in[fact.number] = sentence.turn
                if previous is not None and previous.text == edit.text:
                    continue  # the same change said again: the first wording explains it
                if more and previous is not None:
                    edit = replace(edit, why=f"{previous.why} {edit.why}", sure=edit.sure and previous.sure)
                elif previous is not None:
                    later = f"It comes later than “{previous.evidence}”, so the last statement wins."
                    edit = replace(edit, why=f"{edit.why} {later}")
                edits[fact.number] = edit
            if not touched:
                additions.append((sentence, claims))
        additions = [(sentence, claims) for sentence, claims in additions if id(sentence) not in used]
        kept += [addition for s, _c in additions if (addition := _addition(s, others, known, stored))]
        additions = []
    # A new value of a kind a stored fact holds one of ("new ones 07700 900873"): sure where the
    # rules above were not, or said nothing.
    old_texts = {fact.number: fact.text for fact in known}
    for update in aligned_updates(said, known):
        previous = edits.get(update.number)
        old = old_texts[update.number]
        if (
            previous is None
            or not previous.sure
            or _goes_further(previous, update, old)
            or _taken_back(previous, old)
            or _succeeds(previous, update)
            or _corrects(previous, update, old)
        ):
            why = f"The person said: “{update.evidence}”"
            edits[update.number] = Edit("update", update.number, update.text, why, evidence=update.evidence)
            kept = [edit for edit in kept if edit.evidence != update.evidence]
    # A named thing the person ended ("cancelled netflix"): the clause holding it marked past.
    for ended in ended_names(said, known):
        previous = edits.get(ended.number)
        if previous is None or not previous.sure:
            text = next(fact.text for fact in known if fact.number == ended.number)
            marked = text[: ended.at] + until_mark("", ended.said.at) + text[ended.at :]
            why = f"The person said: “{ended.said.text}”"
            edits[ended.number] = Edit("retire", ended.number, marked, why, evidence=ended.said.text)
            kept = [edit for edit in kept if edit.evidence != ended.said.text]
    return [*(_end_corrected(edit, said) for edit in edits.values()), *kept]


def _end_corrected(edit: Edit, said: Sequence[Said]) -> Edit:
    """The edit with the end of the phone number it writes as the person corrected it later,
    taking it back ("New number. 5550 0178." … "No no, 0187.") or denying the old end ("it's
    555-0187, not 0178"): the number said last, whole."""
    phones = [value for value in values_in(edit.text) if value.kind == PHONE]
    at = next((i for i, s in enumerate(said) if s.text == edit.evidence), None)
    if edit.action != "update" or len(phones) != 1 or at is None:
        return edit
    (phone,) = phones
    for sentence in said[at + 1 :]:
        given = [v for v in values_in(sentence.text) if not v.denied and v.kind in (PHONE, NUMBER)]
        denied = [v.key for v in values_in(sentence.text) if v.denied]
        correcting = TAKES_BACK.match(sentence.text) or any(end_named(phone.key, key) for key in denied)
        if len(given) != 1 or not correcting:
            continue
        stored = edit.text[phone.span[0] : phone.span[1]]
        (value,) = given
        new = with_end_said(stored, phone.key, sentence.text[value.span[0] : value.span[1]], value.key)
        if new and new != stored:
            text = edit.text[: phone.span[0]] + new + edit.text[phone.span[1] :]
            why = f"{edit.why} The person corrected it: “{sentence.text}”"
            return _end_corrected(replace(edit, text=text, why=why, evidence=sentence.text), said)
    return edit


def _goes_further(previous: Edit, update: Aligned, old: str) -> bool:
    """The value-aligned edit of the same sentence makes every change the rules' edit makes,
    and more: "every second Friday at 10 in the morning" moves the day and the hour of "every
    second Thursday at 4pm", where the rules moved the day alone."""
    if previous.action != "update" or previous.evidence != update.evidence or previous.text == update.text:
        return False
    return _dropped(old, previous.text) < _dropped(old, update.text)


def _succeeds(previous: Edit, update: Aligned) -> bool:
    """The rules marked a value past, and the value-aligned edit writes what replaced it, said
    with it ("Dr. Rankin's retired … taken on by Dr. Anil Mehta") or in place of the word the
    mark follows ("Dr. Kenny retired … I am now under the care of Dr. Martin Ruane"): the update
    says all the retirement does, and what holds now."""
    if previous.action != "retire":
        return False
    marked = previous.text.find(" (until ")
    ended = re.findall(r"\w+", previous.text[: max(marked, 0)])[-1:]
    return previous.evidence == update.evidence or (
        bool(ended) and re.search(rf"(?<!\w){ended[0]}(?!\w)", update.text) is None
    )


def _corrects(previous: Edit, update: Aligned, old: str) -> bool:
    """The value-aligned edit's sentence, said later, denies the value the rules' edit writes,
    whole or by its end ("New number: (210) 555-0178" … "it's 555-0187, not 0178")."""
    if previous.evidence == update.evidence:
        return False
    denied = [value.key for value in values_in(update.evidence) if value.denied]
    before = {value.key for value in values_in(old)}
    written = [value.key for value in values_in(previous.text) if value.key not in before]
    return any(key in denied or any(end_named(key, tail) for tail in denied) for key in written)


def _taken_back(edit: Edit, old: str) -> bool:
    """The edit writes a value its own evidence takes back ("07700 900578 — no, forgive me — it
    is 07700 900587")."""
    denied = {(value.kind, value.key) for value in values_in(edit.evidence) if value.denied}
    before = {(value.kind, value.key) for value in values_in(old)}
    return any((v.kind, v.key) in denied - before for v in values_in(edit.text))


def _dropped(old: str, new: str) -> set[int]:
    """Which words of ``old`` (by place) ``new`` no longer holds."""
    words = old.split()
    matcher = difflib.SequenceMatcher(a=words, b=new.split(), autojunk=False)
    kept = {i for block in matcher.get_matching_blocks() for i in range(block.a, block.a + block.size)}
    return set(range(len(words))) - kept


@dataclass(frozen=True)
class _Part:
    """One part of a stored fact that a sentence changes."""

    span: tuple[int, int]  # in the fact's text
    new: str | None  # its new text; None keeps it, marked past
    mark: str  # written after it: "(since …)", "(until …)"
    slot: str
    sure: bool  # the rules know what the part is and what replaced it


def _edit(
    fact: Known,
    stored: list[Claim],
    sentence: Said,
    claims: list[Claim],
    turn: list[tuple[Said, list[Claim]]],
    known: Sequence[Known],
    conversation: tuple[str, ...],
) -> tuple[Edit, set[int]] | None:
    """How ``sentence`` changes ``fact``, if it does, and the sentences whose values it took.

    The edit is sure only when every part of it is: a value the slot rules read in the fact,
    replaced by a value of the same slot or marked past, or the person's own ended habit,
    subscription or possession that only this fact names (``_ended_own``). Otherwise it is a
    suggestion.
    """
    parts: list[_Part] = []
    sources = {id(sentence)}
    message = " ".join(said.text for said, _claims in turn)
    for ended in (claim for claim in claims if claim.past):
        found = _holding(fact.text, stored, ended, sentence.text)
        if found is None:
            continue
        slot, span, read = found
        if not ended.slot and _another_thing_there(fact.text, span, message):
            continue  # "Lunch spot: the falafel place on Bath Street" did not move with the office
        until = until_mark(_date_near(sentence.text, ended.span), sentence.at)
        describes = read and _describes(fact.text, span)
        if describes and fact.where == "entry":
            continue  # "Baltic Longhaul basketball team": a note about the team, which goes on
        if read:
            span, whole = value_span(fact.text, span)
            span = _person_in(fact.text, span, ended) or span
        elif (
            fact.where == "entry"
            or fact.text[span[1] : span[1] + 1] in _POSSESSIVE
            or _names_another(fact, span, known, sentence.at.year)
            or _a_cost(fact.text, span)
        ):
            continue  # only the value's words, in an entry, before what it owns or describes, or as a cost
        else:
            # Only the value's words are there, in a line or memory about the person. It is
            # replaced only when it ends its sentence ("Goes to Anytime Fitness"),
            # never inside a longer name or before what it owns ("Northwind Studio",
            # "Northwind's design tokens", "the Todoist team").
            whole = _alone(fact.text, span)
        successor = _successor(slot, ended, sentence, turn, fact.text[span[0] : span[1]])
        # a value read with more after it is marked past, not replaced with what followed it;
        # the statement is then added as said
        if successor is not None and not whole:
            sources.discard(id(sentence))
        if successor is None or not whole:
            if not read:  # its clause is marked past; sure only of what the person ended themself
                end = clause_end(fact.text, span[1])
                parts.append(_Part((end, end), None, until, slot, _ended_own(sentence.text, ended, known)))
            else:  # someone's own ending ("Ato Girma has retired") is sure only of their care, or
                # of a member of the household ("Miso passed away" of "Our cat: Miso")
                sure = (
                    bool(ended.slot)
                    or slot in _CARERS
                    or _ended_as_object(sentence.text, ended)
                    or _of_household(fact.text)
                )
                if describes:  # "company basketball team": marked past after the whole clause
                    span = (clause_end(fact.text, span[1]),) * 2
                parts.append(_Part(span, None, until, slot, sure))
            continue
        source, new = successor
        sources.add(id(source))
        text = source.text[new.span[0] : new.span[1]]
        since = _since(_date_near(source.text, new.span))
        # a value of the same slot, or one of no known kind said with the ended one ("left
        # Hilltop Running Club; joined the Riverside Harriers instead") or as a change itself
        fits = (bool(slot) and new.slot == slot) or (
            not new.slot and (source is sentence or says_change(source.text))
        )
        parts.append(_Part(span, text, since, slot, fits))
    current = [c for _s, turn_claims in turn for c in turn_claims if not c.past]
    replacing = says_replacement(sentence.text)
    # The last value said for a slot is the one that holds ("switched to Android, got a Pixel 9").
    for new in reversed([claim for claim in claims if not claim.past]):
        for old in stored:
            # A name of no known kind fills a slot the turn names ("had to change GP practice
            # … registered with Dr. Bello"); sure when a title or the sentence itself names it.
            titled = old.slot in _CARERS and _TITLED.match(sentence.text, new.span[0]) is not None
            named = titled or _names_slot(sentence.text, new.span[0], old, fact.text)
            slot = new.slot or (old.slot if named and _same_shape(old, new, fact.text, sentence.text) else "")
            if not slot or not _same_slot(old.slot, slot) or _same(old.slot, new.value, old.value):
                continue
            # ... but not one the fact already holds ("Works at Monzo" after "I'm at Monzo now,
            # same kind of role" is not a role)
            if not new.slot and any(same_value(new.value, c.value) for c in stored):
                continue
            # A slot that holds several values gains one, unless the person says it replaced
            # another ("I also started tea" keeps coffee; "went vegan" replaces vegetarian).
            if old.slot in SEVERAL_VALUES and old.slot not in PLURAL_SLOTS and not replacing:
                continue
            if any(_overlap(old.span, part.span) for part in parts):
                continue
            if new.slot and another_line_named(fact, message, known):
                continue
            # a contact only over the person's own current line of the kind said (or the line of
            # whom the message names): ``llm.contact_lines``
            contact = old.slot in CONTACT_SLOTS
            if contact:
                saying = Saying(sentence.text, new.span[0], message, conversation)
                if not line_fits(fact.text, old.span, saying, [other.text for other in known]):
                    continue
            # The old value also said as current ("at Bosch now, and at Siemens on Fridays"):
            # unclear, so not guessed; the statement is added and named as a conflict.
            # Unless the sentence says the new one replaced it, named just before ("The iPad's
            # screen cracked, so I replaced it with a Galaxy Tab").
            unclear = any(c.slot in ("", old.slot) and _same(old.slot, c.value, old.value) for c in current)
            replaced = replacing and any(
                c.slot in ("", old.slot) and same_value(c.value, old.value) and c.span[0] < new.span[0]
                for c in claims
            )
            if unclear and not replaced and old.slot not in PLURAL_SLOTS:
                continue
            span, whole = value_span(fact.text, old.span)
            if not whole:  # the stored value has another fact after it: Memory health lists both
                continue
            text = _filled(old, new, sentence.text)
            since = _since(_date_near(sentence.text, new.span))
            # a slot the rules know, a doctor's title, or the label in the sentence itself; a
            # label that tells one of its kind from others ("Morning meds") only when said (a
            # contact's line was chosen above)
            known_slot = (bool(new.slot) or titled or old.slot in slots_named_in(sentence.text)) and (
                contact or _qualifier_said(fact.text, old.slot, sentence.text)
            )
            parts.append(_Part(span, text, since, old.slot, known_slot))
    if not parts:
        return None
    sure = all(part.sure for part in parts) and not _role_left(parts, stored, current)
    if sure:
        why = f"The person said: “{sentence.text}”"
    else:
        why = f"May be out of date: “{fact.text}” — the person said: “{sentence.text}”"
    changed = _substituted(fact.text, parts)
    if any(part.new is not None for part in parts):
        return Edit("update", fact.number, changed, why, evidence=sentence.text, sure=sure), sources
    retired = [part.span for part in parts]
    ended_words = {w for start, end in retired for w in normalise(fact.text[start:end]).split()}
    others = [
        c
        for c in stored
        if not any(_overlap(c.span, span) for span in retired)
        and c.slot.partition(":")[2] not in ended_words  # "on Thursdays" of squash ends with it
    ]
    # A text that says more than what ended stays, saying that part is past: another claim,
    # another sentence ("Vegetarian. Allergic to cashews."), or words the rules did not read (a
    # mark after a clause).
    unread = any(start == end for start, end in retired)
    if others or unread or not sure or _sentences(fact.text) > 1 or _details(fact.text, retired):
        return Edit("retire", fact.number, changed, why, evidence=sentence.text, sure=sure), sources
    return Edit("retire", fact.number, "", why, evidence=sentence.text, sure=sure), sources


def _person_in(text: str, span: tuple[int, int], ended: Claim) -> tuple[int, int] | None:
    """Where in the value at ``span`` the titled person who ended is named, when it says more
    ("Dr. Elspeth Rankin, Main Street Family Practice"): the mark goes after them."""
    for value in values_in(text[: span[1]]):
        if value.kind == TITLED and span[0] <= value.span[0] and value.key in ended.value.split():
            return value.span
    return None


def _details(text: str, spans: list[tuple[int, int]]) -> bool:
    """The text holds a way to reach a place besides what ended ("GP: Dr. Elspeth Rankin, Main
    Street Family Practice, phone 902-555-0134"): the practice's number goes on, so the text
    stays, marked. A day or a price goes with what ended ("squash on Thursdays")."""
    return any(
        value.kind in _REACHED_BY and not any(start <= value.span[0] < end for start, end in spans)
        for value in values_in(text)
    )


def _another_thing_there(text: str, span: tuple[int, int], message: str) -> bool:
    """The stored place at ``span`` is where a thing of a labelled line is ("Lunch spot: the
    falafel place on Bath Street") and the message names neither the thing nor the label: a
    move the person tells of is of something else at that place."""
    label = OWN_LABEL.match(text)
    placed = _PLACED.search(text, 0, span[0])
    if label is None or placed is None or placed.group(1).lower() in STOPWORDS:
        return False
    spoken = {stem(word) for word in re.findall(r"[a-z]+", message.lower())}
    named = {stem(word) for word in re.findall(r"[a-z]+", f"{label.group(1)} {placed.group(1)}".lower())}
    return not named & spoken


def _stored_subject(said: str, known: Sequence[Known]) -> str:
    """The name the sentence's subject is, when a stored fact gives it ("Thandi is doing
    Fridays now"): what the sentence says is of the facts naming it; "" for none."""
    for match in _CAPITALISED.finditer(said):
        name = match.group(0)
        if name.lower() not in STOPWORDS and any(re.search(rf"\b{name}\b", fact.text) for fact in known):
            # the first stored name said is the sentence's subject only before its verb
            return name if _SUBJECT_VERB.match(said, match.end()) else ""
    return ""


def another_line_named(fact: Known, message: str, known: Sequence[Known]) -> bool:
    """The message names another stored line by a label no slot rule reads, and no word of
    ``fact`` ("Tilewave moved offices … We're in Sandton now" is the "Office:" line's news,
    not "Lives in Greenside"'s): what it says is of that line."""
    spoken = _stems(message)
    if _stems(fact.text) & spoken:
        return False
    for other in known:
        label = OWN_LABEL.match(other.text)
        if other.number == fact.number or label is None:
            continue
        if " ".join(label.group(1).lower().split()) not in LABELS and _stems(label.group(1)) & spoken:
            return True
    return False


def _stems(text: str) -> set[str]:
    return {stem(word) for word in re.findall(r"[a-z]+", text.lower()) if word not in STOPWORDS}


def _names_slot(said: str, start: int, old: Claim, stored: str) -> bool:
    """The sentence names the stored fact's slot or label before a value of no known kind at
    ``start`` ("I switched gyms, I go to Solinca now"), and not with the stored value: "on my
    granddaughter Priya's advice … on the 12th" speaks of the granddaughter stored. A label
    named after the value or in another sentence ("coming on Monzo … like I am leaving wife";
    "the landline is the same as ever") fills nothing."""
    head = said[:start]
    words = re.findall(r"[A-Za-z]+", head)
    if old.slot not in slots_named_in(head) and old.slot not in {_label_slot(word) for word in words}:
        return False
    value = stored[old.span[0] : old.span[1]]
    first = [word for word in re.findall(r"\w+", value) if not _TITLED.fullmatch(word)][:1]
    return not first or re.search(rf"(?<!\w){re.escape(first[0])}(?!\w)", head) is None


def _qualifier_said(stored: str, slot: str, said: str) -> bool:
    """The stored line's label names no one of several of its kind, or the sentence says a word
    of the label: "Morning meds" is one of the person's lists of medicines, and "the evening
    dose changed" is not about it. A word before the label's last that names this slot or none
    of another ("Phone number") tells nothing apart."""
    label = OWN_LABEL.fullmatch(stored)
    if label is None:
        return True
    words = label.group(1).lower().split()
    qualifiers = [
        word for word in words[:-1] if word not in STOPWORDS and not _related(LABELS.get(word, ""), slot)
    ]
    spoken = {stem(word) for word in re.findall(r"[a-z]+", said.lower())}
    return not qualifiers or any(stem(word) in spoken for word in words)


def _related(one: str, other: str) -> bool:
    """Two slots of one thing: the same, or one a kind of the other ("phone", "phone_number")."""
    return bool(one) and (one.startswith(other) or other.startswith(one))


def _same_shape(old: Claim, new: Claim, stored: str, said: str) -> bool:
    """A value of no known kind can be the stored one's successor only when the stored value
    has no shape of its own, or the new one has it too: a word ("a new one") is no phone number."""
    kinds = value_kinds([stored[old.span[0] : old.span[1]]])
    return not kinds or kinds <= value_kinds([said[new.span[0] : new.span[1]]])


def already_past(text: str, this_year: int) -> bool:
    """The stored text says it no longer holds, spans years that ended before this one, or
    says it ended in such a year ("Old Hotmail … closed in 2016")."""
    ended = [*_CLOSED_YEARS.findall(text), *_ENDED_IN.findall(text)]
    return marked_past(text) or any(int(end) < this_year for end in ended)


def _names_another(fact: Known, span: tuple[int, int], known: Sequence[Known], this_year: int) -> bool:
    """The value's words at ``span`` name another thing, not the value itself: they describe
    the word after them, the rest of their name aside ("his old PureGym hoodie", "Ferrow
    Logistics pension pot") while another stored fact holds the value
    alone ("Trains at PureGym Wandsworth"), or they are who did what the fact tells of, in the
    past ("Sister Kaur recommended the course", "fitted in 2021 by Dr. Halvorsen"): its end
    does not end that."""
    # what the whole name describes: "Ferrow Logistics pension pot" is about the pot
    after = fact.text[_NAME_GOES_ON.match(fact.text, span[1]).end() :]
    starts = [m.end() for m in _CLAUSE.finditer(fact.text, 0, span[0])]
    clause = fact.text[starts[-1] if starts else 0 : clause_end(fact.text, span[1])]
    if _DID.match(after) or any(int(year) < this_year for year in _IN_YEAR.findall(clause)):
        return True
    if not _DESCRIBES.match(after):
        return False
    name = re.escape(fact.text[span[0] : span[1]])
    alone = re.compile(rf"(?<!\w)(?i:{name})(?!\w)(?!{_DESCRIBES.pattern})")
    return any(alone.search(other.text) for other in known if other.number != fact.number)


def _a_cost(text: str, span: tuple[int, int]) -> bool:
    """The words at ``span`` name what an amount of a list is spent on ("broadband £32,
    ClimbHub £45"): a budget line, not the record of the thing. A line of one amount is the
    thing's own record ("Monthly transfer of 350 € to Caixa Geral for the boat loan")."""
    starts = [m.end() for m in _ITEM.finditer(text, 0, span[0])]
    after = _ITEM.search(text, span[1])
    start, end = starts[-1] if starts else 0, after.start() if after else len(text)
    amounts = [value for value in values_in(text) if value.kind == MONEY]
    return len(amounts) > 1 and any(start <= value.span[0] < end for value in amounts)


def _of_household(text: str) -> bool:
    """The stored text is about a member of the person's household, by its label ("Our cat:
    Miso", "- Partner: Dev")."""
    label = LABEL.match(text)
    return label is not None and not HOUSEHOLD_LABELS.isdisjoint(label.group(1).lower().split())


def _ended_as_object(said: str, ended: Claim) -> bool:
    """The value is what an ending was done to, after a verb in the past or before "anymore"
    ("Cancelled PulseFit", "I stopped the French class at Alliance", "not at Acme anymore"), not
    the one whose own ending the sentence tells ("Ato Girma has retired", "Ridgeway closed")."""
    start, end = ended.span
    return bool(_ENDED_BEFORE.search(said, 0, start) or _ENDED_AFTER.match(said, end))


def _ended_own(said: str, ended: Claim, known: Sequence[Known]) -> bool:
    """The person ended the value themself, as the object of a verb in the past or of a
    negation ("cancelled puregym", "I've stopped the cigarettes", "no more espressos"; not
    "Sister Kaur retired", "Marta cancelled…", "stopped using Todoist", "instead of iron"), in a sentence that
    states it (not a question, a supposition or a plan), and only one stored fact names it."""
    start, end = ended.span
    if not _ended_as_object(said, ended) or mood_at(said, start):
        return False
    before = _ENDED_BEFORE.search(said, 0, start)
    if doer(said, before.start() if before else start).others:
        return False
    forms = "|".join(re.escape(form) for form in _singulars(said[start:end]))
    naming = re.compile(rf"(?<!\w)(?:{forms})(?!\w)", re.IGNORECASE)
    return sum(1 for fact in known if naming.search(fact.text)) == 1


def _role_left(parts: list[_Part], stored: list[Claim], current: list[Claim]) -> bool:
    """A new employer written into a fact whose role the rules cannot read, while the person
    names a new role: the old role would stay beside the new employer."""
    new_employer = any(part.slot == "employer" and part.new is not None for part in parts)
    new_role = any(claim.slot == "role" for claim in current)
    return new_employer and new_role and not any(claim.slot == "role" for claim in stored)


def value_span(text: str, span: tuple[int, int]) -> tuple[tuple[int, int], bool]:
    """A stored value's span, and whether it is whole: a value read up to the end of a line
    may hold another fact, a clause in lower case ("Fitness Hut, membership renews in April"),
    and is cut before it; the parts of a name or an address are capitalised or numbers, or say
    where it is ("Kawangware, Nairobi, near stage 56")."""
    for clause in _CLAUSE.finditer(text, span[0], span[1]):
        if text[clause.end() : clause.end() + 1].islower() and not _WHERE_IT_IS.match(text, clause.end()):
            return (span[0], clause.start()), False
    return span, True


def _alone(text: str, span: tuple[int, int]) -> bool:
    """The value at ``span`` ends its sentence and is no part of a longer name: no word after
    it ("the Todoist team" is a team) and no capitalised word before it but the first."""
    ends = [m for m in _SENTENCE_END.finditer(text) if m.start() >= span[1]]
    if any(ch.isalnum() for ch in text[span[1] : ends[0].start() if ends else len(text)]):
        return False
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, span[0])]
    before = [
        word for word in text[starts[-1] if starts else 0 : span[0]].split() if word not in ("-", "*", "•")
    ]
    return len(before) < 2 or not before[-1][:1].isupper()  # the first word is capitalised anyway


def _describes(text: str, span: tuple[int, int]) -> bool:
    """The value at ``span`` describes the word after it ("basketball team"), a word that is no
    function word: the thing is that word's, not the value alone."""
    following = _NEXT_WORD.match(text, span[1])
    return following is not None and following.group(1) not in STOPWORDS


def clause_end(text: str, position: int) -> int:
    after = _CLAUSE.search(text, position)
    end = after.start() if after else len(text.rstrip(" .;"))
    return max(end, position)


def _sentences(text: str) -> int:
    """How many sentences a text holds (a clause after ";" counts as one)."""
    pieces = [piece for part in _SENTENCE_END.split(text) for piece in part.split("; ")]
    return sum(1 for piece in pieces if any(ch.isalpha() for ch in piece))


def _owned(text: str, claim: Claim) -> bool:
    """The person says the value is a third person's ("her new tesla", ``core.whose``); a
    schedule's or an amount's slot names whose it is already ("his pocket money" of
    "amount:money finn")."""
    return ":" not in claim.slot and owner_before(text, claim.span[0]).others


def _same_slot(stored: str, said: str) -> bool:
    """The slot a statement fills is the stored fact's: the same, or the same kind of schedule
    or amount for an event named in fewer words ("moved the backups to 03:30" is the time of
    "Backups run at 02:00")."""
    if stored == said:
        return True
    kind, _, event = said.partition(":")
    stored_kind, _, stored_event = stored.partition(":")
    return bool(event) and kind == stored_kind and set(event.split()) <= set(stored_event.split())


def _same(slot: str, new: str, old: str) -> bool:
    """Whether a new value is the stored one; a role that adds to the old one is a new role
    ("charge nurse" after "nurse")."""
    return new == old if slot == "role" else same_value(new, old)


def _stored_claims(text: str, others: frozenset[str]) -> list[Claim]:
    """The current claims of a stored fact, with the slot its own label names when no slot
    rule knows that label ("Accountant: Harris & Co.")."""
    claims = [c for c in claims_in(text, others) if not c.past]
    match = OWN_LABEL.fullmatch(text)
    if match and " ".join(match.group(1).lower().split()) not in LABELS:
        start, end = match.span(2)
        claims.append(
            Claim(_label_slot(match.group(1).split()[-1]), normalise(text[start:end]), (start, end), False)
        )
    return claims


def _label_slot(word: str) -> str:
    return f"label:{stem(word)}"


def _dated(
    said: Sequence[Said], known: Sequence[Known], stored: dict[int, list[Claim]], others: frozenset[str]
) -> list[Edit]:
    """Statements of a change from a later date to a stored fact ("from next April the rent
    will be £1,200", "we're moving to Porto in March"): added as dated facts; the stored one
    holds until then."""
    added: list[Edit] = []
    for sentence in said:
        later = {claim.slot for claim in later_claims(sentence.text) if claim.slot}
        later |= {
            c.slot
            for c in claims_in(sentence.text, others)
            if c.slot and placed_later(sentence.text, c.span, sentence.at)
        }
        for fact in known:
            if any(claim.slot in later for claim in stored[fact.number]):
                what = f"{WHERE_LABELS[fact.where]} {fact.ref}"
                why = (
                    f"A change from a later date: added as a dated fact; {what} (“{fact.text}”) "
                    "holds until then."
                )
                # dated by when it was said, so "next April" can be read later
                said_when = "" if _RESOLVED.search(sentence.text) else said_in_mark(sentence.at)
                added.append(Edit("add", None, sentence.text + said_when, why, evidence=sentence.text))
                break
    return added


def _holding(
    text: str, stored: list[Claim], ended: Claim, said: str
) -> tuple[str, tuple[int, int], bool] | None:
    """The slot and span of ``text`` that holds the value ``ended`` names, if any, and whether
    the slot rules read it there (False: only its words are there)."""
    words = set(ended.value.split())
    if not words or len(ended.value) < _MIN_VALUE_CHARS:
        return None
    for claim in stored:
        # a label the slot rules do not know holds the value its first clause gives ("Our cat:
        # Miso, a grey tabby"), not one a list names after it: "Fixed monthly costs: rent £780,
        # phone £18, PulseFit £34" is a budget, not a gym
        held = claim.value.split()
        if claim.slot.startswith("label:"):
            listed = _ITEM.search(text, *claim.span)
            # and only when it opens it: "pay the crew in cash" of "Weekly reminder: Thursday
            # 16:00 …" is a detail of the reminder, which goes on
            opening = normalise(text[claim.span[0] : listed.start() if listed else claim.span[1]])
            held = opening.split()[: len(words)]
        if ended.slot in ("", claim.slot) and words <= set(held):
            return claim.slot, claim.span, True
    # No slot of the stored text holds it ("uses melatonin"): the value's own words do.
    raw = said[ended.span[0] : ended.span[1]]
    # the word as said, or in the singular ("no more smoothies" ends "a smoothie")
    forms = "|".join(re.escape(form) for form in _singulars(raw))
    match = re.search(rf"(?<!\w)(?:{forms})(?!\w)", text, re.IGNORECASE)
    if match is None:
        return None
    # The word read as ending it is before it in the stored text too: a word of its name, not a
    # verb ("left knee" of "Left knee arthroscopy 2018" is no knee the person left).
    said_before = re.findall(r"[\w'’]+", said[: ended.span[0]].lower())[-1:]
    stored_before = re.findall(r"[\w'’]+", text[: match.start()].lower())[-1:]
    if said_before and said_before[0] not in STOPWORDS and said_before == stored_before:
        return None
    return ended.slot, match.span(), False


def _singulars(raw: str) -> list[str]:
    """The value as said, then its singular forms, longest first."""
    forms = [raw]
    if raw.endswith("ies"):
        forms.append(raw[:-3] + "y")
    if raw.endswith("es"):
        forms.append(raw[:-2])
    if raw.endswith("s") and not raw.endswith("ss"):
        forms.append(raw[:-1])
    return sorted(forms, key=len, reverse=True)


def _successor(
    slot: str, ended: Claim, sentence: Said, turn: list[tuple[Said, list[Claim]]], old_text: str
) -> tuple[Said, Claim] | None:
    """What replaced the ended value in the same turn: the same slot first, then a value of no
    known slot; in the same sentence first, after the ended value first. A value that ended
    with no known slot may be replaced by one of any slot in its sentence."""
    old_words = set(ended.value.split()) | {w.lower() for w in re.findall(r"\w+", old_text)}
    ordered = [(sentence, claims) for s, claims in turn if s is sentence]
    ordered += [(s, claims) for s, claims in turn if s is not sentence]
    for wanted in ([slot] if slot else []) + [""]:
        for said, claims in ordered:
            fitting = [
                c for c in claims if not c.past and c.slot == wanted and not set(c.value.split()) <= old_words
            ]
            if said is sentence:
                fitting.sort(key=lambda c: (c.span[0] < ended.span[0], -c.span[0]))
            if fitting:
                return said, fitting[0]
    if not slot or slot.startswith("label:"):
        # what ended has no known kind: a value of any kind said with it replaced it
        own = ordered[0][1]
        fitting = [c for c in own if not c.past and c.slot and not set(c.value.split()) <= old_words]
        if fitting:
            return sentence, fitting[-1]
    return None


def _filled(old: Claim, new: Claim, said: str) -> str:
    """The new value's text; for a slot that holds several values, joined to the old one."""
    text = said[new.span[0] : new.span[1]]
    if old.slot in PLURAL_SLOTS and not set(old.value.split()) <= set(new.value.split()):
        return f"{{old}} and {text}"
    return text


def _substituted(text: str, parts: list[_Part]) -> str:
    """``text`` with each part replaced (None: kept, to be marked past) and its mark after it;
    a mark several parts share is written once, after the last of them ("Tuesdays at 6:30
    (since …)", not a "(since …)" after each)."""
    out = text
    written: set[str] = set()
    for part in sorted(parts, key=lambda part: part.span[0], reverse=True):
        (start, end), new, mark = part.span, part.new, part.mark
        mark = "" if mark in written else mark
        written.add(mark)
        if new is None:  # a mark goes after the whole word: "$600/mo (until …)", not "$600 (until …)/mo"
            end = _REST_OF_WORD.match(out, end).end()
        old = out[start:end]
        value = old if new is None else _cased_as(old, new.replace("{old}", old))
        before = out[:start]
        article = _ARTICLE.search(before)
        if article and new is not None:  # "an iPhone 12" → "a Pixel 9"
            fitting = "an" if value[:1].lower() in "aeiou" else "a"
            fitting = fitting.capitalize() if article.group(1)[0].isupper() else fitting
            before = before[: article.start(1)] + fitting + before[article.end(1) :]
        out = before + value + mark + out[end:]
    return out


def _cased_as(old: str, value: str) -> str:
    """``value`` with a number word that opened the person's sentence in the case of the line's
    old value ("Two sons and two daughters…" over "three sons" writes "two sons")."""
    first = value.split(" ", 1)[0]
    if old[:1].islower() and first[:1].isupper() and first.lower() in NUMBER_WORDS:
        return value[:1].lower() + value[1:]
    return value


def _since(date: str) -> str:
    return f" (since {date})" if date else ""


def until_mark(date: str, at: datetime) -> str:
    return f" (until {date or _month(at)})"


def _month(at: datetime) -> str:
    return f"{MONTHS[at.month - 1]} {at.year}"


def _date_near(text: str, span: tuple[int, int]) -> str:
    """The absolute date (as ``core.dates`` wrote it) in the clause of ``span``; "" when none.

    "I moved to Paris last month (February 2026) and I quit coffee": the date is the move's.
    """
    starts = [m.end() for m in _CLAUSE.finditer(text, 0, span[0])]
    after = _CLAUSE.search(text, span[1])
    match = _RESOLVED.search(text, starts[-1] if starts else 0, after.start() if after else len(text))
    return match.group(1) if match else ""


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _addition(
    sentence: Said, others: frozenset[str], known: Sequence[Known], stored: dict[int, list[Claim]]
) -> Edit | None:
    """A statement that changed nothing stored (for sure); named as a conflict when it disagrees
    with one, as Memory health reads it ("I switched gyms, I go to Solinca now" fills the gym).
    None when it only mentions a stored fact as it is ("upgraded the RAM in my ThinkPad")."""
    claims = named_claims(sentence.text, others)
    for fact in known:
        for old in stored[fact.number]:
            if any(c.slot == old.slot and not c.past and same_value(c.value, old.value) for c in claims):
                return None
    for fact in known:
        for old in stored[fact.number]:
            for new in claims:
                if (
                    new.slot
                    and new.slot == old.slot
                    and not new.past
                    and not same_value(new.value, old.value)
                ):
                    if new.slot in SEVERAL_VALUES:
                        continue  # a further value, not a contradiction
                    what = f"{WHERE_LABELS[fact.where]} {fact.ref}"
                    return Edit(
                        "add",
                        None,
                        sentence.text,
                        "A new statement; it fills the same slot as a stored fact, so both are kept "
                        "for you to settle.",
                        conflict=f"{what}: “{fact.text}”",
                        evidence=sentence.text,
                    )
    why = "A statement of change that touches no stored fact."
    return Edit("add", None, sentence.text, why, evidence=sentence.text)
