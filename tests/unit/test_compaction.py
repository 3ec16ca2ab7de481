"""The compaction pipeline: what a proposal holds, that proposing writes nothing, and that an
applied proposal is one history step that one undo reverts.

Model replies come from a real HTTP server on 127.0.0.1 speaking the OpenAI protocol, routed
by the system prompt each step sends; the cap tests run the offline backend.
"""

import json
import re
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select
from tests.support.llm_servers import FakeLLMServer, Reply

from memdesk.errors import BadInputError, ConflictError
from memdesk.llm import prompts
from memdesk.services.compaction import ChangeKind, Compaction
from memdesk.services.compaction.render import format_proposal
from memdesk.store.models import AppMemory, ChatSession, Entry

SESSION = "telegram:1"
SUMMARY = "## Work\n- Moving the backup to ~/bin/backup.sh\n## Open\n- Retry after 30 minutes?"
# The live working memory the summary replaces keeps what the summary does not say.
MERGED = SUMMARY + "\n\n## Earlier, not covered above\n- Old working notes"
APP_SYSTEM = prompts.app_memory_system(200)


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("MEMDESK_API_KEY", "test-key")
    with FakeLLMServer() as server:
        yield server


def use_server(app, server, **values):
    settings = {
        "llm.backend": "openai",
        "llm.base_url": server.openai_url,
        "llm.model": "test-model",
        "llm.timeout_seconds": 5,
        **values,
    }
    app.update_settings(app.settings.with_values(settings))


def answer(
    server, summary=SUMMARY, facts="I use Fedora.\nI prefer short answers.", memory=None, decision=None
):
    """Reply to each step by its system prompt."""
    memory = memory or "The user moved the backup script to ~/bin/backup.sh and retries after 30 minutes."

    def respond(request):
        system = request.system_text
        if system == prompts.SUMMARY_SYSTEM:
            return Reply(summary)
        if system == prompts.PARTS_SYSTEM:
            numbers = re.findall(r"<conversation part=(\d+)>", request.user_text)
            return Reply("\n".join(f"=== Part {n} ===\n- Notes on part {n}" for n in numbers))
        if system == prompts.FACTS_SYSTEM:
            return Reply(facts)
        if system == APP_SYSTEM:
            return Reply(memory)
        if system == prompts.DECISION_SYSTEM:
            return Reply(json.dumps(decision))
        if system == prompts.CHANGES_SYSTEM:
            return Reply('[{"action": "none"}]')
        raise AssertionError(f"unexpected prompt {system[:60]!r}")

    server.responder = respond


def log_conversation(app, clock, app_id=None, session=SESSION):
    app.sessions.log(
        session, "user", "I use Fedora. Can we move the backup script? Retry after 30 minutes.", app_id=app_id
    )
    clock.now += timedelta(minutes=5)
    app.sessions.log(session, "assistant", "Moved it to ~/bin/backup.sh.")


def fill_app(app, clock, app_id="calendar", count=10):
    ids = []
    for number in range(count):
        clock.now += timedelta(minutes=1)
        ids.append(app.apps.add(app_id, f"Old memory {number} about topic {number}.").memory.id)
    return ids


def kinds(proposal):
    return [change.kind for change in proposal.changes]


def store_state(app):
    """Everything compaction may write, as plain values (run records aside)."""
    with app.store.read() as session:
        # In key order: without ORDER BY, PostgreSQL returns updated rows wherever they now lie.
        memories = [
            (m.id, m.content, m.deleted_at) for m in session.scalars(select(AppMemory).order_by(AppMemory.id))
        ]
        entries = [
            (e.key, e.content, e.deleted_at) for e in session.scalars(select(Entry).order_by(Entry.key))
        ]
        chats = [
            (c.id, c.last_consolidated_message_id, c.last_consolidated_at, c.failure_count)
            for c in session.scalars(select(ChatSession).order_by(ChatSession.id))
        ]
    docs = [(d.namespace, d.content, d.expires_at) for d in app.documents.list()]
    working = app.working.state()
    return memories, entries, chats, docs, working, [step.id for step in app.history.list(1000)]


