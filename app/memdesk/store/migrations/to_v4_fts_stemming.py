"""Schema step: full-text indexes with stemming, symbol-bearing terms and a trigram side index.

Version 1 indexed with plain ``unicode61``. The tokenizer of an FTS5 table cannot be changed
in place, so every index table and its triggers are dropped, created again as ``fts`` now
defines them, and filled from the rows. Safe to run twice: the end state is the same.
"""

from __future__ import annotations

from sqlalchemy import Connection

from memdesk.store.fulltext import sqlite as fts


def migrate(conn: Connection) -> None:
    fts.drop_indexes(conn)
    fts.create_indexes(conn)
    fts.rebuild_indexes(conn)
