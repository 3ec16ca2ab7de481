"""The three triggers for ``compact --due``: tokens over half the window, user turns, idle time."""

from datetime import timedelta

from memdesk.services.compaction import Compaction


def due(app):
    return {item.session_id: item.reasons for item in Compaction(app).due_sessions()}


def test_a_fresh_short_session_is_not_due(memdesk_app):
    memdesk_app.sessions.log("web:a", "user", "Hi there.")
    memdesk_app.sessions.log("web:a", "assistant", "Hello!")
    assert due(memdesk_app) == {}


def test_user_turns_since_the_last_compaction(memdesk_app):
    app = memdesk_app
    for text in ("one", "two"):
        app.sessions.log("web:a", "user", text)
        app.sessions.log("web:a", "assistant", "ok")
    assert due(app) == {}
    app.sessions.log("web:a", "user", "three")
    assert due(app) == {"web:a": ("3 user turns since the last compaction",)}


def test_tokens_over_half_the_context_window(memdesk_app):
    app = memdesk_app
    app.update_settings(app.settings.with_values({"compaction.context_window_tokens": 1000}))
    app.sessions.log("web:a", "assistant", "x" * 2000)  # 500 tokens: exactly half
    assert due(app) == {}
    app.sessions.log("web:a", "assistant", "y" * 8)
    assert due(app) == {"web:a": ("about 502 tokens, over half the context window",)}


def test_idle_with_new_messages(memdesk_app, clock):
    app = memdesk_app
    app.sessions.log("web:a", "user", "Hello.")
    clock.now += timedelta(minutes=9)
    assert due(app) == {}
    clock.now += timedelta(minutes=1)
    assert due(app) == {"web:a": ("idle for 10 minutes",)}
    assert Compaction(app).due_sessions(clock.now - timedelta(minutes=5)) == []  # "now" can be given


def test_compacted_and_deleted_sessions_are_not_due(memdesk_app, clock):
    app = memdesk_app
    for session in ("web:a", "web:b"):
        for text in ("one", "two", "three"):
            app.sessions.log(session, "user", f"{text} for {session}")
    Compaction(app).compact("web:a")
    app.sessions.delete("web:b")
    clock.now += timedelta(hours=1)
    assert due(app) == {}


def test_reasons_add_up_and_the_oldest_comes_first(memdesk_app, clock):
    app = memdesk_app
    for text in ("one", "two", "three"):
        app.sessions.log("web:old", "user", text)
    clock.now += timedelta(minutes=30)
    app.sessions.log("web:new", "user", "hi")
    assert list(due(app).items()) == [
        ("web:old", ("3 user turns since the last compaction", "idle for 30 minutes")),
    ]
