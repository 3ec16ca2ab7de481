"""The offline backend: deterministic, extractive compaction with no model and no network.

Sentences are scored for what a personal assistant needs next time (decisions, the
user's preferences, file paths and values, open questions, to-dos) and the best ones are
quoted under short headings. Nothing is paraphrased, so nothing can be invented.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from memdesk.core.tokens import estimate_tokens
from memdesk.errors import BadInputError
from memdesk.llm.replies import MIN_APP_MEMORY_CHARS, NEEDS_EXISTING, fifo_decision
from memdesk.llm.results import Decision, StepResult
from memdesk.llm.text import clip_at_word, dedupe_key, jaccard, word_set
from memdesk.llm.transcript import split_turns

T = TypeVar("T")

OFFLINE_MARK = "_(summary made offline, extractive)_"
DUPLICATE_SIMILARITY = 0.6
MAX_FACTS = 30
MIN_SUMMARY_CHARS = 1200  # below this, headings and bullets would crowd out content
MAX_SENTENCE_CHARS = 300
MAX_APP_MEMORY_SENTENCES = 4
_APP_MEMORY_CANDIDATES = 8  # only top sentences; filling up with weak ones adds noise

# Category priority: a sentence that matches several goes under the first of them.
HEADINGS = {
    "question": "Open questions",
    "decision": "Decisions",
    "todo": "To do",
    "preference": "Preferences",
    "value": "Files and values",
}
_WRITE_ORDER = ("decision", "preference", "value", "question", "todo")
# Headings, blank lines and the offline mark, so bullets are budgeted for what is left.
_FRAME_CHARS = sum(len(name) + 5 for name in HEADINGS.values()) + len(OFFLINE_MARK) + 2

_I = re.IGNORECASE
_DECISION = re.compile(
    r"\b(?:decided|decide to|we(?:'ll| will) (?:use|go with|keep|switch)|let's (?:go with|use|"
    r"keep|switch)|going with|settled on|agreed|(?:we|I) chose|I'll go with)\b",
    _I,
)
_PREFERENCE_STRONG = re.compile(
    r"\b(?:I prefer|I'd prefer|I'd rather|I (?:really )?(?:like|love|hate|dislike|want)|"
    r"please (?:always|never|don't|use|avoid|keep))\b",
    _I,
)
_PREFERENCE_WEAK = re.compile(r"\b(?:don't|do not|always|never|avoid|rather than|instead of)\b", _I)
_TODO = re.compile(
    r"\b(?:TODO|to-do|need to|needs to|have to|next|follow[ -]up|later|remind me|"
    r"don't forget|pending)\b",
    _I,
)
_PATH = re.compile(
    r"(?<![\w/])(?:~|\.{1,2})?/[\w.-]+(?:/[\w.-]+)*"  # /x/y.py, ~/.config/a, ./b
    r"|(?<![\w/])[\w.-]+(?:/[\w.-]+)*/[\w-]+\.\w{1,8}\b"  # src/a.ts
)
_CODE_OR_SETTING = re.compile(r"`[^`\n]+`|https?://\S+|\b\w[\w.-]*\s?=\s?\S+")
_NUMBER = re.compile(r"\d")
_FACT = re.compile(
    r"\b(?:I prefer|I'd prefer|I'd rather|I (?:really )?(?:like|love|hate|dislike)|"
    r"I (?:always|never|usually)|I (?:don't|do not) (?:like|want|use)|I work|I live|I use|"
    r"I'm an?|I am an?|call me|my name is|my \w+(?: \w+)? (?:is|are))\b",
    _I,
)
_TRANSIENT = re.compile(
    r"\b(?:today|tonight|tomorrow|yesterday|right now|this (?:morning|afternoon|evening|week)|"
    r"at the moment|just now)\b",
    _I,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[`~/A-Z0-9])")
_LIST_MARKER = re.compile(r"^\s*(?:[-*•>]|\d+[.)])\s+")
_MIN_SENTENCE_CHARS = 8


@dataclass(frozen=True)
class Sentence:
    position: int
    role: str
    text: str
    category: str | None
    score: int

    @property
    def quoted(self) -> str:
        return f"{self.role.capitalize()}: {self.text}"


class OfflineSteps:
    """The compaction steps without a model. Same input, same output, always."""

    name = "offline"

    def __init__(self, *, app_memory_max_chars: int = 200, summary_max_chars: int = 4000) -> None:
        self.app_memory_max_chars = app_memory_max_chars
        self.summary_max_chars = summary_max_chars

    def summarize(self, transcript: str) -> StepResult[str]:
        return _timed(transcript, lambda: self._summary(transcript), lambda text: text)

    def extract_facts(self, transcript: str) -> StepResult[list[str]]:
        return _timed(transcript, lambda: facts_from(transcript), "\n".join)

    def make_app_memory(self, transcript: str, summary: str | None = None) -> StepResult[str | None]:
        del summary  # extractive: the sentences come from the conversation itself
        return _timed(transcript, lambda: self._app_memory(transcript), lambda text: text or "")

    def decide_compaction(
        self, existing: Sequence[tuple[int, str]], new_content: str, new_id: int | None
    ) -> StepResult[Decision]:
        started = time.perf_counter()
        decision = decide_offline(existing, new_content)
        return StepResult(decision, 0, 0, 0, False, time.perf_counter() - started)

    def _summary(self, transcript: str) -> str:
        target = min(self.summary_max_chars, max(MIN_SUMMARY_CHARS, len(transcript) // 5))
        budget = target - _FRAME_CHARS
        sentences = analyse(transcript)
        chosen = _pick_round_robin(sentences, budget)
        sections = []
        for category in _WRITE_ORDER:
            picked = sorted((s for s in chosen if s.category == category), key=_by_position)
            if picked:
                bullets = "\n".join(f"- {s.quoted}" for s in picked)
                sections.append(f"## {HEADINGS[category]}\n{bullets}")
        if not sections and sentences:
            # Nothing matched any signal: the latest lines are the best remaining guide.
            bullets = "\n".join(f"- {s.quoted}" for s in sentences[-3:])
            sections.append(f"## Latest messages\n{bullets}")
        if not sections:
            sections.append("Nothing to summarise.")
        return "\n\n".join([*sections, OFFLINE_MARK])

    def _app_memory(self, transcript: str) -> str | None:
        # Open questions make poor records; the rest compete on score, later ones first.
        ranked = sorted(
            (s for s in analyse(transcript) if s.category not in (None, "question")),
            key=lambda s: (-s.score, -s.position),
        )[:_APP_MEMORY_CANDIDATES]
        picked: list[Sentence] = []
        size = 0
        for sentence in ranked:
            extra = len(sentence.quoted) + (1 if picked else 0)
            if size + extra <= self.app_memory_max_chars:
                picked.append(sentence)
                size += extra
                if len(picked) == MAX_APP_MEMORY_SENTENCES:
                    break
        if not picked and ranked:
            picked = ranked[:1]  # too long to fit whole: keep the best one, clipped below
        text = clip_at_word(
            " ".join(s.quoted for s in sorted(picked, key=_by_position)), self.app_memory_max_chars
        )
        return text if len(text) >= MIN_APP_MEMORY_CHARS else None


def facts_from(transcript: str) -> list[str]:
    """The user's fact- and preference-like sentences, deduplicated, latest ``MAX_FACTS``."""
    facts: list[str] = []
    seen: set[str] = set()
    for sentence in analyse(transcript):
        text = sentence.text
        if sentence.role != "user" or text.endswith("?") or _TRANSIENT.search(text):
            continue
        if not (_FACT.search(text) or _PREFERENCE_WEAK.search(text)):
            continue
        key = dedupe_key(text)
        if key not in seen:
            seen.add(key)
            facts.append(text)
    return facts[-MAX_FACTS:]


