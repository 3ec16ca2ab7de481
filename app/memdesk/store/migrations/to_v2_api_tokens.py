"""Schema step: the ``api_tokens`` table (bearer tokens for the local HTTP servers).

Self-contained on purpose: it states the table as it was when the step was written, so
later changes to the models cannot change what this step does. Safe to run twice.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

_STATEMENTS = (
    """
    CREATE TABLE IF NOT EXISTS api_tokens (
        id INTEGER NOT NULL PRIMARY KEY,
        name VARCHAR(64) NOT NULL UNIQUE,
        token_hash VARCHAR(64) NOT NULL,
        created_at DATETIME NOT NULL,
        last_used_at DATETIME,
        revoked_at DATETIME
    )
    """,
)


def add_api_tokens(conn: Connection) -> None:
    for statement in _STATEMENTS:
        conn.execute(text(statement))
