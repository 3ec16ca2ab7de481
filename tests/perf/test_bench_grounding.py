"""The grounding check: how often it marks text that is faithful, and how fast it reads.

- Offline output on the LoCoMo dev half: each session's turns logged into one Memdesk
  session (speaker A as ``user``, B as ``assistant``, at the session's time) and compacted
  offline, every change applied; the share of the proposed lines the check marks. Offline
  output only quotes the conversation, so every mark is a false one.
- The stand-in servers' grounded replies: the conversations and faithful replies of the
  existing compaction tests, run through the openai backend against a stand-in server on
  127.0.0.1; the share of their proposed lines marked.
- Speed: checking a proposal of 4,000 characters of model text against its conversation.
- Speed: the sources of a conversation of ~200,000 tokens, built once per compaction, in
  processor time beside the least a reading of its words does.

Reads ``../shared/data/`` at bench time (skips with one line when it is absent). Prints each
figure with its goal, and a line starting ``MISS`` for a figure over it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import pytest
from tests.perf import conversation_data
from tests.perf.goals import judge
from tests.perf.test_bench_offline_compaction import synthetic_messages
from tests.support.llm_servers import FakeLLMServer, Reply

from memdesk.core.grounding import Mark, Sources, check
from memdesk.llm import prompts
from memdesk.services.compaction import Change, Proposal
from memdesk.services.memdesk import Memdesk

FALSE_MARKS_GOAL = 0.01
SPEED_GOAL_MS = 2.0
PROPOSAL_CHARS = 4_000
ROUNDS = 20
LONG_ROUNDS = 3
# About 25x: reading numbers in seven languages' words whether or not a check asked for them
# made it 120x.
LONG_SOURCES_RATIO_GOAL = 40.0
SESSION = "locomo:dev"


@dataclass
class Lines:
    """Proposed lines of model-written text, and those a mark falls on."""

    total: int = 0
    marked: list[str] = field(default_factory=list)

    def add(self, proposal: Proposal) -> None:
        for change in proposal.changes:
            if change.model_written:
                self.add_change(change)

    def add_change(self, change: Change) -> None:
        start = 0
        for line in change.after.splitlines(keepends=True):
            end = start + len(line)
            if line.strip():
                self.total += 1
                hits = [mark for mark in change.marks if mark.start < end and mark.end > start]
                if hits:
                    self.marked.append(f"{line.strip()[:100]}  <- {_words(hits)}")
            start = end

    def report(self, name: str) -> float:
        share = len(self.marked) / max(self.total, 1)
        print(
            f"{name}: {len(self.marked)} of {self.total} lines marked = {share:.2%} "
            f"(goal ≤ {FALSE_MARKS_GOAL:.0%})"
        )
        for line in self.marked[:12]:
            print(f"    {line}")
        if share > FALSE_MARKS_GOAL:
            print(f"MISS {name}: {share:.2%} > {FALSE_MARKS_GOAL:.0%}")
        return share


def _words(marks: list[Mark]) -> str:
    return ", ".join(f"{mark.kind}: {mark.words[:40]}" for mark in marks)


def _conversations() -> list[conversation_data.Conversation]:
    if not conversation_data.DATA_FILE.is_file():
        pytest.skip(f"{conversation_data.DATA_FILE} is absent; the grounding bench needs the shared dev data")
    return conversation_data.load()


def test_offline_output_is_not_marked(tmp_path: Path) -> None:
    lines = Lines()
    runs = 0
    for conversation in _conversations():
        app = Memdesk.open(data_dir=str(tmp_path / conversation.sample_id), actor="bench")
        roles = {conversation.speaker_a: "user", conversation.speaker_b: "assistant"}
        try:
            for part in conversation.sessions:
                with app.ctx.change("Log a session"):
                    for number, turn in enumerate(part.turns):
                        at = part.at + timedelta(seconds=number)
                        app.sessions.log(SESSION, roles.get(turn.speaker, "user"), turn.text, at=at)
                proposal = app.compaction.propose(SESSION, backend="offline")
                lines.add(proposal)
                proposal.accept_marked(suspicious=True, ungrounded=True)  # as a person accepting all
                app.compaction.apply(proposal)
                runs += 1
        finally:
            app.close()
    print(f"\nGrounding check on offline compaction of the LoCoMo dev half ({runs} sessions):")
    lines.report("offline output")


@dataclass(frozen=True)
class Scenario:
    """A conversation of an existing test and its stand-in server's faithful replies."""

    origin: str
    turns: tuple[tuple[str, str], ...]
    summary: str
    facts: str
    memory: str


