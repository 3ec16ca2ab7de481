"""The offline backend: deterministic, extractive compaction with no model and no network.

The summary opens with what the conversation was about (the person's opening request or
statement) and what they are doing now, then quotes the sentences that carry the most:
decisions and who owns what, preferences, details, file paths and values, open questions,
to-dos (the person's apart from the assistant's offers and advice, by whose turn said them);
within each, first those that add names, codes, dates and amounts (``memdesk.llm.specifics``)
the summary does not quote yet. Pasted output (stack traces, logs, JSON, code) and the
assistant's narration of its own steps are never quoted (``memdesk.llm.noise``).
Nothing is paraphrased, so nothing can be invented.
"""

from __future__ import annotations

import heapq
import re
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from memdesk.core.patterns import lowercase
from memdesk.core.tokens import estimate_tokens
from memdesk.errors import BadInputError
from memdesk.llm.changes import Edit, Known, Said
from memdesk.llm.noise import TO_THE_LISTENER, is_self_report
from memdesk.llm.replies import MIN_APP_MEMORY_CHARS, NEEDS_EXISTING, fifo_decision
from memdesk.llm.results import Decision, PartNotes, StepResult
from memdesk.llm.sentences import Sentence, analyse
from memdesk.llm.specifics import Specific
from memdesk.llm.sure import offline_edits
from memdesk.llm.text import clip_at_word, dedupe_key, jaccard, word_set

__all__ = ["OFFLINE_MARK", "OfflineSteps", "analyse", "decide_offline", "facts_from"]

T = TypeVar("T")

OFFLINE_MARK = "_(summary made offline, extractive)_"
DUPLICATE_SIMILARITY = 0.6
MAX_FACTS = 30
MIN_SUMMARY_CHARS = 1200  # below this, headings and bullets would crowd out content
SUMMARY_SHARE = 0.3  # of the transcript, for long ones: the bullets picked fill at most this
MAX_APP_MEMORY_SENTENCES = 4
MAX_ABOUT_SENTENCES = 2
SPECIFIC_WORTH = 2.0  # per name, code, date or amount a sentence adds to the summary
MAX_SPECIFICS_COUNTED = 4  # beyond this a sentence is a list, not more worth
_KEPT_FROM_REPORTS = ("decision", "value")
# An assistant's sentence that shares this many of the person's last sentence's longer words,
# and this share of them, repeats it.
_ECHO_MIN_WORDS = 3
_ECHO_SHARE = 0.6
_CAPITALISED = re.compile(r"\b[A-Z][\w'-]+")
_APP_MEMORY_CANDIDATES = 8  # only top sentences; filling up with weak ones adds noise

ABOUT = "About"
NOW = "Now"
HEADINGS = {
    "decision": "Decisions",
    "preference": "Preferences",
    "detail": "Details",
    "value": "Files and values",
    "question": "Open questions",
    "todo": "To do",
    # A to-do said in the assistant's turn is its own offer or its advice, not the person's task.
    "assistant_todo": "To do, from the assistant",
}
_WRITE_ORDER = tuple(HEADINGS)
# Details take their turn last, so a tight budget still holds one of each signal first.
_PICK_ORDER = ("decision", "preference", "value", "question", "todo", "detail")
# Headings that take another's turn: the assistant's to-dos share the person's, so a heading of
# their own is not a second share of the budget.
_PICKED_AS = {"assistant_todo": "todo"}
# The offline mark and its blank line; each heading is counted when its first bullet is picked.
_FRAME_CHARS = len(OFFLINE_MARK) + 2