def test_proposal_holds_one_change_per_step(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server)
    app.working.write("Old working notes")
    app.documents.set("user/facts", "- I use Fedora")
    log_conversation(app, clock, app_id="calendar")

    proposal = Compaction(app).propose(SESSION)

    assert kinds(proposal) == [
        ChangeKind.REPLACE_WORKING,
        ChangeKind.ADD_TIMELINE,
        ChangeKind.APPEND_FACTS,
        ChangeKind.ADD_APP_MEMORY,
        ChangeKind.ADVANCE_POINTER,
    ]
    working, timeline, facts, memory, pointer = proposal.changes
    assert (working.target, working.before, working.after) == ("user/working", "Old working notes", MERGED)
    assert re.fullmatch(r"ctx_telegram:1_[0-9a-f]{8}", timeline.target)
    assert timeline.after == f"[2026-03-01 12:05] {SUMMARY}"  # the last message's time, UTC
    assert facts.after == "I prefer short answers."  # "I use Fedora." is there already
    assert facts.result() == "- I use Fedora\n- I prefer short answers."
    assert memory.target == "calendar" and memory.after.startswith("The user moved the backup")
    assert pointer.before == "Nothing compacted yet." and "12:05" in pointer.after
    assert (proposal.message_count, proposal.base_message_id) == (2, 0)
    # the summary, the facts, the changes (a fact is stored to compare), the app memory
    assert (proposal.usage.calls, proposal.usage.tokens_in, proposal.usage.tokens_out) == (4, 44, 28)
    assert not proposal.usage.estimated and proposal.model == "test-model"
    sent = server.requests[0]
    assert sent.api_key == "test-key" and "user: I use Fedora." in sent.user_text
    assert "[3] Add 1 fact to user/facts" in format_proposal(proposal)


def test_proposing_writes_nothing(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server)
    fill_app(app, clock)
    app.working.write("Old working notes")
    log_conversation(app, clock, app_id="calendar")
    before = store_state(app)

    proposal = Compaction(app).propose(SESSION)

    assert ChangeKind.DELETE_APP_MEMORY in kinds(proposal) or ChangeKind.EDIT_APP_MEMORY in kinds(proposal)
    assert store_state(app) == before
    assert len(app.sessions.messages(SESSION, only_unconsolidated=True)) == 2


