"""FTS5 indexes kept in sync by triggers, so every write path (services, undo, import) agrees.

External-content tables: the text lives once, in its own table; the index holds tokens only.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

_TOKENIZE = "unicode61 remove_diacritics 2"

# (fts table, content table, indexed columns)
INDEXES = (
    ("entries_fts", "entries", ("key", "content")),
    ("app_memories_fts", "app_memories", ("content", "tags")),
    ("pieces_fts", "document_pieces", ("text",)),
)


def _statements(fts: str, table: str, columns: tuple[str, ...]) -> list[str]:
    cols = ", ".join(columns)
    new_vals = ", ".join(f"new.{c}" for c in columns)
    old_vals = ", ".join(f"old.{c}" for c in columns)
    delete = f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old_vals});"
    insert = f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new_vals});"
    return [
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5({cols}, content='{table}', "
        f"content_rowid='id', tokenize='{_TOKENIZE}')",
        f"CREATE TRIGGER IF NOT EXISTS {fts}_ai AFTER INSERT ON {table} BEGIN {insert} END",
        f"CREATE TRIGGER IF NOT EXISTS {fts}_ad AFTER DELETE ON {table} BEGIN {delete} END",
        f"CREATE TRIGGER IF NOT EXISTS {fts}_au AFTER UPDATE OF {cols} ON {table} "
        f"BEGIN {delete} {insert} END",
    ]


def create_indexes(conn: Connection) -> None:
    for fts, table, columns in INDEXES:
        for statement in _statements(fts, table, columns):
            conn.execute(text(statement))


def rebuild_indexes(conn: Connection) -> None:
    for fts, _table, _columns in INDEXES:
        conn.execute(text(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')"))