# Lasting things a person says about themselves: who they are, work, family, places, tastes, plans.
_FACT = lowercase(
    r"\b(?:I prefer|I'd prefer|I'd rather|I (?:really )?(?:like|love|hate|dislike|enjoy)|"
    r"I (?:always|never|usually)|I (?:don't|do not) (?:like|want|use|eat|drink)|"
    r"I work|I'm working (?:as|at|for|on)|I live|I grew up|I was born|I moved|I'm from|I am from|"
    r"I use|I have (?:a|an|two|three|\d+) |I'm an? |I am an? |I'm (?:allergic|married)|"
    r"I (?:plan|intend) to|I'm (?:planning|hoping) to|call me|my name is|"
    r"my \w+(?: \w+)? (?:is|are|was|were)|my (?:wife|husband|partner|son|daughter|kids|children|"
    r"mom|mother|dad|father|brother|sister|family|friend|dog|cat|boss|team|job)\b)"
)
_RULE = lowercase(r"^(?:never|always|don't|do not|avoid|please)\b")
_TRANSIENT = lowercase(
    r"\b(?:today|tonight|tomorrow|yesterday|right now|this (?:morning|afternoon|evening|week)|"
    r"at the moment|just now)\b"
)
_ONGOING = lowercase(
    r"\b(?:I'm|I am|we're|we are) (?:now |currently |still )?\w+ing\b|\bworking on\b|"
    r"\b(?:this|next) (?:week|month)\b|\bcurrently\b"
)


class OfflineSteps:
    """The compaction steps without a model. Same input, same output, always."""

    name = "offline"

    def __init__(self, *, app_memory_max_chars: int = 200, summary_max_chars: int = 4000) -> None:
        self.app_memory_max_chars = app_memory_max_chars
        self.summary_max_chars = summary_max_chars

    def summarize(self, transcript: str) -> StepResult[str]:
        return _timed(transcript, lambda: self._summary(transcript), lambda text: text)

    def summarize_parts(self, transcript: str, parts: Sequence[str]) -> StepResult[PartNotes]:
        return _timed(
            transcript,
            lambda: PartNotes(self._summary(transcript), [self._summary(part) for part in parts]),
            lambda notes: "\n".join([notes.whole, *notes.parts]),
        )

    def extract_facts(self, transcript: str) -> StepResult[list[str]]:
        return _timed(transcript, lambda: facts_from(transcript), "\n".join)

    def make_app_memory(self, transcript: str, summary: str | None = None) -> StepResult[str | None]:
        del summary  # extractive: the sentences come from the conversation itself
        return _timed(transcript, lambda: self._app_memory(transcript), lambda text: text or "")

    def find_changes(
        self, transcript: str, said: Sequence[Said], known: Sequence[Known]
    ) -> StepResult[list[Edit]]:
        return _timed(
            transcript, lambda: offline_edits(said, known), lambda edits: "\n".join(e.text for e in edits)
        )

    def decide_compaction(
        self, existing: Sequence[tuple[int, str]], new_content: str, new_id: int | None
    ) -> StepResult[Decision]:
        started = time.perf_counter()
        decision = decide_offline(existing, new_content)
        return StepResult(decision, 0, 0, 0, False, time.perf_counter() - started)

    def _summary(self, transcript: str) -> str:
        target = min(self.summary_max_chars, max(MIN_SUMMARY_CHARS, int(len(transcript) * SUMMARY_SHARE)))
        budget = target - _FRAME_CHARS
        sentences = _quotable(transcript, reports_naming_more=True)
        # A tight budget (a small working memory) keeps what fits of these, whole sentences.
        about = _fit(_about(sentences), ABOUT, budget)
        used = _cost(about, ABOUT)
        now = _fit(_now(sentences, about), NOW, budget - used)
        used += _cost(now, NOW)
        taken = {s.position for s in (*about, *now)}
        named = _named_in([*about, *now])
        chosen = _pick_round_robin([s for s in sentences if s.position not in taken], budget - used, named)
        sections = []
        if about:
            sections.append(_section(ABOUT, about))
        if now:
            sections.append(_section(NOW, now))
        for category in _WRITE_ORDER:
            picked = sorted((s for s in chosen if _heading_of(s) == category), key=_by_position)
            if picked:
                sections.append(_section(HEADINGS[category], picked))
        if not sections and sentences:
            # Nothing matched any signal: the latest lines are the best remaining guide.
            sections.append(_section("Latest messages", sentences[-3:]))
        if not sections:
            sections.append("Nothing to summarise.")
        return "\n\n".join([*sections, OFFLINE_MARK])

    def _app_memory(self, transcript: str) -> str | None:
        # Open questions make poor records; the rest compete on score, later ones first.
        ranked = sorted(
            (s for s in _quotable(transcript) if s.category not in (None, "question")),
            key=lambda s: (-(s.score - s.info), -s.info, -s.position),
        )[:_APP_MEMORY_CANDIDATES]
        picked: list[Sentence] = []
        size = 0
        for sentence in ranked:
            extra = len(sentence.text) + (1 if picked else 0)
            if size + extra <= self.app_memory_max_chars:
                picked.append(sentence)
                size += extra
                if len(picked) == MAX_APP_MEMORY_SENTENCES:
                    break
        if not picked and ranked:
            picked = ranked[:1]  # too long to fit whole: keep the best one, clipped below
        text = clip_at_word(
            " ".join(s.text for s in sorted(picked, key=_by_position)), self.app_memory_max_chars
        )
        return text if len(text) >= MIN_APP_MEMORY_CHARS else None


