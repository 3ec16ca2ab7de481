"""Schema step: the ``agent_clients`` table (assistants that connected over MCP).

Self-contained on purpose: it spells out the table as it was when the step was written,
so later changes to the model cannot change what this step does. Safe to run twice.
"""

from __future__ import annotations

from sqlalchemy import Connection, text


def add_agent_clients(conn: Connection) -> None:
    conn.execute(
        text(
            """CREATE TABLE IF NOT EXISTS agent_clients (
                name VARCHAR(40) NOT NULL PRIMARY KEY,
                first_seen DATETIME NOT NULL,
                last_seen DATETIME NOT NULL,
                calls INTEGER NOT NULL DEFAULT 0
            )"""
        )
    )