def decide_offline(existing: Sequence[tuple[int, str]], new_content: str) -> Decision:
    """Merge a near-duplicate (the older copy goes), otherwise remove the oldest (FIFO)."""
    if not existing:
        raise BadInputError(NEEDS_EXISTING)
    words = [word_set(content) for _, content in existing]
    new_words = word_set(new_content)
    # Most similar first; among equals, the oldest.
    best = max(range(len(existing)), key=lambda i: (jaccard(new_words, words[i]), -i))
    similarity = jaccard(new_words, words[best])
    if similarity >= DUPLICATE_SIMILARITY:
        target = existing[best][0]
        return Decision(
            "edit",
            target,
            new_content,
            f"The new memory repeats memory {target} ({similarity:.0%} of words shared); "
            "its newer wording replaces the old text.",
        )
    for older in range(len(existing)):
        for newer in range(older + 1, len(existing)):
            similarity = jaccard(words[older], words[newer])
            if similarity >= DUPLICATE_SIMILARITY:
                target, kept = existing[older][0], existing[newer][0]
                return Decision(
                    "delete",
                    target,
                    None,
                    f"Memory {target} repeats the newer memory {kept} "
                    f"({similarity:.0%} of words shared); the older copy goes.",
                )
    return fifo_decision(existing, "no memories were near-duplicates")


