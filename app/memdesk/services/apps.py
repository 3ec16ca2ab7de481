"""Per-app memories: capped per app, strictly isolated, oldest out first when over the cap."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import DateTime, Integer, bindparam, func, outerjoin, select
from sqlalchemy.orm import Session

from memdesk.core.lifetime import expires_at, has_expired
from memdesk.core.records import APP_IMPORTANCE_SCALE
from memdesk.core.timefmt import naive_utc
from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.context import Context, check_text
from memdesk.services.expirable import adjust_expiry
from memdesk.store.lifetime import memory_live
from memdesk.store.models import App, AppMemory
from memdesk.store.prefix import starts_with

_APP_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,199}$")


@dataclass(frozen=True)
class AppSummary:
    app_id: str
    name: str | None
    live: int | None  # None: not counted (``list_apps(counted=False)``)
    total: int | None  # live + expired, not in Trash
    cap: int
    private: bool = False  # no assistant reads it (``services.privacy``)

    @property
    def label(self) -> str:
        return self.name or self.app_id

    @property
    def counted(self) -> bool:
        return self.live is not None

    @property
    def over_cap(self) -> bool:
        return self.live is not None and self.live > self.cap


@dataclass(frozen=True)
class MemoryRow:
    """An app memory as it is now; ``expired`` when its ``expires_at`` has passed."""

    id: int
    app_id: str
    content: str
    created_at: datetime
    updated_at: datetime
    importance: int | None
    tags: str
    expires_at: datetime | None
    pinned: bool
    source_session: str | None
    expired: bool


def memory_row(memory: AppMemory, now: datetime) -> MemoryRow:
    """A detached, frozen copy of ``memory`` as seen at ``now``."""
    expired = has_expired(expires_at(bool(memory.pinned), memory.expires_at, memory.created_at), now)
    return MemoryRow(
        id=memory.id,
        app_id=memory.app_id,
        content=memory.content,
        created_at=memory.created_at,
        updated_at=memory.updated_at,
        importance=memory.importance,
        tags=memory.tags,
        expires_at=memory.expires_at,
        pinned=memory.pinned,
        source_session=memory.source_session,
        expired=expired,
    )


# Built once: every prompt reads its app's live memories, and building the statement took
# longer than running it.
_LIVE_MEMORIES = (
    select(AppMemory)
    .where(AppMemory.app_id == bindparam("app_id"), memory_live(bindparam("now", type_=DateTime())))
    .order_by(AppMemory.updated_at.desc(), AppMemory.id.desc())
    .limit(bindparam("limit"))
)

# Straight from the driver: every prompt with an app reads it, and SQLAlchemy's own work
# took ten times as long as the query.
_NAME = "SELECT name FROM apps WHERE app_id = :app_id"


@dataclass(frozen=True)
class AppInfo:
    app_id: str
    name: str | None  # what the window shows instead of the id, if set
    created_at: datetime


@dataclass(frozen=True)
class AddResult:
    """The memory added, and those moved to Trash to keep the app's cap."""

    memory: MemoryRow
    removed: list[MemoryRow]  # moved to Trash to keep the cap


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


def check_app_id(app_id: object) -> str:
    if not isinstance(app_id, str) or not _APP_ID.match(app_id):
        raise BadInputError(
            f"app id {app_id!r} is not valid",
            "use letters, digits and . _ - : @ (up to 200 characters)",
        )
    return app_id


