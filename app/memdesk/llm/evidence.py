"""Checking a model's change to a stored fact against what the person said.

The model decides what a conversation changed; Memdesk checks its word before applying it.
Every edit quotes its evidence, the person's words that state the change. An edit is
proposed but not accepted (``memdesk compact --yes`` leaves it out; review shows why) when:

- the quote is missing, or is not in the person's own messages (it is the assistant's, or
  nobody's words);
- the person's words there read, by the offline rules' readers (``core.slots``), as a
  question, a supposition, a plan or a later date (unless a later message of theirs, with no
  value of its own, says it holds from now), or, by ``core.whose``, as someone else's
  news (a relative's, a friend's or a household member's, unless the stored fact is about
  them, or names them in the words the edit changes);
- the new text drops a sentence of the old one that the conversation does not touch
  ("Vegetarian. Allergic to cashews." rewritten as "Eats fish"), rather than giving it the
  new value the quote names in its place.

Names, numbers and dates that neither the conversation nor the old text holds are marked by
the grounding check (``core.grounding``), which every proposed change goes through.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memdesk.core.dates import WRITTEN_DATE, names_now
from memdesk.core.slots import (
    AHEAD_WORDS,
    LATER,
    PERSON_WORDS,
    SUPPOSED,
    claims_in,
    household_names,
    mood_at,
    stem,
)
from memdesk.core.whose import (
    CAPITALISED,
    CLAUSE_BREAK,
    LABEL,
    NO_NAME,
    RELATIVE_WORDS,
    SENTENCE_STOP,
    clause_start,
    named_subject,
    of_clause,
    opens_with_person,
    sentence_end,
    subject_of_another,
)
from memdesk.llm.changes import Edit
from memdesk.llm.text import rewritten_span
from memdesk.llm.transcript import split_turns

_QUOTE_EDGES = "\"'“”‘’«»`… "
_SINGLE_QUOTES = "'’‘`"
_DOUBLE_QUOTES = '"“”«»'
_WORD = re.compile(r"[^\W_]{4,}|\d+")  # a word that carries a fact ("cashews", "40")
_PLAIN_WORD = re.compile(r"\w+")
_ORDINAL_END = "(?:st|nd|rd|th)?"
# Who someone else's relative is, between them and the name they go by ("my niece's husband Kalisi").
_KIN_WORD = rf"(?i:{RELATIVE_WORDS}|{'|'.join(PERSON_WORDS)})"
_SLOT_NAME_LETTERS = 4  # a slot's name that a word may hold in a form of its own ("diet", "dietary")
_FORM_LETTERS = 5  # a word's forms share its first five letters ("allergy", "allergic"; "renewal", "renewed")
_SENTENCE = re.compile(r"(?<=[.;!?])\s+|\n+")
_FULL_STOP = re.compile(r"(?<=[.!?])\s+|\n+")
# A full stop that shortens a word, not one that ends a sentence: after an initial ("R.K.
# Puram"), a title ("Dr.", "Mrs."), or a short word before a number or a code ("Passport no.
# K4418827").
_SHORT_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]{1,3}\.$")
# A number or a code, its letters maybe apart from its digits ("K4418827", "EK 4419027").
_HOLDS_DIGIT = re.compile(r"\S*\d|[A-Z]{1,3}\s\d")
# "One" standing for the noun of the sentence before ("Check-ups every nine months; last one in
# February."): what touches that sentence touches this one.
_STANDS_FOR = re.compile(
    r"(?i:\b(?:the|this|that|last|next|first|latest|previous|new|old)\s+one\b(?!\s+of\b))"
)
# A sentence of a note with no subject of its own, its thing's: it opens with a verb or an
# adjective ("Billed to the Chase card.", "Holds the sofa.", "Claim-free for two years."), not
# with a name or a pronoun and its verb ("Dre pays half.").
_DETAIL = re.compile(r"[\W\d_]*(?:[A-Z][a-z]+(?<!s)(?:ed|s)|[A-Za-z]+-[a-z]+)\b(?!\s+[a-z]+(?<!s)(?:s|ed)\b)")
# A plan read from a modal alone states what holds from now when "until" bounds it ("I'll do
# saturdays myself til after christmas"; "won't … until" puts the change later) or when it ends
# something from now ("I will no longer be needing the parking space", "won't need it anymore").
_MODAL = re.compile(r"(?i:\b(?:will|shall|gonna)\b|['’]ll\b|\bgoing\s+to\b)")
# A modal of the listener's ("So you'll want my new address: …", "As you may recall, …"): what
# they will do with the news or already know, not when the person's change holds, nor a
# supposition of theirs.
_LISTENERS_MODAL = re.compile(
    r"(?i:\b(?:you|u)(?:\s*['’]ll|\s+(?:will|shall|may|might|can|could|must|should|would)"
    r"|\s*['’]re\s+going\s+to|\s+are\s+going\s+to)\b)"
)
# An aside to the listener about the telling, closed by a stop of its own ("…by the sea, would
# you believe — he and Carys bought…", "if you must know, I left"): its modal or "if" is the
# listener's believing or asking, not a supposition of the person's. One that opens its sentence
# with a modal ("Can you believe it, we moved?") is read as a request already.
_TELLING_ASIDE = re.compile(
    r"(?i:(?:(?<=[,;:—–(-])\s*|(?<=[,;:—–(-]\s))(?:would|could|can)\s+(?:you|u|ya)"
    r"|\bif\s+(?:you|u|ya)(?:\s+(?:can|could|must|will))?)"
    r"(?i:\s+(?:believe|imagine|credit|guess|know|ask\s+me)(?:\s+(?:it|that))?)(?=\s*[,;:!—–)-])"
)
# An apology's condition ("Excuse me if I answer slowly these days, we have moved…", "sorry if
# this is long"): it is the telling's, and governs no change told beside it.
_APOLOGY = re.compile(r"(?i:\b(?:(?:excuse|forgive|pardon)\s+(?:me|us)|sorry|apologies)\s+if\b)")
# Things' "want" is a need, not a wish ("Parcels want to come to Flat 2 now", "so letters want
# to go to…"): "want to" after a plural that opens its clause and is not a word for people or
# for relatives. A person's title before it ("my landlord wants to…") stays a wish.
_WANT_TO = re.compile(
    rf"(?:^|[.!?;:,—–]\s*|\b(?i:and|but|so)\s+)(?!(?i:people|kids|folks|(?:{RELATIVE_WORDS})s?)\s)"
    r"[^\W\d_]+[^\W\d_s]s\s+(?P<blank>want)\s+to\b"
)
# "Will do" of what suffices ("half past seven will do me now", "the small one'll do fine"): a
# modal with no object of its own but the person, which says what suits them, not a plan.
_SUFFICES = re.compile(
    r"(?i:(?P<blank>\bwill|['’]ll)\s+do(?:\s+(?:me|us|fine|nicely|for\s+(?:me|us))){0,2})"
    r"(?=\s*(?:[.,;:!?]|$|\s(?i:now|i|we)\b))"
)
# The person's modal of the telling itself ("I'll type it proper: 07700 936 771", "let me spell
# that out"): how they will give the value in this message, not when the change holds.
_TELLING_MODAL = re.compile(
    r"(?i:\b(?P<blank>i\s*['’]ll|i\s+will|i\s+shall|let\s+me)\s+(?:type|write|spell|say|put|give|repeat|read)"
    r"\s+(?:it|that|this|them)\b)"
)
# "Will" the document, not the modal: owned or named ("my will stuff is with…", "the will"),
# or before a word no modal goes before ("mi will over to Okonjo Law", "the will is with…").
_WILL_NOUN = re.compile(
    r"(?i:(?P<owner>\b(?:my|your|his|her|our|their|the|a|this|that)\s+)?(?P<blank>\bwill)\b"
    r"(?(owner)|(?=\s+(?:over|to|is|was|has|had)\b(?!-))))"
)
# Words that give the quote no mood of the person's, each blanked where it stands (its group
# ``blank`` when it has one), in this order: "if you must know" is an aside before "you must" is a modal.
_MOODLESS = (_TELLING_ASIDE, _APOLOGY, _LISTENERS_MODAL, _WANT_TO, _SUFFICES, _TELLING_MODAL, _WILL_NOUN)
_UNTIL = re.compile(r"(?i:\b(?:until|till|til)\b)")
# What a modal says holds from the moment it is said: an end ("no longer", "anymore"), or a
# start that names the present after it ("I will use Hanpass from now", "I'll take the bus as
# of today").
_ENDS_FROM_NOW = re.compile(
    r"(?i:\b(?:no\s+longer|any\s?more)\b"
    # not a time counted from now ("two weeks from now")
    r"|\b(?<!days\s)(?<!weeks\s)(?<!months\s)(?<!years\s)(?<!hours\s)(?<!day\s)(?<!week\s)(?<!month\s)(?<!year\s)"
    r"(?:from|as\s+of|starting|effective)\s+(?:right\s+)?(?:now|today|tonight|immediately"
    r"|this\s+(?:week|month|morning|evening))\b)"
)
# A sentence that only asks for a stored thing to be changed: a verb of writing, what it
# writes, nothing after ("change that reminder", "Yes, put her down.", "ok pls update it"; not
# "change it when the season starts").
_CHANGE_ASKED = re.compile(
    r"(?:^|[.!?]\s+|\n)(?i:(?:yes|yeah|ok(?:ay)?|so|and|pls|please)[,!]?\s+){0,2}"
    r"(?i:change|update|amend|edit|correct|put|write|set|swap|replace)\s+"
    r"(?i:(?:the|that|this|my)\s+[^\W\d_]+|it|that|this|them|her|him)"
    r"(?i:\s+(?:down|in|over|please|pls|thanks|now|too|for\s+me))*\s*(?:[.!]+|$)"
)
_NEGATED_MODAL = re.compile(r"(?i:\b(?:won['’]?t|will\s+not|shan['’]?t|shall\s+not)\b)")
# An aside set off by a pair of dashes or brackets that describes something of its own — a
# relative clause or a noun's apposition ("the allergy — a label I have carried since 1998,
# which may have been viral — has now been removed") — holds its own mood, not the quote's.
# One that hedges the clause it sits in ("— hopefully —", "(if they offer it)") is kept.
_ASIDE = re.compile(r"(?:\s[—–-]\s|\()(?=(?i:which|who|whom|whose|a|an|the)\s)[^()—–]*?(?:\s[—–-](?=\s)|\))")
# Where a condition's reach ends: a condition governs the clause after it within its sentence,
# up to a colon or a semicolon ("a brief note, if I may: the chair … was conferred").
_CONDITION_REACH = re.compile(r"[.;:!?](?:\s|$)|\n")
# What may open the person's clause before its subject: a joining word, then a time ("so last
# week I finally bought…", "and now my hair is done by…").
_LEAD_IN = re.compile(
    r"\s*(?:(?i:and|but|so|then)\s+)?(?:(?i:now|today|yesterday|recently|finally|last\s+[^\W\d_]+|"
    r"this\s+(?:week|month|year|morning|afternoon|evening))\s*,?\s+)?"
)
# A thing of the person's as a clause's subject ("my celular is now…"); not a relative or a
# friend, whose news is theirs.
_OWN_THING = re.compile(rf"(?i:my|our)\s+(?!(?i:{RELATIVE_WORDS})s?\b)[^\W\d_]")
# Words that may open a condition's clause before it ("ok so if…", "and then if…"); more are a
# clause of their own that the condition belongs to.
_LEAD_WORDS = 2
_CLAUSE_OPENING = re.compile(r"[,;–—]\s|\s-\s|\s(?i:so|but|then)\s")
# A condition governs the clause after it ("if they offer it, I'm moving to Leeds"); a wish or
# a thought ("I just want to share, …") is about its own clause.
_CONDITION = re.compile(r"(?i:\b(?:if|unless|whether|in\s+case|suppos(?:e|ing))\b)")
# "now" of the moment it is said: not "now that" (a reason) nor "two weeks from now"
_NOW = re.compile(r"(?i:(?<!from\s)\bnow\b(?!\s+that\b))")
# Words that place a clause at the moment it is said; "now that" gives a reason, not a time.
_PRESENT = re.compile(r"(?i:\b(?:now(?!\s+that\b)|any\s?more|no\s+longer|nowadays|these\s+days)\b)")
# A time or condition clause that opens right after a quote governs it.
_GOVERNING = re.compile(
    r"\s*[,;:–—-]?\s*(?i:(?:not\s+)?(?:when|whenever|once|after|before|until|till|as\s+soon\s+as|if|unless)\b)"
)
# A clause of its own after a quote, in speech with no full stop: opened by a subject, or by a
# question's auxiliary before one ("…as a designer so can you update it?"), or a question
# word, after a joining word if any. Texting writes "I" as "i".
_NEW_CLAUSE = re.compile(
    r"\s*[,;:–—-]?\s+(?:(?i:and|but|so|then|also|plus|anyway|because|cos)\s+)?(?i:"
    r"(?:i|you|he|she|we|they|my|your|his|her|our|their)"
    r"|(?:can|could|would|will|should|shall|do|does|did|is|are|am|was|were|have|has)\s+"
    r"(?:i|you|he|she|we|they|it)"
    r"|what|where|how|why|who)\b"
)


# Where a word starts.
_WORD_START = re.compile(r"(?<![\w'’])\w")


@dataclass(frozen=True)
class Spoken:
    """A conversation as the check reads it: the person's messages and everyone else's (the
    store's written dates left out), and the first names of the person's household."""

    person: tuple[str, ...]
    others: tuple[str, ...]
    household: frozenset[str]

    @classmethod
    def of(cls, transcript: str, profile: str) -> Spoken:
        turns = [(role, WRITTEN_DATE.sub("", text)) for role, text in split_turns(transcript)]
        return cls(
            tuple(text for role, text in turns if role == "user"),
            tuple(text for role, text in turns if role != "user"),
            household_names(profile),
        )


def doubt(edit: Edit, before: str, spoken: Spoken, *, note: bool = False) -> str:
    """Why ``edit`` of the stored text ``before`` is not to be applied as it stands; "" when
    nothing the person said speaks against it. ``note``: ``before`` is a knowledge entry or an
    app memory, a note about one thing, not a line of a document."""
    quote = edit.evidence.strip(_QUOTE_EDGES).rstrip(".,;:!").strip(_QUOTE_EDGES)
    if not quote:
        return "Not applied: the model quoted none of the person's words that state this change."
    said = f"the person said: “{edit.evidence}”"
    found = _find(quote, spoken.person)
    if found is None:
        if _find(quote, spoken.others) is not None:
            return f"Not applied: the quote is the assistant's words, not the person's: “{edit.evidence}”."
        return f"Not applied: the quote is not the person's words: “{edit.evidence}”."
    said_text, start, end = found
    text = _without_moodless_words(_without_asides(said_text, start, end))
    at = _reading_point(text, start, end, before, edit.text)
    mood = mood_at(text, at)
    # a condition before the change's own clause, or before the quote, governs it
    governed = max(start, _change_clause(text, start, end, at))
    if mood == LATER and (
        not mood_at(*_quoted_clauses(text, start, end, at))
        or _now_then_later(text, start, end, at)
        or _modal_from_now(*_quoted_clauses(text, start, end, at), asked=_asked_to_change(said_text, end))
    ):
        mood = ""  # the plan or later date is in a clause of its own, not the quoted one
    elif mood == LATER and _begun_later(said_text, spoken.person):
        mood = ""  # a later message says it holds from now ("yes, starting this week already")
    elif mood == SUPPOSED:
        governing, of_other_clauses = _conditions_before(text, governed)
        # a condition of an earlier clause alone ("he must be seventy if he's a day, and all his
        # patients are going over to Dr Patel") is no mood of the quote's
        unconditioned = _blanked(text, of_other_clauses)
        if not governing and not mood_at(*_quoted_clauses(unconditioned, start, end, at)):
            mood = ""  # "I just want to share, I gave birth…": a wish of another clause's
    if mood and text[sentence_end(text, at) - 1] == "?":
        return f"Not applied: a question, not a change — {said}"
    if mood == "supposed":
        return f"Not applied: a supposition, not a change — {said}"
    if mood:
        return f"Not applied: a plan or a later date, not a change yet — {said}"
    # A household member's news is the person's to record when the stored fact is about them
    # ("Dev's swimming is on Tuesdays" changes with "Dev's swimming moved to Fridays").
    household = frozenset(name for name in spoken.household if not _opens_with(before, name))
    if _someone_elses(text, at, before, edit.text) or _said_of_household(text, start, end, household):
        return f"Not applied: someone else's news, not the person's — {said}"
    dropped = _dropped(
        before,
        edit.text,
        spoken.person + spoken.others,
        said_text[start:end],
        ended_note=note and (edit.action == "retire" or _another_thing(before, edit.text)),
    )
    if dropped:
        return f"Not applied: the new text drops “{dropped}”, which the conversation does not change."
    return ""


def _find(quote: str, texts: tuple[str, ...]) -> tuple[str, int, int] | None:
    """The text holding the quote and where, comparing case, spacing and quote marks loosely;
    failing that, the quote's words in order with any marks between them ("New number
    07700-900111" for "New number: 07700 900111", a dash for another)."""
    quote = WRITTEN_DATE.sub("", quote)
    words = [_loose(word) for word in quote.split()]
    loose = re.compile(r"\s+".join(words), re.IGNORECASE)
    said = _PLAIN_WORD.findall(quote)
    only_words = re.compile(r"(?<!\w)" + r"\W+".join(map(re.escape, said)) + r"(?!\w)", re.IGNORECASE)
    for pattern in (loose, only_words) if said else (loose,):
        for text in texts:
            match = pattern.search(text)
            if match:
                return text, match.start(), match.end()
    return None


def _loose(word: str) -> str:
    """A word as a pattern in which any quote mark matches any of its kind."""
    out = []
    for char in word:
        if char in _SINGLE_QUOTES:
            out.append(f"[{_SINGLE_QUOTES}]")
        elif char in _DOUBLE_QUOTES:
            out.append(f"[{_DOUBLE_QUOTES}]")
        else:
            out.append(re.escape(char))
    return "".join(out)


def _reading_point(text: str, start: int, end: int, before: str, after: str) -> int:
    """Where in the quote the change is said: the first new word the edit writes, else the
    first old word it ends, else the quote's end (the readers look at what comes before)."""
    old = {word.lower() for word in _WORD.findall(before)}
    new = [word for word in _WORD.findall(after) if word.lower() not in old]
    for words in (new, _WORD.findall(before)):
        for word in words:
            # a day may be said as an ordinal: "16 June" is said as "the 16th"
            ordinal = _ORDINAL_END if word.isdigit() else ""
            match = re.search(rf"(?<!\w){re.escape(word)}{ordinal}(?!\w)", text[start:end], re.IGNORECASE)
            if match:
                return start + match.start()
    return end


def _quoted_clauses(text: str, start: int, end: int, at: int) -> tuple[str, int]:
    """The quote's sentence, without what stands before the clause that says the change when
    it is the person's (``_change_clause``) and without what follows the quote from a clause
    with a subject of its own; with ``at`` in it. Read for a later date, a plan or a
    supposition, which only its own clause can give it."""
    first = _change_clause(text, start, end, at)
    last = end if _NEW_CLAUSE.match(text, end) else len(text)
    return text[first:last], at - first


def _change_clause(text: str, start: int, end: int, at: int) -> int:
    """Where the clause that says the change begins, when it opens with the person or a thing
    of theirs (``_opens_own_clause``): the later of the quote's start ("so I joined PureGym")
    and the start of the clause holding the reading point ``at``, after a clause about the
    telling that the quote may open with ("I'll be honest, I moved to Leeds"). Else the
    quote's start when a clause of the person's own is in it: in speech with no full stop, the
    quote is then the person's statement, and what someone else wants or tries earlier in the
    message is not its mood ("… Jana just wants to poke his eyes, anyway … the gym is finished
    for me khalas I cancelled the membership yesterday"). Else 0, and all that comes before is
    read."""
    opening = [where for where in (start, clause_start(text, at)) if _opens_own_clause(text, where)]
    if opening:
        return max(opening)
    own = any(opens_with_person(text, word.start()) for word in _WORD_START.finditer(text, start, end))
    return start if own else 0


def _opens_own_clause(text: str, at: int) -> bool:
    """The clause at ``at`` has the person, or a thing of theirs, as its subject, after a
    joining word and a time if any: "so I joined PureGym", "and now my hair and beard are done
    by…", "so last week I finally bought…"."""
    subject = _LEAD_IN.match(text, at).end()  # type: ignore[union-attr]  # it matches anywhere
    return opens_with_person(text, subject) or bool(_OWN_THING.match(text, subject))


def _now_then_later(text: str, start: int, end: int, at: int) -> bool:
    """The quote places what it says at the moment it is said ("I don't need the frame outside
    anymore"), and what reads as later comes only after the quote, in words of their own
    ("…only in the house at night when I get up"): run-on speech with no full stop between the
    two. A time clause right after the quote governs it ("…anymore when I move next year")."""
    return (
        bool(_PRESENT.search(text, start, end))
        and not _GOVERNING.match(text, end)
        and not mood_at(text[:end], at)
    )


def _modal_from_now(clause: str, at: int, *, asked: bool = False) -> bool:
    """The clause's only plan is a modal that "until" bounds, that ends something from now or
    that holds from the moment it is said on, or one of a message that asks for the change to
    be written (``asked``): it holds from now ("I'll do saturdays myself til after christmas",
    "I won't need the car anymore", "that's where I'll be from here on", "I'll go and see her
    Sundays instead of ringing. change that reminder"), unless something else in it is later
    ("from next April …")."""
    modal = _MODAL.search(clause) or _NEGATED_MODAL.search(clause)
    if modal is None:
        return False
    # "won't have the new car until June": the change comes then
    until = _UNTIL.search(clause, modal.end()) and not _NEGATED_MODAL.match(clause, modal.start())
    # the start may come before the modal or after it ("from this month the salary will go…")
    from_now = _ENDS_FROM_NOW.search(clause) or names_now(clause) or _now_beside(clause, modal)
    # a request to write it holds from now only what no word of the clause places later
    asked = asked and AHEAD_WORDS.isdisjoint(re.findall(r"\w+", clause.lower()))
    if not until and not from_now and not asked:
        return False
    return not mood_at(_blanked(clause, [modal.span()]), at)


def _asked_to_change(message: str, end: int) -> bool:
    """After the quote that ends at ``end``, the message asks for the stored thing to be changed,
    in a sentence with no plan or supposition of its own: "change that reminder", "put her
    down", "pls update it" (not "remind me in December to fix it")."""
    return any(not mood_at(message, asked.end()) for asked in _CHANGE_ASKED.finditer(message, end))


def _now_beside(clause: str, modal: re.Match[str]) -> bool:
    """The modal's own clause says "now": what it says holds from the moment it is said ("So
    I'll want telling on a Wednesday night now, same time")."""
    starts = [match.end() for match in _CLAUSE_OPENING.finditer(clause, 0, modal.start())]
    end = _CLAUSE_OPENING.search(clause, modal.end())
    return bool(_NOW.search(clause, starts[-1] if starts else 0, end.start() if end else len(clause)))


def _without_asides(text: str, start: int, end: int) -> str:
    """``text`` with its asides that describe something of their own blanked (``_ASIDE``),
    every other character where it was; an aside that overlaps the quote stays."""
    apart = [aside.span() for aside in _ASIDE.finditer(text) if aside.end() <= start or aside.start() >= end]
    return _blanked(text, apart)


def _without_moodless_words(text: str) -> str:
    """``text`` with the words that give it no mood of the person's (``_MOODLESS``) blanked,
    every other character where it was."""
    for words in _MOODLESS:
        for found in words.finditer(text):
            text = _blanked(text, [found.span("blank") if "blank" in words.groupindex else found.span()])
    return text


def _begun_later(message: str, person: tuple[str, ...]) -> bool:
    """A message of the person's after ``message``, with no value of its own, places what was said
    at the moment it is said (``names_now``): the plan has begun ("yes, starting this week")."""
    later = person[person.index(message) + 1 :] if message in person else ()
    return any(names_now(text) and not claims_in(text) for text in later)


def _conditions_before(text: str, start: int) -> tuple[bool, list[tuple[int, int]]]:
    """Whether a condition before ``start``, within the stretch it can govern, governs it, and
    where the conditions are that govern no more than a clause of their own. One governs when it
    opens a clause of its own ("so if they approve it, I'm moving…"), or is within ``start``'s
    own clause ("could you guess whether I moved…"). One that follows a clause it belongs to
    conditions that clause alone, not the clauses after it ("they text my phone if the DO drops
    so I just do my daybreak round now")."""
    reach = _condition_reach(text, start)
    governing, others = False, []
    for condition in _CONDITION.finditer(text, reach, start):
        breaks = [match.end() for match in _CLAUSE_OPENING.finditer(text, reach, condition.start())]
        lead = text[breaks[-1] if breaks else reach : condition.start()].split()
        if len(lead) <= _LEAD_WORDS or not _CLAUSE_OPENING.search(text, condition.end(), start):
            governing = True
        else:
            others.append(condition.span())
    return governing, others


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with ``spans`` blanked, every other character where it was."""
    for first, last in spans:
        text = text[:first] + " " * (last - first) + text[last:]
    return text


def _condition_reach(text: str, start: int) -> int:
    """Where the stretch of ``text`` before ``start`` that a condition can govern begins."""
    stops = [match.end() for match in _CONDITION_REACH.finditer(text, 0, start)]
    return stops[-1] if stops else 0


def _someone_elses(text: str, at: int, before: str, after: str) -> bool:
    """The clause holding ``at`` tells someone else's news, the person in it nowhere
    (``core.whose``; "I bought my neighbour's 2019 RAV4 off him" is the person's), nor a thing
    of theirs its subject ("now my hair is done by his nephew Imran"), and the stored fact does
    not open with them as its subject: "Mum moved into Wattle Grove" changes "Mum lives with us
    in the granny flat", not the person's own home, nor "Drives a Skoda; mum drives a Golf"."""
    found = of_clause(text, at, news=True)
    who = text[found.span[0] : found.span[1]]
    return (
        found.others
        and not _opens_with(before, who)
        and not _named_where_changed(before, after, who)
        and not _writes_their_name(before, after, text, found.span[1])
        and not _opens_own_clause(text, clause_start(text, at))
        and not _news_of_whom_it_names(before, text, at)
    )


def _news_of_whom_it_names(before: str, text: str, at: int) -> bool:
    """The stored text is labelled with a name ("Tante Mirla: +5999 …, lives in Seru Fortuna"),
    which the sentence holding ``at`` names before a clause whose subject is "she", "he" or
    "they": the news is of the one the stored text is about ("Tante Mirla don't live in Seru
    Fortuna no more, she move by her daughter in Barber")."""
    label = LABEL.match(before)
    if label is None or not CAPITALISED.search(label.group(1)) or not subject_of_another(text, at).others:
        return False
    opening = max((stop.end() for stop in SENTENCE_STOP.finditer(text, 0, at)), default=0)
    return label.group(1).strip().lower() in text[opening:at].lower()


def _named_where_changed(before: str, after: str, who: str) -> bool:
    """The stored text names ``who`` in the clause whose words the edit changes: that part is
    about them ("Visits mother in Kolín" changes with "Mother is now in care home in Nymburk";
    "Drives a Skoda; mum drives a Golf" does not change its Skoda with mum's news)."""
    changed, _end = rewritten_span(before, after)
    start = clause_start(before, changed)
    stop = CLAUSE_BREAK.search(before, changed)
    clause = before[start : stop.start() if stop else len(before)].lower()
    names = {
        _form(word) for word in _PLAIN_WORD.findall(who.lower()) if len(word) > 1 and word not in NO_NAME
    }
    return any(_form(word) in names for word in _PLAIN_WORD.findall(clause))


def _writes_their_name(before: str, after: str, text: str, end: int) -> bool:
    """The edit writes, in place of what it changes, the name that the someone else of the
    news goes by, said right after them (``end``): the stored part is who does something, and
    the news is who does it now ("Pita (deliveries)" in a list of staff becomes "Kalisi
    (deliveries)" with "my niece's husband Kalisi does the deliveries")."""
    changed, stop = rewritten_span(before, after)
    start, stop = changed, len(after) - (len(before) - stop)
    while start > 0 and after[start - 1].isalnum():  # whole words: "Ranjit" for "Rankin"
        start -= 1
    while stop < len(after) and after[stop].isalnum():
        stop += 1
    return any(
        name.lower() not in NO_NAME
        # a name texted in lower case is the same name: "his nephew tyler doin cook+mech now"
        and re.match(rf"(?:['’]s\s+{_KIN_WORD}\s+|\s+)(?i:{re.escape(name)})(?!\w)", text[end:])
        for name in CAPITALISED.findall(after[start:stop])
    )


def _opens_with(before: str, who: str) -> bool:
    """The stored text opens with ``who`` as its subject ("Mum lives…", "- my brother's…",
    "Dev's swimming…"): it is about them."""
    return bool(re.match(rf"\s*(?:[-*•]\s*)?(?i:my\s+)?{re.escape(who)}(?!\w)", before, re.IGNORECASE))


def _said_of_household(text: str, start: int, end: int, household: frozenset[str]) -> bool:
    """A claim in the quote whose clause a household member is the subject of ("Dev drives a
    …", ``core.whose.named_subject``)."""
    if not household:
        return False
    return any(
        start <= claim.span[0] < end and named_subject(text, claim.span[0], household).others
        for claim in claims_in(text)
    )


def _dropped(
    before: str, after: str, conversation: tuple[str, ...], quote: str, *, ended_note: bool = False
) -> str:
    """A sentence of a text holding several that the new text leaves out, though nothing said
    in the conversation touches it, nor does the new text say another thing in its place from
    the quote (``_replaced``); "" when there is none. When a note about one thing ends
    (``ended_note``: retired, or rewritten about another thing), the clauses a semicolon joins
    to a sentence, and the sentences with no subject of their own (``_DETAIL``), are details
    of what it says and end with it
    ("…FootyPass to watch the NRL; renews on the 9th.", "Billed to the Chase card."); a
    sentence with a subject of its own is still a fact of its own."""
    stops = _FULL_STOP if ended_note else _SENTENCE
    sentences = _sentences(before, stops)
    if len(sentences) < 2:
        return ""
    kept = {_form(word) for word in _WORD.findall(after)}
    said = {_form(word) for text in conversation for word in _WORD.findall(text)}
    for index, sentence in enumerate(sentences):
        if ended_note and _DETAIL.match(sentence):
            continue  # a detail of the ended thing, which ends with it
        words = {_form(word) for word in _WORD.findall(sentence)}
        if (
            words
            and not words & kept
            and not words & said
            and not _said_of_what_it_stands_for(sentences, index, said)
            and not _replaced(sentences, index, _sentences(after, stops), quote)
        ):
            return sentence
    return ""


def _another_thing(before: str, after: str) -> bool:
    """The new text is about another thing than the old: the names of their first sentences
    (capitalised words after its first) are none the same ("Drives a silver 2014 Skoda
    Octavia, reg 141-G-22871; NCT due March 2026." rewritten as "Drives a 2019 Toyota Corolla
    hybrid, reg 191-G-4410."): the old thing's details end with it."""
    old, new = (_names(_sentences(text, _SENTENCE)[:1]) for text in (before, after))
    return bool(old) and bool(new) and not old & new


def _names(sentences: list[str]) -> set[str]:
    """The forms of the capitalised words of ``sentences`` other than each one's first."""
    return {
        _form(word.group())
        for sentence in sentences
        for word in CAPITALISED.finditer(sentence)
        if sentence[: word.start()].strip(_QUOTE_EDGES + "-*•(")
    }


def _replaced(sentences: list[str], index: int, new_sentences: list[str], quote: str) -> bool:
    """The new text has as many sentences as the old, and the one in the place of sentence
    ``index`` gives the slot that sentence filled, or named, the value the quote gives it: the
    person named a new value in place of one they never repeat; no fact is left out ("- Vegan.
    Allergic to sesame." becoming "- Vegetarian. …" for "gone back to vegetarian"; "No dietary
    restrictions;" becoming "Coeliac, strictly gluten-free;" for "it all has to be gluten-free
    now"; "PB is 27:40" becoming "PB is 26:55" for "26:55 this morning … New PB")."""
    if len(new_sentences) != len(sentences):
        return False
    old = sentences[index]
    old_slots = {claim.slot for claim in claims_in(old) if claim.slot}
    quoted = {(claim.slot, claim.value) for claim in claims_in(quote)}
    quoted_words = {_form(word) for word in _WORD.findall(quote)}
    for claim in claims_in(new_sentences[index]):
        if not claim.slot or (claim.slot not in old_slots and not _names_slot(old, claim.slot)):
            continue
        value = {_form(word) for word in _WORD.findall(claim.value)}
        if (claim.slot, claim.value) in quoted or (value and value <= quoted_words):
            return True
    return False


def _names_slot(text: str, slot: str) -> bool:
    """``text`` holds a word of the slot's name in a form of its own ("dietary" of "diet")."""
    names = [name for name in re.split(r"[:_ ]", slot) if len(name) >= _SLOT_NAME_LETTERS]
    return any(stem(word.lower()).startswith(name) for word in _WORD.findall(text) for name in names)


def _said_of_what_it_stands_for(sentences: list[str], index: int, said: set[str]) -> bool:
    """The sentence speaks of its thing as "one" (``_STANDS_FOR``), and the conversation
    touches the sentence before, which names it: "last one in February" after "Check-ups
    every nine months" is touched by "my first check-up with him"."""
    if not index or not _STANDS_FOR.search(sentences[index]):
        return False
    return bool({_form(word) for word in _WORD.findall(sentences[index - 1])} & said)


def _sentences(text: str, stops: re.Pattern[str]) -> list[str]:
    """``text`` cut at ``stops``, except where a full stop shortens a word (``_SHORT_WORD``) or
    stands inside brackets."""
    parts: list[str] = []
    start = 0
    for stop in stops.finditer(text):
        inside = text.count("(", start, stop.start()) > text.count(")", start, stop.start())
        if inside and "\n" not in stop.group():
            continue  # a stop inside brackets ends no sentence: "(Capt. Dale Ruud)"
        word = None if "\n" in stop.group() else _SHORT_WORD.search(text, start, stop.start())
        following = text[stop.end() :]
        if word and (len(word.group()) == 2 or word.group()[:-1].istitle() or _HOLDS_DIGIT.match(following)):
            continue
        parts.append(text[start : stop.start()])
        start = stop.end()
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


def _form(word: str) -> str:
    """A word in any of its forms: its stem's first letters ("allergies", "allergic")."""
    return stem(word.lower())[:_FORM_LETTERS]
