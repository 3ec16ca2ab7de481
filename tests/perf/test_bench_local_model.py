"""Benchmark: what a real small local model writes into memory, once the grounding check has run.

SmolLM2-135M-Instruct (``tests.support.local_model``) compacts the first turns of one
session of each LoCoMo dev conversation, each into a fresh store, through the openai
backend, and the proposal is applied the way ``memdesk compact --yes`` applies it (marked
changes are left out). Printed:

- stored sentences that repeat an earlier sentence of the same text, or name specifics
  (people, places, numbers, dates…) the conversation does not hold, as a share of all
  sentences stored (working memory, timeline entries, facts). Goal: at most 5%.
- proposed lines the check marks, as a share of every line the model proposed.

Runs where the model can (skipped with one line otherwise, like the real-model test);
``MEMDESK_BENCH_SCALE`` below 1 compacts fewer sessions.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from tests.perf import conversation_data
from tests.support.local_model import CONTEXT_TOKENS, MODEL_NAME, local_model_server

from memdesk.core.grounding import MarkKind, check
from memdesk.llm.text import dedupe_key
from memdesk.services.compaction.build import Source, SourceMessage, grounding_sources

MAX_BAD_SHARE = 0.05
TURNS = 16
MAX_TOKENS = 128
SESSION = "locomo:dev"
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LINE_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)]|#+)\s*|^\[\d{4}-\d{2}-\d{2}[^\]]*\]\s*")


@dataclass
class Tally:
    sentences: int = 0
    repeated: int = 0
    ungrounded: int = 0
    proposed_lines: int = 0
    marked_lines: int = 0
    seconds: float = 0.0
    runs: int = 0


def sentences(text: str) -> list[str]:
    """The sentences of stored text, without list markers, headings' hashes or timeline dates."""
    found: list[str] = []
    for line in text.splitlines():
        line = _LINE_MARKER.sub("", line).strip()
        found += [part for part in _SENTENCE_END.split(line) if dedupe_key(part)]
    return found


def marked_lines(text: str, spans: list[tuple[int, int]]) -> tuple[int, int]:
    """(lines of ``text`` with words in them, those a mark touches)."""
    lines = marked = 0
    start = 0
    for line in text.splitlines(keepends=True):
        end = start + len(line)
        if line.strip():
            lines += 1
            marked += any(a < end and b > start for a, b in spans)
        start = end
    return lines, marked


def compact_one(folder: Path, url: str, conversation: conversation_data.Conversation, tally: Tally) -> None:
    part = conversation.sessions[0]
    clock = conversation_data.SettableClock(part.at + timedelta(minutes=30))
    app = conversation_data.open_store(folder, clock)
    try:
        app.update_settings(
            app.settings.with_values(
                {
                    "llm.backend": "openai",
                    "llm.openai_base_url": url,
                    "llm.model": MODEL_NAME,
                    "llm.max_tokens": MAX_TOKENS,
                    "llm.timeout_seconds": 600.0,
                    "compaction.context_window_tokens": CONTEXT_TOKENS,
                }
            )
        )
        roles = {conversation.speaker_a: "user", conversation.speaker_b: "assistant"}
        messages = []
        with app.ctx.change("Log a session"):
            for number, turn in enumerate(part.turns[:TURNS]):
                at = part.at + timedelta(seconds=number)
                role = roles.get(turn.speaker, "user")
                app.sessions.log(SESSION, role, turn.text, at=at)
                messages.append(SourceMessage(0, role, turn.text, at))
        started = time.perf_counter()
        proposal, _step = app.compaction.compact(SESSION)
        tally.seconds += time.perf_counter() - started
        tally.runs += 1
        source = Source(SESSION, None, tuple(messages), 0, None)
        sources = grounding_sources(source, app.settings, clock())
        for change in proposal.changes:
            if change.model_written:
                lines, marked = marked_lines(change.after, [(m.start, m.end) for m in change.marks])
                tally.proposed_lines += lines
                tally.marked_lines += marked
        namespace = app.settings.memory.user_namespace
        stored = [
            app.documents.text(f"{namespace}/working"),
            app.documents.text(f"{namespace}/facts"),
            *(entry.content for entry in app.entries.list("timeline", limit=1000)),
        ]
        for text in stored:
            seen: set[str] = set()
            for sentence in sentences(text):
                key = dedupe_key(sentence)
                tally.sentences += 1
                if key in seen:
                    tally.repeated += 1
                elif any(mark.kind is MarkKind.UNGROUNDED for mark in check(sentence, sources)):
                    tally.ungrounded += 1
                seen.add(key)
    finally:
        app.close()


@pytest.mark.skipif(
    not conversation_data.DATA_FILE.exists(), reason=f"no benchmark data at {conversation_data.DATA_FILE}"
)
def test_a_small_local_model_stores_little_it_invented(tmp_path: Path) -> None:
    conversations = conversation_data.load()
    scale = float(os.environ.get("MEMDESK_BENCH_SCALE", "1"))
    conversations = conversations[: max(1, round(len(conversations) * min(scale, 1)))]
    tally = Tally()
    with local_model_server() as server:
        for conversation in conversations:
            compact_one(tmp_path / conversation.sample_id, server.openai_url, conversation, tally)

    bad = (tally.repeated + tally.ungrounded) / max(tally.sentences, 1)
    marked = tally.marked_lines / max(tally.proposed_lines, 1)
    miss = "MISS " if bad > MAX_BAD_SHARE else ""
    print(
        f"\n{miss}{MODEL_NAME} on {tally.runs} LoCoMo dev session{'' if tally.runs == 1 else 's'} "
        f"({TURNS} turns each, llm.max_tokens "
        f"{MAX_TOKENS}, {tally.seconds / tally.runs:.1f} s per compaction), applied as with --yes:"
        f"\n  stored sentences that repeat or name what the conversation does not: {bad:.1%} "
        f"({tally.repeated} repeated, {tally.ungrounded} ungrounded of {tally.sentences}; goal ≤ "
        f"{MAX_BAD_SHARE:.0%})"
        f"\n  proposed lines the grounding check marks: {marked:.1%} "
        f"({tally.marked_lines} of {tally.proposed_lines})"
    )
