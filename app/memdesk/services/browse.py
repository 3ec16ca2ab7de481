"""Reads shaped for the window's tables, and the few guarded edits they make.

The services hand out whole lists. A table over a million entries instead needs the ids in
the chosen order (one query, ~8 MB) and then rows for the part on screen only, so sorting
and filtering happen in SQL here. Rows are plain frozen dataclasses for the GUI thread.

Edits made from a table carry the ``updated_at`` the person saw: if another program changed
the item meanwhile, ``ConflictError`` is raised instead of silently writing over it.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from memdesk.core.lifetime import has_expired
from memdesk.core.search_text import like_pattern
from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.apps import MemoryRow, memory_row
from memdesk.services.entries import check_category, check_key, effective_expiry
from memdesk.store.fulltext import FullText
from memdesk.store.lifetime import entry_expiry, entry_not_live_parts
from memdesk.store.models import AppMemory, Entry, Message

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

_WORD = re.compile(r"\w+", re.UNICODE)
_MAX_FILTER_WORDS = 16
_CHUNK = 500  # ids per IN (...) list, well under SQLite's limit on bound values

# Sort keys to columns. Only these fragments ever reach the SQL text; values are bound.
ENTRY_SORT_COLUMNS: dict[str, str] = {
    "key": "key",
    "content": "content",
    "importance": "importance",
    "session": "session_id",
    "created": "created_at",
    "updated": "updated_at",
}
ENTRY_SORTS = (*ENTRY_SORT_COLUMNS, "expires")


@dataclass(frozen=True)
class EntryQuery:
    """Which entries a table shows, in which order."""

    category: str
    sort: str = "created"
    descending: bool = True
    text: str = ""


@dataclass(frozen=True)
class EntryRow:
    id: int
    key: str
    content: str
    category: str
    importance: float
    session_id: str | None
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None  # effective: retention applied, None when pinned or never
    expired: bool


@dataclass(frozen=True)
class AppPage:
    """One app's memories (not in Trash), with what its header shows."""

    app_id: str
    name: str | None
    cap: int
    rows: list[MemoryRow]

    @property
    def label(self) -> str:
        return self.name or self.app_id

    @property
    def live(self) -> int:
        return sum(not row.expired for row in self.rows)


@dataclass(frozen=True)
class MessageRow:
    id: int
    role: str
    content: str
    created_at: datetime
    consolidated: bool


def filter_words(words_text: str) -> list[str]:
    """The words of a filter box's text, each looked for as the start of a word."""
    return list(dict.fromkeys(_WORD.findall(words_text.lower())))[:_MAX_FILTER_WORDS]


def _entry_where(query: EntryQuery, params: dict[str, object], fulltext: FullText) -> str:
    where = "category = :category AND deleted_at IS NULL"
    params["category"] = check_category(query.category)
    wanted = query.text.strip()
    words = filter_words(wanted)
    if words:
        condition, match_params = fulltext.entry_prefix_filter(words)
        where += f" AND {condition}"
        params.update(match_params)
    elif wanted:  # only punctuation: no words for the index, so look for the characters
        where += (
            " AND (lower(key) LIKE lower(:like) ESCAPE '\\' OR lower(content) LIKE lower(:like) ESCAPE '\\')"
        )
        params["like"] = like_pattern(wanted)
    return where


def entry_ids(app: Memdesk, query: EntryQuery, limit: int | None = None) -> array[int]:
    """Ids of the entries ``query`` selects, in its order (ties broken by id)."""
    params: dict[str, object] = {}
    where = _entry_where(query, params, app.store.fulltext)
    order = "DESC" if query.descending else "ASC"
    # Empty values first going up, last going down, whatever the engine's default.
    nulls = "NULLS LAST" if query.descending else "NULLS FIRST"
    with app.store.read() as session:
        sort = _sort_sql(query.sort, app.entries.retention_days, session)
        sql = f"SELECT id FROM entries WHERE {where} ORDER BY {sort} {order} {nulls}, id {order}"
        if limit is not None:
            sql += " LIMIT :limit"
            params["limit"] = limit
        # The raw cursor: a million plain ints come back several times faster than as rows.
        return array("q", [row[0] for row in app.store.raw_rows(session, sql, params)])


def _sort_sql(sort: str, retention_days: int, session: Session) -> str:
    if sort in ENTRY_SORT_COLUMNS:
        return ENTRY_SORT_COLUMNS[sort]
    if sort != "expires":
        raise BadInputError(f"cannot sort entries by {sort!r}", f"expected one of {', '.join(ENTRY_SORTS)}")
    # The rule's own expression, made text for the raw cursor; its only value is a number.
    expiry = entry_expiry(retention_days)
    return str(expiry.compile(bind=session.get_bind(), compile_kwargs={"literal_binds": True}))


