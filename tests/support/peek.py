"""Looking straight into a test's store, whichever engine holds it, as a check from outside.

The store is the data folder's SQLite file, or the PostgreSQL database in ``MEMDESK_DB``
(``store_url`` puts it there).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text


def store_url(data_dir: Path) -> str:
    return os.environ.get("MEMDESK_DB") or f"sqlite:///{data_dir / 'memdesk.sqlite3'}"


def rows(data_dir: Path, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    engine = create_engine(store_url(data_dir))
    try:
        with engine.connect() as conn:
            return [tuple(row) for row in conn.execute(text(sql), params)]
    finally:
        engine.dispose()


def scalar(data_dir: Path, sql: str, **params: Any) -> Any:
    return rows(data_dir, sql, **params)[0][0]
