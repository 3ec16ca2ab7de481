"""Full-text search on PostgreSQL: a generated ``tsvector`` column and a GIN index per table,
and the queries recall and search make of them.

The column is computed by the server from the row, so every write path (services, undo,
import, copy) keeps it right without triggers. ``english`` stems as FTS5's ``porter`` does;
``+`` and ``#`` are spelled out first (``c++`` is the word ``cplusplus``) so that ``C++``,
``C#`` and ``F#`` stay words of their own, as ``tokenchars '+#'`` keeps them on SQLite.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, text
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind
from memdesk.core.search_text import QUESTION_MARKS, asks
from memdesk.store.fulltext import Row
from memdesk.store.fulltext.shared import (
    ENTRY_FILTERS,
    WRITTEN_AFTER,
    entry_filters,
    like_clause,
    like_params,
)
from memdesk.store.lifetime import entry_live_sql

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


_ENTRY_COLUMNS = "e.key, e.content, e.category, e.created_at"
_ASKS = " OR ".join(f"strpos(e.content, '{mark}') > 0" for mark in QUESTION_MARKS)  # ``asks``
_HEADLINE = "StartSel=[, StopSel=], MaxWords=12, MinWords=4, MaxFragments=1, FragmentDelimiter=…"
# What search shows per kind: (group, ref, title, the text the snippet is cut from, table, live).
_SEARCHED = {
    ItemKind.ENTRY: ("e.category", "e.id", "e.key", "e.content", "entries e", "e.deleted_at IS NULL"),
    ItemKind.APP_MEMORY: (
        "'app_memory'",
        "e.id",
        "e.app_id",
        "e.content",
        "app_memories e",
        "e.deleted_at IS NULL",
    ),
    ItemKind.DOCUMENT: (
        "'document'",
        "d.namespace",
        "d.namespace",
        "e.text",
        "document_pieces e JOIN documents d ON d.id = e.document_id",
        "d.deleted_at IS NULL",
    ),
}


def tsquery(words: list[str]) -> tuple[str, dict[str, str]]:
    """The words ORed into one tsquery (SQL and its parameters). Each word goes through
    ``plainto_tsquery``, which takes any text: hostile input is only ever a value."""
    parts = [f"plainto_tsquery('{CONFIG}', {folded(f':q{i}')})" for i in range(len(words))]
    return "(" + " || ".join(parts) + ")", {f"q{i}": word for i, word in enumerate(words)}


def _runs_clause(column: str, runs: list[str]) -> tuple[str, dict[str, str]]:
    """``column`` holds any of ``runs`` (text without spaces: no word breaks to search by)."""
    clauses = [f"strpos({column}, :run{i}) > 0" for i in range(len(runs))]
    return "(" + " OR ".join(clauses) + ")", {f"run{i}": run for i, run in enumerate(runs)}


def _prefixes(word: str) -> list[str]:
    """``word`` and its shorter starts (see ``core.search_text.prefix_query``): the index holds
    stems, so ``runn`` must also look for ``run``."""
    shortest = max(3, len(word) - 3)
    return [word[:end] for end in range(len(word), shortest - 1, -1)] if len(word) > 3 else [word]


class PostgresFullText:
    """``tsvector`` columns ranked with ``ts_rank_cd``; ``strpos`` for scripts without spaces;
    ``ILIKE`` as the fallback."""

    def __init__(self) -> None:
        from sqlalchemy.dialects import postgresql

        self.live = entry_live_sql("e", postgresql.dialect())
        self.next_live = entry_live_sql("n", postgresql.dialect())

    create_indexes = staticmethod(create_indexes)

    def best_entries(
        self, session: Session, words: list[str], depth: int, top: int, filters: dict[str, Any]
    ) -> tuple[list[tuple[int, float]], list[Row], dict[str, Row | None]]:
        # One round trip: the ranking, the rows of its head that pass the filters, and the
        # entry written right after each of those that asks something.
        if not words:
            return [], [], {}
        query, params = tsquery(words)
        sql = f"""SELECT r.id, r.score, r.place <= :head AND {self.live} {ENTRY_FILTERS} AS passes,
                CASE WHEN r.place <= :head THEN e.key END, CASE WHEN r.place <= :head THEN e.content END,
                e.category, e.created_at,
                n.key, n.content, n.category, n.created_at,
                n.id IS NOT NULL AND {self.next_live} {entry_filters("n")} AS next_passes
            FROM (
                SELECT t.id, t.score, row_number() OVER (ORDER BY t.score DESC, t.id) AS place
                FROM (SELECT e.id, ts_rank_cd(e.{COLUMN}, q.q) AS score
                    FROM entries e, (SELECT {query}) AS q(q) WHERE e.{COLUMN} @@ q.q
                    ORDER BY score DESC, e.id LIMIT :depth) t
            ) r
            JOIN entries e ON e.id = r.id
            LEFT JOIN entries n ON r.place <= :head AND ({_ASKS}) AND n.id = e.id + 1
            ORDER BY r.score DESC, r.id"""
        rows = raw_rows(session.connection(), sql, {**filters, **params, "depth": depth, "head": top})
        ranked = [(row[0], float(row[1])) for row in rows]
        passed = [(*row[3:7], float(row[1])) for row in rows if row[2]]
        answers = {
            row[3]: (*row[7:11], row[3]) if row[11] else None for row in rows if row[2] and asks(row[4])
        }
        return ranked, passed, answers

    def entries_by_id(
        self, session: Session, ranked: list[tuple[int, float]], filters: dict[str, Any]
    ) -> list[Row]:
        if not ranked:
            return []
        relevance = dict(ranked)
        sql = f"""SELECT e.id, {_ENTRY_COLUMNS} FROM entries e
            WHERE e.id = ANY(:ids) AND {self.live} {ENTRY_FILTERS}"""
        rows = raw_rows(session.connection(), sql, {**filters, "ids": list(relevance)})
        return [(*row[1:], relevance[row[0]]) for row in rows]

    def ranked_entries(
        self, session: Session, words: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        if not words:
            return []
        query, params = tsquery(words)
        sql = f"""SELECT {_ENTRY_COLUMNS}, ts_rank_cd(e.{COLUMN}, q.q) AS score
            FROM entries e, (SELECT {query}) AS q(q) WHERE e.{COLUMN} @@ q.q AND {self.live} {ENTRY_FILTERS}
            ORDER BY score DESC, e.id LIMIT :limit"""
        return [
            tuple(row) for row in raw_rows(session.connection(), sql, {**filters, **params, "limit": limit})
        ]

    def entries_with_runs(
        self, session: Session, runs: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        clause, params = _runs_clause("e.key || ' ' || e.content", runs)
        sql = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries e
            WHERE {clause} AND {self.live} {ENTRY_FILTERS} ORDER BY e.id LIMIT :limit"""
        return [
            tuple(row) for row in raw_rows(session.connection(), sql, {**filters, **params, "limit": limit})
        ]

    def entries_like(
        self, session: Session, words: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        key, content = (
            like_clause("e.key", len(words), "ILIKE"),
            like_clause("e.content", len(words), "ILIKE"),
        )
        sql = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries e
            WHERE {self.live} {ENTRY_FILTERS} AND ({key} OR {content})
            ORDER BY e.importance DESC, e.updated_at DESC, e.id LIMIT :limit"""
        values = {**filters, **like_params(words), "limit": limit}
        return [tuple(row) for row in raw_rows(session.connection(), sql, values)]

    def newest_entries(self, session: Session, filters: dict[str, Any], limit: int) -> list[Row]:
        sql = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries e
            WHERE {self.live} {ENTRY_FILTERS} ORDER BY e.id DESC LIMIT :limit"""
        return [tuple(row) for row in raw_rows(session.connection(), sql, {**filters, "limit": limit})]

    def entries_written_after(self, session: Session, keys: list[str], filters: dict[str, Any]) -> list[Row]:
        if not keys:
            return []
        sql = WRITTEN_AFTER.format(anchors="a.key = ANY(:keys)", live=self.live)
        return [tuple(row) for row in raw_rows(session.connection(), sql, {**filters, "keys": keys})]

    def ranked_pieces(
        self, session: Session, words: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]:
        if not words:
            return []
        query, params = tsquery(words)
        sql = f"""SELECT d.namespace, e.text, ts_rank_cd(e.{COLUMN}, q.q) AS score
            FROM document_pieces e JOIN documents d ON d.id = e.document_id, (SELECT {query}) AS q(q)
            WHERE e.{COLUMN} @@ q.q AND d.deleted_at IS NULL AND d.namespace = ANY(:namespaces)
            ORDER BY score DESC, e.id LIMIT :limit"""
        values = {**params, "namespaces": list(namespaces), "limit": limit}
        return [tuple(row) for row in raw_rows(session.connection(), sql, values)]

    def pieces_with_runs(
        self, session: Session, runs: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]:
        clause, params = _runs_clause("e.text", runs)
        sql = f"""SELECT d.namespace, e.text, 0.0
            FROM document_pieces e JOIN documents d ON d.id = e.document_id
            WHERE {clause} AND d.deleted_at IS NULL AND d.namespace = ANY(:namespaces)
            ORDER BY e.id LIMIT :limit"""
        values = {**params, "namespaces": list(namespaces), "limit": limit}
        return [tuple(row) for row in raw_rows(session.connection(), sql, values)]

    def pieces_like(
        self, session: Session, words: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]:
        sql = f"""SELECT d.namespace, e.text, 0.0
            FROM document_pieces e JOIN documents d ON d.id = e.document_id
            WHERE d.deleted_at IS NULL AND d.namespace = ANY(:namespaces)
            AND {like_clause("e.text", len(words), "ILIKE")}
            ORDER BY d.namespace, e.position LIMIT :limit"""
        values = {**like_params(words), "namespaces": list(namespaces), "limit": limit}
        return [tuple(row) for row in raw_rows(session.connection(), sql, values)]

    def search(self, session: Session, kind: ItemKind, words: list[str], limit: int) -> list[Row]:
        if not words:
            return []
        group, ref, title, shown, table, live = _SEARCHED[kind]
        query, params = tsquery(words)
        sql = f"""SELECT {group}, {ref}, {title}, ts_headline('{CONFIG}', {shown}, q.q, '{_HEADLINE}')
            FROM {table}, (SELECT {query}) AS q(q)
            WHERE e.{COLUMN} @@ q.q AND {live}
            ORDER BY ts_rank_cd(e.{COLUMN}, q.q) DESC, e.id LIMIT :limit"""
        return [tuple(row) for row in raw_rows(session.connection(), sql, {**params, "limit": limit})]

    def matches(self, session: Session, kind: ItemKind, words: list[str], cap: int) -> int:
        if not words:
            return 0
        table = _SEARCHED[kind][4]
        query, params = tsquery(words)
        sql = f"""SELECT count(*) FROM (SELECT 1 FROM {table}, (SELECT {query}) AS q(q)
            WHERE e.{COLUMN} @@ q.q LIMIT :cap) AS found"""
        return raw_rows(session.connection(), sql, {**params, "cap": cap})[0][0]

    def entry_prefix_filter(self, words: list[str]) -> tuple[str, dict[str, Any]]:
        # Each start as typed ('simple': no stemming, no stop words) and stemmed (``running``
        # is the stem ``run``), as FTS5 stems a prefix; quote_literal makes any text one
        # lexeme, so nothing typed is read as tsquery syntax.
        params: dict[str, Any] = {}
        conditions = []
        for w, word in enumerate(words):
            starts = []
            for p, prefix in enumerate(_prefixes(word)):
                params[f"prefix{w}_{p}"] = prefix
                starts += [
                    f"to_tsquery('{config}', quote_literal(:prefix{w}_{p}) || ':*')"
                    for config in ("simple", CONFIG)
                ]
            conditions.append(f"{COLUMN} @@ (" + " || ".join(starts) + ")")
        return "(" + " AND ".join(conditions) + ")", params


def pyformat(sql: str) -> str:
    """``:name`` parameters as psycopg's ``%(name)s`` (a literal ``%`` doubled; ``::`` casts and
    ``12:30`` in literals kept)."""
    return re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", sql.replace("%", "%%"))


def raw_rows(conn: Connection, sql: str, params: dict[str, Any]) -> list[Row]:
    """Rows of ``sql`` (with ``:name`` parameters) straight from the driver."""
    with conn.connection.driver_connection.cursor() as cursor:
        cursor.execute(pyformat(sql), params)
        return cursor.fetchall()
