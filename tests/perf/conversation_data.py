"""Reading LoCoMo (long-term conversational memory) for the quality benchmarks, and its metrics.

This module holds code only: the conversations stay in ``../shared/data/locomo-dev.json``
(licence CC BY-NC 4.0), are read from there at benchmark time, and are never copied into
the repository or the package. Metric definitions follow that folder's README.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.core.dates import MONTHS, WEEKDAYS

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

DATA_FILE = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev.json"
ADVERSARIAL = 5
# Categories whose answers are checked word by word ("answer in recall top-5").
ANSWER_CATEGORIES = (1, 2, 4)
_ANSWER_SKIP_WORDS = frozenset(
    {"a", "an", "the", "of", "in", "on", "at", "to", "for", "and", "or", "with", "by"}
)


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str

    @property
    def content(self) -> str:
        """The entry text the README defines: ``Speaker: text`` plus what a shared image shows."""
        return f"{self.speaker}: {self.text}"


@dataclass(frozen=True)
class SessionPart:
    number: int
    at: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    question: str
    answer: str
    evidence: tuple[str, ...]
    category: int


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: tuple[SessionPart, ...]
    questions: tuple[Question, ...]

    def turns(self) -> list[Turn]:
        return [turn for session in self.sessions for turn in session.turns]


def parse_session_time(raw: str) -> datetime:
    """``1:56 pm on 8 May, 2023`` -> a naive UTC datetime."""
    return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y")


def _turn(raw: dict) -> Turn:
    text = raw["text"]
    if raw.get("blip_caption"):
        text = f"{text} [shares {raw['blip_caption']}]"
    return Turn(dia_id=raw["dia_id"], speaker=raw["speaker"], text=text)


def _conversation(raw: dict) -> Conversation:
    conv = raw["conversation"]
    sessions = []
    number = 1
    while f"session_{number}" in conv:
        sessions.append(
            SessionPart(
                number=number,
                at=parse_session_time(conv[f"session_{number}_date_time"]),
                turns=tuple(_turn(t) for t in conv[f"session_{number}"]),
            )
        )
        number += 1
    questions = tuple(
        Question(
            question=q["question"],
            answer=str(q["answer"]),
            evidence=tuple(q.get("evidence", ())),
            category=int(q["category"]),
        )
        for q in raw["qa"]
        if int(q["category"]) != ADVERSARIAL
    )
    return Conversation(
        sample_id=raw["sample_id"],
        speaker_a=conv["speaker_a"],
        speaker_b=conv["speaker_b"],
        sessions=tuple(sessions),
        questions=questions,
    )


def load(path: Path = DATA_FILE) -> list[Conversation]:
    return [_conversation(raw) for raw in json.loads(path.read_text(encoding="utf-8"))]


def answer_words(answer: str) -> set[str]:
    return {w for w in re.findall(r"\w+", answer.lower()) if w not in _ANSWER_SKIP_WORDS}


def answer_found(answer: str, texts: list[str]) -> bool:
    """Every word of the answer appears among the words of the recalled texts."""
    wanted = answer_words(answer)
    if not wanted:
        return False
    have = set(re.findall(r"\w+", " ".join(texts).lower()))
    return wanted <= have


# What a reader looks for again, counted word by word and independently of the offline
# summariser's own reading: numbers, month and weekday names, and capitalised words that do
# not open a sentence (names of people, places and things).
SPECIFIC_KINDS = ("numbers", "dates", "names")
_SPECIFIC_WORD = re.compile(r"(?<![\w.,:])\d+(?:[.,:]\d+)*|[^\W\d_][\w'’-]*")
_DATE_WORDS = frozenset((*(month.lower() for month in MONTHS), *WEEKDAYS))
_NOT_NAMES = frozenset({"i", "i'm", "i've", "i'll", "i'd", "ok"})
_OPENERS = '.!?:;[("“\n'


def specific_words(text: str) -> dict[str, set[str]]:
    """The specifics of ``text`` by kind, each as a lower-case word ("2,500" as "2500")."""
    found: dict[str, set[str]] = {kind: set() for kind in SPECIFIC_KINDS}
    for match in _SPECIFIC_WORD.finditer(text):
        word = match.group()
        key = _word_key(word)
        if word[0].isdigit():
            found["numbers"].add(key)
        elif key in _DATE_WORDS and word[0].isupper():
            found["dates"].add(key)
        elif word[0].isupper() and key not in _NOT_NAMES and not _opens_sentence(text, match.start()):
            found["names"].add(key)
    return found


def specifics_kept(said: str, summary: str) -> dict[str, tuple[int, int]]:
    """By kind, (specifics of ``said`` that ``summary`` has anywhere, specifics of ``said``)."""
    have = {_word_key(match.group()) for match in _SPECIFIC_WORD.finditer(summary)}
    return {kind: (len(words & have), len(words)) for kind, words in specific_words(said).items()}


def _word_key(word: str) -> str:
    lower = word.lower().rstrip("'’-")
    if word[0].isdigit():
        return lower.replace(",", "")
    return lower.removesuffix("'s").removesuffix("’s")


def _opens_sentence(text: str, at: int) -> bool:
    before = text[max(0, at - 8) : at].rstrip(" \t")
    return not before or before[-1] in _OPENERS


def evidence_recall(found_keys: list[str], evidence: tuple[str, ...]) -> tuple[int, int]:
    """(evidence turns found, evidence turns wanted) for one question."""
    wanted = set(evidence)
    return len(wanted & set(found_keys)), len(wanted)


class SettableClock:
    """The store's clock, moved to each session's time while its turns are written."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def open_store(folder: Path, clock: Callable[[], datetime]) -> Memdesk:
    """A Memdesk on a fresh SQLite file in ``folder``."""
    from memdesk.services.memdesk import Memdesk

    folder.mkdir(parents=True, exist_ok=True)
    return Memdesk.open(data_dir=str(folder), clock=clock)


def store_turns_as_entries(folder: Path, conversation: Conversation) -> tuple[Memdesk, SettableClock]:
    """Every turn as a knowledge entry (key = ``dia_id``), created at its session's time.

    The store's clock is left at the last session's time, the moment questions are asked.
    """
    clock = SettableClock(conversation.sessions[0].at)
    app = open_store(folder, clock)
    for session in conversation.sessions:
        clock.now = session.at
        for turn in session.turns:
            app.entries.upsert(turn.dia_id, turn.content, created_at=session.at)
    return app, clock
