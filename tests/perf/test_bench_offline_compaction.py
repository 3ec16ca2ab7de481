"""Benchmark: offline compaction of a ~200,000-token transcript, and LLM call counts.

Run with ``make bench`` (pytest -s). The offline steps must stay well under 2 seconds;
the call counts show how many requests a model backend would need at common context sizes.
"""

import random
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from memdesk.core.tokens import estimate_tokens
from memdesk.llm.base import Completion
from memdesk.llm.offline import OfflineSteps
from memdesk.llm.sentences import clear_cache
from memdesk.llm.steps import LLMSteps
from memdesk.llm.transcript import dated_turns, format_transcript
from memdesk.services.compaction.parts import split_parts

TARGET_TOKENS = 200_000
START = datetime(2026, 3, 2, 9, 0)
OFFLINE_LIMIT_SECONDS = 2.0
WINDOWS = (8_000, 32_000, 128_000)

_TOPICS = ["backup", "timer", "config", "database", "editor", "deploy", "cache", "NAS", "budget", "report"]
_FILLER = (
    "we looked at the logs again and compared",
    "the two runs side by side before moving on",
    "and then checked the numbers once more",
)


@dataclass(frozen=True)
class Message:
    role: str
    content: str
    at: datetime


def synthetic_messages(seed: int = 7) -> list[Message]:
    """A long, varied conversation with the signals the offline scorer looks for."""
    rng = random.Random(seed)
    turns: list[tuple[str, str]] = []
    size = 0
    n = 0
    while size < TARGET_TOKENS * 4:
        topic = rng.choice(_TOPICS)
        filler = rng.choice(_FILLER)
        user = [
            f"Then {filler} for the {topic} task number {n}, as we said last Friday.",
            f"I prefer {topic} settings kept in ~/.config/app/{topic}_{n}.toml.",
            f"Should we retry the {topic} job {n} after {rng.randint(1, 90)} minutes?",
            f"TODO: follow up on src/{topic}/step_{n}.py before release {n % 12}.",
        ]
        assistant = [
            f"Let's go with {topic} option {n % 7}, it keeps limit = {rng.randint(10, 999)}.",
            f"Also {filler}, which matched what we saw for {topic}.",
        ]
        at = START + timedelta(minutes=n)
        turns.append(Message("user", " ".join(rng.sample(user, 3)), at))
        turns.append(Message("assistant", " ".join(assistant), at))
        size += sum(len(message.content) + 12 for message in turns[-2:])
        n += 1
    return turns


def synthetic_transcript(seed: int = 7) -> str:
    return format_transcript((m.role, m.content) for m in synthetic_messages(seed))


class CountingBackend:
    """A stand-in model: replies a fifth of its input (up to the limit), counts calls."""

    name = "counting"
    model = "fake"
    max_tokens = 1024

    def __init__(self) -> None:
        self.calls = 0

    def complete(self, system: str, user: str, *, max_tokens: int | None = None) -> Completion:
        self.calls += 1
        text = "x" * min(len(user) // 5, (max_tokens or self.max_tokens) * 4)
        return Completion(text, estimate_tokens(system + user), estimate_tokens(text), True)


def test_offline_compaction_speed():
    """Everything the offline backend does for one session, as the pipeline runs it: the
    dated transcript, the summary, one summary per timeline part, facts and app memory."""
    messages = synthetic_messages()
    steps = OfflineSteps()
    clear_cache()  # time the full work, not a cached analysis

    started, cpu_started = time.perf_counter(), time.process_time()
    dated = dated_turns((m.role, m.content, m.at) for m in messages)
    transcript = format_transcript(dated)
    summary = steps.summarize(transcript)
    parts = split_parts(messages)
    for start, end in parts:
        steps.summarize(format_transcript(dated[start:end]))
    facts = steps.extract_facts(transcript)
    memory = steps.make_app_memory(transcript)
    seconds = time.perf_counter() - started
    # CPU time is what the work costs; on a machine shared with other busy programs the
    # wall-clock time also counts the waiting for a core.
    cpu_seconds = time.process_time() - cpu_started

    print(
        f"\noffline compaction of {estimate_tokens(transcript):,} tokens "
        f"({len(transcript) / 1e6:.2f} MB): {cpu_seconds:.3f} s of CPU, {seconds:.3f} s wall-clock "
        f"(summary {len(summary.value):,} chars, {len(parts)} timeline parts, {len(facts.value)} facts, "
        f"app memory {len(memory.value or '')} chars)"
    )
    assert summary.value and facts.value and memory.value
    assert cpu_seconds < OFFLINE_LIMIT_SECONDS


def test_llm_call_counts_for_a_long_transcript():
    transcript = synthetic_transcript()
    print(f"\nmodel calls for {estimate_tokens(transcript):,} tokens (replies up to 1,024 tokens):")
    counts = []
    for window in WINDOWS:
        backend = CountingBackend()
        steps = LLMSteps(backend, context_window_tokens=window)
        summary_calls = steps.summarize(transcript).calls
        facts_calls = steps.extract_facts(transcript).calls
        memory_calls = steps.make_app_memory(transcript).calls
        assert backend.calls == summary_calls + facts_calls + memory_calls
        counts.append(summary_calls)
        print(
            f"  window {window:>7,}: summary {summary_calls:>3}, facts {facts_calls:>3}, "
            f"app memory {memory_calls:>3}"
        )
    assert counts == sorted(counts, reverse=True)  # a bigger window never needs more calls
