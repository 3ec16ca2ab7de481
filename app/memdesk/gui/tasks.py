"""Background work for the window: reads in a pool, writes one at a time, results on the GUI thread.

    tasks.read(lambda app: app.apps.memories("calendar"), on_done=self._show)
    tasks.write(lambda app: app.apps.delete(ids), on_done=..., label="Deleting memories")
    tasks.write(save, changes=Changes.of(ItemKind.DOCUMENT))  # only document views refresh

Functions run on worker threads with the Qt-free ``Memdesk`` object and must never touch
widgets. ``on_done``/``on_error`` are called on the GUI thread. An error without its own
``on_error`` goes to the ``error`` signal, which the main window shows in one dialog.
After every successful write ``store_changed`` is emitted with the ``Changes`` the write
declared (everything, when it declared nothing) so the views that show them refresh, and
``own_revision`` holds the store revision that write left, so a watcher can tell our own
writes from another program's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QCoreApplication, QDeadlineTimer, QObject, QTimer, Signal, Slot

from memdesk.core.items import EVERYTHING, Changes

if TYPE_CHECKING:  # the store layer loads after the window is on screen
    from memdesk.services.memdesk import Memdesk

T = TypeVar("T")


class _Delivery(QObject):
    """Carries a finished future to the GUI thread through a queued signal."""

    finished = Signal(object, object, object)  # future, (on_done, changes or None), on_error


class TaskRunner(QObject):
    error = Signal(Exception)
    store_changed = Signal(Changes)
    busy_changed = Signal(bool)
    # message, done, total (total 0: unknown). A task may emit it from its worker thread: the
    # connection to GUI-thread receivers is queued. A labelled task emits (label, 0, 0) on start.
    progress = Signal(str, int, int)

    def __init__(self, app: Memdesk, parent: QObject | None = None, read_workers: int = 2) -> None:
        super().__init__(parent)
        self.app = app
        self.own_revision = 0
        self._readers = ThreadPoolExecutor(max_workers=read_workers, thread_name_prefix="memdesk-read")
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="memdesk-write")
        self._delivery = _Delivery()
        self._delivery.finished.connect(self._deliver)
        self._pending = 0
        self._pending_writes = 0
        self._lock = threading.Lock()
        self._closed = False

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
    ) -> Future[T]:
        return self._submit(self._readers, fn, on_done, on_error, changes=None, label=label)

    def write(
        self,
        fn: Callable[[Memdesk], T],
        on_done: Callable[[T], Any] | None = None,
        on_error: Callable[[Exception], Any] | None = None,
        label: str = "",
        changes: Changes = EVERYTHING,
    ) -> Future[T]:
        """Run ``fn`` after every earlier write; ``changes`` says what it may change."""
        return self._submit(self._writer, fn, on_done, on_error, changes=changes, label=label)

    def long_write(
        self,
        fn: Callable[[Memdesk], T],
        on_done: Callable[[T], Any] | None = None,
        on_error: Callable[[Exception], Any] | None = None,
        label: str = "",
        changes: Changes = EVERYTHING,
    ) -> Future[T]:
        """A long job that writes a little as it goes (a compaction run records itself and
        its failures): it runs beside the queue of writes rather than holding it up, and
        what it wrote counts as ours even when it fails."""
        return self._submit(self._readers, fn, on_done, on_error, changes=changes, label=label)

    def _submit(
        self,
        pool: ThreadPoolExecutor,
        fn: Callable[[Memdesk], T],
        on_done: Callable[[T], Any] | None,
        on_error: Callable[[Exception], Any] | None,
        changes: Changes | None,  # None: a read
        label: str,
    ) -> Future[T]:
        writes = changes is not None
        if self._closed:  # a late timer after shutdown: do nothing rather than crash
            cancelled: Future[T] = Future()
            cancelled.cancel()
            return cancelled
        with self._lock:
            self._pending += 1
            self._pending_writes += writes
            if self._pending == 1:
                QTimer.singleShot(0, self, lambda: self.busy_changed.emit(True))
        if label:
            self.progress.emit(label, 0, 0)
        if not writes:
            future = pool.submit(fn, self.app)
        else:
            future = pool.submit(self._run_write if pool is self._writer else self._run_long_write, fn)
        delivered = (on_done, changes)
        future.add_done_callback(lambda done: self._delivery.finished.emit(done, delivered, on_error))
        return future

    def _run_write(self, fn: Callable[[Memdesk], T]) -> T:
        result = fn(self.app)
        # Serialized with every other write of ours, so this is the revision we left.
        self._note_own_writes()
        return result

    def _run_long_write(self, fn: Callable[[Memdesk], T]) -> T:
        try:
            return fn(self.app)
        finally:  # a failed run has still recorded itself
            self._note_own_writes()

    def _note_own_writes(self) -> None:
        """Count the store's writes so far as ours, so the watcher does not report them as
        another program's."""
        revision = self.app.store.revision()
        with self._lock:
            self.own_revision = max(self.own_revision, revision)

    @Slot(object, object, object)
    def _deliver(self, future: Future, done_info: tuple, on_error: Callable | None) -> None:
        on_done, changes = done_info
        writes = changes is not None
        with self._lock:
            self._pending -= 1
            self._pending_writes -= writes
            idle = self._pending == 0
        if self._closed or future.cancelled():
            return
        try:
            result = future.result()
        except Exception as exc:  # reported through the one error path below
            if on_error is not None:
                on_error(exc)
            else:
                self.error.emit(exc)
        else:
            if on_done is not None:
                on_done(result)
            if changes is not None:
                self.store_changed.emit(changes)
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
        self.app.store.interrupt_reads()
        self._readers.shutdown(wait=True)
        self._writer.shutdown(wait=True)