def live_entry_count(app: Memdesk, category: str) -> int:
    """Entries of ``category`` not in Trash and not expired (``store.lifetime.entry_live``).

    Counted as the whole category, which its index alone answers, less the few entries
    that are not live, each kind found through a narrow index: milliseconds for a million.
    """
    category = check_category(category)
    count = select(func.count()).select_from(Entry)
    queries = [count.where(Entry.category == category)] + [
        count.where(part) for part in entry_not_live_parts(app.now(), app.entries.retention_days, category)
    ]
    with app.store.read() as session:
        total, *dead = (session.scalar(query) or 0 for query in queries)
    return total - sum(dead)


def entry_rows(app: Memdesk, ids: Sequence[int]) -> list[EntryRow]:
    """The rows of ``ids`` in that order; ids no longer in the database are left out.

    Rows moved to Trash since the ids were read are still returned, so a table shows them
    until its next refresh instead of blank lines."""
    now = app.now()
    retention = app.entries.retention_days
    with app.store.read() as session:
        found = {entry.id: entry for entry in session.scalars(select(Entry).where(Entry.id.in_(list(ids))))}
    rows = []
    for entry_id in ids:
        entry = found.get(entry_id)
        if entry is not None:
            rows.append(_entry_row(entry, now, retention))
    return rows


def _entry_row(entry: Entry, now: datetime, retention: int) -> EntryRow:
    expires = effective_expiry(entry, retention)
    return EntryRow(
        id=entry.id,
        key=entry.key,
        content=entry.content,
        category=entry.category,
        importance=entry.importance,
        session_id=entry.session_id,
        created_at=entry.created_at,
        updated_at=entry.updated_at,
        expires_at=expires,
        expired=has_expired(expires, now),
    )


def add_entry(app: Memdesk, key: str, content: str, category: str) -> EntryRow:
    """A new entry; unlike ``upsert`` it refuses a key that is already in use."""
    key = check_key(key)
    with app.ctx.change(f"Add entry {key}") as session:
        existing = session.scalar(select(Entry).where(Entry.key == key))
        if existing is not None and existing.deleted_at is None:
            raise ConflictError(
                f"an entry with the key {key!r} exists already ({existing.category})",
                "choose another key, or edit that entry",
            )
        entry = app.entries.upsert_in(session, key, content, check_category(category))
        session.flush()
        return _entry_row(entry, app.now(), app.entries.retention_days)


def edit_entry(
    app: Memdesk,
    entry_id: int,
    seen_updated_at: datetime | None,
    content: str | None = None,
    importance: float | None = None,
) -> EntryRow:
    """Change an entry's content and/or importance; ``seen_updated_at=None`` skips the check."""
    with app.ctx.change(f"Edit entry {entry_id}") as session:
        entry = session.get(Entry, entry_id)
        if entry is None or entry.deleted_at is not None:
            raise NotFoundError(f"no entry {entry_id}", "it may have been deleted by another program")
        if seen_updated_at is not None and entry.updated_at != seen_updated_at:
            raise ConflictError(f"entry {entry.key} was changed by another program while you edited it")
        saved = app.entries.upsert(
            entry.key, entry.content if content is None else content, entry.category, importance
        )
        return _entry_row(saved, app.now(), app.entries.retention_days)


def delete_entries(app: Memdesk, ids: Sequence[int]) -> int:
    """Move entries to Trash as one undoable step; returns how many were moved."""
    label = f"Delete entry {ids[0]}" if len(ids) == 1 else f"Delete {len(ids)} entries"
    now = app.now()
    moved = 0
    with app.ctx.change(label) as session:
        for start in range(0, len(ids), _CHUNK):
            chunk = list(ids[start : start + _CHUNK])
            for entry in session.scalars(
                select(Entry).where(Entry.id.in_(chunk), Entry.deleted_at.is_(None))
            ):
                entry.deleted_at = now
                moved += 1
    return moved


def app_page(app: Memdesk, app_id: str) -> AppPage:
    known = app.apps.app(app_id)
    rows = app.apps.memories(app_id)
    return AppPage(app_id, known.name if known else None, app.apps.cap, rows)


def edit_memory(app: Memdesk, memory_id: int, content: str, seen_updated_at: datetime | None) -> MemoryRow:
    """``AppMemories.edit`` that refuses to write over a change made meanwhile elsewhere."""
    with app.ctx.change(f"Edit memory {memory_id}") as session:
        current = session.get(AppMemory, memory_id)
        if current is not None and seen_updated_at is not None and current.updated_at != seen_updated_at:
            raise ConflictError(f"memory {memory_id} was changed by another program while you edited it")
        return memory_row(app.apps.edit(memory_id, content), app.now())


def message_rows(app: Memdesk, session_id: str) -> list[MessageRow]:
    chat = app.sessions.get(session_id)
    with app.store.read() as session:
        messages = session.scalars(
            select(Message).where(Message.session_id == session_id).order_by(Message.id)
        )
        return [
            MessageRow(m.id, m.role, m.content, m.created_at, m.id <= chat.last_consolidated_message_id)
            for m in messages
        ]
