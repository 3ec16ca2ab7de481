"""When the model fails: messages kept, failures counted, the raw archive, clear messages,
cancellation, and the run records every run leaves."""

import socket
import threading
from datetime import timedelta

import keyring
import keyring.backend
import keyring.backends.fail
import keyring.errors
import pytest
from tests.support.llm_servers import Empty, FakeLLMServer, Malformed, Refusal, Reply, Status

from memdesk.errors import LLMError, MemdeskError, ModelUnreachableError
from memdesk.llm import prompts
from memdesk.services.compaction import CancelToken, Compaction, CompactionCancelled, CompactionDegraded

SESSION = "telegram:1"


@pytest.fixture
def server(monkeypatch):
    monkeypatch.setenv("MEMDESK_API_KEY", "test-key")
    with FakeLLMServer() as server:
        yield server


def use_server(app, server, timeout=5):
    app.update_settings(
        app.settings.with_values(
            {"llm.backend": "openai", "llm.base_url": server.openai_url, "llm.timeout_seconds": timeout}
        )
    )


def log_three(app, clock):
    app.sessions.log(SESSION, "user", "Plan the trip to Porto.")
    clock.now += timedelta(minutes=1)
    app.sessions.log(SESSION, "assistant", "Flights on Friday,\nhotel near the river.")
    clock.now += timedelta(minutes=1)
    app.sessions.log(SESSION, "user", "Book the hotel.")


def pending(app):
    return len(app.sessions.messages(SESSION, only_unconsolidated=True))


