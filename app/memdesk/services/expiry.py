"""Everything that expires, in one list, and the actions that change an expiry.

Working memory, timeline entries (and entries given an expiry), app memories with an
expiry and Trash purge dates become ``ExpiringItem`` rows for the expiry timeline. Rows
are read with Core selects of the needed columns, so a store with many thousands of items
loads in one query per kind. Every action is one undoable history step.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from datetime import datetime, timedelta
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import Connection, Select, func, literal, null, select

from memdesk.core import lifetime
from memdesk.core.collection import collection_held
from memdesk.core.items import ItemKind, ItemRef
from memdesk.core.lifetime import has_expired
from memdesk.core.timefmt import naive_utc
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.trash import TRASHABLE
from memdesk.services.working import check_days
from memdesk.store.models import App, AppMemory, ChatSession, Document, Entry

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# The kinds of item that expire, in the timeline's order.
KINDS = (ItemKind.WORKING, ItemKind.ENTRY, ItemKind.APP_MEMORY, ItemKind.TRASH)
KIND_LABELS = {
    ItemKind.WORKING: "Working memory",
    ItemKind.ENTRY: "Entries",
    ItemKind.APP_MEMORY: "App memories",
    ItemKind.TRASH: "Trash",
}

EXTEND = "extend"
PIN = "pin"
EXPIRE = "expire"
DELETE = "delete"
RESTORE = "restore"

# Enough for a tooltip; a timeline of thousands of items never holds whole documents.
TEXT_CHARS = 400


class ExpiringItem(NamedTuple):
    """One bar of the timeline (a named tuple: thousands are made per load, cheaply)."""

    kind: ItemKind  # one of KINDS
    ref: str  # namespace, entry id, app memory id, or trash id ("memory:42")
    label: str
    text: str
    app_id: str | None
    start: datetime  # when it was written (deleted, for Trash)
    end: datetime | None  # when it expires (is purged); None when pinned
    pinned: bool
    expired_at_now: bool

    @property
    def item(self) -> ItemRef:
        return ItemRef(self.kind, self.ref)

    def actions(self) -> tuple[str, ...]:
        """The actions that make sense for this item now."""
        if self.kind == ItemKind.TRASH:
            return (RESTORE,)
        actions = [EXTEND]
        if not self.pinned:
            actions.append(PIN)
        if self.pinned or not self.expired_at_now:
            actions.append(EXPIRE)
        actions.append(DELETE)
        return tuple(actions)


def until(when: datetime, now: datetime) -> str:
    """``in 2 days``, ``in 5 hours``, ``in 1 minute``; ``expired`` when it has passed."""
    seconds = (when - now).total_seconds()
    if seconds <= 0:
        return "expired"
    for unit, size in (("day", 86400), ("hour", 3600)):
        if seconds >= size:
            count = round(seconds / size)
            return f"in {count} {unit}{'s' if count != 1 else ''}"
    count = max(1, round(seconds / 60))
    return f"in {count} minute{'s' if count != 1 else ''}"


def describe_upcoming(item: ExpiringItem, now: datetime) -> str:
    """One line of the "expires next" list: ``in 2 days: working memory``."""
    assert item.end is not None
    what = f"purged from Trash — {item.label}" if item.kind == ItemKind.TRASH else item.label
    return f"{until(item.end, now)}: {what}"


def _snippet(text: str, width: int = 60) -> str:
    """The start of the text on one line (cheap: it runs for thousands of rows per load)."""
    short = text[:width].replace("\n", " ")
    return short if len(text) <= width else short[: width - 1] + "…"


def _app_memory_label(app_id: str, text: str) -> str:
    return f"{app_id}: {_snippet(text)}"


def _text(column: Any) -> Any:
    return func.substr(column, 1, TEXT_CHARS)


class Expiry:
    """Everything that expires (working memory, entries, app memories, Trash) in one list,
    and the actions that change an expiry, each one undoable step. An action names its item
    by the ``kind`` and ``ref`` that ``items()`` and ``upcoming()`` give it."""

    def __init__(self, app: Memdesk) -> None:
        self.app = app
        self.ctx = app.ctx

    @property
    def _retention(self) -> timedelta:
        return timedelta(days=self.ctx.settings.memory.timeline_retention_days)

    @property
    def _trash_retention(self) -> timedelta:
        return timedelta(days=self.ctx.settings.memory.trash_retention_days)

    # -- reading -------------------------------------------------------------------------

    def items(self, now: datetime | None = None) -> list[ExpiringItem]:
        """Every item that expires, by kind, then by when it was written.

        ``now``: an aware time is converted to UTC, a naive one means UTC.
        """
        now = naive_utc(now) or self.ctx.now()
        with self.ctx.store.read() as session, collection_held():
            conn = session.connection()  # Core rows: no ORM bookkeeping for thousands of them
            # Two entry queries, so that the timeline's index serves the first; their two
            # sorted runs are merged by one sort (in C, a merge), not item by item in Python.
            entries = [
                *self._entries(conn, self._timeline_query().order_by(Entry.created_at), now),
                *self._entries(conn, self._other_entry_query().order_by(Entry.created_at), now),
            ]
            entries.sort(key=attrgetter("start"))
            return [
                *self._working(conn, self._working_query().order_by(Document.updated_at), now),
                *entries,
                *self._app_memories(conn, self._app_memory_query().order_by(AppMemory.created_at), now),
                *self._trash(conn, now),
            ]

    def upcoming(self, now: datetime | None = None, limit: int = 10) -> list[ExpiringItem]:
        """What expires next (after ``now``), soonest first; pinned items never do.

        ``now``: an aware time is converted to UTC, a naive one means UTC.
        """
        now = naive_utc(now) or self.ctx.now()
        with self.ctx.store.read() as session:
            conn = session.connection()
            per_kind = [
                list(self._working(conn, self._working_upcoming(now, limit), now)),
                list(self._entries(conn, self._entry_upcoming_fixed(now, limit), now)),
                list(self._entries(conn, self._entry_upcoming_retention(now, limit), now)),
                list(self._app_memories(conn, self._app_memory_upcoming(now, limit), now)),
                list(self._trash(conn, now, limit)),
            ]
        merged = heapq.merge(*per_kind, key=lambda item: item.end)
        return [item for _, item in zip(range(limit), merged, strict=False)]

    def app_labels(self) -> dict[str, str]:
        """Each app's display name (its id when it has none)."""
        with self.ctx.store.read() as session:
            return {
                row.app_id: row.name or row.app_id for row in session.execute(select(App.app_id, App.name))
            }

    # -- working memory ------------------------------------------------------------------

    def _working_query(self) -> Select[Any]:
        return select(
            Document.namespace,
            _text(Document.content),
            Document.updated_at,
            Document.expires_at,
            Document.pinned,
        ).where(
            Document.namespace.like("%/working"),
            Document.deleted_at.is_(None),
            func.trim(Document.content) != "",
        )

    def _working_upcoming(self, now: datetime, limit: int) -> Select[Any]:
        return (
            self._working_query()
            .where(Document.pinned.is_not(True), Document.expires_at > now)
            .order_by(Document.expires_at)
            .limit(limit)
        )

    def _working(self, conn: Connection, query: Select[Any], now: datetime) -> Iterator[ExpiringItem]:
        own = self._own_working_namespace()
        for namespace, text, updated_at, own_expiry, pinned in conn.execute(query).all():
            end = lifetime.expires_at(bool(pinned), own_expiry, updated_at)
            label = "working memory" if namespace == own else f"working memory ({namespace})"
            yield ExpiringItem(
                ItemKind.WORKING,
                namespace,
                label,
                text,
                None,
                updated_at,
                end,
                bool(pinned),
                has_expired(end, now),
            )

    def _own_working_namespace(self) -> str | None:
        namespace = self.ctx.settings.memory.user_namespace
        return f"{namespace}/working" if namespace else None

    # -- entries -------------------------------------------------------------------------

    def _entry_query(self) -> Select[Any]:
        return select(
            Entry.id,
            Entry.key,
            Entry.category,
            _text(Entry.content),
            Entry.created_at,
            Entry.expires_at,
            Entry.pinned,
        ).where(Entry.deleted_at.is_(None))

    def _timeline_query(self) -> Select[Any]:
        return self._entry_query().where(Entry.category == "timeline")

    def _other_entry_query(self) -> Select[Any]:
        """Knowledge entries expire only when given an expiry."""
        return self._entry_query().where(Entry.category != "timeline", Entry.expires_at.is_not(None))

    def _entry_upcoming_fixed(self, now: datetime, limit: int) -> Select[Any]:
        return (
            self._entry_query()
            .where(Entry.pinned.is_not(True), Entry.expires_at > now)
            .order_by(Entry.expires_at)
            .limit(limit)
        )

    def _entry_upcoming_retention(self, now: datetime, limit: int) -> Select[Any]:
        # Without their own expiry, timeline entries expire in the order they were written.
        return (
            self._timeline_query()
            .where(
                Entry.pinned.is_not(True),
                Entry.expires_at.is_(None),
                Entry.created_at > now - self._retention,
            )
            .order_by(Entry.created_at)
            .limit(limit)
        )

    def _entries(self, conn: Connection, query: Select[Any], now: datetime) -> Iterator[ExpiringItem]:
        retention_days = self._retention.days
        for entry_id, key, category, text, created_at, own_expiry, pinned in conn.execute(query).all():
            retention = lifetime.entry_retention(category, retention_days)
            end = lifetime.expires_at(bool(pinned), own_expiry, created_at, retention)
            yield ExpiringItem(
                ItemKind.ENTRY,
                str(entry_id),
                f"{category} {key}",
                text,
                None,
                created_at,
                end,
                bool(pinned),
                has_expired(end, now),
            )

    # -- app memories --------------------------------------------------------------------

    def _app_memory_query(self) -> Select[Any]:
        return select(
            AppMemory.id,
            AppMemory.app_id,
            _text(AppMemory.content),
            AppMemory.created_at,
            AppMemory.expires_at,
            AppMemory.pinned,
        ).where(AppMemory.deleted_at.is_(None), AppMemory.expires_at.is_not(None))

    def _app_memory_upcoming(self, now: datetime, limit: int) -> Select[Any]:
        return (
            self._app_memory_query()
            .where(AppMemory.pinned.is_not(True), AppMemory.expires_at > now)
            .order_by(AppMemory.expires_at)
            .limit(limit)
        )

    def _app_memories(self, conn: Connection, query: Select[Any], now: datetime) -> Iterator[ExpiringItem]:
        for memory_id, app_id, text, created_at, own_expiry, pinned in conn.execute(query).all():
            end = lifetime.expires_at(bool(pinned), own_expiry, created_at)
            yield ExpiringItem(
                ItemKind.APP_MEMORY,
                str(memory_id),
                _app_memory_label(app_id, text),
                text,
                app_id,
                created_at,
                end,
                bool(pinned),
                has_expired(end, now),
            )

    # -- Trash ---------------------------------------------------------------------------

    def _trash(self, conn: Connection, now: datetime, limit: int | None = None) -> Iterator[ExpiringItem]:
        """Trash items with their purge dates; with ``limit``, only the next ones, soonest first."""
        retention = self._trash_retention
        # Per kind: the trash id prefix, then id, deleted_at, label, text, app.
        queries = (
            select(
                literal(TRASHABLE[AppMemory][0]),
                AppMemory.id,
                AppMemory.deleted_at,
                AppMemory.app_id,  # the label is made below, as for live app memories
                _text(AppMemory.content),
                AppMemory.app_id,
            ),
            select(
                literal(TRASHABLE[Entry][0]),
                Entry.id,
                Entry.deleted_at,
                Entry.category + literal(" ") + Entry.key,
                _text(Entry.content),
                null(),
            ),
            select(
                literal(TRASHABLE[Document][0]),
                Document.id,
                Document.deleted_at,
                Document.namespace,
                _text(Document.content),
                null(),
            ),
            select(
                literal(TRASHABLE[ChatSession][0]),
                ChatSession.id,
                ChatSession.deleted_at,
                literal("session ") + ChatSession.id,
                ChatSession.channel + literal(" conversation"),
                null(),
            ),
        )
        per_kind: list[list[ExpiringItem]] = []
        for query in queries:
            deleted_at = query.selected_columns[2]
            query = query.where(deleted_at.is_not(None))
            query = query.order_by(deleted_at)
            if limit is not None:
                query = query.where(deleted_at > now - retention).limit(limit)
            per_kind.append(
                [
                    ExpiringItem(
                        ItemKind.TRASH,
                        f"{prefix}:{key}",
                        _app_memory_label(app_id, text) if app_id else label,
                        text,
                        app_id,
                        deleted,
                        deleted + retention,
                        False,
                        deleted + retention <= now,
                    )
                    for prefix, key, deleted, label, text, app_id in conn.execute(query).all()
                ]
            )
        return heapq.merge(*per_kind, key=lambda item: item.start)

    # -- actions (each one undoable step) ------------------------------------------------

    def extend(self, kind: ItemKind, ref: str, days: int) -> None:
        """Push the expiry ``days`` later (from now, if it has passed); unpins."""
        check_days(days)
        self._act(kind, ref, EXTEND, days)

    def pin(self, kind: ItemKind, ref: str) -> None:
        """Never expire."""
        self._act(kind, ref, PIN)

    def expire(self, kind: ItemKind, ref: str) -> None:
        """Expire now: it leaves the prompt and stays visible, greyed."""
        self._act(kind, ref, EXPIRE)

    def delete(self, kind: ItemKind, ref: str) -> None:
        """Move to Trash."""
        self._act(kind, ref, DELETE)

    def restore(self, kind: ItemKind, ref: str) -> None:
        """Take an item out of Trash."""
        if kind != ItemKind.TRASH:
            raise BadInputError(f"only items in Trash can be restored, not a {kind} item")
        self.app.trash.restore(ref)

    def _act(self, kind: ItemKind, ref: str, action: str, days: int = 0) -> None:
        if kind == ItemKind.WORKING:
            self._act_working(ref, action, days)
        elif kind == ItemKind.ENTRY:
            self._act_entry(_int_ref(ref), action, days)
        elif kind == ItemKind.APP_MEMORY:
            self._act_app_memory(_int_ref(ref), action, days)
        elif kind == ItemKind.TRASH:
            raise BadInputError("an item in Trash can only be restored", "restore it first")
        else:
            raise BadInputError(f"unknown kind {kind!r}", f"expected one of {', '.join(KINDS)}")

    def _act_working(self, namespace: str, action: str, days: int) -> None:
        if action == DELETE:
            self.app.documents.delete(namespace)
            return
        session_id = self._working_session(namespace)
        if action == EXTEND:
            self.app.working.extend(days, session_id)
        elif action == PIN:
            self.app.working.pin(session_id)
        else:
            self.app.working.expire(session_id)

    def _working_session(self, namespace: str) -> str | None:
        """The session argument that addresses ``namespace`` in the working-memory service."""
        user_namespace = self.ctx.settings.memory.user_namespace
        if user_namespace and namespace == f"{user_namespace}/working":
            return None
        if not user_namespace and namespace.startswith("sessions/") and namespace.endswith("/working"):
            return namespace.removeprefix("sessions/").removesuffix("/working")
        raise BadInputError(
            f"{namespace} is not the working memory in use",
            "it was written under another memory.user_namespace setting; delete it or change the setting",
        )

    def _act_entry(self, entry_id: int, action: str, days: int) -> None:
        if action == DELETE:
            if not self.app.entries.delete([entry_id]):
                raise NotFoundError(f"no entry {entry_id}")
        else:
            self.app.entries.adjust_expiry(
                entry_id, extend_days=days, pin=action == PIN, expire=action == EXPIRE
            )

    def _act_app_memory(self, memory_id: int, action: str, days: int) -> None:
        if action == DELETE:
            self.app.apps.delete([memory_id])
            return
        self.app.apps.adjust_expiry(memory_id, extend_days=days, pin=action == PIN, expire=action == EXPIRE)


def _int_ref(ref: str) -> int:
    if not ref.isdigit():
        raise BadInputError(f"{ref!r} is not an item id")
    return int(ref)