def test_apply_is_one_step_and_one_undo_reverts_all_of_it(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    ids = fill_app(app, clock)
    answer(server, decision={"action": "delete", "targetMemoryId": ids[3], "reason": "Outdated."})
    app.working.write("Old working notes")
    app.documents.set("user/facts", "- I use Fedora")
    log_conversation(app, clock, app_id="calendar")
    before = store_state(app)
    steps_before = len(app.history.list(1000))
    compaction = Compaction(app)

    proposal = compaction.propose(SESSION)
    step_id = compaction.apply(proposal)

    assert len(app.history.list(1000)) == steps_before + 1
    assert app.history.list(1)[0].id == step_id
    assert app.working.state().content == MERGED
    assert app.documents.text("user/facts") == "- I use Fedora\n- I prefer short answers."
    timeline = app.entries.list("timeline")
    assert len(timeline) == 1 and timeline[0].content.startswith("[2026-03-01 12:15] ## Work")
    live = app.apps.memories("calendar")
    assert len(live) == 10 and ids[3] not in {m.id for m in live}
    assert f"memory:{ids[3]}" in {item.id for item in app.trash.list()}  # to Trash, not deleted
    chat = app.sessions.get(SESSION)
    assert chat.last_consolidated_message_id == app.sessions.messages(SESSION)[-1].id
    assert chat.last_consolidated_at == app.sessions.messages(SESSION)[-1].created_at

    undone = app.history.undo()

    assert undone.id == step_id
    assert store_state(app)[:5] == before[:5]  # working, facts, timeline, memories, pointer
    assert len(app.apps.memories("calendar")) == 10 and ids[3] in {
        m.id for m in app.apps.memories("calendar")
    }
    run = compaction.runs(1)[0]
    assert (run.outcome, run.history_step_id) == ("applied", step_id)


def test_rejected_changes_are_not_written_and_edits_are(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server)
    log_conversation(app, clock, app_id="calendar")
    proposal = Compaction(app).propose(SESSION)
    working, timeline, facts, memory, _pointer = proposal.changes
    timeline.accepted = False
    memory.accepted = False
    working.after = "My own words"
    facts.after = "I prefer short answers.\nI like tea."

    Compaction(app).apply(proposal)

    assert app.working.state().content == "My own words"
    assert app.entries.list("timeline") == []
    assert app.apps.memories("calendar") == []
    assert app.documents.text("user/facts") == "- I prefer short answers.\n- I like tea."
    assert app.sessions.list()[0].unconsolidated == 0


def test_pointer_moves_to_the_last_message_compacted_only(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server)
    log_conversation(app, clock)
    proposal = Compaction(app).propose(SESSION)
    clock.now += timedelta(minutes=1)
    late = app.sessions.log(SESSION, "user", "One more thing.")

    Compaction(app).apply(proposal)

    pending = app.sessions.messages(SESSION, only_unconsolidated=True)
    assert [m.id for m in pending] == [late.id]
    assert app.sessions.get(SESSION).last_consolidated_at == proposal.last_message_at


def test_a_rejected_pointer_leaves_the_messages_new(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server)
    log_conversation(app, clock)
    proposal = Compaction(app).propose(SESSION)
    proposal.changes[-1].accepted = False

    Compaction(app).apply(proposal)

    assert app.working.state().content == SUMMARY
    assert len(app.sessions.messages(SESSION, only_unconsolidated=True)) == 2


def test_apply_refuses_when_the_session_was_compacted_since(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server)
    log_conversation(app, clock)
    compaction = Compaction(app)
    first, second = compaction.propose(SESSION), compaction.propose(SESSION)
    compaction.apply(first)
    state = store_state(app)

    with pytest.raises(ConflictError, match="compacted again"):
        compaction.apply(second)
    assert store_state(app) == state


def test_nothing_accepted_is_refused(memdesk_app, clock):
    log_conversation(memdesk_app, clock)
    proposal = Compaction(memdesk_app).propose(SESSION)
    for change in proposal.changes:
        change.accepted = False
    with pytest.raises(BadInputError, match="nothing to apply"):
        Compaction(memdesk_app).apply(proposal)


def test_an_edited_text_that_cannot_be_stored_stops_everything(memdesk_app, clock):
    app = memdesk_app
    log_conversation(app, clock, app_id="calendar")
    proposal = Compaction(app).propose(SESSION)
    memory = next(c for c in proposal.changes if c.kind is ChangeKind.ADD_APP_MEMORY)
    memory.after = "x" * 500  # over app_memory_max_chars
    state = store_state(app)
    with pytest.raises(BadInputError, match="Add a memory to app calendar"):
        Compaction(app).apply(proposal)
    assert store_state(app) == state


# --- app memories, the cap and the compaction decision --------------------------------------


def test_decision_delete_is_applied(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    ids = fill_app(app, clock)
    answer(server, decision={"action": "delete", "targetMemoryId": ids[5], "reason": "Repeats memory 6."})
    log_conversation(app, clock, app_id="calendar")

    proposal = Compaction(app).propose(SESSION)
    removal = next(c for c in proposal.changes if c.kind is ChangeKind.DELETE_APP_MEMORY)
    assert (removal.memory_id, removal.before, removal.reason) == (
        ids[5],
        "Old memory 5 about topic 5.",
        "Repeats memory 6.",
    )
    Compaction(app).apply(proposal)

    live = {m.id: m.content for m in app.apps.memories("calendar")}
    assert len(live) == 10 and ids[5] not in live and ids[0] in live


def test_decision_edit_merges_the_new_memory(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    ids = fill_app(app, clock)
    decision = {
        "action": "edit",
        "targetMemoryId": ids[2],
        "newContent": "Merged text.",
        "reason": "Same topic.",
    }
    answer(server, decision=decision)
    log_conversation(app, clock, app_id="calendar")

    proposal = Compaction(app).propose(SESSION)
    assert ChangeKind.ADD_APP_MEMORY not in kinds(proposal)  # absorbed by the edit
    edit = next(c for c in proposal.changes if c.kind is ChangeKind.EDIT_APP_MEMORY)
    assert (edit.memory_id, edit.before, edit.after) == (
        ids[2],
        "Old memory 2 about topic 2.",
        "Merged text.",
    )
    assert "The user moved the backup" in edit.reason  # the reviewer sees what gets merged
    Compaction(app).apply(proposal)

    live = {m.id: m.content for m in app.apps.memories("calendar")}
    assert len(live) == 10 and live[ids[2]] == "Merged text."


def test_an_unknown_id_falls_back_to_fifo(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    ids = fill_app(app, clock)
    answer(server, decision={"action": "delete", "targetMemoryId": 9999, "reason": "?"})
    log_conversation(app, clock, app_id="calendar")

    proposal = Compaction(app).propose(SESSION)
    removal = next(c for c in proposal.changes if c.kind is ChangeKind.DELETE_APP_MEMORY)
    assert removal.memory_id == ids[0]  # the oldest, never the new one
    assert removal.reason == (
        f"Removed the oldest memory ({ids[0]}) because the reply named memory 9999, which does not exist."
    )
    Compaction(app).apply(proposal)
    assert ids[0] not in {m.id for m in app.apps.memories("calendar")}


def test_rejecting_the_removal_still_keeps_the_cap(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    ids = fill_app(app, clock)
    answer(server, decision={"action": "delete", "targetMemoryId": ids[5], "reason": "Outdated."})
    log_conversation(app, clock, app_id="calendar")
    proposal = Compaction(app).propose(SESSION)
    next(c for c in proposal.changes if c.kind is ChangeKind.DELETE_APP_MEMORY).accepted = False

    Compaction(app).apply(proposal)

    live = {m.id for m in app.apps.memories("calendar")}
    assert len(live) == 10 and ids[5] in live and ids[0] not in live  # FIFO instead
    assert "went to Trash to keep the app's cap" in Compaction(app).runs(1)[0].message


@pytest.mark.parametrize("additions", [11, 12, 50])
def test_the_cap_holds_after_additions_through_compaction(memdesk_app, clock, additions):
    app = memdesk_app
    compaction = Compaction(app)
    for number in range(additions):
        clock.now += timedelta(minutes=1)
        session = f"web:{number}"
        app.sessions.log(session, "user", f"I prefer layout {number} for report {number * 7}.", app_id="cal")
        app.sessions.log(session, "assistant", f"Decided: layout {number} with {number * 3} columns.")
        compaction.compact(session)
        assert len(app.apps.memories("cal", include_expired=False)) == min(number + 1, 10)
    assert len(app.apps.memories("cal")) == 10


def test_a_lowered_cap_is_restored_in_the_proposal(memdesk_app, clock):
    app = memdesk_app
    ids = fill_app(app, clock, app_id="calendar", count=6)
    app.update_settings(app.settings.with_values({"memory.app_memory_cap": 4}))
    log_conversation(app, clock, app_id="calendar")

    proposal = Compaction(app).propose(SESSION)
    removed = [c.memory_id for c in proposal.changes if c.kind is ChangeKind.DELETE_APP_MEMORY]
    Compaction(app).apply(proposal)

    assert len(removed) == 3 and ids[0] in removed
    assert len(app.apps.memories("calendar")) == 4


def test_a_too_short_app_memory_is_dropped(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server, memory="Nothing.")
    log_conversation(app, clock, app_id="calendar")

    proposal = Compaction(app).propose(SESSION)

    assert ChangeKind.ADD_APP_MEMORY not in kinds(proposal)
    assert any("too short" in note for note in proposal.notes)


# --- facts ------------------------------------------------------------------------------------


def test_facts_already_present_are_not_added_twice(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    app.documents.set("user/facts", "# Facts\n- I use Fedora.\n* i prefer SHORT answers")
    answer(server, facts="I use fedora\n- I prefer short answers.\nI like tea.\nI like tea")
    log_conversation(app, clock)

    proposal = Compaction(app).propose(SESSION)
    facts = next(c for c in proposal.changes if c.kind is ChangeKind.APPEND_FACTS)
    assert facts.after == "I like tea."
    app.documents.append("user/facts", "- I like tea")  # written meanwhile: checked again at apply
    Compaction(app).apply(proposal)

    assert app.documents.text("user/facts").count("tea") == 1


def test_no_facts_writes_nothing(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    answer(server, facts="NO FACTS")
    log_conversation(app, clock)

    proposal = Compaction(app).propose(SESSION)
    Compaction(app).apply(proposal)

    assert ChangeKind.APPEND_FACTS not in kinds(proposal)
    assert proposal.notes == ["Facts: the conversation holds no lasting facts."]
    assert app.documents.get("user/facts") is None


def test_per_session_mode_writes_to_the_session_namespace(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server, **{"memory.user_namespace": ""})
    answer(server)
    log_conversation(app, clock)

    proposal = Compaction(app).propose(SESSION)
    Compaction(app).apply(proposal)

    assert proposal.changes[0].target == "sessions/telegram:1/working"
    assert app.working.state(SESSION).content == SUMMARY
    assert app.documents.text(f"sessions/{SESSION}") == "- I use Fedora.\n- I prefer short answers."
    assert app.documents.get("user/facts") is None


def test_only_the_enabled_steps_run(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server, **{"compaction.steps": ["facts"]})
    answer(server)
    log_conversation(app, clock, app_id="calendar")

    proposal = Compaction(app).propose(SESSION)

    assert kinds(proposal) == [ChangeKind.APPEND_FACTS, ChangeKind.ADVANCE_POINTER]
    assert [r.system_text for r in server.requests] == [prompts.FACTS_SYSTEM]


def test_timeline_alone_still_summarises_once(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server, **{"compaction.steps": ["working", "timeline"]})
    answer(server)
    log_conversation(app, clock)

    proposal = Compaction(app).propose(SESSION)

    assert kinds(proposal) == [
        ChangeKind.REPLACE_WORKING,
        ChangeKind.ADD_TIMELINE,
        ChangeKind.ADVANCE_POINTER,
    ]
    assert len(server.requests) == 1


def test_the_model_reads_absolute_dates_and_is_asked_to_keep_them(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server, **{"compaction.steps": ["working", "timeline", "facts"]})
    answer(server)
    clock.now = datetime(2023, 5, 8, 13, 0)
    app.sessions.log(SESSION, "user", "I adopted a cat named Miso last Saturday.")

    Compaction(app).propose(SESSION)

    assert len(server.requests) == 2
    for request in server.requests:
        assert "I adopted a cat named Miso last Saturday (6 May 2023)." in request.user_text
        assert prompts.DATES_RULE in request.system_text


def two_sittings(app, clock):
    log_conversation(app, clock)
    clock.now += timedelta(hours=3)
    app.sessions.log(SESSION, "user", "Back again: the retry worked.")


def test_a_session_in_two_sittings_makes_two_timeline_entries(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server, **{"compaction.steps": ["working", "timeline"]})
    answer(server)
    two_sittings(app, clock)

    proposal = Compaction(app).propose(SESSION)

    timeline = [c.after for c in proposal.changes if c.kind is ChangeKind.ADD_TIMELINE]
    assert timeline == [
        "[2026-03-01 12:05] - Notes on part 1",
        "[2026-03-01 15:05] - Notes on part 2",
    ]
    # Both parts in one call, and one summary of the whole for working memory.
    assert [r.system_text for r in server.requests] == [prompts.PARTS_SYSTEM, prompts.SUMMARY_SYSTEM]
    parts = server.requests[0].user_text.split("<conversation part=2>")
    assert "Back again" not in parts[0] and "Back again" in parts[1]
    assert proposal.changes[0].after == SUMMARY


def test_a_model_that_mixes_up_the_parts_is_asked_part_by_part(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server, **{"compaction.steps": ["working", "timeline"]})
    answer(server)
    respond = server.responder
    one_part = Reply("=== Part 1 ===\n- only one")
    server.responder = lambda r: one_part if r.system_text == prompts.PARTS_SYSTEM else respond(r)
    two_sittings(app, clock)

    proposal = Compaction(app).propose(SESSION)

    timeline = [c.after for c in proposal.changes if c.kind is ChangeKind.ADD_TIMELINE]
    assert timeline == [f"[2026-03-01 12:05] {SUMMARY}", f"[2026-03-01 15:05] {SUMMARY}"]
    assert [r.system_text for r in server.requests] == [prompts.PARTS_SYSTEM] + [prompts.SUMMARY_SYSTEM] * 3


def test_parts_share_a_call_only_while_their_notes_fit_one_reply(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server, **{"compaction.steps": ["working", "timeline"], "llm.max_tokens": 64})
    answer(server)
    for sitting in range(2):
        clock.now += timedelta(hours=2)
        app.sessions.log(SESSION, "user", f"Sitting {sitting}: " + "what happened at work today. " * 36)

    proposal = Compaction(app).propose(SESSION)

    # about 250 tokens each: a fifth of both is more than a 64-token reply holds
    assert [r.system_text for r in server.requests] == [prompts.SUMMARY_SYSTEM] * 3
    assert len([c for c in proposal.changes if c.kind is ChangeKind.ADD_TIMELINE]) == 2


def test_a_session_too_long_for_one_call_is_summarised_from_its_parts_notes(memdesk_app, clock, server):
    app = memdesk_app
    small_window = {"compaction.steps": ["working", "timeline"], "compaction.context_window_tokens": 4000}
    use_server(app, server, **small_window)
    answer(server)
    merged = "## Work\n- Everything, merged"
    respond = server.responder
    server.responder = lambda r: Reply(merged) if r.system_text == prompts.MERGE_SYSTEM else respond(r)
    for sitting in range(6):
        clock.now += timedelta(hours=2)
        app.sessions.log(SESSION, "user", f"Sitting {sitting}: " + "a long account of the day. " * 90)

    proposal = Compaction(app).propose(SESSION)

    timeline = [c.after for c in proposal.changes if c.kind is ChangeKind.ADD_TIMELINE]
    assert [entry.split("] ", 1)[1] for entry in timeline] == [f"- Notes on part {n}" for n in range(1, 7)]
    assert proposal.changes[0].after == merged
    systems = [r.system_text for r in server.requests]
    # the transcript is read once, several parts per call; the whole is merged from their notes
    assert prompts.SUMMARY_SYSTEM not in systems
    assert systems[-1] == prompts.MERGE_SYSTEM
    assert 1 < systems.count(prompts.PARTS_SYSTEM) < 6


def test_progress_reports_each_step(memdesk_app, clock):
    log_conversation(memdesk_app, clock, app_id="calendar")
    seen = []
    Compaction(memdesk_app).propose(SESSION, progress=lambda *step: seen.append(step))
    assert seen == [
        ("Summarising the conversation", 1, 3),
        ("Extracting lasting facts", 2, 3),
        ("Writing the app memory", 3, 3),
    ]


def test_offline_backend_can_be_chosen_for_one_run(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    log_conversation(app, clock)

    proposal = Compaction(app).propose(SESSION, backend="offline")

    assert (proposal.backend, proposal.model, proposal.usage.calls) == ("offline", "", 0)
    assert proposal.usage.estimated and server.requests == []
    assert "made offline" in proposal.changes[0].after
    with pytest.raises(BadInputError, match="unknown backend"):
        Compaction(app).propose(SESSION, backend="nope")
