"""The offline backend's reading of a transcript: sentences, what each one carries, how much.

Each sentence gets a category (the summary heading it belongs under, if any), a score,
and the specifics it names (``memdesk.llm.specifics``).
Pasted output and the assistant's narration of its own steps are left out here, so no
later step can quote them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memdesk.core.patterns import lowercase
from memdesk.llm.noise import TO_THE_LISTENER, is_narration, is_noise_line
from memdesk.llm.specifics import Family, Specific, specifics
from memdesk.llm.text import clip_at_word, dedupe_key
from memdesk.llm.transcript import split_turns

MAX_SENTENCE_CHARS = 300
DETAIL_MIN_INFO = 4.5  # below this a sentence with no other signal is small talk
_MIN_SENTENCE_CHARS = 8

# Category priority: a sentence that matches several goes under the first of them.
CATEGORIES = ("question", "decision", "todo", "preference", "value", "detail")

_DECISION = lowercase(
    r"\b(?:decided|decide to|we(?:'ll| will) (?:use|go with|keep|switch)|let's (?:go with|use|"
    r"keep|switch)|going with|settled on|agreed|(?:we|I) chose|I'll go with|assigned to)\b"
)
# Who owns what: a person (a name or a pronoun, so "Owns `TUI`" in a code outline is not).
_OWNERSHIP = re.compile(
    r"\b(?:[A-Z][a-z]+|I|[Ww]e|[Yy]ou|[Tt]hey|[Hh]e|[Ss]he) (?:owns|will own|will handle|"
    r"(?:is|are) (?:responsible for|in charge of|handling|taking over|leading))\b"
)
_PREFERENCE_STRONG = lowercase(
    r"\b(?:I prefer|I'd prefer|I'd rather|I (?:really )?(?:like|love|hate|dislike)|"
    r"I (?:really )?want(?! you)|please (?:always|never|don't|use|avoid|keep))\b",
)
_PREFERENCE_WEAK = lowercase(r"\b(?:don't|do not|always|never|avoid|rather than|instead of)\b")
_RULE_OR_ME = lowercase(r"^(?:never|always|don't|do not|avoid|please)\b|\b(?:I|I'd|I'm|I've|my|we|our)\b")
_TODO = lowercase(
    r"\b(?:TODO|to-do|need to|needs to|have to|next|follow[ -]up|later|remind me|"
    r"don't forget|pending|by (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b",
)
_PATH = re.compile(
    r"(?<![\w/])(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*"  # /x/y.py, ~/.config/a, ./b
    r"|(?<![\w/])[\w.-]+(?:/[\w.-]+)*/[\w-]+\.\w{1,8}\b"  # src/a.ts
)
_CODE_OR_SETTING = re.compile(r"`[^`\n]+`|https?://\S+|\b\w[\w.-]*\s?=\s?\S+")
_OFFERED_CHOICE = lowercase(r"^(?:should|shall|do you want|would you (?:like|prefer)|which)\b|\bor\b")
_NAMED = (Family.NAME, Family.CODE)
_DATED = (Family.DATE, Family.AMOUNT)
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_STOP_WORDS = """
    that this with have from they them their there what when where which while about would could
    should really just like know think thanks thank sure yeah well much very more some been were
    will your yours into also even than then only over such make made does doing done going gonna
    being great awesome amazing cool glad good nice love lovely happy wow totally absolutely sounds
    always never feel feels felt things thing something anything everything stuff kind lots
    it's that's what's there's i'm you're we're they're don't can't didn't it'll you'll
