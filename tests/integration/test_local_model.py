"""Compaction through a real small model: SmolLM2-135M-Instruct served OpenAI-style on 127.0.0.1.

The model is tiny and invents things, which is the point: every step must either give a
change or say why it fell back, whatever it invented must be marked and left out by
``--yes``, the token limit must hold, and a server that goes away must lose nothing.
Replies are short (``llm.max_tokens`` at its minimum) and one compaction serves the first two
tests, so the module runs in well under a minute on two cores; the run prints its wall time.
What a run left is read in this process: how the command prints it is tested elsewhere.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from tests.support.cli import MemdeskCommand, fails, out, store_of
from tests.support.local_model import (
    MODEL_NAME,
    TEST_THREADS,
    LocalModelServer,
    ServedReply,
    local_model_server,
)

from memdesk.services.memdesk import Memdesk

pytestmark = [pytest.mark.wall_time, pytest.mark.slow]

NOW = "2026-11-26T09:00:00Z"
MAX_TOKENS = 64
# A shared or busy machine can be many times slower than an idle one; a run is given room.
RUN_TIMEOUT_S = 300
SESSION = "web:priya"
CONVERSATION = [
    ("user", "I moved to Bristol last month."),
    ("assistant", "Welcome to Bristol!"),
    ("user", "Please book meetings only after 2pm. I started cello lessons on Saturdays."),
    ("assistant", "Noted: meetings after 2pm, cello on Saturdays."),
]
OLD_MEMORY = "Prefers a weekly summary on Mondays."
MARKED = re.compile(r"^    UNGROUNDED: (.*)$", re.MULTILINE)
CHANGE = re.compile(r"^\[(\d+)\] (.*)$", re.MULTILINE)


def chat_with_the_model(memdesk: MemdeskCommand, server: LocalModelServer) -> None:
    """Priya's conversation logged into a store whose settings point at ``server``; the app
    is at its cap of one memory, so the decision step runs too. Written in this process:
    only the compaction under test pays for starting the command."""
    memdesk.data_dir.mkdir(parents=True)
    (memdesk.data_dir / "config.toml").write_text(
        f'[llm]\nbackend = "openai"\nopenai_base_url = "{server.openai_url}"\nmodel = "{MODEL_NAME}"\n'
        f"max_tokens = {MAX_TOKENS}\ntimeout_seconds = {RUN_TIMEOUT_S}\n"
        "[compaction]\ncontext_window_tokens = 4096\n"
        "[memory]\napp_memory_cap = 1\n",
        encoding="utf-8",
    )
    now = datetime.fromisoformat(NOW)
    app = Memdesk.open(data_dir=str(memdesk.data_dir), clock=lambda: now)
    try:
        app.apps.add("cal", OLD_MEMORY, created_at=now - timedelta(days=7))
        # A minute between messages, the last one a minute ago.
        first = now - timedelta(minutes=len(CONVERSATION))
        messages = [(role, text, first + timedelta(minutes=n)) for n, (role, text) in enumerate(CONVERSATION)]
        app.sessions.log_many(SESSION, messages, app_id="cal")
    finally:
        app.close()


@pytest.fixture
def memdesk(tmp_path) -> MemdeskCommand:
    return MemdeskCommand(tmp_path / "store", prefix=("--now", NOW))


@dataclass(frozen=True)
class Compaction:
    memdesk: MemdeskCommand
    printed: str
    replies: list[ServedReply]  # how each of the run's model calls ended


@pytest.fixture(scope="module")
def compaction(tmp_path_factory) -> Compaction:
    """One ``compact --yes`` of the conversation through every step: each model call takes
    seconds, and the tests below check different things about the same run."""
    memdesk = MemdeskCommand(tmp_path_factory.mktemp("compaction") / "store", prefix=("--now", NOW))
    with local_model_server(TEST_THREADS) as model:
        chat_with_the_model(memdesk, model)
        printed = out(memdesk("compact", SESSION, "--yes", timeout=RUN_TIMEOUT_S))
    return Compaction(memdesk, printed, model.replies)


def changes(printed: str) -> dict[str, str]:
    """Each change's block of the printed proposal, by its title line."""
    heads = list(CHANGE.finditer(printed))
    ends = [head.start() for head in heads[1:]] + [printed.find("\n\n", heads[-1].end())]
    return {head.group(2): printed[head.start() : end] for head, end in zip(heads, ends, strict=True)}