SCENARIOS = (
    Scenario(
        "tests/unit/test_compaction.py",
        (
            ("user", "I use Fedora. Can we move the backup script? Retry after 30 minutes."),
            ("assistant", "Moved it to ~/bin/backup.sh."),
        ),
        "## Work\n- Moving the backup to ~/bin/backup.sh\n## Open\n- Retry after 30 minutes?",
        "I use Fedora.\nI prefer short answers.",
        "The user moved the backup script to ~/bin/backup.sh and retries after 30 minutes.",
    ),
    Scenario(
        "tests/integration/test_cli_compact.py",
        (("user", "I prefer tea. Let's go with Rust."), ("assistant", "Decided: Rust for the backend.")),
        "## Decisions\n- Rust for the backend",
        "The user prefers tea.",
        "The user chose Rust for the backend and prefers tea.",
    ),
    Scenario(
        "tests/integration/test_cli_compact_anthropic.py",
        (("user", "I prefer tea. Rust it is."), ("assistant", "Decided: Rust.")),
        "## Decisions\n- Rust for the backend",
        "The user prefers tea.",
        "The user chose Rust for the backend.",
    ),
    Scenario(
        "tests/gui/test_compaction_view.py",
        (
            ("user", "Plan Porto for Friday. I prefer window seats."),
            ("assistant", "Booked a hotel by the river."),
        ),
        "## Trip\n- Porto on Friday, hotel by the river",
        "The user prefers window seats.",
        "The user is going to Porto on Friday and prefers window seats.",
    ),
    Scenario(
        "tests/unit/test_compaction_failures.py",
        (
            ("user", "Plan the trip to Porto."),
            ("assistant", "Flights on Friday,\nhotel near the river."),
            ("user", "Book the hotel."),
        ),
        "## Notes\n- Porto trip",
        prompts.NO_FACTS,
        "The user is planning a trip to Porto: flights on Friday and a hotel near the river.",
    ),
    Scenario(
        "tests/perf/test_bench_compaction.py",
        (
            (
                "user",
                "I prefer the backup settings in ~/.config/app/backup_3.toml. Should we retry job 3 after "
                "45 minutes? TODO: check src/backup/step_3.py before release 3.",
            ),
            ("assistant", "Let's go with backup option 3; it keeps limit = 120."),
        ),
        "## Work\n- Settings in ~/.config/app/backup_3.toml, option 3 with limit = 120\n"
        "## Open\n- Retry job 3 after 45 minutes?\n- Check src/backup/step_3.py before release 3",
        "I prefer short answers.",
        "The user keeps backup settings in ~/.config/app/backup_3.toml and chose option 3 (limit 120).",
    ),
)
APP_SYSTEM = prompts.app_memory_system(200)


def _responder(scenario: Scenario):
    def respond(request):
        if request.system_text == prompts.SUMMARY_SYSTEM:
            return Reply(scenario.summary)
        if request.system_text == prompts.FACTS_SYSTEM:
            return Reply(scenario.facts)
        return Reply(scenario.memory)

    return respond


def test_stand_in_replies_that_are_faithful_are_not_marked(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("MEMDESK_API_KEY", "k")
    lines = Lines()
    with FakeLLMServer() as server:
        for number, scenario in enumerate(SCENARIOS):
            server.responder = _responder(scenario)
            app = Memdesk.open(data_dir=str(tmp_path / str(number)), actor="bench")
            try:
                settings = {
                    "llm.backend": "openai",
                    "llm.base_url": server.openai_url,
                    "llm.model": "stand-in",
                }
                app.update_settings(app.settings.with_values(settings))
                for role, text in scenario.turns:
                    app.sessions.log("web:1", role, text, app_id="cal")
                lines.add(app.compaction.propose("web:1"))
            finally:
                app.close()
    print(
        f"\nGrounding check on the existing tests' faithful stand-in replies "
        f"({len(SCENARIOS)} conversations):"
    )
    lines.report("stand-in replies")


def test_checking_a_proposal_is_fast() -> None:
    conversation = _conversations()[0]
    part = conversation.sessions[0]
    messages = [(f"{turn.speaker}: {turn.text}", part.at) for turn in part.turns]
    prepared = float("inf")
    for _ in range(ROUNDS):
        began = time.perf_counter()
        sources = Sources(messages, part.at, [prompts.SUMMARY_SYSTEM, prompts.FACTS_SYSTEM, APP_SYSTEM])
        prepared = min(prepared, time.perf_counter() - began)
    # Model-like text: the conversation's own sentences, with a few invented names among them.
    said = " ".join(turn.text for turn in part.turns)
    text = (said + " They flew to Lisbon with Marcus on 3 March 2024. ") * (PROPOSAL_CHARS // len(said) + 1)
    text = text[:PROPOSAL_CHARS]
    best = float("inf")
    for _ in range(ROUNDS):
        began = time.perf_counter()
        check(text, sources.with_text("- an earlier fact about Caroline"))
        best = min(best, time.perf_counter() - began)
    chars = sum(len(text) for text, _ in messages)
    print(
        f"\nGrounding check speed: {best * 1000:.2f} ms per proposal of {PROPOSAL_CHARS:,} characters "
        f"(goal ≤ {SPEED_GOAL_MS:.0f} ms, best of {ROUNDS}); the sources, once per run: "
        f"{prepared * 1000:.2f} ms for a conversation of {chars:,} characters"
    )
    if best * 1000 > SPEED_GOAL_MS:
        print(f"MISS grounding check speed: {best * 1000:.2f} ms > {SPEED_GOAL_MS:.0f} ms")


def _processor_ms(work: Callable[[], object]) -> float:
    began = time.process_time()
    work()
    return (time.process_time() - began) * 1000


def test_the_sources_of_a_long_conversation() -> None:
    """What compaction builds before checking anything: every word, number, date and time the
    conversation says. Beside it, taking turns, its floor: the conversation's words,
    lower-cased, gathered once."""
    messages = [(message.content, message.at) for message in synthetic_messages()]
    today = messages[-1][1]
    text = "\n".join(content for content, _ in messages)
    built, floor = [], []
    for _ in range(LONG_ROUNDS):
        built.append(_processor_ms(lambda: Sources(messages, today, [prompts.SUMMARY_SYSTEM])))
        floor.append(_processor_ms(lambda: set(text.lower().split())))
    print()
    judge(
        f"the sources of a conversation of {len(text):,} characters, processor time, best of {LONG_ROUNDS}",
        min(built),
        "its words lower-cased and gathered once",
        min(floor),
        ratio_goal=LONG_SOURCES_RATIO_GOAL,
    )