"""
_STOP = frozenset(_STOP_WORDS.split())
_GREETING = lowercase(r"^(?:hi|hey|hello|yo|morning|good (?:morning|afternoon|evening)|long time)\b")
_FIRST_PERSON = re.compile(r"^(?:I|I'm|I've|I'd|I'll|We|We're|We've|My|Our)\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[`~/A-Z0-9])")
_LIST_MARKER = re.compile(r"^\s*(?:[-*•>]|\d+[.)]|#{1,6})\s+")
_EMPHASIS = re.compile(r"\*\*|__")


@dataclass(frozen=True)
class Sentence:
    position: int
    turn: int
    role: str
    text: str
    category: str | None
    score: float  # signals plus information
    info: float  # information alone: names, numbers, dates, content words
    specifics: frozenset[Specific]  # the names, codes, dates and amounts it names


# A session's summary, its timeline parts (13 for 200,000 tokens), then its facts and app
# memory: the whole transcript is read again after its parts, which must not push it out.
@lru_cache(maxsize=16)
def analyse(transcript: str) -> tuple[Sentence, ...]:
    """Every sentence worth reading, scored and deduplicated, in conversation order."""
    sentences: list[Sentence] = []
    seen: set[str] = set()
    for turn, (role, content) in enumerate(split_turns(transcript)):
        if role not in ("user", "assistant"):
            continue  # tool output and system text are not what the person said
        for key, text, category, score, info, named in _read_turn(role, content):
            if key not in seen:
                seen.add(key)
                sentences.append(Sentence(len(sentences), turn, role, text, category, score, info, named))
    return tuple(sentences)


def clear_cache() -> None:
    """Forget every reading, so the next one does all the work (for timing and tests)."""
    analyse.cache_clear()
    _read_turn.cache_clear()


# dedupe key, text, category, score, info, specifics
_Read = tuple[str, str, str | None, float, float, frozenset[Specific]]


@lru_cache(maxsize=50_000)  # a session's parts are read again after the whole: turns repeat
def _read_turn(role: str, content: str) -> tuple[_Read, ...]:
    read: list[_Read] = []
    in_code = False
    for line in content.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code  # code blocks are output, not things to remember
            continue
        if in_code or is_noise_line(line):
            continue
        cleaned = _EMPHASIS.sub("", _LIST_MARKER.sub("", line)).strip()
        for piece in _SENTENCE_END.split(cleaned):
            if len(piece) < _MIN_SENTENCE_CHARS or is_narration(piece, role):
                continue
            text = clip_at_word(piece, MAX_SENTENCE_CHARS)
            named = specifics(text)
            info = information(text, role, named)
            category, score = score_sentence(text, role, info)
            read.append((dedupe_key(piece), text, category, score, info, named))
    return tuple(read)


def score_sentence(text: str, role: str, info: float) -> tuple[str | None, float]:
    """The sentence's category (first matching heading) and how much it carries."""
    weights: dict[str, float] = {}
    lower = text.lower()
    if text.endswith("?") and _open_question(lower, role):
        weights["question"] = 3
    if _DECISION.search(lower) or _OWNERSHIP.search(text):
        weights["decision"] = 4
    # "See you later!" and "Any ideas for the next steps?" are not tasks.
    if info > 0 and not text.endswith("?") and _TODO.search(lower):
        weights["todo"] = 3
    # "I" in the assistant's lines is the assistant, so only the user states preferences;
    # "always" or "never" makes one only in a rule or about the person ("They always look…").
    if role == "user":
        if _PREFERENCE_STRONG.search(lower):
            weights["preference"] = 4
        elif info > 0 and _PREFERENCE_WEAK.search(lower) and _RULE_OR_ME.search(lower):
            weights["preference"] = 2
    if "/" in text and _PATH.search(text):  # the cheap test first: most sentences have none
        weights["value"] = 3
    elif ("`" in text or "=" in text or "http" in text) and _CODE_OR_SETTING.search(text):
        weights["value"] = 2
    if not text.endswith("?") and info >= DETAIL_MIN_INFO:
        weights["detail"] = 1
    if not weights:
        return None, 0
    category = next(name for name in CATEGORIES if name in weights)
    return category, sum(weights.values()) + info + (1 if role == "user" else 0)


def _open_question(lower: str, role: str) -> bool:
    """A question left for later, not small talk ("How have you been?", "Is this yours?")."""
    if role == "assistant":
        return bool(_OFFERED_CHOICE.search(lower))  # a choice offered to the person
    return not TO_THE_LISTENER.search(lower)


def information(text: str, role: str, named: frozenset[Specific]) -> float:
    """How much a sentence tells: names, numbers and dates (``named``), and plain content words."""
    tokens = _WORD.findall(text)
    words = {t.lower() for t in tokens if len(t) >= 4} - _STOP
    if len(words) < 3 or _GREETING.match(text.lower()):
        return 0.0  # "That's great!", "Thanks so much" and the like
    names = sum(len(s.key.split()) if s.family is Family.NAME else 1 for s in named if s.family in _NAMED)
    score = 2.0 * min(names, 3) + min(len(words), 10) * 0.5
    if any(s.family in _DATED for s in named):
        score += 2
    if role == "user" and _FIRST_PERSON.match(text):
        score += 1
    return score
