"""API tokens: shown once, stored hashed, revoked for good, and the v1 -> v2 schema step."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from datetime import timedelta

import pytest

from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.store.engine import Store
from memdesk.store.migrations import SCHEMA_VERSION


@pytest.mark.engines("sqlite")  # the SQLite file itself
def test_create_returns_a_token_that_verifies_and_only_its_hash_is_stored(memdesk_app):
    token = memdesk_app.tokens.create("claude")
    assert len(token) >= 43
    assert memdesk_app.tokens.verify(token) == "claude"
    assert memdesk_app.tokens.verify(token + "x") is None
    assert memdesk_app.tokens.verify("") is None
    raw = memdesk_app.store.file.read_bytes()
    wal = memdesk_app.store.file.with_name(memdesk_app.store.file.name + "-wal")
    if wal.exists():
        raw += wal.read_bytes()
    assert token.encode() not in raw
    with sqlite3.connect(memdesk_app.store.file) as conn:
        (stored,) = conn.execute("SELECT token_hash FROM api_tokens WHERE name='claude'").fetchone()
    assert stored == hashlib.sha256(token.encode()).hexdigest()


def test_two_tokens_are_different_and_names_are_unique(memdesk_app):
    first = memdesk_app.tokens.create("a")
    second = memdesk_app.tokens.create("b")
    assert first != second
    with pytest.raises(ConflictError, match="exists"):
        memdesk_app.tokens.create("a")


@pytest.mark.parametrize("name", ["", "has space", "x" * 33, "-lead", "a/b", 7])
@pytest.mark.engines("sqlite")  # refused before the store
def test_bad_names_are_refused(memdesk_app, name):
    with pytest.raises(BadInputError):
        memdesk_app.tokens.create(name)


def test_revoked_token_stops_working_and_the_name_can_be_reissued(memdesk_app):
    old = memdesk_app.tokens.create("bot")
    memdesk_app.tokens.revoke("bot")
    assert memdesk_app.tokens.verify(old) is None
    with pytest.raises(NotFoundError):
        memdesk_app.tokens.revoke("bot")
    new = memdesk_app.tokens.create("bot")
    assert memdesk_app.tokens.verify(old) is None
    assert memdesk_app.tokens.verify(new) == "bot"


def test_list_shows_created_last_used_and_revoked(memdesk_app, clock):
    token = memdesk_app.tokens.create("bot")
    memdesk_app.tokens.create("other")
    assert [t.last_used_at for t in memdesk_app.tokens.list()] == [None, None]
    clock.now += timedelta(minutes=5)
    assert memdesk_app.tokens.verify(token) == "bot"
    memdesk_app.tokens.settle()
    memdesk_app.tokens.revoke("other")
    bot, other = memdesk_app.tokens.list()
    assert (bot.name, bot.last_used_at, bot.active) == ("bot", clock.now, True)
    assert (other.name, other.active, other.revoked_at) == ("other", False, clock.now)


def test_token_changes_are_not_undoable_history(memdesk_app):
    memdesk_app.tokens.create("bot")
    memdesk_app.tokens.revoke("bot")
    assert memdesk_app.history.list(10) == []


def test_acting_as_sets_the_actor_for_this_thread_only(memdesk_app):
    seen = {}

    def other_thread():
        memdesk_app.entries.upsert("other", "written elsewhere")
        seen["other"] = memdesk_app.ctx.current_actor

    with memdesk_app.ctx.acting_as("api:bot"):
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
        memdesk_app.entries.upsert("mine", "written by the bot")
    memdesk_app.entries.upsert("after", "back to normal")
    actors = {step.label: step.actor for step in memdesk_app.history.list(10)}
    assert actors == {"Save entry mine": "api:bot", "Save entry other": "test", "Save entry after": "test"}
    assert seen["other"] == "test"


def test_version_1_database_gains_the_tokens_table(tmp_path):
    path = tmp_path / "old.sqlite3"
    Store(f"sqlite:///{path}").close()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE api_tokens")
        conn.execute("DROP TABLE agent_clients")
        conn.execute("DROP TABLE alembic_version")  # as before upgrades were Alembic's
        conn.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    store = Store(f"sqlite:///{path}", backup_dir=tmp_path / "backups")
    store.close()
    with sqlite3.connect(path) as conn:
        version = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        assert version == (str(SCHEMA_VERSION),)
        assert conn.execute("SELECT count(*) FROM api_tokens").fetchone() == (0,)
    assert len(list((tmp_path / "backups").glob("old-*.sqlite3"))) == 1
