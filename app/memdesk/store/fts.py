"""FTS5 indexes kept in sync by triggers, so every write path (services, undo, import) agrees.

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

from sqlalchemy import Connection, text

from memdesk.core.search_text import NO_SPACE_CHARS

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
