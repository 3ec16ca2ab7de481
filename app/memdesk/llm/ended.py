"""Ended by the person: a named thing they cancelled, quit, sold or gave up.

A sentence of the person's own (not a question, a supposition, a plan, nor someone else's
news) in which a verb of ending in the past, or "no more", not denied ("I have not cancelled
Netflix"), comes right before a name that
exactly one stored fact names, capitalised there ("cancelled netflix last night" and
"Netflix Standard plan, £10.99/month…"; "killed game pass" and "Pays for Xbox Game Pass
Ultimate…"): that fact's clause holding the name is marked past. A name the fact only
mentions before what it owns ("Northwind's design tokens") is not the thing that ended.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memdesk.core.slots import DENIED_VERB, mood_at, placed_later
from memdesk.core.whose import doer, of_value

if TYPE_CHECKING:  # ``llm.changes`` reads these with its own
    from memdesk.llm.changes import Known, Said

# A verb of ending, in the past, or "no more", right before the thing (an article or "my"
# between): what a person does to a subscription, a habit or a possession.
_MIN_NAME = 4  # letters of a name's word said alone ("Pampers"); a shorter one names too much
_VERB = (
    r"(?:cancell?ed|quit|stopped|gave\s+up|ditched|binned|dropped|sold|scrapped|killed"
    r"|no\s+more(?!\s+than\b))"  # "no more than" compares
)
_ENDING = re.compile(rf"(?i:\b{_VERB}\s+(?:(?:the|my|our|a|an)\s+)?)$")
_ENDING_SAID = re.compile(rf"(?i:\b{_VERB}\b)")
_ENDED_WORD = re.compile(rf"(?i:\b{_VERB}\s+(?:(?:the|my|our|a|an)\s+)?([^\W\d_]{{{_MIN_NAME},}}))")
# "It" after a verb of ending stands for a thing the message named: in an apposition after it
# ("so I gave it up, the class at the JCC"), or before it ("I get the Daily News … So I
# cancelled it"). Not "dropped it" (in the water) nor "killed it" (did it well).
_ENDED_IT = re.compile(
    r"(?i:\b(?:cancell?ed|quit|stopped|gave|ditched|binned|sold|scrapped)\s+it\b(?:\s+up\b)?)"
)
_APPOSITION = re.compile(r",\s+(?:the|my|our|that)\s+[^,.;:!?]+")
_NAME_IN_FACT = re.compile(r"(?<![\w'’])[A-Z][\w&+-]*(?:\s[A-Z][\w&+-]*)*(?![\w'’])")
_CLAUSE_END = re.compile(r"[,;:]\s|\.(?:\s|$)|\s(?:and|but|so|then|while)\s")


@dataclass(frozen=True)
class Ended:
    """Where a stored fact's ended clause ends, and the person's sentence that ended it."""

    number: int  # Known.number
    at: int  # the end of the clause holding the name, where the past mark goes
    said: Said


def _run_patterns(name: str, *, acronyms: bool = False) -> list[str]:
    """Patterns for the name and each run of its words, longest first; a run of one short word
    names too much, unless ``acronyms`` and it is one ("JCC")."""
    words = name.split()
    runs = sorted(
        (words[i:j] for i in range(len(words)) for j in range(len(words), i, -1)), key=len, reverse=True
    )
    return [
        r"(?i)(?<!\w)" + r"\s+".join(re.escape(word) for word in run) + r"(?!\w)"
        for run in runs
        if len(run) > 1 or len(run[0]) >= _MIN_NAME or (acronyms and run[0].isupper())
    ]


def _spoken(name: str, text: str) -> re.Match[str] | None:
    """Where ``text`` ends the name, or a run of its words ("game pass" of "Xbox Game Pass
    Ultimate", "pampers" of "Pampers Cruisers"), longest first."""
    for pattern in _run_patterns(name):
        for match in re.finditer(pattern, text):
            ending = _ENDING.search(text, 0, match.start())
            denied = ending is not None and DENIED_VERB.search(text, 0, ending.start()) is not None
            if ending and not denied and not doer(text, ending.start()).others:
                return match
    return None


def _named_in(text: str, name: str) -> bool:
    """``text`` says the name, or a run of its words."""
    return any(re.search(pattern, text) for pattern in _run_patterns(name, acronyms=True))


def _referent(
    text: str, message: str, names: Sequence[tuple[Known, re.Match[str]]]
) -> tuple[Known, re.Match[str]] | None:
    """The stored fact, and its name, that "it" after a verb of ending in ``text`` stands for:
    the one whose name its apposition says, or else the one whose name the message says before
    it; None when there is no "it" ended, or two facts are named there."""
    ended = _ENDED_IT.search(text)
    if ended is None or DENIED_VERB.search(text, 0, ended.start()) or doer(text, ended.start()).others:
        return None
    apposition = _APPOSITION.match(text, ended.end())
    if apposition:
        region = apposition.group()
    else:
        region = message[: message.find(text) + ended.start()] if text in message else text[: ended.start()]
    named = [(fact, name) for fact, name in names if _named_in(region, name.group(0))]
    return named[0] if len({fact.number for fact, _name in named}) == 1 else None


def _clause_end(text: str, name: re.Match[str]) -> int:
    """Where the clause of a stored fact holding ``name`` ends: where its past mark goes."""
    after = _CLAUSE_END.search(text, name.end())
    return after.start() if after else len(text.rstrip(" ."))


def says_ended(text: str, word: str) -> bool:
    """``text`` says the thing ``word`` names ended: a verb of ending right before it, or "off"
    as a medicine or a habit is come off ("the doctor took me off ibuprofen", "I'm off the
    statins"), not denied, nor lowered to a new value ("dropped the agreed value to $44,000").
    Read only to doubt an edit that keeps the thing, never to end it."""
    before = re.compile(
        rf"(?i:\b(?:{_VERB}|off)\s+(?:(?:the|my|our|a|an)\s+)?{re.escape(word)}(?!\w)"
        r"(?![^.,;]*\bto\s+\D?\d))"
    )
    return any(not DENIED_VERB.search(text, 0, match.start()) for match in before.finditer(text))


def ended_words(said: Sequence[Said]) -> list[str]:
    """The word the person ended, right after the verb ("netflix" of "cancelled netflix last
    night"): what a knowledge entry about it is found by."""
    return [match.group(1) for s in said for match in _ENDED_WORD.finditer(s.text)]


def ending_turns(said: Sequence[Said]) -> set[int]:
    """The person's messages that say they ended something: where to look for what."""
    return {s.turn for s in said if _ENDING_SAID.search(s.text)}


def ended_names(said: Sequence[Said], known: Sequence[Known]) -> list[Ended]:
    """The stored facts the person's sentences end by name, the last sentence winning."""
    found: dict[int, Ended] = {}
    names = [
        (fact, match)
        for fact in known
        for match in _NAME_IN_FACT.finditer(fact.text)
        if fact.text[match.end() : match.end() + 1] not in ("'", "’")
    ]
    messages = {turn: " ".join(s.text for s in said if s.turn == turn) for turn in {s.turn for s in said}}
    for sentence in said:
        text = sentence.text
        referent = _referent(text, messages[sentence.turn], names)
        if referent and not mood_at(text, 0) and not placed_later(text, (0, len(text)), sentence.at):
            fact, name = referent
            found[fact.number] = Ended(fact.number, _clause_end(fact.text, name), sentence)
        for fact, name in names:
            spoken = _spoken(name.group(0), text)
            if spoken is None:
                continue
            # only one stored fact may say it, in any words ("PureGym Wandsworth", "a PureGym coach")
            naming = re.compile(rf"(?i)(?<!\w){re.escape(spoken.group(0))}(?!\w)")
            holders = {f.number for f in known if naming.search(f.text)}
            start = spoken.start()
            if len(holders) != 1 or mood_at(text, start) or of_value(text, start).others:
                continue
            if placed_later(text, (0, len(text)), sentence.at):
                continue
            found[fact.number] = Ended(fact.number, _clause_end(fact.text, name), sentence)
    return list(found.values())
