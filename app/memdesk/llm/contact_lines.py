"""Which stored line a new contact value (a phone number, an e-mail or postal address) is for.

A person keeps several lines of a kind ("Home phone", "Mobile", "Work e-mail"), and the store
keeps other people's ("Sister Lorraine's mobile: …") and lines that merely contain a value
("Fault ticket … about the line 08 9071 4432"). A new value is written only over a line that
is, by its structure:

- whose the new value is: the person's own line when the person's sentence is about them,
  another person's when the message names that person ("Lorraine lost her phone … got a new
  number"); a relative or friend (``core.slots.about_someone_else``), a name's possessive, a
  label that names no contact ("Landlord: Mr Georgiou, phone …"), a name the store gives
  another person, or someone it does not name whom the message calls "he", "she" or "they"
  (``told_of_another``) make a line or a sentence someone else's;
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

from memdesk.core.search_text import STOPWORDS
from memdesk.core.slots import about_someone_else
from memdesk.core.values import ADDRESS, EMAIL, PHONE, Value, end_named, values_in

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
_PLAIN = frozenset(STOPWORDS) | {"new", "old"}  # words that name no one, capitalised or not
_HEAD_WORDS = 4  # at most, before a value that is what its line is about: "Home phone (landline)"
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_CLAUSE = re.compile(r"[.;,]\s|—|–|\n")
_LABEL = re.compile(r"\s*(?:[-*•]\s+)?([^:\n]{1,40}):\s")
_POSSESSIVE = re.compile(
    r"(?i:\b(?!(?:it|that|what|there|here|he|she|let|who|where|when|how)['’]s)[a-z][\w-]*['’]s\b)"
)
_FIRST_PERSON = re.compile(r"(?i:\b(?:i|i'm|i’m|i've|i’ve|me|my|mine|we|we're|we’re|us|our|ours)\b)")
_OWN_IS = re.compile(rf"(?i:\b({'|'.join(sorted({*_KIND_OF, *_CONTACT_NOUNS, 'mine', 'one'}))})['’]s\b)")
# "'s" of a thing with "the", before a past participle, is "has", no one's possessive: "the
# council's shifted the schools" (a name's stays whose: "Sam's changed her number").
_HAS_DONE = re.compile(r"(?i:(\bthe\s+[a-z][\w-]*)['’]s(?=\s+(?:been|got|gone|[a-z]{3,}ed)\b))")
# The sentence's subject is another person: "She's all mobile now", "they got a new number".
_THIRD_SUBJECT = re.compile(r"(?i:\s*(?:(?:and|but|so)\s+)?(?:she|he|they)\b)")
# A person named by what they are to the person: "my teammate Lukas", "my duo partner Callum".
# (a name, not an initialism: "my new mail ID" names no one)
_RELATION_NAMED = re.compile(r"\b(?i:my|our)\s+(?:[a-z]+\s+){1,2}([A-Z][a-z][\w-]*)")
# A first name opening a sentence, before what it does: "Jess has moved to Hove".
_OPENING_NAME = re.compile(r"(?:^|[.!?]\s+)(?:(?i:so|and|but|btw)\s+)?([A-Z][a-z]+)\s+(?=[a-z])")
_THIRD_PERSON = re.compile(r"(?i:\b(?:he|she|they|him|her|his|them|their)\b)")
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
        saying.sentence, saying.message, lines
    )
    if theirs != bool(owner):
        return NOT_IT
    if owner and not owner & (_words(saying.message) - kept_words):
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


@lru_cache(maxsize=4096)
def _owner(line: str, start: int) -> frozenset[str]:
    """The words naming whose the contact at ``start`` is (lowercased); empty for the person's
    own. Another's: a label that names no contact ("Landlord: Mr Georgiou, phone …"), or a
    relative, a friend or a name's possessive (``_someone_elses``)."""
    before = _unpossessed(line[:start])
    label = _LABEL.match(before)
    if (label and not _contact_words(label.group(1))) or _someone_elses(before):
        return _names(before)
    return frozenset()


def _someone_elses(text: str) -> bool:
    """The text names a relative or friend, or a name's possessive, as whose it is, at its
    start or after its label ("Emergency contact: Dad (Brendan) …")."""
    label = _LABEL.match(text)
    after_label = text[label.end() :] if label else text
    return about_someone_else(text) or about_someone_else(after_label) or bool(_POSSESSIVE.search(text))


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
    """The new value is someone else's: their relative or friend, a name's possessive, a
    subject that is another ("She's", "they"), a person named by what they are to the person
    ("my teammate Lukas"), or a name the store gives another, before the value; or, in a
    sentence with no word of the person's own, a message that names someone the store gives
    ("Lorraine lost her phone … Got a new number off the shop, 0491 203 664")."""
    before = _unpossessed(saying.sentence[: saying.start])
    # the nearest word of the person's own decides, unless another is named after it ("my
    # brother's plan, so I'm on 085 …" is the person's; "my daughter Ngozi on 07 …" is not)
    mine = list(_FIRST_PERSON.finditer(before))
    rest = before[mine[-1].start() :] if mine else before
    if (
        _someone_elses(rest)
        or _THIRD_SUBJECT.match(rest)
        or _names(rest) & people
        or _RELATION_NAMED.search(rest)
    ):
        return True
    if mine or _FIRST_PERSON.search(saying.sentence):
        return False
    # in any case ("update mum pls"), unless named only as unchanged ("so's Maw's")
    return bool(_words(saying.message) - _kept(saying.conversation)[1] & people)


def told_of_another(sentence: str, message: str, lines: Sequence[str]) -> bool:
    """The sentence is the news of someone the stored ``lines`` do not name, whom its message
    names by what they are to the person or by a first name opening a sentence, then calls
    "he", "she" or "they" ("my duo partner Callum quit Sheffield, he's in Leeds now … new
    mobile too, 07311 …"), and it has no word of the person's own but in naming them."""
    stored = _words("\n".join(lines))
    named = [*_RELATION_NAMED.finditer(message), *_OPENING_NAME.finditer(message)]
    newcomers = [
        match
        for match in named
        if (name := match.group(1).lower()) not in stored
        and name not in _PLAIN
        and name not in _KIND_OF
        and _THIRD_PERSON.search(message, match.end())
    ]
    if not newcomers:
        return False
    return not _FIRST_PERSON.search(_RELATION_NAMED.sub(" ", sentence))


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
        if word not in _KIND_OF and word not in _CONTACT_NOUNS and word not in _PLAIN and len(word) > 2
    )


def _unpossessed(text: str) -> str:
    """The text with "'s" dropped where it is "is" or "has": after a contact's own words
    ("Landline's on the new exchange", "number's 08 …", "Mine's the same") or of a thing with
    "the" before a past participle ("the council's moved us"): no one's possessive."""
    return _HAS_DONE.sub(r"\1", _OWN_IS.sub(r"\1", text))


def _kinds(text: str) -> frozenset[str]:
    return frozenset(_KIND_OF[word] for word in _words(text) if word in _KIND_OF)


def _contact_words(text: str) -> bool:
    return bool(_words(text) & (set(_KIND_OF) | _CONTACT_NOUNS))


def _words(text: str) -> frozenset[str]:
    """The text's words, lowercased, a possessive's "'s" dropped ("Ruth's" is "ruth")."""
    return frozenset(re.sub(r"['’]s$", "", word.lower()) for word in _WORD.findall(text))