def facts_from(transcript: str) -> list[str]:
    """The user's lasting statements about themselves, deduplicated, latest ``MAX_FACTS``."""
    facts: list[str] = []
    seen: set[str] = set()
    for sentence in analyse(transcript):
        text = sentence.text
        lower = text.lower()
        if sentence.role != "user" or text.endswith("?") or _TRANSIENT.search(lower):
            continue
        # Said about the listener, or a request to them, is not a fact about the person.
        rule = sentence.info > 0 and _RULE.match(lower)  # not "Always good to hear!"
        if TO_THE_LISTENER.search(lower) or not (_FACT.search(lower) or rule):
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


def _quotable(transcript: str, *, reports_naming_more: bool = False) -> list[Sentence]:
    """The sentences a summary or an app memory may quote: not the assistant's reports of
    what it will do or did, unless one carries a decision, a path or a value ("I'll put the
    unit in ~/.config/…") or, for a summary, names what no other quotable sentence does
    ("I'll remind you to book the Alfa Pendular tickets", where nobody else named the train)."""
    sentences = analyse(transcript)
    reports = {
        s.position
        for s in sentences
        if s.category not in _KEPT_FROM_REPORTS and is_self_report(s.text, s.role)
    }
    if reports and reports_naming_more:
        named = _named_in([s for s in sentences if s.position not in reports])
        reports = {position for position in reports if sentences[position].specifics <= named}
    left_out = reports | _echoes(sentences)
    return [s for s in sentences if s.position not in left_out]


def _echoes(sentences: Sequence[Sentence]) -> set[int]:
    """The assistant's sentences that repeat what the person asked in the turn before ("Add a
    note that Jonas owns the permissions change." / "Added to your notes: Jonas owns the
    permissions-screen change."): the summary says it once, in the person's words. One that
    names something the person's sentence does not (a date, a number, a name) is kept."""
    asked: dict[int, list[Sentence]] = {}
    for sentence in sentences:
        if sentence.role == "user":
            asked.setdefault(sentence.turn, []).append(sentence)
    echoes = set()
    for sentence in sentences:
        if sentence.role != "assistant":
            continue
        said = _content_words(sentence.text)
        for request in asked.get(sentence.turn - 1, []):
            words = _content_words(request.text)
            shared = len(words & said)
            repeats = shared >= _ECHO_MIN_WORDS and shared >= _ECHO_SHARE * len(words)
            named = _capitalised(sentence.text) <= _capitalised(request.text) | words
            if repeats and named and sentence.specifics <= request.specifics:
                echoes.add(sentence.position)
    return echoes


def _capitalised(text: str) -> frozenset[str]:
    """The names a sentence may carry: its capitalised words after the first, lowercased."""
    return frozenset(word.lower() for word in _CAPITALISED.findall(text.split(" ", 1)[-1]))


def _content_words(text: str) -> frozenset[str]:
    return frozenset(word for word in word_set(text) if len(word) > 3)


def _about(sentences: Sequence[Sentence]) -> list[Sentence]:
    """What the conversation was about: the person's first statements that say something.

    Greetings and small-talk questions ("How have you been?") carry no information and are
    passed over; the person's own statements come before the assistant's. A request that
    opens the conversation ("Can you help me plan the Porto offsite?") says what it is about,
    though no heading would take it.
    """
    for role in ("user", "assistant"):
        first_turn: int | None = None
        picked: list[Sentence] = []
        for sentence in sentences:
            if sentence.role != role or sentence.info <= 0 or (role == "assistant" and sentence.score <= 0):
                continue
            if first_turn is None:
                first_turn = sentence.turn
            if sentence.turn != first_turn or len(picked) == MAX_ABOUT_SENTENCES:
                break
            picked.append(sentence)
        if picked:
            return picked
    return []