@lru_cache(maxsize=2)  # summary, facts and app memory read the same transcript in a row
def analyse(transcript: str) -> tuple[Sentence, ...]:
    """Every sentence of the transcript, scored, deduplicated, in conversation order."""
    sentences: list[Sentence] = []
    seen: set[str] = set()
    for role, content in split_turns(transcript):
        in_code = False
        for line in content.splitlines():
            if line.lstrip().startswith("```"):
                in_code = not in_code  # code blocks are output, not things to remember
                continue
            if in_code:
                continue
            for piece in _SENTENCE_END.split(_LIST_MARKER.sub("", line).strip()):
                if len(piece) < _MIN_SENTENCE_CHARS:
                    continue
                key = dedupe_key(piece)
                if key in seen:
                    continue
                seen.add(key)
                text = clip_at_word(piece, MAX_SENTENCE_CHARS)
                category, score = _score(text, role)
                sentences.append(Sentence(len(sentences), role, text, category, score))
    return tuple(sentences)


def _score(text: str, role: str) -> tuple[str | None, int]:
    """The sentence's category (first matching heading) and how much it carries."""
    weights: dict[str, int] = {}
    if text.endswith("?"):
        weights["question"] = 3
    if _DECISION.search(text):
        weights["decision"] = 4
    if _TODO.search(text):
        weights["todo"] = 3
    # "I" in the assistant's lines is the assistant, so only the user states preferences.
    if role == "user":
        if _PREFERENCE_STRONG.search(text):
            weights["preference"] = 4
        elif _PREFERENCE_WEAK.search(text):
            weights["preference"] = 2
    if _PATH.search(text):
        weights["value"] = 3
    elif _CODE_OR_SETTING.search(text):
        weights["value"] = 2
    elif _NUMBER.search(text):
        weights["value"] = 1
    if not weights:
        return None, 0
    category = next(name for name in HEADINGS if name in weights)
    return category, sum(weights.values()) + (1 if role == "user" else 0)


def _pick_round_robin(sentences: Sequence[Sentence], budget: int) -> list[Sentence]:
    """Best sentences of each category in turn, so every heading is represented."""
    queues = {
        category: sorted(
            (s for s in sentences if s.category == category),
            key=lambda s: (-s.score, -s.position),
        )
        for category in _WRITE_ORDER
    }
    cursor = dict.fromkeys(_WRITE_ORDER, 0)
    chosen: list[Sentence] = []
    used = 0
    active = [category for category in _WRITE_ORDER if queues[category]]
    while active:
        for category in list(active):
            queue = queues[category]
            # Skip what no longer fits; a shorter sentence further down may still fit.
            while cursor[category] < len(queue):
                sentence = queue[cursor[category]]
                cursor[category] += 1
                cost = len(sentence.quoted) + 3  # "- " and the newline
                if used + cost <= budget:
                    chosen.append(sentence)
                    used += cost
                    break
            if cursor[category] >= len(queue):
                active.remove(category)
    return chosen


def _by_position(sentence: Sentence) -> int:
    return sentence.position


def _timed(transcript: str, make: Callable[[], T], as_text: Callable[[T], str]) -> StepResult[T]:
    started = time.perf_counter()
    value = make()
    return StepResult(
        value,
        0,
        estimate_tokens(transcript),
        estimate_tokens(as_text(value)),
        True,
        time.perf_counter() - started,
    )
