"""The database file: schema version, newer databases, locks, read-only folders, FTS sync."""

from __future__ import annotations

import os
import sqlite3
import threading
import time

import pytest
from sqlalchemy import text

from memdesk.errors import StoreError
from memdesk.store.engine import SCHEMA_VERSION, Store
from memdesk.store.engines import sqlite as sqlite_module


def make_store(tmp_path, name="m.sqlite3"):
    return Store(f"sqlite:///{tmp_path / name}", backup_dir=tmp_path / "backups")


def test_new_database_records_its_schema_version_and_uses_wal(tmp_path):
    store = make_store(tmp_path)
    store.close()
    conn = sqlite3.connect(tmp_path / "m.sqlite3")
    assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (
        str(SCHEMA_VERSION),
    )
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.close()


def test_newer_database_is_refused_and_left_untouched(tmp_path):
    make_store(tmp_path).close()
    path = tmp_path / "m.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer Memdesk"):
        make_store(tmp_path)
    assert path.read_bytes() == before


def test_older_database_is_backed_up_then_upgraded_by_alembic(tmp_path):
    make_store(tmp_path).close()
    path = tmp_path / "m.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE agent_clients")  # what the last upgrade adds back
        conn.execute("UPDATE meta SET value='2' WHERE key='schema_version'")
    make_store(tmp_path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (f"{SCHEMA_VERSION:04d}",)
        ]
        assert conn.execute("SELECT count(*) FROM agent_clients").fetchone() == (0,)
    backups = list((tmp_path / "backups").glob("m-*.sqlite3"))
    assert len(backups) == 1
    with sqlite3.connect(backups[0]) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == ("2",)


def test_garbage_file_and_foreign_sqlite_are_refused(tmp_path):
    (tmp_path / "junk.sqlite3").write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a readable Memdesk database"):
        make_store(tmp_path, "junk.sqlite3")
    with sqlite3.connect(tmp_path / "other.sqlite3") as conn:
        conn.execute("CREATE TABLE t(x)")
    with pytest.raises(StoreError, match="not a Memdesk database"):
        make_store(tmp_path, "other.sqlite3")


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write to read-only folders")
def test_read_only_folder_is_a_clear_error(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(StoreError, match="read-only"):
            Store(f"sqlite:///{folder / 'm.sqlite3'}")
    finally:
        folder.chmod(0o755)


def test_read_only_folder_check_does_not_depend_on_permissions(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_module.os, "access", lambda path, mode: False)
    with pytest.raises(StoreError, match="read-only; cannot create the database"):
        Store(f"sqlite:///{tmp_path / 'new' / 'm.sqlite3'}")


def test_writer_waits_for_a_lock_then_fails_clearly(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_BUSY_TIMEOUT_MS", "300")
    store = make_store(tmp_path)
    blocker = sqlite3.connect(tmp_path / "m.sqlite3", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(StoreError, match="busy: another program is writing"), store.write() as session:
        session.execute(text("UPDATE meta SET value = value WHERE key = 'x'"))
    assert time.monotonic() - started >= 0.25
    blocker.rollback()
    blocker.close()
    store.close()


def test_writer_gets_through_when_the_lock_is_released_in_time(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_BUSY_TIMEOUT_MS", "3000")
    store = make_store(tmp_path)
    blocker = sqlite3.connect(tmp_path / "m.sqlite3", isolation_level=None, check_same_thread=False)
    blocker.execute("BEGIN IMMEDIATE")
    threading.Timer(0.3, blocker.rollback).start()
    before = store.revision()
    with store.write():
        pass
    assert store.revision() == before + 1
    blocker.close()
    store.close()


@pytest.mark.engines("sqlite")  # the SQLite file itself
def test_fts_index_follows_insert_update_delete(memdesk_app):
    app = memdesk_app

    def fts(query):
        with app.store.read() as session:
            return session.execute(
                text("SELECT rowid FROM entries_fts WHERE entries_fts MATCH :q"), {"q": query}
            ).all()

    entry = app.entries.upsert("k", "alpha beta")
    assert fts("alpha") == [(entry.id,)]
    app.entries.upsert("k", "gamma")
    assert fts("alpha") == [] and fts("gamma") == [(entry.id,)]
    app.history.undo()  # back to "alpha beta" through the raw restore path
    assert fts("alpha") == [(entry.id,)]
    app.history.undo()  # the row disappears entirely
    assert fts("alpha") == []


def test_a_running_read_can_be_interrupted(tmp_path):
    store = make_store(tmp_path)
    slow = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n"
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            with store.read() as session:
                session.execute(text(slow)).all()
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    deadline = time.monotonic() + 5
    while not store._read_connections and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    store.interrupt_reads()
    worker.join(5)
    assert not worker.is_alive()
    assert isinstance(outcome[0], StoreError) and "interrupted" in str(outcome[0])
    store.close()


@pytest.mark.parametrize(
    "damage", ["DELETE FROM meta WHERE key='schema_version'", "UPDATE meta SET value='x1'"]
)
def test_a_missing_schema_version_is_refused_without_a_backup(tmp_path, damage):
    make_store(tmp_path).close()
    path = tmp_path / "m.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(damage)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="no valid schema version"):
        make_store(tmp_path)
    assert path.read_bytes() == before
    assert not (tmp_path / "backups").exists()


def test_a_schema_without_an_upgrade_path_is_refused_without_a_backup(tmp_path):
    make_store(tmp_path).close()
    with sqlite3.connect(tmp_path / "m.sqlite3") as conn:
        conn.execute("UPDATE meta SET value='0' WHERE key='schema_version'")
    with pytest.raises(StoreError, match="schema 0, which this Memdesk cannot upgrade"):
        make_store(tmp_path)
    assert not (tmp_path / "backups").exists()


def test_opening_takes_no_write_lock(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_BUSY_TIMEOUT_MS", "200")
    make_store(tmp_path).close()
    blocker = sqlite3.connect(tmp_path / "m.sqlite3", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    blocker.execute("UPDATE meta SET value = value || '' WHERE key = 'revision'")
    try:
        store = make_store(tmp_path)
        assert store.revision() == 0
        store.close()
    finally:
        blocker.rollback()
        blocker.close()


def test_a_store_is_empty_until_something_is_kept_and_again_once_it_is_in_trash(memdesk_app):
    assert memdesk_app.is_empty()
    entry = memdesk_app.entries.upsert("coffee", "Ada drinks her coffee black")
    assert not memdesk_app.is_empty()
    memdesk_app.entries.delete([entry.id])
    assert memdesk_app.is_empty()  # in Trash: nothing left to show but the welcome
    memdesk_app.documents.set("user/profile", "Ada, a surveyor")
    assert not memdesk_app.is_empty()
    memdesk_app.documents.delete("user/profile")
    assert memdesk_app.is_empty()
    memdesk_app.apps.add("calendar", "Prefers meetings after 2pm")
    memdesk_app.apps.delete([memory.id for memory in memdesk_app.apps.memories("calendar")])
    assert not memdesk_app.is_empty()  # the app itself is still there
