"""Full-text search on SQLite: FTS5 indexes kept in sync by triggers, so every write path
(services, undo, import) agrees, and the queries recall and search make of them.

External-content tables: the text lives once, in its own table; the index holds tokens only.

Tokenizer: ``porter`` stems English words (``runs`` finds ``running``), ``remove_diacritics``
folds accents, and ``tokenchars '+#'`` keeps ``C++``, ``C#`` and ``F#`` as tokens of their own
instead of a bare ``c``/``f``. The query side quotes each term and FTS5 runs it through the
same tokenizer, so index and query can never disagree; that is why symbols are handled here
and not by rewriting the text (a rewrite would need a derived column the triggers keep). The
price: a hashtag such as ``#travel`` is the token ``#travel``. ``.NET`` and ``Node.js`` need
nothing special: a quoted ``node.js`` is the phrase ``node js`` and ``.net`` is ``net``.

Scripts written without spaces (Chinese, Japanese, Thai…) come out of ``unicode61`` as one
token per run, so a word inside a longer run cannot match. Rows containing such text are also
copied into a small ``trigram`` index (``*_cjk``), which finds any three characters in a row;
shorter query parts are looked for with ``instr`` in that table, which holds only those rows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from functools import cached_property
from typing import Any

from sqlalchemy import BindParameter, Connection, bindparam, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind
from memdesk.core.search_text import NO_SPACE_CHARS, fts_query, prefix_query
from memdesk.store.fulltext import Row
from memdesk.store.fulltext.shared import ENTRY_FILTERS, WRITTEN_AFTER, like_clause, like_params
from memdesk.store.lifetime import entry_live_sql

TOKENIZE = "porter unicode61 remove_diacritics 2 tokenchars '+#'"

# (fts table, content table, indexed columns)
INDEXES = (
    ("entries_fts", "entries", ("key", "content")),
    ("app_memories_fts", "app_memories", ("content", "tags")),
    ("pieces_fts", "document_pieces", ("text",)),
)
# (trigram table, content table, its columns, the indexed text as SQL over a row ``{row}``)
CJK_INDEXES = (
    ("entries_cjk", "entries", ("key", "content"), "{row}.key || ' ' || {row}.content"),
    ("pieces_cjk", "document_pieces", ("text",), "{row}.text"),
)
_HAS_NO_SPACE_TEXT = f"GLOB '*[{NO_SPACE_CHARS}]*'"


def _statements(fts: str, table: str, columns: tuple[str, ...]) -> list[str]:
    cols = ", ".join(columns)
    new_vals = ", ".join(f"new.{c}" for c in columns)
    old_vals = ", ".join(f"old.{c}" for c in columns)
    delete = f"INSERT INTO {fts}({fts}, rowid, {cols}) VALUES ('delete', old.id, {old_vals});"
    insert = f"INSERT INTO {fts}(rowid, {cols}) VALUES (new.id, {new_vals});"
    return [
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {fts} USING fts5({cols}, content='{table}', "
        f"content_rowid='id', tokenize=\"{TOKENIZE}\")",
        f"CREATE TRIGGER IF NOT EXISTS {fts}_ai AFTER INSERT ON {table} BEGIN {insert} END",
        f"CREATE TRIGGER IF NOT EXISTS {fts}_ad AFTER DELETE ON {table} BEGIN {delete} END",
        f"CREATE TRIGGER IF NOT EXISTS {fts}_au AFTER UPDATE OF {cols} ON {table} "
        f"BEGIN {delete} {insert} END",
    ]


def _cjk_statements(cjk: str, table: str, columns: tuple[str, ...], expression: str) -> list[str]:
    new, old = expression.format(row="new"), expression.format(row="old")
    insert = f"INSERT INTO {cjk}(rowid, text) SELECT new.id, {new} WHERE {new} {_HAS_NO_SPACE_TEXT};"
    delete = f"DELETE FROM {cjk} WHERE rowid = old.id;"
    return [
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {cjk} USING fts5(text, tokenize='trigram')",
        f"CREATE TRIGGER IF NOT EXISTS {cjk}_ai AFTER INSERT ON {table} BEGIN {insert} END",
        f"CREATE TRIGGER IF NOT EXISTS {cjk}_ad AFTER DELETE ON {table} "
        f"WHEN {old} {_HAS_NO_SPACE_TEXT} BEGIN {delete} END",
        f"CREATE TRIGGER IF NOT EXISTS {cjk}_au AFTER UPDATE OF {', '.join(columns)} ON {table} "
        f"BEGIN {delete} {insert} END",
    ]


def create_indexes(conn: Connection) -> None:
    for fts, table, columns in INDEXES:
        for statement in _statements(fts, table, columns):
            conn.execute(text(statement))
    for cjk, table, columns, expression in CJK_INDEXES:
        for statement in _cjk_statements(cjk, table, columns, expression):
            conn.execute(text(statement))


def drop_indexes(conn: Connection) -> None:
    """Remove every index table and trigger (``create_indexes`` then ``rebuild_indexes`` redo them)."""
    for name, *_rest in INDEXES + CJK_INDEXES:
        for suffix in ("_ai", "_ad", "_au"):
            conn.execute(text(f"DROP TRIGGER IF EXISTS {name}{suffix}"))
        conn.execute(text(f"DROP TABLE IF EXISTS {name}"))


def rebuild_indexes(conn: Connection) -> None:
    for fts, _table, _columns in INDEXES:
        conn.execute(text(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')"))
    for cjk, table, _columns, expression in CJK_INDEXES:
        row = expression.format(row=table)
        conn.execute(text(f"DELETE FROM {cjk}"))
        select = f"SELECT id, {row} FROM {table} WHERE {row} {_HAS_NO_SPACE_TEXT}"
        conn.execute(text(f"INSERT INTO {cjk}(rowid, text) {select}"))


_INDEXED = {
    ItemKind.ENTRY: "entries_fts",
    ItemKind.APP_MEMORY: "app_memories_fts",
    ItemKind.DOCUMENT: "pieces_fts",
}
_ENTRY_COLUMNS = "e.key, e.content, e.category, e.created_at"
# The hot query: only the index, no row reads; the entry filters apply to its top ids.
_RANKED_IDS = "SELECT rowid, -rank FROM entries_fts WHERE entries_fts MATCH :query ORDER BY rank LIMIT :top"
_SNIPPETS = {
    ItemKind.ENTRY: """
        SELECT e.category, e.id, e.key, snippet(entries_fts, 1, '[', ']', '…', 12)
        FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
        WHERE entries_fts MATCH :query AND e.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
    ItemKind.APP_MEMORY: """
        SELECT 'app_memory', m.id, m.app_id, snippet(app_memories_fts, 0, '[', ']', '…', 12)
        FROM app_memories_fts JOIN app_memories m ON m.id = app_memories_fts.rowid
        WHERE app_memories_fts MATCH :query AND m.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
    ItemKind.DOCUMENT: """
        SELECT 'document', d.namespace, d.namespace, snippet(pieces_fts, 0, '[', ']', '…', 12)
        FROM pieces_fts JOIN document_pieces p ON p.id = pieces_fts.rowid
        JOIN documents d ON d.id = p.document_id
        WHERE pieces_fts MATCH :query AND d.deleted_at IS NULL
        ORDER BY rank LIMIT :limit""",
}


def _run_match(runs: list[str]) -> tuple[str | None, list[str]]:
    """A trigram MATCH for the runs of three characters or more, and the shorter runs."""
    trigrams = [run[i : i + 3] for run in runs for i in range(len(run) - 2)]
    short = [run for run in runs if len(run) < 3]
    return fts_query(list(dict.fromkeys(trigrams))), short


def _runs_clause(table: str, runs: list[str]) -> tuple[str, dict[str, str]]:
    """Rows of a trigram table holding any of ``runs``: by its index, or ``instr`` for short runs."""
    match, short = _run_match(runs)
    clauses = (
        [f"{table}.rowid IN (SELECT rowid FROM {table} WHERE {table} MATCH :cjk_match)"] if match else []
    )
    params = {"cjk_match": match} if match else {}
    for index, run in enumerate(short):
        clauses.append(f"instr({table}.text, :cjk{index}) > 0")
        params[f"cjk{index}"] = run
    return " OR ".join(clauses), params


def _dated(rows: list[Row]) -> list[Row]:
    """Entry rows with ``created_at`` as a datetime (the driver gives the stored text)."""
    return [
        (key, content, category, datetime.fromisoformat(created), score)
        for key, content, category, created, score in rows
    ]


def _namespaces(namespaces: Sequence[str]) -> BindParameter[Any]:
    return bindparam("namespaces", list(namespaces), expanding=True)


class SQLiteFullText:
    """FTS5 with BM25; trigram tables for scripts without spaces; LIKE as the fallback."""

    @cached_property
    def live(self) -> str:
        """Whether entry ``e`` is live, as SQL: compiled on first use (compiling costs about
        20 ms, which a command that opens the store for something else should not pay)."""
        return entry_live_sql("e", sqlite.dialect())

    create_indexes = staticmethod(create_indexes)

    def best_entries(
        self, session: Session, words: list[str], depth: int, top: int, filters: dict[str, Any]
    ) -> tuple[list[tuple[int, float]], list[Row], dict[str, Row | None]]:
        match = fts_query(words)
        if match is None:
            return [], [], {}
        ranked = raw_rows(session.connection(), _RANKED_IDS, {"query": match, "top": depth})
        # No answers read ahead: in process, recall's own lookup for the few it ranks first
        # costs less than reading them for every row of the head.
        return ranked, self.entries_by_id(session, ranked[:top], filters), {}

    def entries_by_id(
        self, session: Session, ranked: list[tuple[int, float]], filters: dict[str, Any]
    ) -> list[Row]:
        if not ranked:
            return []
        relevance = dict(ranked)
        sql = f"""SELECT e.id, {_ENTRY_COLUMNS} FROM entries e
            WHERE e.id IN (SELECT value FROM json_each(:ids)) AND {self.live} {ENTRY_FILTERS}"""
        rows = raw_rows(session.connection(), sql, {**filters, "ids": json.dumps(list(relevance))})
        return _dated([(*row[1:], relevance[row[0]]) for row in rows])

    def ranked_entries(
        self, session: Session, words: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        match = fts_query(words)
        if match is None:
            return []
        sql = f"""SELECT {_ENTRY_COLUMNS}, -entries_fts.rank AS score
            FROM entries_fts JOIN entries e ON e.id = entries_fts.rowid
            WHERE entries_fts MATCH :query AND {self.live} {ENTRY_FILTERS}
            ORDER BY score DESC LIMIT :limit"""
        return _dated(raw_rows(session.connection(), sql, {**filters, "query": match, "limit": limit}))

    def entries_with_runs(
        self, session: Session, runs: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        clause, params = _runs_clause("entries_cjk", runs)
        sql = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries_cjk JOIN entries e ON e.id = entries_cjk.rowid
            WHERE ({clause}) AND {self.live} {ENTRY_FILTERS} LIMIT :limit"""
        return _dated(raw_rows(session.connection(), sql, {**filters, **params, "limit": limit}))

    def entries_like(
        self, session: Session, words: list[str], filters: dict[str, Any], limit: int
    ) -> list[Row]:
        sql = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries e
            WHERE {self.live} {ENTRY_FILTERS}
            AND ({like_clause("e.key", len(words))} OR {like_clause("e.content", len(words))})
            ORDER BY e.importance DESC, e.updated_at DESC LIMIT :limit"""
        return _dated(raw_rows(session.connection(), sql, {**filters, **like_params(words), "limit": limit}))

    def newest_entries(self, session: Session, filters: dict[str, Any], limit: int) -> list[Row]:
        sql = f"""SELECT {_ENTRY_COLUMNS}, 0.0 FROM entries e
            WHERE {self.live} {ENTRY_FILTERS} ORDER BY e.id DESC LIMIT :limit"""
        return _dated(raw_rows(session.connection(), sql, {**filters, "limit": limit}))

    def entries_written_after(self, session: Session, keys: list[str], filters: dict[str, Any]) -> list[Row]:
        if not keys:
            return []
        sql = WRITTEN_AFTER.format(anchors="a.key IN (SELECT value FROM json_each(:keys))", live=self.live)
        rows = raw_rows(session.connection(), sql, {**filters, "keys": json.dumps(keys)})
        return [(*row[:3], datetime.fromisoformat(row[3]), row[4]) for row in rows]

    def ranked_pieces(
        self, session: Session, words: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]:
        match = fts_query(words)
        if match is None:
            return []
        statement = text(
            """SELECT d.namespace, p.text, -bm25(pieces_fts) AS score
            FROM pieces_fts JOIN document_pieces p ON p.id = pieces_fts.rowid
            JOIN documents d ON d.id = p.document_id
            WHERE pieces_fts MATCH :query AND d.deleted_at IS NULL AND d.namespace IN :namespaces
            ORDER BY score DESC LIMIT :limit"""
        ).bindparams(_namespaces(namespaces))
        return [tuple(row) for row in session.execute(statement, {"query": match, "limit": limit})]

    def pieces_with_runs(
        self, session: Session, runs: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]:
        clause, params = _runs_clause("pieces_cjk", runs)
        statement = text(
            f"""SELECT d.namespace, p.text, 0.0 FROM pieces_cjk
            JOIN document_pieces p ON p.id = pieces_cjk.rowid JOIN documents d ON d.id = p.document_id
            WHERE ({clause}) AND d.deleted_at IS NULL AND d.namespace IN :namespaces LIMIT :limit"""
        ).bindparams(_namespaces(namespaces))
        return [tuple(row) for row in session.execute(statement, {**params, "limit": limit})]

    def pieces_like(
        self, session: Session, words: list[str], namespaces: Sequence[str], limit: int
    ) -> list[Row]:
        statement = text(
            f"""SELECT d.namespace, p.text, 0.0 FROM document_pieces p
            JOIN documents d ON d.id = p.document_id
            WHERE d.deleted_at IS NULL AND d.namespace IN :namespaces
            AND {like_clause("p.text", len(words))}
            ORDER BY d.namespace, p.position LIMIT :limit"""
        ).bindparams(_namespaces(namespaces))
        return [tuple(row) for row in session.execute(statement, {**like_params(words), "limit": limit})]

    def search(self, session: Session, kind: ItemKind, words: list[str], limit: int) -> list[Row]:
        match = fts_query(words)
        if match is None:
            return []
        return [
            tuple(row) for row in session.execute(text(_SNIPPETS[kind]), {"query": match, "limit": limit})
        ]

    def matches(self, session: Session, kind: ItemKind, words: list[str], cap: int) -> int:
        match = fts_query(words)
        if match is None:
            return 0
        index = _INDEXED[kind]
        # Only the index's lists of rows, read up to the cap: no row is scored or read.
        sql = f"SELECT count(*) FROM (SELECT 1 FROM {index} WHERE {index} MATCH :query LIMIT :cap)"
        return raw_rows(session.connection(), sql, {"query": match, "cap": cap})[0][0]

    def entry_prefix_filter(self, words: list[str]) -> tuple[str, dict[str, Any]]:
        match = " AND ".join(prefix_query(word) for word in words)
        return "id IN (SELECT rowid FROM entries_fts WHERE entries_fts MATCH :prefix_match)", {
            "prefix_match": match
        }


def raw_rows(conn: Connection, sql: str, params: dict[str, Any]) -> list[Row]:
    """Rows of ``sql`` (with ``:name`` parameters) straight from the driver: for hot
    queries, where SQLAlchemy's per-row work is a sizeable share. Times go in as the text
    the store holds (SQLAlchemy's SQLite format)."""
    values = {
        key: value.isoformat(sep=" ", timespec="microseconds") if isinstance(value, datetime) else value
        for key, value in params.items()
    }
    return conn.connection.driver_connection.execute(sql, values).fetchall()
