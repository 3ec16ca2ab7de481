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

The model backend sends the same material in one call (``memdesk.llm.steps``) and falls
back to these rules when its reply cannot be used.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from memdesk.core.dates import MONTHS
from memdesk.core.slots import (
    LABELS,
    PLURAL_SLOTS,
    SEVERAL_VALUES,
    Claim,
    claims_in,
    household_names,
    later_claims,
    normalise,
    same_value,
    says_change,
    says_replacement,
    slots_named_in,
    stem,
)

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
_CLAUSE = re.compile(r"[,;:]\s|\s(?:and|but|so|then|while)\s")
_ARTICLE = re.compile(r"\b(an?)\s+$", re.IGNORECASE)
# A sentence ends at . ! ? and a space, but not after a title ("Dr. Okafor", "St. Ives").
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bSt\.)\s+|\n+")
_MAX_SENTENCES = 200  # the latest; a long session's changes are in what was said last
_MIN_VALUE_CHARS = 3
# A doctor's title makes a name of no known kind fill the slot of a doctor the person sees
# ("I'm now with Dr. Evans").
_TITLED = re.compile(r"(?:Dr|Doctor|Prof)\b")
_CARERS = frozenset({"doctor", "dentist", "therapist"})
# A one-line fact with a label of its own: "Optician: Specsavers on High Street."
_OWN_LABEL = re.compile(r"[ \t]*(?:[-*•][ \t]+)?([A-Za-z][A-Za-z -]{0,24}?)[ \t]*:[ \t]*(\S[^\n]*?)[ \t.]*")


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
    evidence: str = ""
    sure: bool = True


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

    When two sentences change the same fact, the later one wins and its reason says so.
    """
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
    for sentence in said:
        if sentence.turn in changing_turns:
            turns.setdefault(sentence.turn, []).append((sentence, claims_in(sentence.text, others)))
    stored = {fact.number: _stored_claims(fact.text, others) for fact in known}
    kept += _dated(said, known, stored)
    edited_in: dict[int, int] = {}  # the turn of each fact's edit
    for sentences in turns.values():
        used: set[int] = set()  # sentences that gave a value to a change
        for sentence, claims in sentences:
            if not claims or id(sentence) not in changing:
                continue
            touched = False
            for fact in known:
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
                found = _edit(base, claims_there, sentence, claims, sentences)
                if found is None:
                    continue
                edit, sources = found
                used |= sources
                touched = True
                edited_in[fact.number] = sentence.turn
                if previous is not None and previous.text == edit.text:
                    continue  # the same change said again: the first wording explains it
                if more and previous is not None:
                    edit = Edit(edit.action, edit.target, edit.text, f"{previous.why} {edit.why}")
                elif previous is not None:
                    edit = Edit(
                        edit.action,
                        edit.target,
                        edit.text,
                        f"{edit.why} It comes later than “{_quoted(previous)}”, so the last statement wins.",
                    )
                edits[fact.number] = edit
            if not touched:
                additions.append((sentence, claims))
        additions = [(sentence, claims) for sentence, claims in additions if id(sentence) not in used]
        kept += [addition for s, c in additions if (addition := _addition(s, c, known, stored))]
        additions = []
    return [*edits.values(), *kept]


def _edit(
    fact: Known,
    stored: list[Claim],
    sentence: Said,
    claims: list[Claim],
    turn: list[tuple[Said, list[Claim]]],
) -> tuple[Edit, set[int]] | None:
    """How ``sentence`` changes ``fact``, if it does, and the sentences whose values it took."""
    # (span in the fact, its new text or None to keep it marked past, the mark after it)
    edits: list[tuple[tuple[int, int], str | None, str]] = []
    sources = {id(sentence)}
    for ended in (claim for claim in claims if claim.past):
        found = _holding(fact.text, stored, ended, sentence.text)
        if found is None:
            continue
        slot, span = found
        successor = _successor(slot, ended, sentence, turn, fact.text[span[0] : span[1]])
        if successor is None:
            edits.append((span, None, _until(_date_near(sentence.text, ended.span), sentence.at)))
        else:
            source, new = successor
            sources.add(id(source))
            text = source.text[new.span[0] : new.span[1]]
            edits.append((span, text, _since(_date_near(source.text, new.span))))
    current = [c for _s, turn_claims in turn for c in turn_claims if not c.past]
    said_in_turn = " ".join(s.text for s, _claims in turn)
    labelled = slots_named_in(said_in_turn) | {
        _label_slot(word) for word in re.findall(r"[A-Za-z]+", said_in_turn)
    }
    replacing = says_replacement(sentence.text)
    # The last value said for a slot is the one that holds ("switched to Android, got a Pixel 9").
    for new in reversed([claim for claim in claims if not claim.past]):
        for old in stored:
            # A name of no known kind fills a slot the turn names ("had to change GP practice
            # … registered with Dr. Bello").
            titled = old.slot in _CARERS and _TITLED.match(sentence.text, new.span[0]) is not None
            slot = new.slot or (old.slot if old.slot in labelled or titled else "")
            if not slot or not _same_slot(old.slot, slot) or _same(old.slot, new.value, old.value):
                continue
            # A slot that holds several values gains one, unless the person says it replaced
            # another ("I also started tea" keeps coffee; "went vegan" replaces vegetarian).
            if old.slot in SEVERAL_VALUES and old.slot not in PLURAL_SLOTS and not replacing:
                continue
            if any(_overlap(old.span, span) for span, _text, _mark in edits):
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
            text = _filled(old, new, sentence.text)
            edits.append((old.span, text, _since(_date_near(sentence.text, new.span))))
    if not edits:
        return None
    quoted = f"The person said: “{sentence.text}”"
    if any(text is not None for _span, text, _mark in edits):
        return Edit("update", fact.number, _substituted(fact.text, edits), quoted), sources
    retired = [span for span, _text, _mark in edits]
    ended_words = {w for start, end in retired for w in normalise(fact.text[start:end]).split()}
    others = [
        c
        for c in stored
        if not any(_overlap(c.span, span) for span in retired)
        and c.slot.partition(":")[2] not in ended_words  # "on Thursdays" of squash ends with it
    ]
    if others:  # the line says more than what ended: it stays, saying that part is past
        return Edit("retire", fact.number, _substituted(fact.text, edits), quoted), sources
    return Edit("retire", fact.number, "", quoted), sources


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
    match = _OWN_LABEL.fullmatch(text)
    if match and " ".join(match.group(1).lower().split()) not in LABELS:
        start, end = match.span(2)
        claims.append(
            Claim(_label_slot(match.group(1).split()[-1]), normalise(text[start:end]), (start, end), False)
        )
    return claims


def _label_slot(word: str) -> str:
    return f"label:{stem(word)}"


def _dated(said: Sequence[Said], known: Sequence[Known], stored: dict[int, list[Claim]]) -> list[Edit]:
    """Statements of a change from a later date to a stored fact ("from next April the rent
    will be £1,200"): added as dated facts; the stored one holds until then."""
    added: list[Edit] = []
    for sentence in said:
        later = {claim.slot for claim in later_claims(sentence.text) if claim.slot}
        for fact in known:
            if any(claim.slot in later for claim in stored[fact.number]):
                what = f"{WHERE_LABELS[fact.where]} {fact.ref}"
                why = (
                    f"A change from a later date: added as a dated fact; {what} (“{fact.text}”) "
                    "holds until then."
                )
                # dated by when it was said, so "next April" can be read later
                said_when = "" if _RESOLVED.search(sentence.text) else f" (said in {_month(sentence.at)})"
                added.append(Edit("add", None, sentence.text + said_when, why))
                break
    return added


def _holding(text: str, stored: list[Claim], ended: Claim, said: str) -> tuple[str, tuple[int, int]] | None:
    """The slot and span of ``text`` that holds the value ``ended`` names, if any."""
    words = set(ended.value.split())
    if not words or len(ended.value) < _MIN_VALUE_CHARS:
        return None
    for claim in stored:
        if ended.slot in ("", claim.slot) and words <= set(claim.value.split()):
            return claim.slot, claim.span
    # No slot of the stored text holds it ("uses melatonin"): the value's own words do.
    raw = said[ended.span[0] : ended.span[1]]
    # the word as said, or in the singular ("no more smoothies" ends "a smoothie")
    forms = "|".join(re.escape(form) for form in _singulars(raw))
    match = re.search(rf"(?<!\w)(?:{forms})(?!\w)", text, re.IGNORECASE)
    return (ended.slot, match.span()) if match else None


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


def _substituted(text: str, edits: list[tuple[tuple[int, int], str | None, str]]) -> str:
    """``text`` with each span replaced (None: kept, to be marked past) and its mark after it."""
    out = text
    for (start, end), new, mark in sorted(edits, key=lambda item: item[0][0], reverse=True):
        old = out[start:end]
        value = old if new is None else new.replace("{old}", old)
        before = out[:start]
        article = _ARTICLE.search(before)
        if article and new is not None:  # "an iPhone 12" → "a Pixel 9"
            fitting = "an" if value[:1].lower() in "aeiou" else "a"
            fitting = fitting.capitalize() if article.group(1)[0].isupper() else fitting
            before = before[: article.start(1)] + fitting + before[article.end(1) :]
        out = before + value + mark + out[end:]
    return out


def _since(date: str) -> str:
    return f" (since {date})" if date else ""


def _until(date: str, at: datetime) -> str:
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
    sentence: Said, claims: list[Claim], known: Sequence[Known], stored: dict[int, list[Claim]]
) -> Edit | None:
    """A statement that changed nothing stored; named as a conflict when it disagrees with one.
    None when it only mentions a stored fact as it is ("upgraded the RAM in my ThinkPad")."""
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
                    )
    return Edit("add", None, sentence.text, "A statement of change that touches no stored fact.")


def _quoted(edit: Edit) -> str:
    return edit.why.removeprefix("The person said: “").split("”")[0]
