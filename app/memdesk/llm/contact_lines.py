"""Which stored line a new contact value (a phone number, an e-mail or postal address) is for.

A person keeps several lines of a kind ("Home phone", "Mobile", "Work e-mail"), and the store
keeps other people's ("Sister Lorraine's mobile: …") and lines that merely contain a value
("Fault ticket … about the line 08 9071 4432"). A new value is written only over a line that
is, by its structure:

- whose the new value is: the person's own line when the person's sentence is about them,
  another person's when the message names that person ("Lorraine lost her phone … got a new
  number"); a relative or friend, a name's possessive, a subject that is another, someone the
  store does not name whom the message calls "he", "she" or "they" (all read by
  ``core.whose``), a label that names no contact ("Landlord: Mr Georgiou, phone …") or a name
  the store gives another person make a line or a sentence someone else's;
- for the value: the value ends a short head ("Work mobile:", "phone"), not a long sentence
  about something else;
- of the kind the sentence names ("the house phone", "work mob"): a line whose words name
  another kind is not it, nor one the person says did not change ("the cell hasn't changed",
  "personal unchanged"); when the sentence names no kind, only the one line of its kind there
  is.

A line said as past ("Old mobile …", "(disconnected 2021)") is left out before these rules run
(``core.slots.marked_past``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from memdesk.core.values import ADDRESS, EMAIL, PHONE, Value, end_named, values_in
from memdesk.core.whose import LABEL, NO_NAME, RELATIVE_WORDS, named_in, nearest, says_own, told_of_another

# A line opening with a name, then who they are in brackets, after a comma or a dash: "Gocha
# (cork and bottle supplier, Telavi) — +995 …", "Lali, Gocha's wife — …", "Zé Botelho – deckhand".
_NAME_OPENS = re.compile(r"\s*(?:[-*•]\s*)?([A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2})\s*(?:\(|,\s|[–—-]\s)")
_RELATIVE = re.compile(rf"(?i:\b(?:{RELATIVE_WORDS})s?\b)")
CONTACT_SLOTS = frozenset({"phone_number", "email", "address"})  # the slot rules' names for them
CONTACT_KINDS = frozenset({PHONE, EMAIL, ADDRESS})  # the value reader's
# The kinds of line a person keeps of one contact, each with the words that name it.
_LINE_KINDS = {
    "mobile": "mobile mob cell cellphone",
    "home": "home house landline",
    "work": "work office business professional",
    "personal": "personal private",
}
_KIND_OF = {word: kind for kind, words in _LINE_KINDS.items() for word in words.split()}
LINE_WORDS = frozenset(_KIND_OF)  # words that name a kind of line, not a person, capitalised or not
# Words that name a contact and no kind of line.
_CONTACT_NOUNS = frozenset(
    [
        "phone",
        "telephone",
        "tel",
        "number",
        "no",
        "e-mail",
        "email",
        "mail",
        "address",
        "line",
        "lines",
        "contact",
    ]
)
_HEAD_WORDS = 4  # at most, before a value that is what its line is about: "Home phone (landline)"
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_CLAUSE = re.compile(r"[.;,]\s|—|–|\n")
_OWN_IS = re.compile(rf"(?i:\b({'|'.join(sorted({*_KIND_OF, *_CONTACT_NOUNS, 'mine', 'one'}))})['’]s\b)")
_ALL_MINE = "all mine"  # a kept kind: every line of the person's own
_MINE = re.compile(r"(?i:\bmine\b)")
# A clause saying a thing did not change: "hasn't changed", "is the same", "personal unchanged",
# "the personal stays", "still the old one".
_UNCHANGED = re.compile(
    r"(?i:(?:n['’]t|\bnot|\bnever)\s+(?:\w+\s+)?(?:chang\w*|differ\w*|new)\b|\bsame\b|\bunchanged\b"
    r"|\bstays?\b|\bstill\b|\bas\s+(?:before|ever|always)\b"
    # one said alike after such a clause: "…, and so is Mum's", "an so's Maw's"
    r"|^\s*(?:an[d]?\s+)?so(?:['’]s|\s+(?:is|are|does|do))\b)"
)


@dataclass(frozen=True)
class Saying:
    """A new contact value as the person said it: its sentence, where the value is in it, its
    message, and everything the person said in the conversation."""

    sentence: str
    start: int
    message: str
    conversation: tuple[str, ...]


# How a line fits a new contact value (``line_fits``).
NOT_IT = ""
ONLY_ONE = "only"  # the only line it can be, though the sentence names nothing of it
NAMED = "named"  # the sentence or its message names the line: its kind, its owner, its old number's end


def line_fits(line: str, span: tuple[int, int], saying: Saying, lines: Sequence[str]) -> str:
    """How the new value of ``saying`` fits the stored ``line`` whose contact value is at
    ``span``: ``NOT_IT``, ``ONLY_ONE`` or ``NAMED``; ``lines``: every stored fact the
    conversation may change (``line`` too)."""
    if not _for_the_value(line, span[0]):
        return NOT_IT
    owner = _owner(line, span[0])
    kept_kinds, kept_words = _kept(saying.conversation)
    theirs = _said_of_another(saying, _people(tuple(lines))) or told_of_another(
        saying.sentence, saying.message, lines, LINE_WORDS
    )
    said = _words(saying.message) - kept_words
    # a sentence with no word of the person's own, in a message naming whose a stored line of
    # the kind is: their news ("Abeg Uche Nnewi don change him line. … New number na 0906 …")
    theirs = theirs or (not says_own(saying.sentence) and _owner_named(line, span, said, lines))
    if theirs != bool(owner):
        return NOT_IT
    if owner and not owner & said:
        return NOT_IT  # someone else's line, of someone the message does not name
    kinds = _kinds(_head(line, span[0]))
    if kinds & kept_kinds or (not owner and _ALL_MINE in kept_kinds):
        return NOT_IT
    rival_values = [
        (other, value)
        for other in lines
        if other != line
        for value in _contacts(other, _kind_at(line, span))
        if _for_the_value(other, value.span[0]) and _owner(other, value.span[0]) == owner
    ]
    # the line named by the end of its old number ("the 111 one is dead")
    ends = [end_named(value.key, saying.message) for value in _contacts(line, _kind_at(line, span))]
    if any(ends) or any(end_named(value.key, saying.message) for _other, value in rival_values):
        return NAMED if any(ends) else NOT_IT
    rivals = [_kinds(_head(other, value.span[0])) for other, value in rival_values]
    rivals = [rival for rival in rivals if not rival & kept_kinds]
    named_kinds = _kinds(saying.sentence) - kept_kinds or _kinds(saying.message) - kept_kinds
    if named_kinds and named_kinds <= kinds:
        return NAMED
    if named_kinds:  # a line of no kind of its own, when no other is of the kind said
        return ONLY_ONE if not kinds and not any(named_kinds <= rival for rival in rivals) else NOT_IT
    if rivals:
        return NOT_IT
    return NAMED if owner else ONLY_ONE


def owner_said_whole(line: str, span: tuple[int, int], message: str) -> bool:
    """Every word of whose the contact at ``span`` is, the message says: of "Zé Botelho – …" and
    "Dina Botelho (Zé's wife) – …", "update Zé Botelho" names the first whole."""
    owner = _owner(line, span[0])
    return bool(owner) and owner <= _words(message)


def _owner_named(line: str, span: tuple[int, int], said: frozenset[str], lines: Sequence[str]) -> bool:
    """The words ``said`` (of the message, but those it names as unchanged) name whose a stored
    contact of the kind at ``span`` is."""
    kind = _kind_at(line, span)
    return any(_owner(other, value.span[0]) & said for other in lines for value in _contacts(other, kind))


def _kind_at(line: str, span: tuple[int, int]) -> str:
    """The value reader's kind of the contact at ``span``: "" when it reads none there."""
    for value in values_in(line):
        if value.kind in CONTACT_KINDS and value.span[0] < span[1] and span[0] < value.span[1]:
            return value.kind
    return ""


