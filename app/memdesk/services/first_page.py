"""The Knowledge table's first page, read with plain ``sqlite3`` before the store layer loads.

A window that reopens on Knowledge shows these rows while SQLAlchemy and the services are
still loading, then hands them to its usual model. The statement is the entries service's
own (``store.listing``), so both read the same rows in the same order. Anything out of the
ordinary is left to the usual way of opening, which explains it: a store that is not a
SQLite file, one at another schema version (to upgrade, or newer), a locked or damaged file,
and one without a Knowledge entry (the window may open on Welcome).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from memdesk.core.entry_rows import EntryQuery, EntryRow, StoredEntry, entry_row
from memdesk.core.privacy import TargetKind, parse_stored
from memdesk.core.records import KNOWLEDGE
from memdesk.store.listing import (
    ENTRY_ROW_COLUMNS,
    ENTRY_SORT_COLUMNS,
    LISTED_ENTRIES,
    PRIVATE_TARGETS,
    SCHEMA_VERSION_SQL,
    ordered_entries,
)
from memdesk.store.schema_version import SCHEMA_VERSION

QUERY = EntryQuery(KNOWLEDGE)  # what the Knowledge table shows first
_PAGE = ordered_entries(
    ENTRY_ROW_COLUMNS, LISTED_ENTRIES, ENTRY_SORT_COLUMNS[QUERY.sort], QUERY.descending, limited=True
)


@dataclass(frozen=True)
class FirstPage:
    rows: list[EntryRow]
    private_keys: frozenset[str]  # the keys among them shown with a lock


def read_first_page(db_file: Path | None, now: datetime, limit: int) -> FirstPage | None:
    """The first ``limit`` rows of Knowledge in ``db_file``, or None where the usual way of
    opening should decide (see above). ``db_file`` None: the store is not a SQLite file."""
    if db_file is None or not db_file.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{db_file.resolve().as_uri()}?mode=ro", uri=True, timeout=0)
    except sqlite3.Error:
        return None
    try:
        version = conn.execute(SCHEMA_VERSION_SQL).fetchone()
        if version is None or version[0] != str(SCHEMA_VERSION):
            return None
        stored = [
            _stored(values) for values in conn.execute(_PAGE, {"category": QUERY.category, "limit": limit})
        ]
        if not stored:
            return None
        private = (parse_stored(target) for (target,) in conn.execute(PRIVATE_TARGETS))
        keys = frozenset(target.name for target in private if target.kind is TargetKind.ENTRY)
    except (sqlite3.Error, ValueError):  # locked, damaged, or not what this Memdesk wrote
        return None
    finally:
        conn.close()
    # Knowledge never expires by retention, so the settings' retention is not needed here.
    rows = [entry_row(entry, now, retention_days=0) for entry in stored]
    return FirstPage(rows, keys & {row.key for row in rows})


def _stored(values: tuple[Any, ...]) -> StoredEntry:
    """A row as sqlite3 returns it (dates as text, flags as numbers), typed as the store types it."""
    entry_id, key, content, category, importance, session_id, created, updated, pinned, expires = values
    return StoredEntry(
        entry_id,
        key,
        content,
        category,
        importance,
        session_id,
        datetime.fromisoformat(created),
        datetime.fromisoformat(updated),
        bool(pinned),
        None if expires is None else datetime.fromisoformat(expires),
    )
