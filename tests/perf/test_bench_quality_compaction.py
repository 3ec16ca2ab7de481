"""Benchmark: what offline compaction keeps of long conversations, measured on LoCoMo.

Run with ``make bench``; skipped when the data file (``tests/perf/conversation_data.DATA_FILE``) is
absent. For each conversation, two stores on real SQLite files:

- raw: every turn stored as a knowledge entry ``Speaker: text`` (the README's "raw");
- compacted: each LoCoMo session's turns logged into one Memdesk session (speaker A as
  ``user``, B as ``assistant``, at the session's time), then compacted with the offline
  backend and the proposal applied, session after session.

Scored, for the questions of categories 1, 2 and 4 ("answer in recall top-5"):

- recall: the text of the ``app.recall.entries(question, limit=5)`` hits. In the compacted
  store the only entries are the timeline entries compaction wrote.
- prompt: the text of ``app.prompt.compose(PromptSpec(message=question))``, which adds the
  profile, working memory and what recall finds in the user's documents (facts).
- size: characters compaction left (timeline entries, working memory, facts) ÷
  characters of all turns as ``Speaker: text``.
- specifics kept: of each session's numbers, month and weekday names and capitalised names
  (``conversation_data.specific_words``), the share its timeline entries still hold.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from tests.perf import conversation_data

from memdesk.services.compaction import ChangeKind
from memdesk.services.memdesk import Memdesk
from memdesk.services.prompt import PromptSpec

MIN_COMPACTED_SHARE_OF_ANSWERS = 0.25
MIN_SHARE_OF_RAW = 0.75
MAX_SIZE_SHARE = 0.35
SESSION = "locomo:dev"


@dataclass
class Score:
    questions: int = 0
    recall_hits: int = 0
    prompt_hits: int = 0
    prompt_tokens: int = 0
    chars: int = 0

    def add(self, recall_hit: bool, prompt_hit: bool, tokens: int) -> None:
        self.questions += 1
        self.recall_hits += recall_hit
        self.prompt_hits += prompt_hit
        self.prompt_tokens += tokens

    @property
    def recall(self) -> float:
        return self.recall_hits / max(self.questions, 1)

    @property
    def prompt(self) -> float:
        return self.prompt_hits / max(self.questions, 1)

    @property
    def tokens(self) -> float:
        return self.prompt_tokens / max(self.questions, 1)


@dataclass
class Totals:
    raw: Score = field(default_factory=Score)
    compacted: Score = field(default_factory=Score)
    raw_chars: int = 0
    written: Counter[str] = field(default_factory=Counter)
    compact_seconds: float = 0.0
    runs: int = 0
    # By kind of specific: (kept in the session's timeline entries, said in the session).
    specifics: dict[str, list[int]] = field(
        default_factory=lambda: {kind: [0, 0] for kind in conversation_data.SPECIFIC_KINDS}
    )

    def count_specifics(self, said: str, summaries: str) -> None:
        for kind, (kept, total) in conversation_data.specifics_kept(said, summaries).items():
            self.specifics[kind][0] += kept
            self.specifics[kind][1] += total

    def specifics_line(self) -> str:
        kept = sum(pair[0] for pair in self.specifics.values())
        total = sum(pair[1] for pair in self.specifics.values())
        kinds = ", ".join(f"{kind} {pair[0] / max(pair[1], 1):.1%}" for kind, pair in self.specifics.items())
        return f"{kept / max(total, 1):.1%} of {total:,} ({kinds})"


def raw_store(path: Path, conversation: conversation_data.Conversation) -> Memdesk:
    app = Memdesk.open(data_dir=str(path), actor="bench")
    with app.ctx.change("Store the turns"):
        for turn in conversation.turns():
            app.entries.upsert(f"turn_{turn.dia_id}", turn.content, "knowledge")
    return app


def compacted_store(path: Path, conversation: conversation_data.Conversation, totals: Totals) -> Memdesk:
    app = Memdesk.open(data_dir=str(path), actor="bench")
    roles = {conversation.speaker_a: "user", conversation.speaker_b: "assistant"}
    for part in conversation.sessions:
        with app.ctx.change("Log a session"):
            for number, turn in enumerate(part.turns):
                at = part.at + timedelta(seconds=number)  # same minute, still in order
                app.sessions.log(SESSION, roles.get(turn.speaker, "user"), turn.text, at=at)
        started = time.perf_counter()
        proposal, step = app.compaction.compact(SESSION, backend="offline")
        totals.compact_seconds += time.perf_counter() - started
        totals.runs += 1
        assert step is not None
        timeline = [change.after for change in proposal.changes if change.kind is ChangeKind.ADD_TIMELINE]
        totals.count_specifics("\n".join(turn.text for turn in part.turns), "\n".join(timeline))
    return app


def written_chars(app: Memdesk) -> dict[str, int]:
    """Characters of what compaction left: timeline entries, working memory, facts."""
    namespace = app.settings.memory.user_namespace
    return {
        "timeline": sum(len(entry.content) for entry in app.entries.list("timeline", limit=100_000)),
        "working memory": len(app.documents.text(f"{namespace}/working")),
        "facts": len(app.documents.text(f"{namespace}/facts")),
    }


def score(app: Memdesk, questions: tuple[conversation_data.Question, ...], into: Score) -> None:
    for question in questions:
        if question.category not in conversation_data.ANSWER_CATEGORIES:
            continue
        hits = app.recall.entries(question.question, limit=5)
        prompt = app.prompt.compose(PromptSpec(message=question.question))
        into.add(
            conversation_data.answer_found(question.answer, [hit.text for hit in hits]),
            conversation_data.answer_found(question.answer, [prompt.text]),
            prompt.tokens,
        )


@pytest.mark.skipif(
    not conversation_data.DATA_FILE.exists(), reason=f"no benchmark data at {conversation_data.DATA_FILE}"
)
def test_offline_compaction_keeps_the_answers(tmp_path: Path) -> None:
    totals = Totals()
    for conversation in conversation_data.load():
        totals.raw_chars += sum(len(turn.content) for turn in conversation.turns())
        raw = raw_store(tmp_path / f"raw-{conversation.sample_id}", conversation)
        compacted = compacted_store(tmp_path / f"compacted-{conversation.sample_id}", conversation, totals)
        try:
            score(raw, conversation.questions, totals.raw)
            score(compacted, conversation.questions, totals.compacted)
            totals.written.update(written_chars(compacted))
        finally:
            raw.close()
            compacted.close()

    raw, compacted = totals.raw, totals.compacted
    compacted_chars = sum(totals.written.values())
    size = compacted_chars / totals.raw_chars
    parts = ", ".join(f"{name} {chars:,}" for name, chars in totals.written.items())
    print(
        f"\nLoCoMo dev half, {raw.questions} questions (categories 1, 2, 4), "
        f"{totals.runs} offline compactions ({totals.compact_seconds / totals.runs * 1000:.0f} ms each):"
        f"\n  answer in recall top-5: raw {raw.recall:.1%}, compacted {compacted.recall:.1%} "
        f"({compacted.recall / raw.recall:.0%} of raw)"
        f"\n  answer in composed prompt: raw {raw.prompt:.1%} (mean {raw.tokens:.0f} tokens), "
        f"compacted {compacted.prompt:.1%} (mean {compacted.tokens:.0f} tokens)"
        f"\n  compacted memory size: {size:.1%} of the raw turns "
        f"({compacted_chars:,} of {totals.raw_chars:,} characters: {parts})"
        f"\n  specifics of each session kept in its timeline entries: {totals.specifics_line()}"
    )
    assert compacted.recall >= MIN_COMPACTED_SHARE_OF_ANSWERS
    assert compacted.recall >= MIN_SHARE_OF_RAW * raw.recall
    assert size <= MAX_SIZE_SHARE
