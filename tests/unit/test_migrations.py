"""Schema upgrades through Alembic on both engines: in place, without loss, never past a newer store."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect as sa_inspect
from sqlalchemy import text

from memdesk.core.items import ItemKind, ItemRef
from memdesk.errors import StoreError
from memdesk.services.memdesk import Memdesk
from memdesk.store import migrations
from memdesk.store.engine import Store
from memdesk.store.migrations import SCHEMA_VERSION


def _state(store: Store) -> tuple:
    with store.write_engine.connect() as conn:
        return (
            conn.execute(text("SELECT key, value FROM meta ORDER BY key")).all(),
            conn.execute(text("SELECT version_num FROM alembic_version")).all(),
            conn.execute(text("SELECT key, content FROM entries ORDER BY key")).all(),
        )


@pytest.fixture
def store(memdesk_app):
    memdesk_app.entries.upsert("coffee", "Ada drinks her coffee black")
    return memdesk_app.store


def test_the_newest_revision_is_the_schema_version():
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory(str(migrations.SCRIPTS))
    assert scripts.get_current_head() == migrations.revision(SCHEMA_VERSION)
    assert [s.revision for s in scripts.walk_revisions()][-1] == migrations.revision(migrations.FIRST_VERSION)


def test_a_new_store_is_stamped_at_the_newest_revision(store):
    meta, stamped, _entries = _state(store)
    assert ("schema_version", str(SCHEMA_VERSION)) in meta
    assert stamped == [(migrations.revision(SCHEMA_VERSION),)]


def test_a_store_from_before_alembic_upgrades_in_place_without_loss(store, store_url, tmp_path):
    with store.write_engine.begin() as conn:
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(text("DROP TABLE agent_clients"))
        conn.execute(text("UPDATE meta SET value = '2' WHERE key = 'schema_version'"))
    notices: list[str] = []
    url = store_url or store.url
    upgraded = Store(url, backup_dir=tmp_path / "backups", notice=notices.append)
    try:
        meta, stamped, entries = _state(upgraded)
        assert ("schema_version", str(SCHEMA_VERSION)) in meta
        assert stamped == [(migrations.revision(SCHEMA_VERSION),)]
        assert entries == [("coffee", "Ada drinks her coffee black")]
        with upgraded.read() as session:
            assert session.execute(text("SELECT count(*) FROM agent_clients")).scalar() == 0
    finally:
        upgraded.close()
    if store_url:  # a server's database is not ours to copy: say how to back it up
        assert len(notices) == 1 and "pg_dump -Fc" in notices[0]
    else:
        assert notices == [] and len(list((tmp_path / "backups").iterdir())) == 1


def test_a_store_of_a_newer_memdesk_is_refused_and_left_as_it_is(store, store_url, tmp_path):
    with store.write_engine.begin() as conn:
        conn.execute(text("UPDATE meta SET value = '99' WHERE key = 'schema_version'"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0099'"))
    before = _state(store)
    with pytest.raises(StoreError, match="newer Memdesk") as refused:
        Store(store_url or store.url, backup_dir=tmp_path / "backups")
    assert "was not changed" in refused.value.hint
    assert _state(store) == before
    assert not (tmp_path / "backups").exists()


def test_a_store_this_version_left_gains_the_history_index_in_place(store, store_url, tmp_path):
    entries_before = _state(store)[2]
    with store.write_engine.begin() as conn:  # schema 4, as written before upgrades were Alembic's
        conn.execute(text("DROP INDEX ix_history_steps_actor"))
        conn.execute(text("DROP TABLE alembic_version"))
        conn.execute(text("UPDATE meta SET value = '4' WHERE key = 'schema_version'"))
    upgraded = Store(store_url or store.url, backup_dir=tmp_path / "backups", notice=lambda _text: None)
    try:
        with upgraded.read() as session:
            indexes = sa_inspect(session.connection()).get_indexes("history_steps")
        assert [index["column_names"] for index in indexes if index["name"] == "ix_history_steps_actor"] == [
            ["actor", "id"]
        ]
        meta, stamped, entries = _state(upgraded)
        assert ("schema_version", str(SCHEMA_VERSION)) in meta and stamped == [
            (migrations.revision(SCHEMA_VERSION),)
        ]
        assert entries == entries_before
    finally:
        upgraded.close()


def test_a_store_at_schema_11_lists_an_assistants_reads_from_the_newest_end_after_the_upgrade(
    memdesk_app, store_url, tmp_path
):
    log = memdesk_app.access_log
    for number in range(3):
        log.record("mcp:ada", "memory_recall", [ItemRef(ItemKind.ENTRY, f"k{number}")])
    assert log.flush(10)
    before = [(read.tool, read.items) for read in log.reads("mcp:ada")]
    store = memdesk_app.store
    with store.write_engine.begin() as conn:  # schema 11: the read log's index as schema 10 made it
        conn.execute(text("DROP INDEX ix_assistant_reads_newest"))
        conn.execute(text("CREATE INDEX ix_assistant_reads_actor ON assistant_reads (actor, at, tool)"))
        conn.execute(text("UPDATE meta SET value = '11' WHERE key = 'schema_version'"))
        conn.execute(text("UPDATE alembic_version SET version_num = '0011'"))
    memdesk_app.close()
    upgraded = Store(store_url or store.url, backup_dir=tmp_path / "backups", notice=lambda _text: None)
    try:
        with upgraded.read() as session:
            conn = session.connection()
            indexes = {
                index["name"]: index["column_names"]
                for index in sa_inspect(conn).get_indexes("assistant_reads")
            }
            assert indexes["ix_assistant_reads_newest"] == ["actor", "at", "id", "tool"]
            assert "ix_assistant_reads_actor" not in indexes
            if store_url is None:  # SQLite reads the index backwards: no sort of the whole log
                plan = conn.execute(
                    text(
                        "EXPLAIN QUERY PLAN SELECT id, at, tool FROM assistant_reads "
                        "WHERE actor = 'mcp:ada' ORDER BY at DESC, id DESC"
                    )
                ).all()
                assert [row[-1] for row in plan] == [
                    "SEARCH assistant_reads USING COVERING INDEX ix_assistant_reads_newest (actor=?)"
                ]
        assert _state(upgraded)[1] == [(migrations.revision(SCHEMA_VERSION),)]
    finally:
        upgraded.close()
    reopened = Memdesk.open(data_dir=str(memdesk_app.paths.data_dir), db=store_url)
    try:
        assert [(read.tool, read.items) for read in reopened.access_log.reads("mcp:ada")] == before
    finally:
        reopened.close()
