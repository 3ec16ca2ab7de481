"""Knowledge and timeline entries, keyed by a unique key, and the reads a table over a
million of them needs.

Rows go out as frozen ``EntryRow``s. A table gets the ids in the chosen order (one query,
~8 MB for a million) and then rows for the part on screen only, so sorting and filtering
happen in SQL. Edits made from a table carry the ``updated_at`` the person saw: if another
program changed the entry meanwhile, ``ConflictError`` is raised instead of writing over it.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from memdesk.core.entry_rows import (
    EntryQuery,
    EntryRow,
    StoredEntry,
    check_category,
    effective_expiry,
    entry_row,
)
from memdesk.core.records import ENTRY_IMPORTANCE_SCALE, MAX_NAME_CHARS
from memdesk.core.search_text import like_pattern
from memdesk.core.timefmt import naive_utc
from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.context import MAX_ENTRY_CHARS, Context, check_text
from memdesk.services.expirable import adjust_expiry
from memdesk.store.lifetime import entry_expiry, entry_live, entry_not_live_parts
from memdesk.store.listing import ENTRY_SORT_COLUMNS, LISTED_ENTRIES, ordered_entries
from memdesk.store.models import Entry
from memdesk.store.prefix import starts_with

_WORD = re.compile(r"\w+", re.UNICODE)
_MAX_FILTER_WORDS = 16
_CHUNK = 500  # ids per IN (...) list, well under SQLite's limit on bound values

ENTRY_SORTS = (*ENTRY_SORT_COLUMNS, "expires")


def check_key(key: object) -> str:
    key = check_text(key, "key", MAX_NAME_CHARS)
    if any(ch.isspace() and ch != " " for ch in key):
        raise BadInputError(f"key {key!r} contains a line break or tab")
    return key.strip()


def stored(entry: Entry) -> StoredEntry:
    """An entry's stored values, which ``core.entry_rows`` makes a row of."""
    return StoredEntry(*(getattr(entry, column) for column in StoredEntry._fields))


def filter_words(words_text: str) -> list[str]:
    """The words of a filter box's text, each looked for as the start of a word."""
    return list(dict.fromkeys(_WORD.findall(words_text.lower())))[:_MAX_FILTER_WORDS]


def check_entry_importance(importance: float | None) -> None:
    if importance is not None and (
        isinstance(importance, bool) or not isinstance(importance, int | float) or not 0 <= importance <= 1
    ):
        raise BadInputError(f"importance must be {ENTRY_IMPORTANCE_SCALE}, not {importance!r}")


