"""Noticing changes made by other programs (an assistant using the CLI) while the window is open.

Every committed write, from any process, raises the store's revision. On a SQLite file the
watcher reads it twice a second (a tiny query, off the GUI thread); when it grew past what
our own writes account for, ``external_change`` fires and the main window refreshes what is
on screen. A PostgreSQL server announces each write itself (``Store.listen``), so nothing
polls a remote server: a revision our own writes did not make is another machine's.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from memdesk.gui.tasks import TaskRunner

POLL_MS = 500


class StoreWatcher(QObject):
    external_change = Signal()
    unreadable = Signal(str)  # a poll failed (the file is busy or gone): said in the status bar
    # From the listener's thread to the GUI thread (queued, since the watcher lives here).
    _announced = Signal(int)
    _listen_failed = Signal(str)

    def __init__(self, tasks: TaskRunner, interval_ms: int = POLL_MS, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.known: int | None = None
        self._in_flight = False
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.check)
        self._listener: Any = None
        self._announced.connect(self._got_announcement)
        self._listen_failed.connect(self.unreadable)

    def start(self) -> None:
        store = self.tasks.app.store
        if store.pushes_changes:
            self._listener = store.listen(
                self._announced.emit, lambda exc: self._listen_failed.emit(str(exc))
            )
        else:
            self._timer.start()
            self.check()

    def stop(self) -> None:
        self._timer.stop()
        if self._listener is not None:
            self._listener.stop()
            self._listener = None

    def _got_announcement(self, revision: int) -> None:
        if revision not in self.tasks.app.store.written_revisions:
            self.external_change.emit()

    def check(self) -> None:
        if self._in_flight:  # a slow disk: never queue polls behind each other
            return
        self._in_flight = True
        self.tasks.read(lambda app: app.store.revision(), on_done=self._got, on_error=self._failed)

    def _got(self, revision: int) -> None:
        self._in_flight = False
        if self.known is None:
            self.known = revision
            return
        if revision <= self.known:
            return
        if revision > self.tasks.own_revision and self.tasks.writing:
            # One of our writes may have committed without being counted as ours yet:
            # decide on the next poll, once it has been.
            return
        self.known = revision
        # Our own writes already refreshed the views (TaskRunner.store_changed).
        if revision > self.tasks.own_revision:
            self.external_change.emit()

    def _failed(self, exc: Exception) -> None:
        self._in_flight = False
        self.unreadable.emit(str(exc))
