"""Assistants' names in history, the agent_clients table and its schema step."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from memdesk.servers.actors import actor_for_client
from memdesk.store.engine import Store
from memdesk.store.migrations import SCHEMA_VERSION


@pytest.mark.parametrize(
    ("name", "actor"),
    [
        ("Claude Desktop", "mcp:claude-desktop"),
        ("claude-code", "mcp:claude-code"),
        ("  Cursor/1.2 (beta) ", "mcp:cursor-1.2-beta"),
        ("", "mcp:unknown"),
        ("💥", "mcp:unknown"),
        (None, "mcp:unknown"),
        ("x" * 100, "mcp:" + "x" * 36),
    ],
)
def test_actor_names_are_sanitised_and_fit_the_history_column(name, actor):
    assert actor_for_client(name) == actor
    assert len(actor) <= 40


def test_acting_as_names_the_actor_of_changes_in_the_block_only(memdesk_app):
    with memdesk_app.ctx.acting_as("mcp:cursor"):
        memdesk_app.entries.upsert("a", "one")
    memdesk_app.entries.upsert("b", "two")
    assert [(s.actor, s.label) for s in memdesk_app.history.list()] == [
        ("test", "Save entry b"),
        ("mcp:cursor", "Save entry a"),
    ]
    assert [s.label for s in memdesk_app.history.list(actor="mcp:cursor")] == ["Save entry a"]


def test_seen_records_first_and_last_connection_and_calls(memdesk_app, clock):
    first = clock.now
    memdesk_app.assistants.seen("mcp:cursor", 1)
    clock.now = first.replace(hour=15)
    memdesk_app.assistants.seen("mcp:cursor", 4)
    [client] = memdesk_app.assistants.list()
    assert (client.name, client.first_seen, client.last_seen, client.calls) == (
        "mcp:cursor",
        first,
        clock.now,
        5,
    )


def test_a_version_1_database_gains_agent_clients(tmp_path: Path):
    file = tmp_path / "old.sqlite3"
    Store(f"sqlite:///{file}").close()
    conn = sqlite3.connect(file)
    conn.execute("DROP TABLE agent_clients")
    conn.execute("DROP TABLE api_tokens")
    conn.execute("DROP TABLE alembic_version")  # as before upgrades were Alembic's
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    Store(f"sqlite:///{file}", backup_dir=tmp_path / "backups").close()
    conn = sqlite3.connect(file)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    assert version == (str(SCHEMA_VERSION),)
    assert conn.execute("SELECT count(*) FROM agent_clients").fetchone() == (0,)
    conn.close()
    assert list((tmp_path / "backups").iterdir())  # backed up before migrating


def test_the_servers_use_services_never_the_store_or_another_face():
    from tests.unit.test_layering import PACKAGE, imported_modules

    forbidden = ("memdesk.store", "memdesk.cli", "memdesk.gui", "PySide6")
    offenders = {
        path.name: sorted(name for name in imported_modules(path) if name.startswith(forbidden))
        for path in (PACKAGE / "servers").glob("*.py")
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_the_client_log_writes_every_call_it_counted_by_the_end(memdesk_app):
    from memdesk.servers.clients import ClientLog

    log = ClientLog(memdesk_app, flush_seconds=3600)  # after the first write, none due for an hour
    for actor in ("mcp:coder", "api:bot", "mcp:coder", "mcp:coder"):
        log.call(actor)
    log.flush()  # what a server does as it ends
    log.flush()  # nothing left: counted once
    assert {c.name: c.calls for c in memdesk_app.assistants.list()} == {"mcp:coder": 3, "api:bot": 1}


def test_an_assistant_that_only_read_through_the_hook_is_listed(memdesk_app, clock):
    """Claude Code's SessionStart hook logs a read without any MCP call: the assistant is
    listed all the same, seen when it read, so the Assistants page agrees with the read log."""
    from memdesk.core.items import ItemKind, ItemRef
    from memdesk.services.claude_hook import ASSISTANT, READ_TOOL

    memdesk_app.assistants.seen("mcp:cursor", 2)
    memdesk_app.access_log.record(ASSISTANT, READ_TOOL, [ItemRef(ItemKind.DOCUMENT, "user/profile")])
    assert memdesk_app.access_log.flush(5)

    listed = {client.name: client for client in memdesk_app.assistants.list()}
    assert set(listed) == {"mcp:cursor", ASSISTANT}
    hook = listed[ASSISTANT]
    assert hook.calls == 0 and hook.first_seen == hook.last_seen == memdesk_app.ctx.now()
    assert listed["mcp:cursor"].calls == 2