def check_importance(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
        raise BadInputError(f"importance must be {APP_IMPORTANCE_SCALE}, not {value!r}")
    return value


def normalise_tags(tags: Iterable[str]) -> str:
    cleaned: list[str] = []
    for tag in tags:
        if not isinstance(tag, str) or not tag.strip() or len(tag) > 50 or " " in tag.strip():
            raise BadInputError(f"tag {tag!r} is not valid", "tags are single words up to 50 characters")
        if tag.strip() not in cleaned:
            cleaned.append(tag.strip())
    return " ".join(cleaned)


class AppMemories:
    """Apps and their memories: short lines a prompt for that app carries, up to the app's cap."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def cap(self) -> int:
        return self.ctx.settings.memory.app_memory_cap

    def list_apps(self, counted: bool = True) -> list[AppSummary]:
        """Every app by id, with its live and total memory counts; ``counted=False`` leaves
        them out (``summaries`` counts a few later), which at 10,000 apps is the difference
        between reading the apps and reading every memory."""
        if not counted:
            with self.ctx.store.read() as session:
                rows = session.connection().execute(select(App.app_id, App.name).order_by(App.app_id)).all()
                private = _private_apps(session)
            return [
                AppSummary(app_id, name, None, None, self.cap, app_id in private) for app_id, name in rows
            ]
        return self._counted(None)

    def summaries(self, app_ids: list[str]) -> list[AppSummary]:
        """The apps ``app_ids`` names, counted, by id (an unknown id is left out)."""
        return self._counted(app_ids) if app_ids else []

    def memory_count(self) -> int:
        """App memories not in Trash, live or expired, over every app."""
        query = select(func.count()).select_from(AppMemory).where(AppMemory.deleted_at.is_(None))
        with self.ctx.store.read() as session:
            return session.scalar(query) or 0

    def _counted(self, app_ids: list[str] | None) -> list[AppSummary]:
        """One query of plain rows: the counts joined to the apps, from a covering index."""
        now = self.ctx.now()
        live = func.coalesce(func.sum((memory_live(now) & AppMemory.id.is_not(None)).cast(Integer)), 0)
        joined = outerjoin(App, AppMemory, (AppMemory.app_id == App.app_id) & AppMemory.deleted_at.is_(None))
        query = select(App.app_id, App.name, live, func.count(AppMemory.id)).select_from(joined)
        if app_ids is not None:
            query = query.where(App.app_id.in_(app_ids))
        query = query.group_by(App.app_id, App.name).order_by(App.app_id)
        with self.ctx.store.read() as session:
            rows = session.connection().execute(query).all()  # Core rows: no ORM loading for 10,000
            private = _private_apps(session)
        cap = self.cap
        return [
            AppSummary(app_id, name, int(live), int(total), cap, app_id in private)
            for app_id, name, live, total in rows
        ]

    def ids_starting(self, prefix: str, limit: int) -> list[str]:
        """App ids that start with ``prefix``, in order, at most ``limit`` (for completions)."""
        query = select(App.app_id).where(starts_with(App.app_id, prefix))
        with self.ctx.store.read() as session:
            return list(session.scalars(query.order_by(App.app_id).limit(limit)))

    def memories(self, app_id: str, include_expired: bool = True) -> list[MemoryRow]:
        """The app's memories not in Trash, most recently updated first."""
        query = select(AppMemory).where(AppMemory.app_id == app_id, AppMemory.deleted_at.is_(None))
        if not include_expired:
            query = query.where(memory_live(self.ctx.now()))
        query = query.order_by(AppMemory.updated_at.desc(), AppMemory.id.desc())
        now = self.ctx.now()
        with self.ctx.store.read() as session:
            return [memory_row(memory, now) for memory in session.scalars(query)]

    def live_memories(
        self, app_id: str, now: datetime, limit: int, session: Session | None = None
    ) -> list[MemoryRow]:
        """The app's live memories at ``now`` (aware: converted to UTC), most recently updated
        first; read in ``session`` when given (a prompt reads in one snapshot)."""
        at = naive_utc(now)
        with self.ctx.store.read(within=session) as session:
            found = session.scalars(_LIVE_MEMORIES, {"app_id": app_id, "now": at, "limit": limit})
            return [memory_row(memory, at) for memory in found]

    def get(self, memory_id: int) -> MemoryRow:
        """One memory by its id (``NotFoundError`` when it is in Trash or unknown)."""
        with self.ctx.store.read() as session:
            return memory_row(self._live(session, memory_id), self.ctx.now())

    def app(self, app_id: str) -> AppInfo | None:
        with self.ctx.store.read() as session:
            known = session.get(App, app_id)
            return AppInfo(known.app_id, known.name, known.created_at) if known else None

    def label(self, app_id: str, session: Session) -> str:
        """What the app is called, read in ``session``: its name, or its id when it has none."""
        found = self.ctx.store.raw_rows(session, _NAME, {"app_id": app_id})
        return (found[0][0] if found else None) or app_id

    def set_name(self, app_id: str, name: str | None) -> None:
        with self.ctx.change(f"Rename app {app_id}") as session:
            app = self._app(session, check_app_id(app_id))
            app.name = check_text(name, "app name", 200) if name else None

    def add(
        self,
        app_id: str,
        content: str,
        created_at: datetime | None = None,
        importance: int | None = None,
        tags: Iterable[str] = (),
        source_session: str | None = None,
        expires_at: datetime | None = None,
    ) -> AddResult:
        """Add a memory; over the cap, the oldest other memory goes to Trash (FIFO).

        ``created_at`` and ``expires_at``: an aware time is converted to UTC, a naive one means UTC.
        """
        created_at, expires_at = naive_utc(created_at), naive_utc(expires_at)
        check_app_id(app_id)
        max_chars = self.ctx.settings.memory.app_memory_max_chars
        content = check_text(content, "memory text", max_chars).strip()
        importance = check_importance(importance)
        tag_text = normalise_tags(tags)
        now = self.ctx.now()
        with self.ctx.change(f"Add memory to {app_id}") as session:
            self._app(session, app_id)
            memory = AppMemory(
                app_id=app_id,
                content=content,
                created_at=created_at or now,
                updated_at=created_at or now,
                importance=importance,
                tags=tag_text,
                source_session=source_session,
                expires_at=expires_at,
            )
            session.add(memory)
            session.flush()
            removed = self.enforce_cap(app_id, keep=memory.id)
            return AddResult(memory_row(memory, now), removed)

    def enforce_cap(self, app_id: str, keep: int | None = None) -> list[MemoryRow]:
        """Move the oldest live memories (never ``keep``) to Trash until the cap holds.

        Inside another change (adding, an applied compaction) it joins that change's step."""
        now = self.ctx.now()
        with self.ctx.change(f"Keep the cap of {app_id}") as session:
            live = list(
                session.scalars(
                    select(AppMemory)
                    .where(AppMemory.app_id == app_id, memory_live(now))
                    .order_by(AppMemory.created_at, AppMemory.id)
                )
            )
            excess = len(live) - self.cap
            removed = [memory for memory in live if memory.id != keep][: max(excess, 0)]
            for memory in removed:
                memory.deleted_at = now
            return [memory_row(memory, now) for memory in removed]

    def edit(self, memory_id: int, content: str, seen_updated_at: datetime | None = None) -> MemoryRow:
        """New text for a memory; with ``seen_updated_at`` (what a table showed), refuse to
        write over a change made meanwhile by another program."""
        content = check_text(content, "memory text", self.ctx.settings.memory.app_memory_max_chars)
        with self.ctx.change(f"Edit {self._name(memory_id)}") as session:
            memory = self._live(session, memory_id)
            if seen_updated_at is not None and memory.updated_at != seen_updated_at:
                raise ConflictError(f"memory {memory_id} was changed by another program while you edited it")
            memory.content = content.strip()
            memory.updated_at = self.ctx.now()
            session.flush()
            return memory_row(memory, self.ctx.now())

    def page(self, app_id: str) -> AppPage:
        """The app's memories for its page in the window."""
        known = self.app(app_id)
        return AppPage(app_id, known.name if known else None, self.cap, self.memories(app_id))

    def update(
        self,
        memory_id: int,
        importance: int | None = None,
        tags: Iterable[str] | None = None,
        expires_at: datetime | None = None,
        clear_expiry: bool = False,
    ) -> MemoryRow:
        """Change importance, tags or expiry.

        ``expires_at``: an aware time is converted to UTC, a naive one means UTC.
        """
        expires_at = naive_utc(expires_at)
        with self.ctx.change(f"Change {self._name(memory_id)}") as session:
            memory = self._live(session, memory_id)
            if importance is not None:
                memory.importance = check_importance(importance)
            if tags is not None:
                memory.tags = normalise_tags(tags)
            if expires_at is not None or clear_expiry:
                memory.expires_at = expires_at
            session.flush()
            return memory_row(memory, self.ctx.now())

    def adjust_expiry(
        self, memory_id: int, extend_days: int = 0, pin: bool = False, expire: bool = False
    ) -> MemoryRow:
        label = "Pin" if pin else "Expire" if expire else f"Extend by {extend_days} days:"
        with self.ctx.change(f"{label} {self._name(memory_id)}") as session:
            memory = self._live(session, memory_id)
            adjust_expiry(memory, self.ctx.now(), memory.expires_at, extend_days, pin, expire)
            session.flush()
            return memory_row(memory, self.ctx.now())

    def delete(self, memory_ids: Iterable[int]) -> int:
        """Move memories to Trash as one undoable step; how many."""
        ids = list(memory_ids)
        label = f"Delete {self._name(ids[0])}" if len(ids) == 1 else f"Delete {len(ids)} memories"
        with self.ctx.change(label) as session:
            for memory_id in ids:
                self._live(session, memory_id).deleted_at = self.ctx.now()
        return len(ids)

    def purge(self, app_id: str) -> int:
        """Move every memory of the app to Trash (one undoable step)."""
        with self.ctx.change(f"Purge app {app_id}") as session:
            memories = list(
                session.scalars(
                    select(AppMemory).where(AppMemory.app_id == app_id, AppMemory.deleted_at.is_(None))
                )
            )
            if session.get(App, app_id) is None:
                raise NotFoundError(f"no app {app_id!r}")
            for memory in memories:
                memory.deleted_at = self.ctx.now()
            return len(memories)

    def _app(self, session: Session, app_id: str) -> App:
        app = session.get(App, app_id)
        if app is None:
            app = App(app_id=app_id, created_at=self.ctx.now())
            session.add(app)
        return app

    def _name(self, memory_id: int) -> str:
        """A memory as History names it: "memory 21 of fitness" (its app, when there is one)."""
        with self.ctx.store.read() as session:
            app_id = session.scalar(select(AppMemory.app_id).where(AppMemory.id == memory_id))
        return f"memory {memory_id}" if app_id is None else f"memory {memory_id} of {app_id}"

    @staticmethod
    def _live(session: Session, memory_id: int) -> AppMemory:
        memory = session.get(AppMemory, memory_id)
        if memory is None or memory.deleted_at is not None:
            raise NotFoundError(f"no app memory {memory_id}")
        return memory


def _private_apps(session: Session) -> frozenset[str]:
    # Imported here: privacy checks app ids with this module's check_app_id.
    from memdesk.services.privacy import TargetKind, private_names

    return private_names(session, TargetKind.APP)
