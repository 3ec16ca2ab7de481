"""Background work for the window: reads in a pool, writes one at a time, results on the GUI thread.

    tasks.read(lambda app: app.apps.memories("calendar"), on_done=self._show)
    tasks.write(lambda app: app.apps.delete(ids), on_done=..., label="Deleting memories")
    tasks.write(save, changes=Changes.of(ItemKind.DOCUMENT))  # only document views refresh

Functions run on worker threads with the Qt-free ``Memdesk`` object and must never touch
widgets. ``on_done``/``on_error`` are called on the GUI thread. An error without its own
``on_error`` goes to the ``error`` signal, which the main window shows in one dialog.
A task given an ``owner`` widget is disowned when that widget is deleted: its outcome is
dropped instead of reaching a closed panel.
After every successful write ``store_changed`` is emitted with the ``Changes`` the write
declared (everything, when it declared nothing) so the views that show them refresh, and
``own_revision`` holds the store revision that write left, so a watcher can tell our own
writes from another program's.
A runner may be made before the store is open (the window's first page is shown before
the store layer loads): work asked of it waits, and no thread starts, until ``start``.
"""

from __future__ import annotations

import itertools
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import shiboken6
from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QObject, QTimer, Signal, Slot

from memdesk.core.items import EVERYTHING, Changes

if TYPE_CHECKING:  # the store layer loads after the window is on screen
    from memdesk.services.memdesk import Memdesk

T = TypeVar("T")


class _Delivery(QObject):
    """Tells the GUI thread, through a queued signal, that a task has finished."""

    finished = Signal(int)  # the task's key


@dataclass(eq=False)
class _Task:
    """One piece of background work, held by the GUI thread alone.

    A worker is handed the task's key; it looks the task up while it runs and tells the GUI
    thread only once it has let go of it. So the callbacks, and the widgets they hold, are
    released on the GUI thread: PySide deletes a widget whose last reference goes on another
    thread later, at whatever the GUI thread is doing then, and that crashes.
    """

    run: Callable[[Callable[[Memdesk], Any]], Any]  # the runner's way to call ``fn``
    fn: Callable[[Memdesk], Any]
    on_done: Callable[[Any], Any] | None
    on_error: Callable[[Exception], Any] | None
    changes: Changes | None  # None: a read
    owner: QObject | None
    outcome: tuple[Exception | None, Any] | None = None  # (error, result) once it has run