@dataclass(frozen=True)
class Stored:
    """Everything compaction can write, and how many messages are left to compact."""

    working: str
    timeline: list[str]
    facts: str
    app_memories: list[str]
    new_messages: int

    def text(self) -> str:
        return "\n".join([self.working, *self.timeline, self.facts, *self.app_memories])


def stored(memdesk: MemdeskCommand) -> Stored:
    with store_of(memdesk, NOW) as app:
        working = app.working.state()
        facts = app.documents.get("user/facts")
        (session,) = app.sessions.list()
        return Stored(
            working.content if working else "",
            [entry.content for entry in app.entries.list("timeline")],
            facts.content if facts else "",
            [memory.content for memory in app.apps.memories("cal", include_expired=False)],
            session.unconsolidated,
        )


def test_every_step_answers_and_nothing_invented_is_stored(compaction):
    printed = compaction.printed
    assert f"Backend openai ({MODEL_NAME}): " in printed
    blocks = changes(printed)
    titles = list(blocks)
    # The summary gives working memory and a timeline entry; the facts step a change or a note.
    assert titles[0].startswith("Replace working memory (user/working)")
    assert any(title.startswith("Add timeline entry ctx_web:priya_") for title in titles)
    assert any(re.match(r"Add \d+ facts? to user/facts", t) for t in titles) or "Note: Facts: " in printed
    # The app memory, then the cap decision: the model's choice, or FIFO with its reason.
    decision = next(
        block
        for title, block in blocks.items()
        if re.match(r"(Move memory \d+ of app cal to Trash|Merge the new memory into memory \d+)", title)
    )
    assert OLD_MEMORY in decision
    fallback = re.search(r"why: Removed the oldest memory \(\d+\) because (.*)", decision)
    assert "FIFO" not in decision and (fallback is None or fallback.group(1).strip())
    # The token limit held on every call.
    replies = compaction.replies
    assert replies and all(reply.completion_tokens <= MAX_TOKENS for reply in replies)

    # What the small model invented is marked, not accepted, and left out by --yes.
    marked = {title: MARKED.search(block) for title, block in blocks.items()}
    marked = {title: found.group(1) for title, found in marked.items() if found}
    assert marked, printed  # a 135M model always invents something in these steps
    assert all("(not accepted)" in title for title in marked)
    assert re.search(rf"Left out {len(marked)} ungrounded changes?: ", printed)
    invented = [
        word.strip()
        for reason in marked.values()
        for part in reason.split("; ")
        if part.startswith("not in the conversation: ")
        for word in part.removeprefix("not in the conversation: ").split(", ")
    ]
    conversation = " ".join(text for _role, text in CONVERSATION).lower()
    assert all(word.lower() not in conversation for word in invented)
    memory = stored(compaction.memdesk)
    kept = memory.text()
    assert not [word for word in invented if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", kept, re.I)]
    assert memory.new_messages == 0


def test_a_model_that_does_not_stop_is_held_by_the_token_limit(compaction):
    # The facts step: this model answers it with dialogue that runs on and on.
    replies = compaction.replies
    assert any(reply.finish_reason == "length" for reply in replies), replies
    assert all(reply.completion_tokens <= MAX_TOKENS for reply in replies)
    assert (
        f"note: The model's reply reached the limit of {MAX_TOKENS} tokens (llm.max_tokens) and was cut "
        "there, so its end is missing." in compaction.printed
    )


def test_the_server_going_away_mid_run_loses_nothing(memdesk):
    with local_model_server(TEST_THREADS) as server:
        chat_with_the_model(memdesk, server)
        with ThreadPoolExecutor(1) as pool:
            run = pool.submit(memdesk, "compact", SESSION, "--yes", timeout=RUN_TIMEOUT_S)
            server.wait_for_replies(1, RUN_TIMEOUT_S)  # the summary step has its answer
            server.stop()
            result = run.result()

    # The request in flight is cut ("Could not connect"), or the next one finds nothing listening.
    cut = f"memdesk: error: Could not connect to the OpenAI-compatible server at {server.openai_url}."
    refused = (
        f"memdesk: error: The OpenAI-compatible server at {server.openai_url} "
        "is not reachable; nothing changed."
    )
    err = fails(result, 1, "memdesk: error: ")
    assert cut in err or refused in err, err
    assert err.count("memdesk: error:") == 1 and "Is the server running" in err
    # The messages stay to be compacted later; nothing was written.
    assert stored(memdesk) == Stored("", [], "", [OLD_MEMORY], len(CONVERSATION))
