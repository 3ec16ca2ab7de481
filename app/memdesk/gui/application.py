"""``memdesk gui``: the QApplication, the store opened as "gui", and the main window.

A store that cannot be opened (newer schema, locked, unreadable, read-only folder) is
explained in a plain dialog and the command exits 1, without a traceback.
``--smoke-test`` starts, opens the store, shows the window for one event-loop tick and
exits 0: what packaging runs to prove an installed build works.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

import memdesk
from memdesk.core.timefmt import parse_iso, utcnow
from memdesk.errors import MemdeskError
from memdesk.gui import dialogs, theme
from memdesk.services.memdesk import Memdesk

ACTOR = "gui"


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
    return Memdesk.open(args.data_dir, args.db, args.config, actor=ACTOR, clock=_clock(args.now))


def run(args: argparse.Namespace) -> int:
    qt_app = make_qapplication(sys.argv[:1])
    try:
        app = open_store(args)
    except MemdeskError as exc:
        print(f"memdesk: error: {exc}", file=sys.stderr)
        if not args.smoke_test:
            dialogs.show_error(None, exc, f"{memdesk.APP_NAME} cannot open its memory store")
        return 1
    from memdesk.gui.main_window import MainWindow  # after the store: a failure shows sooner
    from memdesk.gui.tasks import TaskRunner

    tasks = TaskRunner(app)
    window = MainWindow(app, tasks)
    try:
        window.show()
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
