"""Schema 1 -> 4: the full-text indexes are rebuilt with stemming, after a backup."""

from __future__ import annotations

import sqlite3

import pytest

from memdesk.services.memdesk import Memdesk
from memdesk.store import migrations
from memdesk.store.engine import Store
from memdesk.store.fulltext import sqlite as fts
from memdesk.store.migrations import SCHEMA_VERSION

# The version-1 index: plain unicode61, no trigram side index.
_V1_TOKENIZE = "unicode61 remove_diacritics 2"
_V1_INDEXES = (
    ("entries_fts", "entries", ("key", "content")),
    ("app_memories_fts", "app_memories", ("content", "tags")),
    ("pieces_fts", "document_pieces", ("text",)),
)


def make_version_1_file(path) -> None:
    """A store as version 1 left it: every index built with the old tokenizer."""
    Store(f"sqlite:///{path}").close()
    conn = sqlite3.connect(path)
    names = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE type = 'trigger' OR "
        "(type = 'table' AND (name LIKE '%\\_fts' ESCAPE '\\' OR name LIKE '%\\_cjk' ESCAPE '\\'))"
    ).fetchall()
    for kind, name in names:
        conn.execute(f"DROP {kind.upper()} IF EXISTS {name}")
    for table, content, columns in _V1_INDEXES:
        cols = ", ".join(columns)
        new = ", ".join(f"new.{c}" for c in columns)
        old = ", ".join(f"old.{c}" for c in columns)
        conn.execute(
            f"CREATE VIRTUAL TABLE {table} USING fts5({cols}, content='{content}', "
            f"content_rowid='id', tokenize='{_V1_TOKENIZE}')"
        )
        conn.execute(
            f"CREATE TRIGGER {table}_ai AFTER INSERT ON {content} BEGIN "
            f"INSERT INTO {table}(rowid, {cols}) VALUES (new.id, {new}); END"
        )
        conn.execute(
            f"CREATE TRIGGER {table}_ad AFTER DELETE ON {content} BEGIN "
            f"INSERT INTO {table}({table}, rowid, {cols}) VALUES ('delete', old.id, {old}); END"
        )
    conn.execute(
        "INSERT INTO entries(key, content, category, importance, created_at, updated_at, pinned) "
        "VALUES ('habit', 'User goes running every morning', 'knowledge', 0.5, "
        "'2026-01-01 00:00:00.000000', '2026-01-01 00:00:00.000000', 0)"
    )
    conn.execute("DROP TABLE alembic_version")  # as before upgrades were Alembic's
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    assert conn.execute("SELECT rowid FROM entries_fts WHERE entries_fts MATCH '\"runs\"'").fetchall() == []
    conn.close()


def test_version_1_store_is_backed_up_and_upgraded_to_stemmed_indexes(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    make_version_1_file(data_dir / "memdesk.sqlite3")
    app = Memdesk.open(data_dir=str(data_dir))
    try:
        assert [hit.ref for hit in app.recall.entries("runs")] == ["habit"]
        app.entries.upsert("lang", "Writes C# at work")
        assert [hit.ref for hit in app.recall.entries("C#")] == ["lang"]  # triggers were replaced
    finally:
        app.close()
    backups = list(app.paths.backup_dir.glob("memdesk-*.sqlite3"))
    assert len(backups) == 1
    with sqlite3.connect(backups[0]) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("1",)
    with sqlite3.connect(data_dir / "memdesk.sqlite3") as conn:
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        assert version == (str(SCHEMA_VERSION),)


@pytest.mark.engines("sqlite")  # PostgreSQL stores start at schema 4
def test_the_upgrade_can_run_twice(memdesk_app):
    memdesk_app.entries.upsert("trip", "東京の天気は晴れです; we were running late")
    for _ in range(2):
        with memdesk_app.store.write_engine.begin() as conn:
            migrations.upgrade(conn, 3)
    assert [hit.ref for hit in memdesk_app.recall.entries("run")] == ["trip"]
    assert [hit.ref for hit in memdesk_app.recall.entries("天気")] == ["trip"]
    with memdesk_app.store.write_engine.begin() as conn:
        tables = {row[0] for row in conn.exec_driver_sql("SELECT name FROM sqlite_master").all()}
    assert {name for name, *_ in fts.INDEXES + fts.CJK_INDEXES} <= tables
