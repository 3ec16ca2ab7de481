"""The engine-specific halves of a store: SQLite (one machine) and PostgreSQL (shared)."""

from __future__ import annotations

import os

DEFAULT_BUSY_TIMEOUT_MS = 5000


def busy_timeout_ms() -> int:
    """How long a writer waits for another program's write before giving up (either engine)."""
    raw = os.environ.get("MEMDESK_BUSY_TIMEOUT_MS", "")
    return int(raw) if raw.isdigit() else DEFAULT_BUSY_TIMEOUT_MS


def busy_message(where: str) -> tuple[str, str]:
    return (
        f"the database {where} is busy: another program is writing to it",
        f"waited {busy_timeout_ms() / 1000:g} s; try again in a moment",
    )