def _now(sentences: Sequence[Sentence], about: Sequence[Sentence]) -> list[Sentence]:
    """What the person is doing now: their latest sentence about ongoing work or plans."""
    skip = {s.position for s in about}
    for sentence in reversed(sentences):
        ongoing = sentence.role == "user" and sentence.position not in skip
        if ongoing and _ONGOING.search(sentence.text.lower()):
            return [sentence] if not sentence.text.endswith("?") else []
    return []


def _section(heading: str, sentences: Sequence[Sentence]) -> str:
    return f"## {heading}\n" + "\n".join(f"- {s.text}" for s in sentences)


def _pick_round_robin(sentences: Sequence[Sentence], budget: int, named: set[Specific]) -> list[Sentence]:
    """Best sentences of each heading in turn, so every heading is represented.

    A sentence is worth its score plus what it would add to the summary's specifics
    (``named``, those already quoted): of two sentences about the train, the one that also
    gives its date and price goes first, and one that only repeats them waits.
    """
    named = set(named)  # grows with each pick; the caller's stays as it was
    queues: dict[str, list[tuple[float, int, Sentence]]] = {category: [] for category in _PICK_ORDER}
    for sentence in sentences:
        heading = _heading_of(sentence)
        if heading is not None:
            queue = queues[_PICKED_AS.get(heading, heading)]
            queue.append((-_worth(sentence, named), -sentence.position, sentence))
    for queue in queues.values():
        heapq.heapify(queue)
    chosen: list[Sentence] = []
    opened: set[str] = set()
    used = 0
    active = [category for category in _PICK_ORDER if queues[category]]
    while active:
        for category in list(active):
            queue = queues[category]
            # Skip what no longer fits; a shorter sentence further down may still fit.
            while queue:
                sentence = heapq.heappop(queue)[2]
                heading = _heading_of(sentence)
                cost = len(sentence.text) + 3  # "- " and the newline
                if heading not in opened:
                    cost += _heading_cost(HEADINGS[heading])
                if used + cost > budget:
                    continue
                # What is quoted since only lowers a sentence's worth: look again when another
                # may now be worth more (the others' worth is checked when they come up).
                worth = _worth(sentence, named)
                if queue and worth < -queue[0][0]:
                    heapq.heappush(queue, (-worth, -sentence.position, sentence))
                    continue
                chosen.append(sentence)
                opened.add(heading)
                named |= sentence.specifics
                used += cost
                break
            if not queue:
                active.remove(category)
    return chosen


def _heading_of(sentence: Sentence) -> str | None:
    """The sentence's heading in a summary: its category (a to-do by whose turn it is), or
    Details for a short statement of a figure ("Second class is €31.20.") that no other
    signal took."""
    if sentence.category == "todo" and sentence.role == "assistant":
        return "assistant_todo"
    if sentence.category is not None:
        return sentence.category
    if not sentence.text.endswith("?") and any(specific.counted for specific in sentence.specifics):
        return "detail"
    return None


def _worth(sentence: Sentence, named: set[Specific]) -> float:
    specifics = sentence.specifics
    new = len(specifics) if named.isdisjoint(specifics) else len(specifics - named)
    return sentence.score + SPECIFIC_WORTH * min(new, MAX_SPECIFICS_COUNTED)


def _named_in(sentences: Sequence[Sentence]) -> set[Specific]:
    return {specific for sentence in sentences for specific in sentence.specifics}


def _cost(sentences: Sequence[Sentence], heading: str) -> int:
    return sum(len(s.text) + 3 for s in sentences) + (_heading_cost(heading) if sentences else 0)


def _fit(sentences: Sequence[Sentence], heading: str, budget: int) -> list[Sentence]:
    kept: list[Sentence] = []
    for sentence in sentences:
        if _cost([*kept, sentence], heading) <= budget:
            kept.append(sentence)
    return kept


def _heading_cost(heading: str) -> int:
    return len(heading) + 5  # "## ", the newline and the blank line before the next section


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
