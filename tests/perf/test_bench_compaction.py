"""Benchmark: compaction of a ~200,000-token session through the whole pipeline.

Run with ``make bench`` (pytest -s). Prints figures; asserts only that the work was done.
1. Offline: propose (read the session, run every step, build the changes) and apply.
2. A model behind a local counting server: how many calls that session takes at the
   default context window, step by step.
3. `memdesk compact` and `memdesk compact --dry-run` on that session as a person runs them:
   processes taking turns, judged by a person's patience (a line starting ``MISS`` when over).
"""

import random
import re
import resource
import statistics
import sys
import time
from collections import Counter

from tests.perf.goals import patience, process_ms, taking_turns
from tests.support.llm_servers import FakeLLMServer, Reply

from memdesk.core.tokens import estimate_tokens
from memdesk.llm import prompts
from memdesk.services.compaction import Compaction

TARGET_TOKENS = 200_000
COMMAND_RUNS = 3
COMMAND_PATIENCE_MS = 3_000.0  # a long conversation's proposal, before the person reads it
SESSION = "bench:long"
_TOPICS = ("backup", "timer", "config", "database", "editor", "deploy", "cache", "budget")


def log_long_session(app, app_id: str = "bench") -> int:
    """A varied conversation of about TARGET_TOKENS tokens, logged in one step; returns its size."""
    rng = random.Random(11)
    chars = 0
    with app.ctx.change("Log the benchmark session"):
        number = 0
        while chars < TARGET_TOKENS * 4:
            topic = rng.choice(_TOPICS)
            user = (
                f"I prefer the {topic} settings in ~/.config/app/{topic}_{number}.toml. "
                f"Should we retry job {number} after {rng.randint(1, 90)} minutes? "
                f"TODO: check src/{topic}/step_{number}.py before release {number % 12}."
            )
            assistant = (
                f"Let's go with {topic} option {number % 7}; it keeps limit = {rng.randint(10, 999)}. "
                "We compared the two runs side by side and the numbers matched."
            )
            app.sessions.log(SESSION, "user", user, app_id=app_id)
            app.sessions.log(SESSION, "assistant", assistant)
            chars += len(user) + len(assistant)
            number += 1
    return chars


def test_offline_compaction_of_a_long_session(memdesk_app):
    app = memdesk_app
    chars = log_long_session(app)
    for number in range(10):
        app.apps.add("bench", f"Earlier memory {number} about the {_TOPICS[number % 8]} work.")
    compaction = Compaction(app)

    started = time.perf_counter()
    proposal = compaction.propose(SESSION)
    proposed = time.perf_counter() - started
    started = time.perf_counter()
    step_id = compaction.apply(proposal)
    applied = time.perf_counter() - started

    sizes = ", ".join(f"{change.kind.value} {len(change.after):,}" for change in proposal.changes)
    print(
        f"\noffline compaction of {proposal.message_count:,} messages, ~{chars / 4:,.0f} tokens:"
        f"\n  propose {proposed:.2f} s, apply {applied:.2f} s (history step #{step_id})"
        f"\n  changes (characters written): {sizes}"
    )
    assert step_id is not None and len(app.apps.memories("bench")) == 10


def test_model_calls_for_a_long_session(memdesk_app, monkeypatch):
    app = memdesk_app
    log_long_session(app)
    monkeypatch.setenv("MEMDESK_API_KEY", "bench")
    steps = Counter()

    def answer(request):
        system = request.system_text
        name = {
            prompts.SUMMARY_SYSTEM: "summary",
            prompts.PARTS_SYSTEM: "timeline parts",
            prompts.MERGE_SYSTEM: "summary merge",
            prompts.FACTS_SYSTEM: "facts part",
        }.get(system, "app memory")
        steps[name] += 1
        # About a fifth of what it was sent, up to the reply limit, like a real summary.
        size = min(len(request.user_text) // 5, request.body["max_tokens"] * 4)
        if name == "facts part":
            return Reply("I prefer short answers.")
        parts = re.findall(r"<conversation part=(\d+)>", request.user_text)
        if parts:
            note = "- " + "note " * (size // 5 // len(parts))
            return Reply("\n".join(f"=== Part {number} ===\n{note}" for number in parts))
        return Reply("- " + "note " * (size // 5))

    with FakeLLMServer() as server:
        server.responder = answer
        app.update_settings(
            app.settings.with_values({"llm.backend": "openai", "llm.base_url": server.openai_url})
        )
        window = app.settings.compaction.context_window_tokens
        started = time.perf_counter()
        proposal = Compaction(app).propose(SESSION, dry_run=True)
        seconds = time.perf_counter() - started

    by_step = ", ".join(f"{name} {count}" for name, count in steps.items())
    sent = sum(estimate_tokens(r.system_text + r.user_text) for r in server.requests)
    print(
        f"\nmodel calls for {proposal.message_count:,} messages at the default window of {window:,} tokens "
        f"(replies up to {app.settings.llm.max_tokens:,} tokens): {proposal.usage.calls} ({by_step}); "
        f"~{sent:,} tokens sent, {seconds:.2f} s against the local server"
    )
    assert proposal.usage.calls == len(server.requests) == sum(steps.values())


def _children_cpu_ms() -> float:
    """Processor time of the finished child processes so far (user and system)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (usage.ru_utime + usage.ru_stime) * 1000


def test_memdesk_compact_of_a_long_session_as_a_process(memdesk_app):
    """The command as typed, offline: the proposal printed (nothing written without --yes),
    and the same as a diff with --dry-run; each from launch to exit."""
    log_long_session(memdesk_app)
    command = [sys.executable, "-m", "memdesk", "compact", SESSION, "--backend", "offline"]
    processor: dict[str, list[float]] = {"compact": [], "dry-run": []}

    def run(name: str, extra: list[str]) -> float:
        before = _children_cpu_ms()
        wall = process_ms([*command, *extra])
        processor[name].append(_children_cpu_ms() - before)
        return wall

    times = taking_turns(
        COMMAND_RUNS,
        {"compact": lambda: run("compact", []), "dry-run": lambda: run("dry-run", ["--dry-run"])},
    )
    print(
        f"\n`memdesk compact` of ~{TARGET_TOKENS:,} tokens, processes, median of {COMMAND_RUNS} taking turns:"
    )
    for name, label in (("compact", "`memdesk compact`"), ("dry-run", "`memdesk compact --dry-run`")):
        cpu = statistics.median(processor[name][-COMMAND_RUNS:])  # the round not counted is first
        patience(
            f"{label} (processor time {cpu:,.0f} ms)", statistics.median(times[name]), COMMAND_PATIENCE_MS
        )
