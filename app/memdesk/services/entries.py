"""Knowledge and timeline entries, keyed by a unique key."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from memdesk.core import lifetime
from memdesk.core.timefmt import naive_utc
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.context import MAX_ENTRY_CHARS, Context, check_text
from memdesk.services.expirable import adjust_expiry
from memdesk.store.models import Entry

CATEGORIES = ("knowledge", "timeline")


def check_category(category: object) -> str:
    if category not in CATEGORIES:
        raise BadInputError(f"category {category!r} is not valid", "expected knowledge or timeline")
    return str(category)


def check_key(key: object) -> str:
    key = check_text(key, "key", 300)
    if any(ch.isspace() and ch != " " for ch in key):
        raise BadInputError(f"key {key!r} contains a line break or tab")
    return key.strip()


def effective_expiry(entry: Entry, retention_days: int) -> datetime | None:
    """When ``entry`` expires under ``core.lifetime``'s rule (None: never)."""
    retention = lifetime.entry_retention(entry.category, retention_days)
    return lifetime.expires_at(bool(entry.pinned), entry.expires_at, entry.created_at, retention)


class Entries:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def retention_days(self) -> int:
        return self.ctx.settings.memory.timeline_retention_days

    def upsert(
        self,
        key: str,
        content: str,
        category: str = "knowledge",
        importance: float | None = None,
        session_id: str | None = None,
        created_at: datetime | None = None,
    ) -> Entry:
        """Add an entry, or update the one with this key (reviving it from Trash).

        ``created_at``: an aware time is converted to UTC, a naive one means UTC.
        """
        key = check_key(key)
        content = check_text(content, f"content of {key}", MAX_ENTRY_CHARS)
        category = check_category(category)
        if importance is not None and (
            isinstance(importance, bool)
            or not isinstance(importance, int | float)
            or not 0 <= importance <= 1
        ):
            raise BadInputError(f"importance must be a number from 0 to 1, not {importance!r}")
        with self.ctx.change(f"Save entry {key}") as session:
            return self.upsert_in(session, key, content, category, importance, session_id, created_at)

    def upsert_in(
        self,
        session: Session,
        key: str,
        content: str,
        category: str,
        importance: float | None = None,
        session_id: str | None = None,
        created_at: datetime | None = None,
    ) -> Entry:
        now, created_at = self.ctx.now(), naive_utc(created_at)
        entry = session.scalar(select(Entry).where(Entry.key == key))
        if entry is None:
            entry = Entry(key=key, created_at=created_at or now, importance=0.5)
            session.add(entry)
        elif entry.deleted_at is not None:
            entry.deleted_at = None
            entry.created_at = created_at or now
            entry.expires_at = None
            entry.pinned = False
        entry.content = content
        entry.category = category
        entry.updated_at = now
        if importance is not None:
            entry.importance = float(importance)
        if session_id is not None:
            entry.session_id = session_id
        return entry

    def get(self, key: str) -> Entry:
        with self.ctx.store.read() as session:
            entry = session.scalar(select(Entry).where(Entry.key == key))
            if entry is None or entry.deleted_at is not None:
                raise NotFoundError(f"no entry {key!r}")
            return entry

    def delete(self, key: str) -> None:
        with self.ctx.change(f"Delete entry {key}") as session:
            entry = session.scalar(select(Entry).where(Entry.key == key))
            if entry is None or entry.deleted_at is not None:
                raise NotFoundError(f"no entry {key!r}")
            entry.deleted_at = self.ctx.now()

    def list(self, category: str | None = None, limit: int | None = None, offset: int = 0) -> list[Entry]:
        """Entries not in Trash (expired ones included), newest first."""
        query = select(Entry).where(Entry.deleted_at.is_(None))
        if category is not None:
            query = query.where(Entry.category == check_category(category))
        query = query.order_by(Entry.created_at.desc(), Entry.id.desc()).offset(offset).limit(limit)
        with self.ctx.store.read() as session:
            return list(session.scalars(query))

    def adjust_expiry(
        self, entry_id: int, extend_days: int = 0, pin: bool = False, expire: bool = False
    ) -> Entry:
        now = self.ctx.now()
        label = "Pin" if pin else "Expire" if expire else f"Extend by {extend_days} days:"
        with self.ctx.change(f"{label} entry {entry_id}") as session:
            entry = session.get(Entry, entry_id)
            if entry is None or entry.deleted_at is not None:
                raise NotFoundError(f"no entry {entry_id}")
            current = effective_expiry(entry, self.retention_days)
            adjust_expiry(entry, now, current, extend_days, pin, expire)
            return entry