def test_three_failures_archive_the_raw_messages_once(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    server.default = Status(500)
    log_three(app, clock)
    compaction = Compaction(app)

    for attempt in (1, 2):
        with pytest.raises(LLMError, match="internal error") as caught:
            compaction.propose(SESSION)
        assert not isinstance(caught.value, CompactionDegraded)
        assert app.sessions.get(SESSION).failure_count == attempt
        assert pending(app) == 3  # never lost: still waiting to be compacted
    with pytest.raises(CompactionDegraded) as caught:
        compaction.propose(SESSION)

    entries = app.entries.list("timeline")
    assert len(entries) == 1
    assert entries[0].key == caught.value.entry_key and entries[0].session_id == SESSION
    assert entries[0].content == (
        "[2026-03-01 12:02] [RAW] 3 messages\n"
        "user: Plan the trip to Porto.\n"
        "assistant: Flights on Friday,\nhotel near the river.\n"
        "user: Book the hotel."
    )
    chat = app.sessions.get(SESSION)
    assert (chat.failure_count, pending(app)) == (0, 0)
    assert chat.last_consolidated_message_id == app.sessions.messages(SESSION)[-1].id
    assert "After 3 failed attempts in a row" in caught.value.message
    runs = compaction.runs()
    assert [run.outcome for run in runs] == ["degraded", "failed", "failed"]
    assert runs[0].history_step_id == caught.value.step_id == app.history.list(1)[0].id

    app.history.undo()  # the archive is one step like any other
    assert app.entries.list("timeline") == [] and pending(app) == 3


def test_the_counter_resets_after_a_success(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    log_three(app, clock)
    server.script(Status(503))
    with pytest.raises(LLMError):
        Compaction(app).propose(SESSION)
    assert app.sessions.get(SESSION).failure_count == 1

    Compaction(app).compact(SESSION)

    assert app.sessions.get(SESSION).failure_count == 0


def test_dry_runs_do_not_count_failures(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    server.default = Status(500)
    log_three(app, clock)
    steps = len(app.history.list(1000))
    for _ in range(4):
        with pytest.raises(LLMError):
            Compaction(app).propose(SESSION, dry_run=True)
    assert app.sessions.get(SESSION).failure_count == 0
    assert len(app.history.list(1000)) == steps and app.entries.list() == []


@pytest.mark.parametrize(
    ("behaviour", "words", "hint"),
    [
        (Status(401), "rejected the API key (HTTP 401)", "API key"),
        (
            Status(500, "model crashed"),
            "internal error (HTTP 500). The server said: model crashed",
            "server's",
        ),
        (Status(404), "no such model or endpoint", "model name"),
        (Empty(), "returned an empty reply", "Try again"),
        (Refusal("Not allowed."), "declined to process this conversation. It said: Not allowed.", "offline"),
        (Malformed(), "could not be read", "/v1"),
        (Reply("late", delay=1.6), "did not answer within 1 s", "llm.timeout_seconds"),
    ],
)
@pytest.mark.engines("sqlite")  # what the error says; failures' counting runs on both engines above
def test_each_failure_says_what_failed_and_what_to_check(memdesk_app, clock, server, behaviour, words, hint):
    app = memdesk_app
    use_server(app, server, timeout=1)
    server.script(behaviour)
    log_three(app, clock)

    with pytest.raises(LLMError) as caught:
        Compaction(app).propose(SESSION)

    assert words in caught.value.message and "OpenAI-compatible server" in caught.value.message
    assert caught.value.backend == "openai" and hint in (caught.value.hint or "")
    assert "test-key" not in str(caught.value)
    assert pending(app) == 3
    assert Compaction(app).runs(1)[0].outcome == "failed"


def test_nothing_listening_at_the_url_never_counts_toward_the_archive(memdesk_app, clock):
    app = memdesk_app
    app.update_settings(
        app.settings.with_values({"llm.backend": "openai", "llm.base_url": "http://127.0.0.1:9/v1"})
    )
    log_three(app, clock)
    for _ in range(4):  # more than the three failures that archive a conversation
        with pytest.raises(ModelUnreachableError) as caught:
            Compaction(app).propose(SESSION)
    assert caught.value.message == (
        "The OpenAI-compatible server at http://127.0.0.1:9/v1 is not reachable; nothing changed."
    )
    assert app.sessions.get(SESSION).failure_count == 0
    assert pending(app) == 3 and app.entries.list("timeline") == []


@pytest.fixture
def hangs_up():
    """A server that takes each connection and closes it unanswered: the request got there."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            connection.recv(65536)
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    listener.close()


def test_a_connection_lost_after_the_request_counts_as_a_failure(memdesk_app, clock, hangs_up):
    app = memdesk_app
    app.update_settings(app.settings.with_values({"llm.backend": "openai", "llm.base_url": hangs_up}))
    log_three(app, clock)
    with pytest.raises(LLMError, match="Could not connect") as caught:
        Compaction(app).propose(SESSION)
    assert not isinstance(caught.value, ModelUnreachableError)
    assert app.sessions.get(SESSION).failure_count == 1


class EmptyKeyring(keyring.backend.KeyringBackend):
    priority = 1

    def get_password(self, service, username):
        return None

    def set_password(self, service, username, password):
        raise AssertionError("nothing is stored here")

    def delete_password(self, service, username):
        raise keyring.errors.PasswordDeleteError(username)


@pytest.mark.engines("sqlite")  # keys and keyrings, not storage
def test_anthropic_without_a_key_says_so(memdesk_app, clock, use_keyring):
    use_keyring(EmptyKeyring())
    log_three(memdesk_app, clock)
    with pytest.raises(LLMError, match="No API key is set for the anthropic backend"):
        Compaction(memdesk_app).propose(SESSION, backend="anthropic", dry_run=True)


@pytest.mark.engines("sqlite")  # keys and keyrings, not storage
def test_without_a_keyring_openai_goes_keyless_and_anthropic_says_why(
    memdesk_app, clock, server, use_keyring, monkeypatch
):
    app = memdesk_app
    use_keyring(keyring.backends.fail.Keyring())  # what a machine without a keyring has
    monkeypatch.delenv("MEMDESK_API_KEY")
    use_server(app, server)
    server.default = Reply("NO FACTS")
    log_three(app, clock)

    Compaction(app).propose(SESSION, dry_run=True)  # local servers need no key
    with pytest.raises(MemdeskError, match="No usable system keyring"):
        Compaction(app).propose(SESSION, backend="anthropic", dry_run=True)

    assert server.requests[0].api_key == "unused"


# --- cancellation ------------------------------------------------------------------------------


def test_cancel_stops_before_the_next_call_and_writes_nothing(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    log_three(app, clock)
    token = CancelToken()

    def respond(request):
        token.cancel()  # pressed while the first call is under way
        return Reply("## Notes\n- Porto trip")

    server.responder = respond
    steps = len(app.history.list(1000))

    with pytest.raises(CompactionCancelled, match="nothing was written"):
        Compaction(app).propose(SESSION, cancel=token)

    assert len(server.requests) == 1
    assert len(app.history.list(1000)) == steps
    assert (app.sessions.get(SESSION).failure_count, pending(app)) == (0, 3)
    run = Compaction(app).runs(1)[0]
    assert (run.outcome, run.calls, run.tokens_in) == ("cancelled", 1, 11)


def test_a_cancel_during_the_last_call_still_writes_nothing(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    log_three(app, clock)
    token = CancelToken()

    def respond(request):
        if request.system_text == prompts.FACTS_SYSTEM:  # the last step without an app
            token.cancel()
            return Reply("NO FACTS")
        return Reply("## Notes\n- Porto trip")

    server.responder = respond
    with pytest.raises(CompactionCancelled):
        Compaction(app).propose(SESSION, cancel=token)
    assert len(server.requests) == 2 and pending(app) == 3


def test_offline_runs_stop_between_steps(memdesk_app, clock):
    log_three(memdesk_app, clock)
    token = CancelToken()
    token.cancel()
    with pytest.raises(CompactionCancelled):
        Compaction(memdesk_app).propose(SESSION, cancel=token)


# --- run records ---------------------------------------------------------------------------------


def test_run_records_hold_backend_model_tokens_and_outcome(memdesk_app, clock, server):
    app = memdesk_app
    compaction = Compaction(app)
    log_three(app, clock)
    offline = compaction.propose(SESSION, dry_run=True)
    use_server(app, server)
    server.responder = lambda request: Reply(
        "NO FACTS" if request.system_text == prompts.FACTS_SYSTEM else "Notes"
    )
    proposal = compaction.propose(SESSION)
    step_id = compaction.apply(proposal)

    newest, oldest = compaction.runs(2)
    assert (oldest.id, oldest.backend, oldest.model, oldest.calls) == (offline.run_id, "offline", "", 0)
    assert oldest.tokens_estimated and oldest.tokens_in > 0
    assert oldest.outcome == "proposed" and "dry run" in oldest.message
    assert (newest.backend, newest.model, newest.calls, newest.tokens_in, newest.tokens_out) == (
        "openai",
        "llama3.2",
        2,
        22,
        14,
    )
    assert not newest.tokens_estimated and newest.duration_ms >= 0
    assert (newest.outcome, newest.history_step_id, newest.session_id) == ("applied", step_id, SESSION)
    assert newest.message == "3 of 3 changes applied"


def test_estimated_counts_are_flagged(memdesk_app, clock, server):
    app = memdesk_app
    use_server(app, server)
    server.default = Reply("Notes", usage=False)
    log_three(app, clock)
    proposal = Compaction(app).propose(SESSION, dry_run=True)
    assert proposal.usage.estimated and proposal.usage.calls == 2
    assert Compaction(app).runs(1)[0].tokens_estimated
