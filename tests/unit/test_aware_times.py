"""The Python API takes timezone-aware datetimes anywhere a time goes in, and stores naive UTC."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from memdesk.services.expiry import Expiry
from memdesk.services.memdesk import Memdesk
from memdesk.services.prompt import PromptSpec
from memdesk.services.transcripts import Transcript, TranscriptMessage

PLUS_TWO = timezone(timedelta(hours=2))
MAY_FIRST = datetime(2026, 5, 1, 12, 0)  # naive UTC, what each aware time below stands for
ZONED = [
    pytest.param(datetime(2026, 5, 1, 12, 0, tzinfo=UTC), id="utc"),
    pytest.param(datetime(2026, 5, 1, 14, 0, tzinfo=PLUS_TWO), id="plus-two"),
]


@pytest.mark.parametrize("at", ZONED)
def test_logging_twice_at_aware_times(memdesk_app, at):
    memdesk_app.sessions.log("web:1", "user", "hi", at=at)
    memdesk_app.sessions.log("web:1", "assistant", "hello", at=at + timedelta(minutes=1))
    messages = memdesk_app.sessions.messages("web:1")
    assert [m.created_at for m in messages] == [MAY_FIRST, MAY_FIRST + timedelta(minutes=1)]
    assert memdesk_app.sessions.get("web:1").last_message_at == MAY_FIRST + timedelta(minutes=1)


@pytest.mark.parametrize("at", ZONED)
def test_recall_since_and_until(memdesk_app, clock, at):
    clock.now = MAY_FIRST - timedelta(hours=1)
    memdesk_app.entries.upsert("early", "pixel the cat")
    clock.now = MAY_FIRST + timedelta(hours=1)
    memdesk_app.entries.upsert("late", "pixel the cat again")
    assert [hit.ref for hit in memdesk_app.recall.entries("pixel", since=at)] == ["late"]
    assert [hit.ref for hit in memdesk_app.recall.entries("pixel", until=at, now=at)] == ["early"]


@pytest.mark.parametrize("at", ZONED)
def test_app_memories_created_and_expiring(memdesk_app, at):
    memory = memdesk_app.apps.add("cal", "mornings", created_at=at, expires_at=at + timedelta(days=2))
    memdesk_app.apps.add("cal", "evenings", created_at=at + timedelta(hours=1))
    memdesk_app.apps.add(
        "cal", "soon gone", created_at=at - timedelta(hours=2), expires_at=at + timedelta(hours=1)
    )
    stored = memdesk_app.apps.get(memory.memory.id)
    assert (stored.created_at, stored.expires_at) == (MAY_FIRST, MAY_FIRST + timedelta(days=2))
    changed = memdesk_app.apps.update(memory.memory.id, expires_at=at + timedelta(days=5))
    assert changed.expires_at == MAY_FIRST + timedelta(days=5)
    live = memdesk_app.apps.live_memories("cal", at, 10)
    assert [m.content for m in live] == ["evenings", "mornings", "soon gone"]


@pytest.mark.parametrize("at", ZONED)
def test_entries_created_at(memdesk_app, at):
    memdesk_app.entries.upsert("t1", "went hiking", category="timeline", created_at=at)
    memdesk_app.entries.upsert("t2", "went swimming", category="timeline", created_at=at + timedelta(hours=1))
    assert [e.created_at for e in memdesk_app.entries.list()] == [MAY_FIRST + timedelta(hours=1), MAY_FIRST]


@pytest.mark.parametrize("at", ZONED)
def test_working_memory_times_and_expiry_views(memdesk_app, at):
    state = memdesk_app.working.write("shipping", updated_at=at, expires_at=at + timedelta(days=3))
    assert (state.updated_at, state.expires_at) == (MAY_FIRST, MAY_FIRST + timedelta(days=3))
    memdesk_app.working.write("shipping v2", updated_at=at, expires_at=at + timedelta(days=4))
    (item,) = Expiry(memdesk_app).items(now=at)
    assert item.end == MAY_FIRST + timedelta(days=4)
    assert [i.end for i in Expiry(memdesk_app).upcoming(now=at)] == [MAY_FIRST + timedelta(days=4)]
    later = at + timedelta(days=5)
    assert "shipping v2" in memdesk_app.prompt.compose(PromptSpec(now=at)).text
    assert "shipping v2" not in memdesk_app.prompt.compose(PromptSpec(now=later)).text


@pytest.mark.parametrize("at", ZONED)
def test_transcripts_and_due_sessions(memdesk_app, at):
    transcript = Transcript(
        "chat", "jsonl", (TranscriptMessage("user", "one", at), TranscriptMessage("assistant", "two", at))
    )
    session_id = memdesk_app.transcripts.import_messages(transcript)
    memdesk_app.sessions.log(session_id, "user", "three", at=at + timedelta(seconds=1))
    assert [m.created_at for m in memdesk_app.sessions.messages(session_id)][-1] == MAY_FIRST + timedelta(
        seconds=1
    )
    due = memdesk_app.compaction.due_sessions(now=at + timedelta(hours=1))
    assert [d.session_id for d in due] == [session_id]


def test_an_aware_clock(tmp_path):
    clock_time = datetime(2026, 5, 1, 14, 0, tzinfo=PLUS_TWO)
    app = Memdesk.open(data_dir=str(tmp_path / "aware"), clock=lambda: clock_time)
    try:
        assert app.now() == MAY_FIRST and app.now().tzinfo is None
        app.sessions.log("web:1", "user", "hi")
        app.sessions.log("web:1", "user", "again", at=datetime(2026, 5, 1, 12, 5, tzinfo=UTC))
        app.working.write("shipping", ttl_days=1)
        assert app.working.extend(2).expires_at == MAY_FIRST + timedelta(days=3)
        app.apps.add("cal", "mornings")
        app.entries.upsert("k", "pixel the cat", category="timeline")
        assert [hit.ref for hit in app.recall.entries("pixel")] == ["k"]
        assert "shipping" in app.prompt.compose(PromptSpec(app="cal")).text
        assert app.prompt.compose(PromptSpec()).now == MAY_FIRST
        assert app.history.list()[0].at == MAY_FIRST
    finally:
        app.close()