def _contacts(line: str, kind: str) -> list[Value]:
    return [value for value in values_in(line) if kind and value.kind == kind and not value.denied]


def _head(line: str, start: int) -> str:
    """The words of the value's clause before it: what the line says the value is."""
    breaks = [m.end() for m in _CLAUSE.finditer(line, 0, start)]
    return line[breaks[-1] if breaks else 0 : start]


def _for_the_value(line: str, start: int) -> bool:
    """The value is what its clause is about, not a detail of a sentence about something else
    ("Fault ticket lodged about the homestead line 08 …")."""
    return len(_WORD.findall(_head(line, start))) <= _HEAD_WORDS


# A name after a preposition of place is where someone is, not whose the contact is ("Lorraine's
# sister Pam lives in Ceduna, landline …": the person's own news of Ceduna is not Pam's).
_PLACE_NAMED = re.compile(r"\b(?:in|at|near|from)\s+(?:[A-Z][\w'’-]*\s*)+")


@lru_cache(maxsize=4096)
def _owner(line: str, start: int) -> frozenset[str]:
    """The words naming whose the contact at ``start`` is (lowercased); empty for the person's
    own. Another's: a label that names no contact ("Landlord: Mr Georgiou, phone …"), or a
    relative, a friend or a name's possessive (``_someone_elses``)."""
    before = _unpossessed(line[:start])
    label = LABEL.match(before)
    opening = None if label else _NAME_OPENS.match(before)
    # a contact list's line, of the name it opens with before saying who they are: "Lali,
    # Gocha's wife (label printing) — …" is Lali's, not Gocha's (a relative opening it is read
    # with the names after it: "Dad (Brendan) — …")
    name = opening.group(1) if opening else ""
    if _names(name) and not _contact_words(name) and not _RELATIVE.search(name):
        return _names(name)
    if (label and not _contact_words(label.group(1))) or _someone_elses(before):
        return _names(_PLACE_NAMED.sub(" ", before))
    return frozenset()


