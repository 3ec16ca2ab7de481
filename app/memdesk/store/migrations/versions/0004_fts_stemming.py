"""Schema 4: full-text indexes with stemming, symbol-bearing terms and a trigram side index.

Schema 1 indexed with plain ``unicode61``. An FTS5 table's tokenizer cannot be changed in
place, so every index table and its triggers are dropped, made again as
``store.fulltext.sqlite`` defines them, and filled from the rows. PostgreSQL stores start
at this schema: nothing to do there.
"""

from alembic import op

from memdesk.store.fulltext import sqlite as fts

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name != "sqlite":
        return
    fts.drop_indexes(conn)
    fts.create_indexes(conn)
    fts.rebuild_indexes(conn)
