"""Full-text search on PostgreSQL: a generated ``tsvector`` column and a GIN index per table.

The column is computed by the server from the row, so every write path (services, undo,
import, copy) keeps it right without triggers. ``english`` stems as FTS5's ``porter`` does;
``+`` and ``#`` are spelled out first (``c++`` is the word ``cplusplus``) so that ``C++``,
``C#`` and ``F#`` stay words of their own, as ``tokenchars '+#'`` keeps them on SQLite.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

CONFIG = "english"
COLUMN = "search_vector"

# (table, its index, the indexed text as SQL over the row's columns)
INDEXES = (
    ("entries", "ix_entries_search", "coalesce(key, '') || ' ' || coalesce(content, '')"),
    ("app_memories", "ix_app_memories_search", "coalesce(content, '') || ' ' || coalesce(tags, '')"),
    ("document_pieces", "ix_document_pieces_search", "coalesce(text, '')"),
)


def folded(sql: str) -> str:
    """``sql`` (a text expression) with the symbols that make words spelled out."""
    return f"replace(replace({sql}, '+', 'plus'), '#', 'sharp')"


def create_indexes(conn: Connection) -> None:
    for table, index, source in INDEXES:
        vector = f"to_tsvector('{CONFIG}'::regconfig, {folded(source)})"
        generated = f"tsvector GENERATED ALWAYS AS ({vector}) STORED"
        conn.execute(text(f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {COLUMN} {generated}"))
        conn.execute(text(f"CREATE INDEX IF NOT EXISTS {index} ON {table} USING gin ({COLUMN})"))
