"""Whose news a clause tells: the person's own, someone else's, or it does not say.

Every reader of a conversation asks this before it changes a stored fact, so the words that
answer it live here alone:

- someone else is named as whose the rest is: a relative or a friend by what they are to the
  person ("my sister", "Grandma June", "Mum moved…"), a name's possessive ("Noah's phone"), a
  clause about someone just named ("…, who is vegetarian"), a subject that is another ("she's
  on…", "Marta cancelled…"), a person named by what they are ("my teammate Lukas"), a name the
  message goes on to call "he", "she" or "they", a household member the profile names as the
  clause's subject ("Dev drives…"), or words someone else wrote or said (a forwarded message,
  "mr lim says…");
- the person is in it too when they are one of its subjects: "my sister and I", "me and my
  brother", "we", "us" ("i" in any case: texts are often lower case). "I" or "me" elsewhere
  is not enough: "I got my sister's new number" and "my sister sent me her new number" are
  hers;
- a relative's news becomes the person's when the sentence goes on to say so ("…so that's
  me now", "her old Kindle is mine now").

The last check on an offline edit (``llm.sure``) reads two more things here: whose a stored
line is, by the words opening it or its label ("Grandma Zainab's number", "Old number for
Kwame": ``line_owner``), and whether a sentence tells of someone else and not of the person
("He new number is …", "my prima Daniela just moved to …": ``tells_of_another``).

Each reader returns a ``Whose``: who, and the span of the words that say so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from memdesk.core.dates import MONTHS, WEEKDAYS
from memdesk.core.search_text import STOPWORDS

PERSON, OTHER, UNSAID = "person", "other", ""


@dataclass(frozen=True)
class Whose:
    """Whose a clause is (``PERSON``, ``OTHER`` or ``UNSAID``), and where the words that say
    so are in the text read: for another, the word naming them ("sister" of "my sister", "Dev"
    of "Dev's"); (0, 0) when unsaid."""

    who: str = UNSAID
    span: tuple[int, int] = (0, 0)

    @property
    def others(self) -> bool:
        return self.who == OTHER

    @property
    def persons(self) -> bool:
        return self.who == PERSON


UNKNOWN = Whose()

# The kin English builds relatives' words from, and how it builds them: "grandson",
# "great-granddaughter", "stepdad", "goddaughter", "half-brother", "son-in-law".
_KIN_STEMS = (
    r"son|daughter|child|children|kids?|mother|father|mum|mom|dad|ma|pa|parents?|sister|brother|niece|nephew"
)
_KIN_BUILT = rf"(?:great-?)*(?:grand|step|god|half-?)(?:{_KIN_STEMS})|(?:{_KIN_STEMS})-in-law"
FAMILY_WORDS = (  # the built words first: "son-in-law" is not "son"
    rf"{_KIN_BUILT}|sister|brother|mum|mom|mother|dad|father|parents|son|daughter|cousin|aunt|auntie|"
    r"uncle|granny|gran|nan|nana|grandad|niece|nephew|in-laws|"
    # short and dialect forms, and the words of other languages people mix into English
    r"sis|bro|maw|mam|mammy|mama|mammi|papa|tía|tia|tío|tio|prima|primo|abuela|abuelo"
)
_ACQUAINTANCES = r"friend|colleague|neighbou?r|flatmate|boss"
RELATIVE_WORDS = rf"{FAMILY_WORDS}|{_ACQUAINTANCES}|roommate"
_TITLES = r"grandma|grandpa|granny|gran|nan|nana|grandad|auntie|aunt|uncle|cousin"  # before a name
_NOT_POSSESSIVE = r"(?:It|That|What|There|Here|He|She|Let|Who|Where|When|How)['’]s"
# Someone else named by what they are, each alternative's one group the word naming them: a
# relative or a friend named by whose they are ("my sister"), or a relative by the title that
# goes before a name ("Grandma June", "Uncle Raj").
_KIN = (
    rf"(?i:\b(?:my|our|his|her|their)\s+((?:{RELATIVE_WORDS})s?)\b)"
    rf"|\b((?i:{_TITLES}))\s+[A-Z]"
)
# Someone else named as whose a value is: by what they are (``_KIN``), a relative or a friend
# at the start ("Mum lives in Cork"; "- Best friend Awa lives in Lyon", after a stored line's
# bullet), a clause about the person just named ("except Dev, who is vegetarian"), or what a
# name's possessive names ("Dev's mum", "Noah's phone").
_OTHER_NAMED = re.compile(
    rf"{_KIN}"
    rf"|^\s*(?:[-*•]\s*)?(?:[A-Za-z]+\s+)?((?i:{RELATIVE_WORDS})s?)\b"
    r"|^\s*((?i:who|whose))\b"
    rf"|\b(?!{_NOT_POSSESSIVE})([A-Z][\w-]*)['’]s\s"
)
# Someone else whose news a clause tells: named by what they are, or a relative opening it as
# its subject ("mum moved into Wattle Grove"). A name's possessive there names what the news
# is about, not whose it is: "Swap Mum's milk for oat milk", "Pickle's care has been
# transferred", "the account — Tomasz's and mine — now sits with…", "after Sunday's fair".
_OTHERS_NEWS = re.compile(rf"{_KIN}|^\s*((?i:{FAMILY_WORDS})s?)\b")
# A name's possessive in any case, as texts write it ("lorraine's new number").
_ANY_POSSESSIVE = re.compile(rf"\b(?!(?i:{_NOT_POSSESSIVE}))((?i:[a-z][\w-]*))['’]s\b")
# A stored line's label, before whose it is: "Emergency contact: Dad (Brendan) …".
LABEL = re.compile(r"\s*(?:[-*•]\s+)?([^:\n]{1,40}):\s")
# "'s" of a thing with "the", before a past participle, is "has", no one's possessive: "the
# council's shifted the schools", "the GP's bumped the dose" (a name's stays whose: "Sam's
# changed her number").
_HAS_DONE = re.compile(r"(?i:(\bthe\s+[a-z][\w-]*)(['’]s)(?=\s+(?:been|got|gone|[a-z]{3,}ed)\b))")
# The person as one of a clause's subjects: "and I", "me and", "we", "us".
_PERSON_TOO = re.compile(r"(?i:\band\s+i\b|\bme\s+and\b|\bwe\b|\bus\b)")
# The person anywhere in a clause, as its subject or its object: whose news it tells.
_PERSON_IN = re.compile(r"(?i:\b(?:i|we|me|us)\b)")
# A word of the person's own: the nearest decides whose a value is ("my brother's plan, so I'm
# on 085…").
_PERSONS_WORD = re.compile(r"(?i:\b(?:i|me|my|mine|we|us|our|ours)\b(?:['’](?:m|ve|re)\b)?)")
# A subject that is another person: "She's all mobile now", "and they got a new number".
_THIRD_SUBJECT = re.compile(r"(?i:\s*(?:(?:and|but|so)\s+)?(she|he|they)\b)")
_THIRD_SUBJECT_WORD = re.compile(r"(?i:\b(?:she|he|they)\b)")
_THIRD_PERSON = re.compile(r"(?i:\b(?:he|she|they|him|her|his|them|their)\b)")
_THIRD_POSSESSIVE = re.compile(r"(?i:(?<!\S)(?:his|her|their)(?!\S))")
_NEAR_WORDS = 4  # a possessive this many words before a value owns it: "her new tesla"
_OBJECT = re.compile(r"(?i:^(?:me|us)$)")  # the person as an object: "she handed us over to her partner"
# A person named by what they are to the person: "my teammate Lukas", "my duo partner Callum"
# (a name, not an initialism: "my new mail ID" names no one).
_RELATION_NAMED = re.compile(r"\b(?i:my|our)\s+(?:[a-z]+\s+){1,2}([A-Z][a-z][\w-]*)")
# A first name opening a sentence, before what it does: "Jess has moved to Hove".
_OPENING_NAME = re.compile(r"(?:^|[.!?]\s+)(?:(?i:so|and|but|btw)\s+)?([A-Z][a-z]+)\s+(?=[a-z])")
# What a profile's label or a name's possessive calls a member of the person's household.
HOUSEHOLD_LABELS = frozenset({
    "partner", "wife", "husband", "spouse", "girlfriend", "boyfriend", "fiance", "fiancee", "children",
    "kids", "son", "sons", "daughter", "daughters", "child", "dog", "cat", "pet", "pets", "mum", "mom",
    "mother", "dad", "father", "sister", "brother", "parents",
})  # fmt: skip
# A name before the relative of theirs the words go on to name ("Reem's cousin, Khaled, has a
# new number" is the cousin's news, not Reem's).
_NAME_OF_RELATIVE = re.compile(
    rf"\b[\w-]+['’]s\s+(?=(?i:(?:{RELATIVE_WORDS}|{'|'.join(sorted(HOUSEHOLD_LABELS))})s?)\b)"
)
# A word before a capitalised name, as a title or what someone is ("Sister Carole", "Uncle Bob").
_WORD_BEFORE_NAME = re.compile(r"\b([A-Za-z]+)\s+([A-Z][^\W\d_]+)")
NO_NAME = frozenset(STOPWORDS) | {"new", "old"}  # words that name no one, capitalised or not
# A relative's news the sentence goes on to make the person's ("my dad had a spare pixel 8 so
# thats me now", "…and her old Kindle is mine now", "…opened a salon, and now she's my
# hairdresser"). "That's me" ends its clause, or "now" follows it: "so that's me jealous" says
# nothing of whose.
_MINE_NOW = re.compile(
    r"(?i:(?:['’]s|\s+is|\s+are)\s+(?:(?:all|now)\s+)?(?:mine|ours)\b"
    r"|\b(?:that|it|this)(?:['’]?s|\s+is)\s+(?:me|us)(?=\s+now\b|\s*[.,;:!?]|\s*$)"
    r"|\b(?:she|he|they)(?:['’](?:s|re)|\s+is|\s+are)\s+(?:now\s+)?(?:my|our)\b)"
)
# A clause that opens with the person as its subject: "I'm Mrs Pemberton now", "Frank and I
# went…", "so I joined PureGym".
_PERSON_OPENS = re.compile(
    r"\s*(?:(?i:and|but|so|then)\s+)?(?:(?i:i|we)\b|[A-Z][\w-]+ (?i:and) (?:(?i:i|we))\b)"
)
# A clause's subject: a name, in any case, or a name's possession ("sara's bff is quitting
# ballet" is not the person's news either).
_SUBJECT = re.compile(
    r"\s*[(\[]?\s*(?:[-*•]\s*)?(?:(?:and|but|so|then)\s+)?([A-Za-z][\w-]*)\b(?:['’]s\b)?(?![’'])"
)
# Where a clause that names whose it is ends: "my sister and I" stays one.
CLAUSE_BREAK = re.compile(r"[;:.!?]\s|[,;]\s|\s(?:so|but|because|while|whereas)\s|\n")
# Where a clause with a doer of its own begins: "I cancelled netflix and Marta cancelled…".
_DOER_CLAUSE = re.compile(r"[,;:.!?]\s|\s(?:and|but|so|then|while)\s")
# The one who did what a verb says, when it is not the person: "he", "she", "they", "it", "you",
# or a capitalised word within the clause ("…, then Marta cancelled").
_OTHER_DOER = re.compile(r"(?i:\b(?:he|she|they|it|you)\b)|(?<!^)(?<![.!?]\s)\b(?!I\b)[A-Z][\w'’-]*")
# a name right before the verb, even opening the sentence ("Marta cancelled"; not "Finally")
_NAMED_DOER = re.compile(r"\b(?!I\b)[A-Z][\w'’-]*(?<!ly)(?=\s+$)")
# Someone other than the person saying or hearing something: a speech verb whose subject is not "I"
# ("Ma heard I quit", "my husband told you I left", "the gestoría say me no more cash": what
# they think, not the person's word).
_REPORTED = re.compile(
    r"(?i:\b(?!i\b|we\b)[a-z][\w'’-]*\s+(?:says|said|reckons|reckoned|claims|claimed|heard|hears|"
    r"told\s+(?:me|us|you)|tells\s+(?:me|us|you)|say\s+(?:to\s+)?(?:me|us))\b)"
)
_FORWARDED_LINE = re.compile(r"[ \t]*>")  # a line quoted from someone else's message
# A sentence's full stop, not a title's: "Dr. Patel".
SENTENCE_STOP = re.compile(r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bSt)[.!?](?=\s|$)")
_SENTENCE_END = re.compile(r"[.!?]+(?=\s|$)|\n")
_WORD = re.compile(r"[A-Za-z][\w'’-]*")

# --- whose a stored line is, and whose news a sentence tells, for the last check on an edit ---
# What someone is to the person, as a stored line or a "my" names them ("Best pal: …"; a
# "roommate" there is who the person lives with: "2BR with roommate Theo").
_RELATION = re.compile(rf"(?i:\b(?:{FAMILY_WORDS}|{_ACQUAINTANCES}|pal)\b)")
# A name's possessive opening a stored line or its label ("Mum's", "Markus'"), and the words
# whose "'s" is no one's.
_OWNERS = re.compile(r"\b([A-Za-z][\w-]*?)(?:['’]s\b|(?<=s)['’](?=\s))")
_NOT_OWNERS = frozenset({"it", "that", "what", "there", "here", "let", "who"})
_AFTER_POSSESSIVE = re.compile(r"['’]s\s+$")  # right after "X's "
_FOR_NAME = re.compile(r"\bfor\s+([A-Z][\w-]+)")  # "Old number for Kwame"
_CAPITALISED = re.compile(r"\b[A-Z][a-z][\w-]*")
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d+[a-z]*")  # a word in any alphabet ("Zoë"), a number ("2nd")
# The person anywhere in a sentence ("I", "we're", "me", "mine", "myself"); "my" is read apart.
_PERSON_NAMED = re.compile(r"(?i:\b(?:i|we|me|us|mine|myself)\b)")
# The person named only to compare someone else with ("his old box was 5 mg, same like mine",
# "she earns more than me"): no word of whose the news is.
_COMPARED_TO_PERSON = re.compile(r"(?i:\b(?:like|as|than)\s+(?:me|mine|us|ours)\b)")
# "my" before what the person has ("my work mail") or before a person: a relative, or a name
# within three words ("my prima Daniela", "my duo partner Callum", "my sis").
_MY = re.compile(r"(?i:\b(?:my|our|ma|meh|mi)\s+)((?:[\w'’-]+\s+){0,2}[\w'’-]+)")
_CALLED = re.compile(r"((?:[a-z][\w'’-]*\s+){1,2})[A-Z][a-z]")  # "prima Daniela", "duo partner Callum"
_HE_OR_SHE = re.compile(r"(?i:\b(?:he|she|his|her|hers|him)\b)")
# A sentence opening with a third person ("He new number is …", "she's got …") or a name's
# possessive ("Shona's wee sister …").
_OPENING_OTHER = re.compile(
    r"\s*(?:[-*•]\s*)?(?:(?i:so|and|but|oh|also|anyway)\s+)?"
    r"(?:(?i:he|she|his|her)\b|(?!(?:It|That|What|There|Here|Who|Let)['’])([A-Z][a-z][\w-]*)['’]s\b)"
)


def named_in(words: str, *, any_case: bool = False, labelled: bool = False, news: bool = False) -> Whose:
    """Whose the rest is, by the ``words`` before it: ``OTHER`` when they name someone else and
    the person is not one of its subjects too ("my sister", "Best friend Awa", "Noah's"; not
    "my sister and I"), ``PERSON`` when the person is. ``any_case``: a name's possessive in
    any case names whose the rest is, beside the person too ("we're on sam's plan");
    ``labelled``: the words may open with a stored line's label ("Emergency contact: Dad …");
    ``news``: whose news the words tell, not whose a value in them is (``_OTHERS_NEWS``): the
    person anywhere in them, subject or object, makes it theirs ("I bought my neighbour's RAV4
    off him")."""
    words = _HAS_DONE.sub(lambda done: done.group(1) + "  ", words)  # every word where it was
    person_in, others = (_PERSON_IN, _OTHERS_NEWS) if news else (_PERSON_TOO, _OTHER_NAMED)
    person = person_in.search(words)
    label = LABEL.match(words) if labelled else None
    for text, offset in ((words, 0), (words[label.end() :], label.end()) if label else ("", 0)):
        other = others.search(text)
        if other and not person_in.search(text):
            return Whose(OTHER, _naming_span(other, offset))
    possessive = _ANY_POSSESSIVE.search(words) if any_case else None
    if possessive:
        return Whose(OTHER, possessive.span(1))
    return Whose(PERSON, person.span()) if person else UNKNOWN


def clause_start(text: str, at: int) -> int:
    """Where the clause holding ``at`` begins (``CLAUSE_BREAK``)."""
    breaks = [match.end() for match in CLAUSE_BREAK.finditer(text, text.rfind("\n", 0, at) + 1, at)]
    return breaks[-1] if breaks else text.rfind("\n", 0, at) + 1


def of_clause(text: str, at: int, *, news: bool = False) -> Whose:
    """Whose the clause holding ``at`` is, by its words before ``at`` (``named_in``; ``news``:
    whose news it tells): a relative's news the sentence goes on to make the person's
    (``_MINE_NOW``) is theirs. Spans are in ``text``."""
    start = clause_start(text, at)
    found = _shifted(named_in(text[start:at], news=news), start)
    if found.others:
        mine = _MINE_NOW.search(text, at, sentence_end(text, at))
        if mine:
            return Whose(PERSON, mine.span())
    return found


def nearest(before: str) -> Whose:
    """Whose a value is by the words before it in its sentence: the nearest word of the
    person's own decides ``PERSON``, unless someone else is named after it ("my brother's
    plan, so I'm on 085…" is the person's; "my daughter Ngozi on 07…" and "she's on…" are
    not). Another is named as ``named_in`` reads them in any case, as the subject ("she's",
    "and they"), or by what they are ("my teammate Lukas")."""
    mine = list(_PERSONS_WORD.finditer(before))
    start = mine[-1].start() if mine else 0
    rest = before[start:]
    found = named_in(rest, any_case=True, labelled=True)
    if not found.others:
        third = _THIRD_SUBJECT.match(rest)
        named = _RELATION_NAMED.search(rest)
        found = Whose(OTHER, (third or named).span(1)) if third or named else found
    if found.others:
        return _shifted(found, start)
    return Whose(PERSON, mine[-1].span()) if mine else UNKNOWN


def says_own(text: str) -> bool:
    """``text`` holds a word of the person's own ("my", "I", "we", "us"…)."""
    return bool(_PERSONS_WORD.search(text))


def opens_with_person(text: str, at: int) -> bool:
    """The clause at ``at`` opens with the person as its subject ("so I joined PureGym",
    "Frank and I went…")."""
    return bool(_PERSON_OPENS.match(text, at))


def told_of_another(sentence: str, message: str, lines: Iterable[str], not_names: frozenset[str]) -> bool:
    """The sentence is the news of someone the stored ``lines`` do not name, whom its message
    names by what they are to the person or by a first name opening a sentence, then calls
    "he", "she" or "they" ("my duo partner Callum quit Sheffield, he's in Leeds now … new
    mobile too, 07311 …"), and it has no word of the person's own but in naming them.
    ``not_names``: words, lowercased, that a capital does not make a name ("Mobile")."""
    named = [
        name
        for match in [*_RELATION_NAMED.finditer(message), *_OPENING_NAME.finditer(message)]
        if (name := match.group(1).lower()) not in NO_NAME
        and name not in not_names
        and _THIRD_PERSON.search(message, match.end())
    ]
    if not named or says_own(_RELATION_NAMED.sub(" ", sentence)):
        return False  # the stored lines' words are read only when they can decide
    stored = {re.sub(r"['’]s$", "", word.lower()) for word in _WORD.findall("\n".join(lines))}
    return any(name not in stored for name in named)


def named_subject(text: str, at: int, names: frozenset[str]) -> Whose:
    """``OTHER`` when the clause holding ``at`` opens with one of ``names`` (the lowercased first
    names of the person's household) and its words before ``at`` are about them: "Dev drives a
    Polestar 2", not "Dev and I moved to Leeds" nor "Rex died" (the name is the value)."""
    subject = _SUBJECT.match(text, clause_start(text, at), at)
    if subject is None or subject.group(1).lower() not in names or subject.start(1) == at:
        return UNKNOWN
    person = _PERSON_TOO.search(text, subject.end(), at)
    return Whose(PERSON, person.span()) if person else Whose(OTHER, subject.span(1))


def doer(text: str, verb: int) -> Whose:
    """Who did what the verb at ``verb`` says, within its clause: ``OTHER`` for a subject that
    is not the person ("Marta cancelled…", "she sold…"); the person, or no subject at all
    ("cancelled netflix"), is ``UNSAID``."""
    starts = [m.end() for m in _DOER_CLAUSE.finditer(text, 0, verb)]
    start = starts[-1] if starts else 0
    before = text[start:verb]
    found = _OTHER_DOER.search(before) or _NAMED_DOER.search(before)
    return Whose(OTHER, (start + found.start(), start + found.end())) if found else UNKNOWN


def subject_of_another(text: str, at: int) -> Whose:
    """``OTHER`` when "he", "she" or "they" is the subject of the clause holding ``at``, before
    it, and the clause names the person nowhere ("now they live in Cholula", "she works at
    Zara now"; not "they moved me to Leeds" nor "we said they could stay")."""
    starts = [m.end() for m in _DOER_CLAUSE.finditer(text, 0, at)]
    start = starts[-1] if starts else 0
    ends = _DOER_CLAUSE.search(text, at)
    subject = _THIRD_SUBJECT_WORD.search(text, start, at)
    if subject is None or _PERSONS_WORD.search(text[start : ends.start() if ends else len(text)]):
        return UNKNOWN
    return Whose(OTHER, subject.span())


def owner_before(text: str, at: int) -> Whose:
    """``OTHER`` when "his", "her" or "their" stands a few words before ``at`` in its clause,
    and no word of the person's own ("her new tesla", "their new flat in Alvalade"; not "my
    sister and I moved to Leeds"); the person as an object before it is not theirs too ("she
    handed us over to her partner")."""
    starts = [m.end() for m in _DOER_CLAUSE.finditer(text, 0, at)]
    start = starts[-1] if starts else 0
    words = list(re.finditer(r"\S+", text[start:at]))
    near = [word for word in words[-_NEAR_WORDS:] if _THIRD_POSSESSIVE.fullmatch(word.group())]
    if not near:
        return UNKNOWN
    owner = near[-1]
    before = [word.group() for word in words if word.end() <= owner.start()]
    after = [word.group() for word in words if word.start() >= owner.start()]
    if any(_PERSONS_WORD.fullmatch(word) for word in after + [w for w in before if not _OBJECT.match(w)]):
        return UNKNOWN
    return Whose(OTHER, (start + owner.start(), start + owner.end()))


def of_value(text: str, at: int, *, news: bool = False) -> Whose:
    """Whose the value at ``at`` is: someone else's on a line forwarded from their message
    ("> Marek: new number …", "> I moved to Porto"), else as its clause says (``of_clause``,
    with ``news``)."""
    forwarded = forwarded_line(text, at)
    return forwarded if forwarded.others else of_clause(text, at, news=news)


def forwarded_line(text: str, at: int) -> Whose:
    """``OTHER`` when the line of ``at`` is forwarded from someone else's message ("> Marek:
    new number …"), whatever it says: a schedule's or an amount's own words name whose it is
    otherwise ("Noah's swimming moved to Fridays")."""
    forwarded = _FORWARDED_LINE.match(text, text.rfind("\n", 0, at) + 1)
    return Whose(OTHER, forwarded.span()) if forwarded else UNKNOWN


# A quotation opens after a space, a colon or a bracket, and closes before one or a stop.
_QUOTE_OPENS = re.compile(r"(?:^|(?<=[\s:(]))['\"‘“](?=\S)")
_QUOTE_CLOSES = re.compile(r"(?<=\S)['\"’”](?=[\s.,;:!?)]|$)")
_WRITING = re.compile(r"(?i:\b(?:write|print|post|put|draft|compose|type|tell|say|card|sign|note|caption)\b)")


def reported(text: str, at: int) -> Whose:
    """``OTHER`` when the sentence of ``at`` reports what someone else says ("mr lim says rent
    going to 7,400"): their words, not the person's statement of what holds now."""
    line_start = text.rfind("\n", 0, at) + 1
    ends = [m.end() for m in SENTENCE_STOP.finditer(text, line_start, at)]
    found = _REPORTED.search(text, ends[-1] if ends else line_start, at)
    return Whose(OTHER, found.span()) if found else UNKNOWN


def dictated(text: str, at: int) -> bool:
    """``at`` is inside a quotation the text opens before it, after a word of writing or saying,
    and has not closed ("write me a card: 'Your dose changed from 5 mg to 10 mg. Take ONE tablet
    …"): words for someone to read, not the person's statement. A message forwarded ("from IT,
    just landed: "your direct dial is now …"") is news the person received; an apostrophe inside
    a word ("mum's") is no quote."""
    opened = list(_QUOTE_OPENS.finditer(text, 0, at))
    if not opened or _QUOTE_CLOSES.search(text, opened[-1].end(), at) is not None:
        return False
    start = max((m.end() for m in SENTENCE_STOP.finditer(text, 0, opened[-1].start())), default=0)
    return bool(_WRITING.search(text, start, opened[-1].start()))


def _naming_span(match: re.Match[str], offset: int) -> tuple[int, int]:
    """The span of the one group that matched: the word naming them."""
    group = next(index for index, value in enumerate(match.groups(), 1) if value is not None)
    start, end = match.span(group)
    return start + offset, end + offset


def sentence_end(text: str, at: int) -> int:
    """Where the sentence holding ``at`` ends, after its stop."""
    match = _SENTENCE_END.search(text, at)
    return match.end() if match else len(text)


def _shifted(found: Whose, by: int) -> Whose:
    return found if found.who == UNSAID else Whose(found.who, (found.span[0] + by, found.span[1] + by))


def line_owner(describing: str, people: frozenset[str], form: Callable[[str], str]) -> frozenset[str]:
    """Whose a stored value is, by the words that open its line or its label: each word naming
    another person in its ``form`` (a name's possessive, what someone is to the person, a name
    after "for", a word of ``people``), with the names given beside them ("Partner Yusuf",
    "Mum (Grace)"); none when it is the person's own. ``people``: lowercased words for someone
    ("partner", "kids") and the household's names."""
    words = {form(m.group(1).lower()) for m in _OWNERS.finditer(describing)} - _NOT_OWNERS
    words |= {form(m.group().lower()) for m in _RELATION.finditer(describing)}
    words |= {form(m.group(1).lower()) for m in _FOR_NAME.finditer(describing)}
    words |= {form(word.lower()) for word in _TOKEN.findall(describing) if word.lower() in people}
    if words:
        # the names given beside them, not a name of what a possessive says is theirs
        # ("Sister Thandeka's Postbank account" is Thandeka's, and Postbank names no one)
        words |= {
            form(name.group().lower())
            for name in _CAPITALISED.finditer(describing)
            if not _AFTER_POSSESSIVE.search(describing, 0, name.start())
        }
    return frozenset(words - {"my", "our", "own"})


def only_relation(label: str, people: frozenset[str]) -> bool:
    """A label that is only what someone is to the person ("Partner:", "Wife:"): what follows
    it is who they are, the person's own fact. ``people`` as for ``line_owner``."""
    words = label.lower().split()
    return len(words) == 1 and (bool(_RELATION.fullmatch(words[0])) or words[0] in people)


def tells_of_another(sentence: str, before: str, texts: Iterable[str], people: frozenset[str]) -> bool:
    """The sentence tells of someone else and not of the person, or names nobody and goes on
    from ``before`` (the sentence before it in its message; "" for none) that does. A name is a
    word the ``texts`` (its message, the store) never write in lower case, not "Landline's";
    ``people`` as for ``line_owner``."""
    common = frozenset(re.findall(r"\b[a-z][\w-]*", " ".join(texts)))
    if _of_another(sentence, common, people):
        return True
    nobody = not _of_the_person(sentence, people) and not _HE_OR_SHE.search(sentence)
    return nobody and _of_another(before, common, people)


def _of_another(text: str, common: frozenset[str], people: frozenset[str]) -> bool:
    """The text opens with a third person or a name's possessive, or tells of a third person
    and not of the person."""
    opening = _OPENING_OTHER.match(text)
    if opening and (opening.group(1) is None or opening.group(1).lower() not in common):
        return True
    mentioned = bool(_HE_OR_SHE.search(text)) or any(
        _a_person(m.group(1), people) for m in _MY.finditer(text)
    )
    return not _of_the_person(text, people) and mentioned


def _of_the_person(text: str, people: frozenset[str]) -> bool:
    """A word for the person: "I", "we", "me"…, or "my" before a thing rather than a person."""
    text = _COMPARED_TO_PERSON.sub(" ", text)
    return bool(_PERSON_NAMED.search(text)) or any(
        not _a_person(m.group(1), people) for m in _MY.finditer(text)
    )


def _a_person(words: str, people: frozenset[str]) -> bool:
    """Words after "my" that name a person: a relative or a partner ("my sis"), or what
    someone is followed by their name ("my prima Daniela", "my duo partner Callum"); not a
    thing ("my MacBook", "my savings to Monzo", "my dentist")."""
    if _RELATION.search(words) or any(word in people for word in words.lower().split()):
        return True
    named = _CALLED.match(words)
    return named is not None and not STOPWORDS & set(named.group(1).split())


CAPITALISED = re.compile(r"(?<![^\W_])[A-Z][^\W\d_]+")  # a capitalised word: "Skoda", "Wafula"
# Capitalised words that name no one: a day, a month, a function word.
_NO_NAME = frozenset(WEEKDAYS) | {month.lower() for month in MONTHS} | STOPWORDS
# Before a word that opens the stored text, a sentence, a clause after a label or a bullet:
# capitalised there whatever it is ("Drives a Skoda", "Every other Sunday").
_OPENS = re.compile(r"(?:^|[.;:!?]|^\s*[-*•])\s*$")


def names_in_common(stored: str, said: str) -> bool:
    """The stored text and what the person said name someone or something the same way (a
    capitalised word both hold, not as the first word of a sentence or a clause of the stored
    text, a day or a month aside): news of whoever acts there ("Ma's
    living with my sister now", "Dr Wafula increased the metformin") is of what the stored text
    records ("dinner at Ma's", "Metformin 500 mg … from Dr. Wafula"), so it is the person's to
    record there."""
    named = {
        found.group()
        for found in CAPITALISED.finditer(stored)
        if found.group().lower() not in _NO_NAME and not _OPENS.search(stored, 0, found.start())
    }
    return bool(named & set(CAPITALISED.findall(without_relatives_named(said))))


def without_others_titled(text: str, owner: frozenset[str], form: Callable[[str], str]) -> str:
    """The text without each word of ``owner`` (in its ``form``, as ``line_owner`` gives it)
    that stands as the title of another name: "Sister Carole" names Carole, not a line's
    "Sister Micheline"; "Uncle Bob" is not "Uncle Tom"."""

    def other(match: re.Match[str]) -> str:
        title, name = match.group(1), match.group(2)
        return name if form(title.lower()) in owner and form(name.lower()) not in owner else match.group()

    return _WORD_BEFORE_NAME.sub(other, text)


def without_relatives_named(text: str) -> str:
    """The text with each name that only says whose relative someone is left out: "Reem's
    cousin Khaled has a new number" is the cousin's news and names Reem as no one it is about."""
    return _NAME_OF_RELATIVE.sub(" ", text)
