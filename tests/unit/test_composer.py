"""The composed prompt, byte for byte, and why each left-out section was left out."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

import pytest

from memdesk.errors import BadInputError
from memdesk.services.prompt import PromptSpec

EXPECTED = """You are Pip, a helpful assistant.

--- Who you're talking to ---
Name: Ada Lovelace
Timezone: Europe/London

--- Recent context ---
- Migrating the billing service to Postgres 16
- Open question: keep the old cron jobs?

[If relevant, briefly acknowledge what the user was last working on before responding to their first message.]

(memories for app: Calendar)
The following are memories from previous conversations with this app:

1. [2026-02-27] Prefers meetings after 2pm on weekdays.
2. [2026-02-20] Weekly 1:1 with Grace on Thursdays.

Use these memories to provide context-aware responses.

## Memory Context

- user/facts: Ada's postgres clusters run on Debian 12
- db_choice: Postgres is the database for billing"""


def build_fixture(app, clock) -> None:
    start = clock.now
    app.ctx.settings = dataclasses.replace(
        app.settings,
        memory=dataclasses.replace(app.settings.memory, proactive_session_greeting=True),
    )
    app.documents.set("user/profile", "Name: Ada Lovelace\nTimezone: Europe/London\n")
    app.documents.set("user/facts", "- Ada's postgres clusters run on Debian 12\n- Ada owns a cat")
    app.working.write(
        "- Migrating the billing service to Postgres 16\n- Open question: keep the old cron jobs?"
    )
    app.apps.add("calendar", "Weekly 1:1 with Grace on Thursdays.", created_at=start - timedelta(days=9))
    app.apps.add("calendar", "Prefers meetings after 2pm on weekdays.", created_at=start - timedelta(days=2))
    app.apps.add("email", "Signs emails with 'A.L.'")
    app.apps.set_name("calendar", "Calendar")
    app.entries.upsert("db_choice", "Postgres is the database for billing")
    app.entries.upsert("ctx_tl", "[2026-02-28 10:00] postgres upgrade talk", category="timeline")


@pytest.fixture
def store(memdesk_app, clock):
    build_fixture(memdesk_app, clock)
    return memdesk_app


SPEC = PromptSpec(
    base="  You are Pip, a helpful assistant.\n\n",
    app="calendar",
    message="Which postgres version are we on?",
)


def test_prompt_text_is_byte_exact(store):
    assert store.prompt.compose(SPEC).text == EXPECTED


def test_every_section_reports_source_tokens_and_reason(store):
    composed = store.prompt.compose(SPEC)
    by_name = {section.name: section for section in composed.sections}
    assert [s.name for s in composed.sections] == [
        "base",
        "profile",
        "working",
        "greeting",
        "files",
        "app",
        "recall",
    ]
    assert by_name["files"].included is False and by_name["files"].reason == "disabled"
    assert by_name["app"].source.startswith("app:calendar")
    assert by_name["recall"].source == "user/facts, db_choice"
    assert composed.tokens == -(-len(EXPECTED) // 4)
    assert all(s.tokens == -(-len(s.text) // 4) for s in composed.sections if s.included)


def test_timeline_entries_are_never_injected(store):
    text = store.prompt.compose(SPEC).text
    assert "postgres upgrade talk" not in text


def test_app_memories_are_isolated(store):
    text = store.prompt.compose(dataclasses.replace(SPEC, app="email")).text
    assert "Signs emails" in text
    assert "Grace" not in text and "(memories for app: Calendar)" not in text


def test_left_out_reasons(store, clock):
    later = clock.now + timedelta(days=30)
    composed = store.prompt.compose(PromptSpec(now=later, app="nope"))
    reasons = {s.name: s.reason for s in composed.sections if not s.included}
    expires = store.working.state().expires_at
    assert reasons["base"] == "empty"
    assert reasons["working"] == f"expired at {expires:%Y-%m-%dT%H:%M:%S}Z"
    assert reasons["app"] == "empty"
    assert reasons["recall"] == "no message"
    # no word of it is stored, and nothing stored is 0.3 alike it
    recall = store.prompt.compose(PromptSpec(message="florin dirigible"))
    assert {s.name: s.reason for s in recall.sections}["recall"] == "no matches"


def test_future_date_drops_expired_working_memory_but_keeps_profile(store, clock):
    text = store.prompt.compose(PromptSpec(now=clock.now + timedelta(days=15))).text
    assert "--- Recent context ---" not in text
    assert text.startswith("--- Who you're talking to ---")
    # the greeting stays because the profile is still there
    assert text.endswith("before responding to their first message.]")


def test_greeting_needs_profile_or_working(memdesk_app):
    memdesk_app.ctx.settings = dataclasses.replace(
        memdesk_app.settings,
        memory=dataclasses.replace(memdesk_app.settings.memory, proactive_session_greeting=True),
    )
    composed = memdesk_app.prompt.compose(PromptSpec())
    assert composed.text == ""
    assert {s.name: s.reason for s in composed.sections}["greeting"] == "empty"


def test_per_session_mode_uses_session_working_memory(memdesk_app):
    memdesk_app.ctx.settings = dataclasses.replace(
        memdesk_app.settings,
        memory=dataclasses.replace(memdesk_app.settings.memory, user_namespace=""),
    )
    memdesk_app.working.write("session notes here", session_id="telegram:42")
    composed = memdesk_app.prompt.compose(PromptSpec(session="telegram:42"))
    assert composed.text == "--- Recent context ---\nsession notes here"
    assert {s.name: s.reason for s in composed.sections}["profile"] == "disabled"
    other = memdesk_app.prompt.compose(PromptSpec(session="telegram:43"))
    assert other.text == ""


def test_app_block_respects_cap_and_order(memdesk_app, clock):
    for index in range(12):
        clock.now = datetime(2026, 3, 1, 12, 0) + timedelta(minutes=index)
        memdesk_app.apps.add("notes", f"note {index}")
    text = memdesk_app.prompt.compose(PromptSpec(app="notes")).text
    lines = [line for line in text.splitlines() if line[:1].isdigit()]
    assert len(lines) == 10
    assert lines[0] == "1. [2026-03-01] note 11"
    assert lines[-1] == "10. [2026-03-01] note 2"


def test_the_composer_reads_the_base_file_and_reports_what_it_depends_on(memdesk_app, tmp_path):
    base = tmp_path / "base.md"
    base.write_text("  You are Dana's assistant.\n\n", encoding="utf-8")
    composed = memdesk_app.prompt.compose(PromptSpec(base_file=base))
    section = composed.sections[0]
    assert (section.name, section.source, section.text) == ("base", str(base), "You are Dana's assistant.")
    assert composed.depends_on == (base,)  # files scopes are off: nothing else on disk matters
    files_on = memdesk_app.settings.with_values({"files.enabled": True})
    memdesk_app.update_settings(files_on)
    composed = memdesk_app.prompt.compose(PromptSpec(base_file=base))
    global_dir = memdesk_app.files_global_dir.absolute()
    assert composed.depends_on == (base, global_dir, global_dir / "MEMORY.md", global_dir / "config.json")


@pytest.mark.parametrize(
    ("content", "message"), [(None, "No such file"), (b"\xff\xfe bad", r"not valid UTF-8 \(byte 0\)")]
)
@pytest.mark.engines("sqlite")  # reading the base file, not storage
def test_a_base_file_that_cannot_be_read_is_a_clear_error(memdesk_app, tmp_path, content, message):
    base = tmp_path / "base.md"
    if content is not None:
        base.write_bytes(content)
    with pytest.raises(BadInputError, match=message):
        memdesk_app.prompt.compose(PromptSpec(base_file=base))