class Entries:
    """Knowledge and timeline entries, each under a unique key; recall searches them."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def retention_days(self) -> int:
        return self.ctx.settings.memory.timeline_retention_days

    def _row(self, entry: Entry) -> EntryRow:
        return entry_row(stored(entry), self.ctx.now(), self.retention_days)

    def upsert(
        self,
        key: str,
        content: str,
        category: str = "knowledge",
        importance: float | None = None,
        session_id: str | None = None,
        created_at: datetime | None = None,
        max_chars: int = MAX_ENTRY_CHARS,
    ) -> EntryRow:
        """Add an entry, or update the one with this key (reviving it from Trash).

        ``created_at``: an aware time is converted to UTC, a naive one means UTC. Inside
        another change (an applied compaction) it joins that change's step.
        """
        key = check_key(key)
        content = check_text(content, f"content of {key}", max_chars)
        category = check_category(category)
        check_entry_importance(importance)
        with self.ctx.change(f"Save entry {key}") as session:
            entry = self._upsert(session, key, content, category, importance, session_id, created_at)
            session.flush()
            return self._row(entry)

    def _upsert(
        self,
        session: Session,
        key: str,
        content: str,
        category: str,
        importance: float | None,
        session_id: str | None,
        created_at: datetime | None,
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

    def add(self, key: str, content: str, category: str) -> EntryRow:
        """A new entry; unlike ``upsert`` it refuses a key that is already in use."""
        key = check_key(key)
        with self.ctx.change(f"Add entry {key}") as session:
            existing = session.scalar(select(Entry).where(Entry.key == key))
            if existing is not None and existing.deleted_at is None:
                raise ConflictError(
                    f"an entry with the key {key!r} exists already ({existing.category})",
                    "choose another key, or edit that entry",
                )
            return self.upsert(key, content, category)

    def edit(
        self,
        entry_id: int,
        seen_updated_at: datetime | None,
        content: str | None = None,
        importance: float | None = None,
    ) -> EntryRow:
        """Change an entry's content and/or importance; ``seen_updated_at=None`` skips the check."""
        with self.ctx.change(f"Edit entry {self._name(entry_id)}") as session:
            entry = session.get(Entry, entry_id)
            if entry is None or entry.deleted_at is not None:
                raise NotFoundError(f"no entry {entry_id}", "it may have been deleted by another program")
            if seen_updated_at is not None and entry.updated_at != seen_updated_at:
                raise ConflictError(f"entry {entry.key} was changed by another program while you edited it")
            return self.upsert(
                entry.key, entry.content if content is None else content, entry.category, importance
            )

    def get(self, key: str) -> EntryRow:
        """The entry with this key, expired or not (``NotFoundError`` when none is live)."""
        with self.ctx.store.read() as session:
            entry = session.scalar(select(Entry).where(Entry.key == key))
            if entry is None or entry.deleted_at is not None:
                raise NotFoundError(f"no entry {key!r}")
            return self._row(entry)

    def keys_starting(self, prefix: str, limit: int) -> list[str]:
        """Keys of live entries that start with ``prefix``, in order, at most ``limit`` (for
        completions: the key's index finds them among a million)."""
        query = select(Entry.key).where(starts_with(Entry.key, prefix))
        query = query.where(entry_live(self.ctx.now(), self.retention_days)).order_by(Entry.key).limit(limit)
        with self.ctx.store.read() as session:
            return list(session.scalars(query))

    def delete(self, ids: Sequence[int]) -> int:
        """Move entries to Trash as one undoable step; returns how many were moved."""
        now = self.ctx.now()
        moved = 0
        with self.ctx.change(self._delete_label(ids)) as session:
            for start in range(0, len(ids), _CHUNK):
                chunk = list(ids[start : start + _CHUNK])
                for entry in session.scalars(
                    select(Entry).where(Entry.id.in_(chunk), Entry.deleted_at.is_(None))
                ):
                    entry.deleted_at = now
                    moved += 1
        return moved

    def _delete_label(self, ids: Sequence[int]) -> str:
        if len(ids) != 1:
            return f"Delete {len(ids)} entries"
        return f"Delete entry {self._name(ids[0])}"

    def _name(self, entry_id: int) -> str:
        """An entry as History names it: by its key (its id only when there is none)."""
        with self.ctx.store.read() as session:
            key = session.scalar(select(Entry.key).where(Entry.id == entry_id))
        return key if key is not None else str(entry_id)

    def delete_key(self, key: str) -> None:
        """Move the entry with this key to Trash (``NotFoundError`` when there is none)."""
        if not self.delete([self.get(key).id]):
            raise NotFoundError(f"no entry {key!r}")

    def list(self, category: str | None = None, limit: int | None = None, offset: int = 0) -> list[EntryRow]:
        """Entries not in Trash (expired ones included), newest first."""
        query = select(Entry).where(Entry.deleted_at.is_(None))
        if category is not None:
            query = query.where(Entry.category == check_category(category))
        query = query.order_by(Entry.created_at.desc(), Entry.id.desc()).offset(offset).limit(limit)
        with self.ctx.store.read() as session:
            return [self._row(entry) for entry in session.scalars(query)]

    def adjust_expiry(
        self, entry_id: int, extend_days: int = 0, pin: bool = False, expire: bool = False
    ) -> EntryRow:
        now = self.ctx.now()
        label = "Pin" if pin else "Expire" if expire else f"Extend by {extend_days} days:"
        with self.ctx.change(f"{label} entry {self._name(entry_id)}") as session:
            entry = session.get(Entry, entry_id)
            if entry is None or entry.deleted_at is not None:
                raise NotFoundError(f"no entry {entry_id}")
            current = effective_expiry(stored(entry), self.retention_days)
            adjust_expiry(entry, now, current, extend_days, pin, expire)
            session.flush()
            return self._row(entry)

    def ids(self, query: EntryQuery, limit: int | None = None) -> array[int]:
        """Ids of the entries ``query`` selects, in its order (ties broken by id)."""
        params: dict[str, object] = {}
        where = self._where(query, params)
        with self.ctx.store.read() as session:
            sql = ordered_entries(
                "id", where, self._sort_sql(query.sort, session), query.descending, limit is not None
            )
            if limit is not None:
                params["limit"] = limit
            # The raw cursor: a million plain ints come back several times faster than as rows.
            return array("q", [row[0] for row in self.ctx.store.raw_rows(session, sql, params)])

    def _where(self, query: EntryQuery, params: dict[str, object]) -> str:
        where = LISTED_ENTRIES
        params["category"] = check_category(query.category)
        wanted = query.text.strip()
        words = filter_words(wanted)
        if words:
            condition, match_params = self.ctx.store.fulltext.entry_prefix_filter(words)
            where += f" AND {condition}"
            params.update(match_params)
        elif wanted:  # only punctuation: no words for the index, so look for the characters
            contains = "LIKE lower(:like) ESCAPE '\\'"
            where += f" AND (lower(key) {contains} OR lower(content) {contains})"
            params["like"] = like_pattern(wanted)
        return where

    def _sort_sql(self, sort: str, session: Session) -> str:
        if sort in ENTRY_SORT_COLUMNS:
            return ENTRY_SORT_COLUMNS[sort]
        if sort != "expires":
            raise BadInputError(
                f"cannot sort entries by {sort!r}", f"expected one of {', '.join(ENTRY_SORTS)}"
            )
        # The rule's own expression, made text for the raw cursor; its only value is a number.
        expiry = entry_expiry(self.retention_days)
        return str(expiry.compile(bind=session.get_bind(), compile_kwargs={"literal_binds": True}))

    def live_count(self, category: str) -> int:
        """Entries of ``category`` not in Trash and not expired (``store.lifetime.entry_live``).

        Counted as the whole category, which its index alone answers, less the few entries
        that are not live, each kind found through a narrow index: milliseconds for a million.
        """
        category = check_category(category)
        count = select(func.count()).select_from(Entry)
        queries = [count.where(Entry.category == category)] + [
            count.where(part) for part in entry_not_live_parts(self.ctx.now(), self.retention_days, category)
        ]
        with self.ctx.store.read() as session:
            total, *dead = (session.scalar(query) or 0 for query in queries)
        return total - sum(dead)

    def rows(self, ids: Sequence[int]) -> list[EntryRow]:
        """The rows of ``ids`` in that order; ids no longer in the database are left out.

        Rows moved to Trash since the ids were read are still returned, so a table shows them
        until its next refresh instead of blank lines."""
        columns = [getattr(Entry, column) for column in StoredEntry._fields]
        with self.ctx.store.read() as session:
            found = {
                entry.id: entry
                for entry in map(
                    StoredEntry._make, session.execute(select(*columns).where(Entry.id.in_(list(ids))))
                )
            }
        now, retention_days = self.ctx.now(), self.retention_days
        return [entry_row(found[entry_id], now, retention_days) for entry_id in ids if entry_id in found]