def _someone_elses(text: str) -> bool:
    """The text names someone else as whose it is, at its start or after its label
    ("Emergency contact: Dad (Brendan) …", "Lorraine's")."""
    return named_in(text, any_case=True, labelled=True).others


@lru_cache(maxsize=64)
def _people(lines: tuple[str, ...]) -> frozenset[str]:
    """The names the stored lines give people other than the person: the capitalised words of
    a line that is a relative's or a friend's ("Neighbour: Col Fitzsimmons, next block east")."""
    names: set[str] = set()
    for line in lines:
        if _someone_elses(_unpossessed(line)):
            names |= _names(line)
    return frozenset(names)


def _said_of_another(saying: Saying, people: frozenset[str]) -> bool:
    """The new value is someone else's: by the words before it (``core.whose.nearest``), or a
    name the store gives another after the person's nearest word; or, in a sentence with no
    word of the person's own, a message that names someone the store gives ("Lorraine lost her
    phone … Got a new number off the shop, 0491 203 664"), unless the message told of the
    person's own before it and named none of them there."""
    before = _unpossessed(saying.sentence[: saying.start])
    found = nearest(before)
    rest = before[found.span[0] :] if found.persons else before
    if found.others or _names(rest) & people:
        return True
    if found.persons or says_own(saying.sentence):
        return False
    # the message told of the person's own before, naming no one the store gives: "My phone fell
    # in the tea boiler … New number is 09-555-0178. My sister Daw Nilar she also laughing at me"
    at = saying.message.find(saying.sentence)
    earlier = saying.message[: max(at, 0)]
    if says_own(earlier) and not _words(earlier) & people:
        return False
    # in any case ("update mum pls"), unless named only as unchanged ("so's Maw's")
    return bool(_words(saying.message) - _kept(saying.conversation)[1] & people)


@lru_cache(maxsize=64)
def _kept(conversation: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The kinds of line, and the words, of the clauses saying a thing did not change; a
    clause of the person's own that names no contact ("Mine unchanged", "mine's the same")
    keeps every line of the person's (``_ALL_MINE``)."""
    kinds: set[str] = set()
    words: set[str] = set()
    for sentence in conversation:
        for clause in _CLAUSE.split(sentence):
            if _UNCHANGED.search(clause):
                kinds |= _kinds(clause)
                words |= _words(clause)
                if _MINE.search(clause) and not _contact_words(clause):
                    kinds.add(_ALL_MINE)
    return frozenset(kinds), frozenset(words)


def _names(text: str) -> frozenset[str]:
    """The capitalised words of a text that may name someone (lowercased): not a kind of line
    or a contact ("Home", "Mobile"), nor a function word."""
    return frozenset(
        word
        for word in _words(" ".join(w for w in _WORD.findall(text) if w[:1].isupper()))
        if word not in _KIND_OF and word not in _CONTACT_NOUNS and word not in NO_NAME and len(word) > 2
    )


def _unpossessed(text: str) -> str:
    """The text with "'s" dropped where it is "is": after a contact's own words ("Landline's
    on the new exchange", "number's 08 …", "Mine's the same"), no one's possessive."""
    return _OWN_IS.sub(r"\1", text)


def _kinds(text: str) -> frozenset[str]:
    return frozenset(_KIND_OF[word] for word in _words(text) if word in _KIND_OF)


def _contact_words(text: str) -> bool:
    return bool(_words(text) & (set(_KIND_OF) | _CONTACT_NOUNS))


def _words(text: str) -> frozenset[str]:
    """The text's words, lowercased, a possessive's "'s" dropped ("Ruth's" is "ruth")."""
    return frozenset(re.sub(r"['’]s$", "", word.lower()) for word in _WORD.findall(text))
