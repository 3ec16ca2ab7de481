"""The read log: which assistant read which items, when, and through which tool.

Only references are kept (entry keys, app memory ids, document namespaces, session ids),
never the text read. A read is handed to ``record`` on the reply path, which only queues it;
one writer thread per process writes the queue in batches (a read waits up to a second for
the others made meanwhile), prunes what is older than the setting
``agents.read_log_retention_days`` as it goes, and is flushed on exit and on SIGTERM.
A log that cannot be written never fails the read: the writer keeps the records (up to a
bound) and retries, and says so in a status file the window looks at.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import (
    ColumnElement,
    Dialect,
    Integer,
    and_,
    case,
    cast,
    delete,
    false,
    func,
    insert,
    or_,
    select,
)

from memdesk.core.collection import collection_held
from memdesk.core.items import ItemKind, ItemRef, read_kind
from memdesk.core.timefmt import format_iso
from memdesk.services.context import Context
from memdesk.shutdown import before_exit
from memdesk.store.models import (
    AppMemory,
    AssistantRead,
    AssistantReadItem,
    ChatSession,
    Document,
    Entry,
)
from memdesk.store.prefix import starts_with

if TYPE_CHECKING:  # listing the log needs no composing: `memdesk access log` starts without it
    from memdesk.services.prompt import ComposedPrompt

MAX_BATCH = 500  # reads written in one transaction: short, so other writers wait little
# How long a read waits for others to be written with it. On SQLite each commit makes every
# reading connection of the store drop its page cache, so writing after each read made an
# assistant's next recall read its pages again: about twice the work back to back.
GATHER_SECONDS = 1.0
MAX_PENDING = 100_000  # reads kept while the log cannot be written; the oldest go first
RETRY_SECONDS = 2.0  # between attempts while the log cannot be written
# Between the transactions of a long backlog: SQLite's lock is not fair, and a writer that
# waits for it looks again only every so often (up to 100 ms).
YIELD_SECONDS = 0.05
PRUNE_EVERY_SECONDS = 600.0
PRUNE_CHUNK = 5000
CLOSE_WAIT_SECONDS = 30.0  # the longest an ending process waits for its reads to be written
STATUS_PREFIX = "reads-not-logged-"
# A status file not refreshed for this long belongs to a process that has gone.
STATUS_FRESH_SECONDS = 30.0
PAGE_SIZE = 200

# What a reference of each kind finds, and whether it is live (not in Trash, not purged).
_LIVE: dict[str, tuple[Any, Any]] = {
    ItemKind.ENTRY: (Entry.key, Entry.deleted_at),
    ItemKind.DOCUMENT: (Document.namespace, Document.deleted_at),
    ItemKind.APP_MEMORY: (AppMemory.id, AppMemory.deleted_at),
    ItemKind.SESSION: (ChatSession.id, ChatSession.deleted_at),
}


# Named tuples, not frozen dataclasses: a long listing makes tens of thousands of them, and
# a tuple is made several times faster.
class ReadItem(NamedTuple):
    kind: str  # an ItemKind value
    ref: str
    deleted: bool = False  # deleted since (in Trash or gone)

    def __str__(self) -> str:
        return f"{self.kind} {self.ref}" + (" (deleted)" if self.deleted else "")


class Read(NamedTuple):
    id: int
    at: datetime
    actor: str
    tool: str
    items: tuple[ReadItem, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "at": format_iso(self.at),
            "assistant": self.actor,
            "tool": self.tool,
            # Unpacked here rather than by a method of each item: a long listing has a hundred
            # thousand of them, and the calls were most of the time its JSON took.
            "items": [{"kind": kind, "ref": ref, "deleted": deleted} for kind, ref, deleted in self.items],
        }


@dataclass(frozen=True)
class LastRead:
    actor: str
    at: datetime
    tool: str


# A queued read: (time, actor, tool, ((kind, ref), ...)).
_Record = tuple[datetime, str, str, tuple[tuple[str, str], ...]]


class AccessLog:
    """Records reads off the reply path and answers what was read, by whom, when."""

    def __init__(self, ctx: Context, status_dir: Path | None = None) -> None:
        self.ctx = ctx
        self.status_dir = status_dir
        self._queue: queue.SimpleQueue[_Record | threading.Event | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self._pending: list[_Record] = []
        self._last_prune = -PRUNE_EVERY_SECONDS
        self.dropped = 0  # reads given up on because the log could not be written for too long
        self.problem: str | None = None  # why the log cannot be written now; None: it can
        before_exit(self._flush_before_exit)

    # --- recording (the reply path) ------------------------------------------------------

    def record(self, actor: str, tool: str, items: Iterable[ItemRef]) -> None:
        """Note that ``actor`` was given ``items`` by ``tool``; returns at once."""
        refs = tuple((str(item.kind), item.ref) for item in items)
        # SimpleQueue.put never blocks and may be called from a signal handler.
        self._queue.put((self.ctx.now(), actor, tool, refs))
        if self._writer is None:
            self._start()

    def _start(self) -> None:
        with self._start_lock:
            if self._writer is None:
                self._writer = threading.Thread(target=self._run, name="memdesk-read-log", daemon=True)
                self._writer.start()

    def flush(self, timeout: float | None = None) -> bool:
        """Write what is queued; False when it could not be (yet) or ``timeout`` ran out."""
        if self._writer is None:
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout) and not self._pending

    def _flush_before_exit(self) -> None:
        """On SIGTERM: what is queued is written first (several processes writing at once
        take turns at the lock, so this may take a while)."""
        self.flush(CLOSE_WAIT_SECONDS)

    def close(self, patience: float = CLOSE_WAIT_SECONDS) -> None:
        """Write what is queued (waiting ``patience`` seconds at most) and stop the writer."""
        if self._writer is not None:
            if self.flush(patience):
                self._queue.put(None)
                self._writer.join()
            self._writer = None  # else it is given up with the process (a daemon thread)
        self._set_status(None)

    # --- the writer thread ---------------------------------------------------------------

    def _run(self) -> None:
        while True:
            try:
                first = self._queue.get(timeout=RETRY_SECONDS if self._pending else None)
            except queue.Empty:
                first = threading.Event()  # time to try the pending reads again
            batch = [first]
            gather_until = time.monotonic() + GATHER_SECONDS
            urgent = not isinstance(first, tuple)
            while len(batch) < MAX_BATCH:
                # A read waits for the others made meanwhile; a flush or the end does not.
                wait = 0.0 if urgent else gather_until - time.monotonic()
                try:
                    item = self._queue.get(timeout=wait) if wait > 0 else self._queue.get_nowait()
                except queue.Empty:
                    break
                batch.append(item)
                urgent = urgent or not isinstance(item, tuple)
            self._pending.extend(item for item in batch if isinstance(item, tuple))
            if len(self._pending) > MAX_PENDING:
                self.dropped += len(self._pending) - MAX_PENDING
                del self._pending[: len(self._pending) - MAX_PENDING]
            self._write_pending()
            for item in batch:
                if isinstance(item, threading.Event):
                    item.set()
            if None in batch:
                return

    def _write_pending(self) -> None:
        try:
            while self._pending:
                chunk = self._pending[:MAX_BATCH]
                self._write(chunk)
                del self._pending[: len(chunk)]
                if self._pending:  # let other processes' writers in
                    time.sleep(YIELD_SECONDS)
            if time.monotonic() - self._last_prune >= PRUNE_EVERY_SECONDS:
                self.prune()
                self._last_prune = time.monotonic()
        # The writer must outlive any failure, or every later read would go unlogged unseen.
        except Exception as error:
            given_up = f"; reads given up so far: {self.dropped:,}" if self.dropped else ""
            self._set_status(self._describe(error) + given_up)
        else:
            self._set_status(None)

    def _describe(self, error: Exception) -> str:
        store = self.ctx.store
        if isinstance(error, store._db_errors):
            return store._translate(error).message  # "the disk is full", "the database is busy"
        return f"{type(error).__name__}: {error}"

    def _write(self, records: list[_Record]) -> None:
        rows = [{"at": at, "actor": actor, "tool": tool} for at, actor, tool, _refs in records]
        with self.ctx.store.write_engine.begin() as conn:
            # Not a store revision: a read changes no memory, and the window need not reload.
            ids = conn.scalars(
                insert(AssistantRead).returning(AssistantRead.id, sort_by_parameter_order=True), rows
            ).all()
            items = [
                {"read_id": read_id, "position": position, "kind": kind, "ref": ref}
                for read_id, (_at, _actor, _tool, refs) in zip(ids, records, strict=True)
                for position, (kind, ref) in enumerate(refs)
            ]
            if items:
                conn.execute(insert(AssistantReadItem), items)

    def prune(self) -> int:
        """Delete reads older than the retention setting, a chunk per transaction; how many."""
        days = self.ctx.settings.agents.read_log_retention_days
        cut = self.ctx.now() - timedelta(days=days)
        old = select(AssistantRead.id).where(AssistantRead.at < cut).limit(PRUNE_CHUNK)
        removed = 0
        while True:
            with self.ctx.store.write_engine.begin() as conn:
                ids = conn.scalars(old).all()
                if not ids:
                    return removed
                # Items first: the foreign key's cascade is not on for every connection.
                conn.execute(delete(AssistantReadItem).where(AssistantReadItem.read_id.in_(ids)))
                conn.execute(delete(AssistantRead).where(AssistantRead.id.in_(ids)))
            removed += len(ids)

    def _set_status(self, problem: str | None) -> None:
        """Tell the window (through a small file per process) whether reads are being logged."""
        was, self.problem = self.problem, problem
        if self.status_dir is None or (problem is None and was is None):
            return
        path = self.status_dir / f"{STATUS_PREFIX}{os.getpid()}.json"
        with contextlib.suppress(OSError):  # no room even for this: the log's notice is all we lose
            if problem is None:
                path.unlink(missing_ok=True)
            else:
                self.status_dir.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps({"store": self.ctx.store.where, "problem": problem}))

    # --- reading the log -----------------------------------------------------------------

    def reads(
        self,
        actor: str | None = None,
        since: datetime | None = None,
        item: str = "",
        before: tuple[datetime, int] | None = None,
        limit: int | None = PAGE_SIZE,
    ) -> list[Read]:
        """Reads newest first: of one assistant, since a time, of items whose reference
        starts with ``item``, older than ``before`` (a read's time and id: the next page)."""
        return self._reads(actor, since, item, before, limit)

    def all_reads(self, actor: str | None = None, since: datetime | None = None) -> Iterator[Read]:
        """Every read matching, newest first, in one query (a long listing: the command, an
        export)."""
        return iter(self._reads(actor, since, "", None, None))

    def _reads(
        self,
        actor: str | None,
        since: datetime | None,
        item: str,
        before: tuple[datetime, int] | None,
        limit: int | None,
    ) -> list[Read]:
        heads = select(AssistantRead.id, AssistantRead.at, AssistantRead.actor, AssistantRead.tool)
        if actor is not None:
            heads = heads.where(AssistantRead.actor == actor)
        if since is not None:
            heads = heads.where(AssistantRead.at >= since)
        if item:
            matching = select(AssistantReadItem.read_id).where(starts_with(AssistantReadItem.ref, item))
            heads = heads.where(AssistantRead.id.in_(matching))
        if before is not None:
            at, read_id = before
            heads = heads.where(
                or_(AssistantRead.at < at, and_(AssistantRead.at == at, AssistantRead.id < read_id))
            )
        head = heads.order_by(AssistantRead.at.desc(), AssistantRead.id.desc()).limit(limit).subquery()
        found = AssistantReadItem
        query = (
            select(head.c.id, head.c.at, head.c.actor, head.c.tool, found.kind, found.ref, _live(found))
            .select_from(head.outerjoin(found, found.read_id == head.c.id))
            .order_by(head.c.at.desc(), head.c.id.desc(), found.position)
        )
        # Every object made here is kept: collecting meanwhile would only walk them again and
        # again (a third of a long listing's time).
        with collection_held(), self.ctx.store.read() as session:
            # Straight from the driver: SQLAlchemy's rows cost more than the query itself.
            compiled = query.compile(dialect=_named_parameters(type(session.get_bind().dialect)))
            rows = self.ctx.store.raw_rows(session, str(compiled), compiled.params)
            reads: list[Read] = []
            current: tuple[Any, ...] | None = None
            items: list[ReadItem] = []
            for read_id, at, who, tool, kind, ref, live in rows:
                if current is None or current[0] != read_id:
                    if current is not None:
                        reads.append(Read(*current, tuple(items)))
                    # SQLite keeps times as text; PostgreSQL's driver returns them as times.
                    when = datetime.fromisoformat(at) if isinstance(at, str) else at
                    current, items = (read_id, when, who, tool), []
                if kind is not None:
                    items.append(ReadItem(kind, ref, not live))
            if current is not None:
                reads.append(Read(*current, tuple(items)))
        return reads

    def last_read(self, item: ItemRef) -> LastRead | None:
        """Who read ``item`` last, when and through which tool (None: no assistant has)."""
        query = (
            select(AssistantRead.actor, AssistantRead.at, AssistantRead.tool)
            .join(AssistantReadItem, AssistantReadItem.read_id == AssistantRead.id)
            .where(AssistantReadItem.ref == item.ref, AssistantReadItem.kind == str(item.kind))
            .order_by(AssistantReadItem.read_id.desc())
            .limit(1)
        )
        with self.ctx.store.read() as session:
            row = session.execute(query).first()
        return LastRead(row.actor, row.at, row.tool) if row is not None else None

    def count(self, actor: str | None = None) -> int:
        query = select(func.count()).select_from(AssistantRead)
        if actor is not None:
            query = query.where(AssistantRead.actor == actor)
        with self.ctx.store.read() as session:
            return int(session.scalar(query) or 0)


def items_in_prompt(composed: ComposedPrompt) -> list[ItemRef]:
    """The items whose text a composed prompt carries, section by section."""
    return [
        ItemRef(read_kind(item.kind), item.key)
        for section in composed.sections
        if section.included
        for item in section.items
    ]


@cache
def _named_parameters(dialect: type[Dialect]) -> Dialect:
    """The engine's SQL dialect writing ``:name`` parameters, the form ``Store.raw_rows`` takes."""
    return dialect(paramstyle="named")


def _live(found: type[AssistantReadItem]) -> ColumnElement[bool]:
    """Whether an item read still finds a live item (not in Trash, not purged): its key is in
    the table's index, and not among the items in Trash (a short list, read once). No item's
    own row is read: over a long listing those reads, spread over the file, were the cost."""
    whens = []
    for kind, (column, deleted_at) in _LIVE.items():
        ref: Any = cast(found.ref, Integer) if kind == ItemKind.APP_MEMORY else found.ref
        kept = select(column).where(column == ref).exists()
        in_trash = ref.in_(select(column).where(deleted_at.is_not(None)))
        whens.append((found.kind == str(kind), and_(kept, ~in_trash)))
    return case(*whens, else_=false())


def unlogged_reasons(status_dir: Path, store_where: str) -> list[str]:
    """Why reads of this store are not being logged, as the processes reading it reported."""
    reasons: list[str] = []
    now = time.time()
    with contextlib.suppress(OSError):
        for path in status_dir.glob(f"{STATUS_PREFIX}*.json"):
            with contextlib.suppress(OSError, ValueError):
                if now - path.stat().st_mtime > STATUS_FRESH_SECONDS:
                    continue  # left by a process that has gone
                status = json.loads(path.read_text())
                if status.get("store") == store_where:
                    reasons.append(str(status.get("problem", "")))
    return reasons
