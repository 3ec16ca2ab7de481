"""``memdesk gui``: the QApplication, the store opened as "gui", and the main window.

The window is put on screen first and the store layer (SQLAlchemy and the services,
most of the start-up time) loads after it, so a person sees the window at once; a window
reopening on Knowledge shows that table's first page, read with plain sqlite3, before it.
A store that cannot be opened (newer schema, locked, unreadable, read-only folder) is
explained in a plain dialog and the command exits 1, without a traceback; for a damaged
file the dialog offers to restore the newest backup.
``--smoke-test`` starts, opens the store, shows the window for one event-loop tick and
exits 0: what packaging runs to prove an installed build works.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QEventLoop, QTimer
from PySide6.QtWidgets import QApplication, QWidget

import memdesk
from memdesk.core.actors import WINDOW
from memdesk.core.collection import collection_held
from memdesk.core.timefmt import parse_iso, utcnow
from memdesk.errors import DamagedStoreError, MemdeskError
from memdesk.gui import dialogs, theme
from memdesk.gui.main_window import MainWindow
from memdesk.gui.recovery import offer_restore
from memdesk.gui.tasks import TaskRunner
from memdesk.paths import resolve_paths

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

FIRST_PAINT_WAIT_S = 0.5


def make_qapplication(argv: list[str]) -> QApplication:
    existing = QApplication.instance()
    qt_app = existing if isinstance(existing, QApplication) else QApplication(argv)
    qt_app.setApplicationName(memdesk.APP_NAME)
    qt_app.setApplicationDisplayName(memdesk.APP_NAME)
    qt_app.setOrganizationName(memdesk.APP_NAME)
    qt_app.setApplicationVersion(memdesk.__version__)
    qt_app.setDesktopFileName(memdesk.APP_ID)
    qt_app.setWindowIcon(theme.app_icon())
    return qt_app


def _clock(now: str | None) -> Callable[[], datetime]:
    if not now:
        return utcnow
    fixed = parse_iso(now, "--now")
    return lambda: fixed


def open_store(args: argparse.Namespace) -> Memdesk:
    # Loading the store layer makes many long-lived objects and no garbage: collecting
    # meanwhile only delays the first rows.
    with collection_held(freeze=True):
        from memdesk.services.memdesk import Memdesk

        return Memdesk.open(args.data_dir, args.db, args.config, actor=WINDOW, clock=_clock(args.now))


def open_or_explain(window: QWidget, args: argparse.Namespace) -> Memdesk | None:
    """The opened store, or None once the person has been told why it cannot be opened."""
    try:
        return open_store(args)
    except MemdeskError as exc:
        print(f"memdesk: error: {exc}", file=sys.stderr)
        if args.smoke_test:
            return None
        if isinstance(exc, DamagedStoreError) and exc.backup is not None:
            return open_or_explain(window, args) if offer_restore(window, exc) else None
        dialogs.show_error(window, exc, f"{memdesk.APP_NAME} cannot open its memory store")
        return None


def paint_now(window: MainWindow) -> None:
    """Let the window reach the screen before the slow part of the start.

    Clicks and keys wait (Qt keeps them) until the store is attached.
    """
    handle = window.windowHandle()
    deadline = time.monotonic() + FIRST_PAINT_WAIT_S
    flags = QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents
    QCoreApplication.processEvents(flags)
    while handle is not None and not handle.isExposed() and time.monotonic() < deadline:
        QCoreApplication.processEvents(flags, 10)
    QCoreApplication.processEvents(flags)


def run(args: argparse.Namespace) -> int:
    qt_app = make_qapplication(sys.argv[:1])
    paths = resolve_paths(args.data_dir, args.db, args.config)
    tasks = TaskRunner()  # its threads start once the store is open
    with collection_held(freeze=True):  # the window's widgets live as long as it does
        window = MainWindow(paths.data_dir)
        window.show_first_page(tasks, paths.db_file, _clock(args.now)())
        window.show()
        paint_now(window)
    app = open_or_explain(window, args)
    if app is None:
        window.close()
        tasks.shutdown()
        return 1
    tasks.start(app)
    window.attach(app, tasks)
    try:
        if args.smoke_test:
            QTimer.singleShot(0, window.close)
            QTimer.singleShot(0, qt_app.quit)
        code = qt_app.exec()
        return int(code)
    finally:
        window.watcher.stop()
        tasks.wait_writes(5000)
        tasks.shutdown()  # reads still queued are dropped; one already running is interrupted
        app.close()
