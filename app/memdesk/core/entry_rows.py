"""Knowledge and timeline entries as tables show them, without the store layer: which
entries a table asks for (``EntryQuery``), a row as it is shown (``EntryRow``), and the rule
that makes one from an entry's stored values, for the services and the window's first page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from memdesk.core import lifetime
from memdesk.core.records import CATEGORIES
from memdesk.errors import BadInputError


@dataclass(frozen=True)
class EntryQuery:
    """Which entries a table shows, in which order."""

    category: str
    sort: str = "created"
    descending: bool = True
    text: str = ""


@dataclass(frozen=True)
class EntryRow:
    """An entry as it is now: ``expires_at`` is when it leaves recall (a timeline entry's
    retention applied; None when pinned or never), ``expired`` whether it has."""

    id: int
    key: str
    content: str
    category: str
    importance: float
    session_id: str | None
    created_at: datetime
    updated_at: datetime
    pinned: bool
    expires_at: datetime | None  # effective: retention applied, None when pinned or never
    expired: bool


class StoredEntry(NamedTuple):
    """An entry's columns as stored, read in this order wherever rows are read."""

    id: int
    key: str
    content: str
    category: str
    importance: float
    session_id: str | None
    created_at: datetime
    updated_at: datetime
    pinned: bool
    expires_at: datetime | None  # its own expiry, before retention


def check_category(category: object) -> str:
    if category not in CATEGORIES:
        raise BadInputError(f"category {category!r} is not valid", "expected knowledge or timeline")
    return str(category)


def effective_expiry(entry: StoredEntry, retention_days: int) -> datetime | None:
    """When ``entry`` expires under ``core.lifetime``'s rule (None: never)."""
    retention = lifetime.entry_retention(entry.category, retention_days)
    return lifetime.expires_at(bool(entry.pinned), entry.expires_at, entry.created_at, retention)


def entry_row(entry: StoredEntry, now: datetime, retention_days: int) -> EntryRow:
    """The row a table shows: the stored columns in their order, the expiry retention gives."""
    expires = effective_expiry(entry, retention_days)
    shown = entry._replace(pinned=bool(entry.pinned), expires_at=expires)
    return EntryRow(*shown, expired=lifetime.has_expired(expires, now))