class TaskRunner(QObject):
    error = Signal(Exception)
    store_changed = Signal(Changes)
    # A write of ours committed something (one may find nothing to change; a long write, such
    # as a compaction run recording itself, is bookkeeping rather than a save).
    saved = Signal()
    busy_changed = Signal(bool)
    # message, done, total (total 0: unknown). A task may emit it from its worker thread: the
    # connection to GUI-thread receivers is queued. A labelled task emits (label, 0, 0) on start.
    progress = Signal(str, int, int)

    def __init__(
        self, app: Memdesk | None = None, parent: QObject | None = None, read_workers: int = 2
    ) -> None:
        super().__init__(parent)
        self._app = app
        self._waiting: list[tuple[ThreadPoolExecutor, int]] = []  # asked for before ``start``
        self.own_revision = 0
        self._committed = False  # a write since the last delivery saved something
        self._readers = ThreadPoolExecutor(max_workers=read_workers, thread_name_prefix="memdesk-read")
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memdesk-write")
        self._delivery = _Delivery()
        self._delivery.finished.connect(self._deliver)
        self._tasks: dict[int, _Task] = {}
        self._keys = itertools.count()
        self._pending = 0
        self._pending_writes = 0
        self._lock = threading.Lock()
        self._closed = False

    @property
    def app(self) -> Memdesk:
        if self._app is None:
            raise RuntimeError("the task runner has not been started with an open store")
        return self._app

    @property
    def started(self) -> bool:
        return self._app is not None

    def start(self, app: Memdesk) -> None:
        """Run on ``app`` from now on, beginning with the work asked for so far."""
        self._app = app
        waiting, self._waiting = self._waiting, []
        for pool, key in waiting:
            self._run_in(pool, key)

    @property
    def busy(self) -> bool:
        return self._pending > 0

    @property
    def writing(self) -> bool:
        """A write of ours is queued, running, or not yet delivered."""
        return self._pending_writes > 0

    def read(
        self,
        fn: Callable[[Memdesk], T],
        on_done: Callable[[T], Any] | None = None,
        on_error: Callable[[Exception], Any] | None = None,
        label: str = "",
        owner: QObject | None = None,
    ) -> None:
        """Run ``fn`` in the pool of readers; its outcome is dropped if ``owner`` is deleted first."""
        self._submit(self._readers, self._run_read, fn, on_done, on_error, None, label, owner)

    def write(
        self,
        fn: Callable[[Memdesk], T],
        on_done: Callable[[T], Any] | None = None,
        on_error: Callable[[Exception], Any] | None = None,
        label: str = "",
        changes: Changes = EVERYTHING,
        owner: QObject | None = None,
    ) -> None:
        """Run ``fn`` after every earlier write; ``changes`` says what it may change."""
        self._submit(self._writer, self._run_write, fn, on_done, on_error, changes, label, owner)

    def long_write(
        self,
        fn: Callable[[Memdesk], T],
        on_done: Callable[[T], Any] | None = None,
        on_error: Callable[[Exception], Any] | None = None,
        label: str = "",
        changes: Changes = EVERYTHING,
        owner: QObject | None = None,
    ) -> None:
        """A long job that writes a little as it goes (a compaction run records itself and
        its failures): it runs beside the queue of writes rather than holding it up, and
        what it wrote counts as ours even when it fails."""
        self._submit(self._readers, self._run_long_write, fn, on_done, on_error, changes, label, owner)

    def _submit(
        self,
        pool: ThreadPoolExecutor,
        run: Callable[[Callable[[Memdesk], Any]], Any],
        fn: Callable[[Memdesk], Any],
        on_done: Callable[[Any], Any] | None,
        on_error: Callable[[Exception], Any] | None,
        changes: Changes | None,  # None: a read
        label: str,
        owner: QObject | None,
    ) -> None:
        if self._closed:  # a late timer after shutdown: do nothing rather than crash
            return
        key = next(self._keys)
        with self._lock:
            self._tasks[key] = _Task(run, fn, on_done, on_error, changes, owner)
            self._pending += 1
            self._pending_writes += changes is not None
            if self._pending == 1:
                QTimer.singleShot(0, self, lambda: self.busy_changed.emit(True))
        if label:
            self.progress.emit(label, 0, 0)
        if self._app is None:
            self._waiting.append((pool, key))
        else:
            self._run_in(pool, key)

    def _run_in(self, pool: ThreadPoolExecutor, key: int) -> None:
        # Run (or cancelled by shutdown), the task is delivered; only its key crosses threads.
        pool.submit(self._work, key).add_done_callback(lambda _finished: self._delivery.finished.emit(key))

    def _work(self, key: int) -> None:
        """On a worker thread: run the task and keep its outcome for the GUI thread.

        No variable here holds the task or its outcome: an error's traceback keeps this
        frame, and through it would keep the task's callbacks alive in a reference cycle."""
        self._keep_outcome(key, _outcome(*self._job(key)))

    def _job(self, key: int) -> tuple[Callable[[Callable[[Memdesk], Any]], Any], Callable[[Memdesk], Any]]:
        with self._lock:
            task = self._tasks[key]
        return task.run, task.fn

    def _keep_outcome(self, key: int, outcome: tuple[Exception | None, Any]) -> None:
        with self._lock:
            self._tasks[key].outcome = outcome

    def _run_read(self, fn: Callable[[Memdesk], T]) -> T:
        return fn(self.app)

    def _run_write(self, fn: Callable[[Memdesk], T]) -> T:
        written = self.app.store.written_revisions  # the revisions this process committed
        last = written[-1] if written else None
        result = fn(self.app)
        with self._lock:  # a write that committed nothing (the text was already so) saved nothing
            self._committed = self._committed or (written[-1] if written else None) != last
        # Serialized with every other write of ours, so this is the revision we left.
        self._note_own_writes()
        return result

    def _run_long_write(self, fn: Callable[[Memdesk], T]) -> T:
        try:
            return fn(self.app)
        finally:  # a failed run has still recorded itself (bookkeeping, not a save)
            self._note_own_writes()

    def _note_own_writes(self) -> None:
        """Count the store's writes so far as ours, so the watcher does not report them as
        another program's."""
        revision = self.app.store.revision()
        with self._lock:
            self.own_revision = max(self.own_revision, revision)

    @Slot(int)
    def _deliver(self, key: int) -> None:
        with self._lock:
            task = self._tasks.pop(key)
            self._pending -= 1
            self._pending_writes -= task.changes is not None
            idle = self._pending == 0
        if self._closed or task.outcome is None:  # shut down, or cancelled by the shutdown
            return
        error, result = task.outcome
        # A deleted owner (a closed panel) gets nothing; what the store and the window need still goes.
        owner_gone = task.owner is not None and not shiboken6.isValid(task.owner)
        try:
            if error is None:
                if task.on_done is not None and not owner_gone:
                    task.on_done(result)
                if task.changes is not None:
                    self.store_changed.emit(task.changes)
                    with self._lock:
                        committed, self._committed = self._committed, False
                    if committed:
                        self.saved.emit()
            elif task.on_error is None:
                self.error.emit(error)
            elif not owner_gone:
                task.on_error(error)
        finally:
            if idle:
                self.busy_changed.emit(False)

    def wait_idle(self, timeout_ms: int = 5000) -> bool:
        """Process events until every task has been delivered (for tests and shutdown)."""
        deadline = QDeadlineTimer(timeout_ms)
        while self._pending and not deadline.hasExpired():
            QCoreApplication.processEvents()
            time.sleep(0.001)  # let workers run instead of spinning
        return self._pending == 0

    def wait_writes(self, timeout_ms: int = 5000) -> bool:
        """Process events until every write has landed; reads may still run (for closing)."""
        deadline = QDeadlineTimer(timeout_ms)
        while self._pending_writes and not deadline.hasExpired():
            QCoreApplication.processEvents()
            time.sleep(0.001)
        return self._pending_writes == 0

    def shutdown(self) -> None:
        """Drop queued reads, interrupt running ones, and let every write finish."""
        self._closed = True
        self._readers.shutdown(wait=False, cancel_futures=True)
        if self._app is not None:
            self._app.store.interrupt_reads()
        self._readers.shutdown(wait=True)
        self._writer.shutdown(wait=True)


def _outcome(
    run: Callable[[Callable[[Memdesk], Any]], Any], fn: Callable[[Memdesk], Any]
) -> tuple[Exception | None, Any]:
    """(None, what ``run(fn)`` returned), or (the error it raised, None).

    The error is handed over, never raised again where it is received: raising it there would
    add that frame, and the callbacks it holds, to the traceback. Its frames' variables are
    dropped for the same reason (a closed panel kept alive by an error, then freed by the
    garbage collector on a worker thread); the traceback still prints."""
    try:
        return None, run(fn)
    except Exception as exc:
        _drop_frame_variables(exc)
        return exc, None


def _drop_frame_variables(exc: BaseException | None) -> None:
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        traceback.clear_frames(exc.__traceback__)
        exc = exc.__cause__ or exc.__context__
