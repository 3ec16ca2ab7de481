"""Run a Qt program and report when its first window first painted.

    python first_paint.py -m memdesk gui --smoke-test
    python first_paint.py bare_window.py
    python first_paint.py --rows -m memdesk gui

Prints ``first-paint-ms <ms>`` on stderr, counted from the start of this script, so the
interpreter's own start (the same for every program) is left out. With ``--rows`` it also
prints ``first-rows-ms <ms>`` when a table first paints with rows in it, then ends the
process at once (the rows may paint before the program's event loop has even started, when
a quit would be lost). The program runs unchanged: the only hooks are event filters put on the first
widget shown and on the application.
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()

import os  # noqa: E402  (after the clock starts)
import runpy  # noqa: E402
import sys  # noqa: E402

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication, QTableView, QWidget  # noqa: E402


def _since_start() -> str:
    return f"{(time.perf_counter() - STARTED) * 1000:.1f}"


class FirstPaint(QObject):
    reported = False

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if not self.reported and event.type() == QEvent.Type.Paint:
            self.reported = True
            print(f"first-paint-ms {_since_start()}", file=sys.stderr)
        return False


class FirstRows(QObject):
    """The first paint of a table's viewport while its model has rows; then the program quits."""

    reported = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.reported or event.type() != QEvent.Type.Paint:
            return False
        table = watched.parent() if isinstance(watched, QWidget) else None
        if isinstance(table, QTableView) and watched is table.viewport():
            model = table.model()
            if model is not None and model.rowCount() > 0:
                self.reported = True
                print(f"first-rows-ms {_since_start()}", file=sys.stderr, flush=True)
                os._exit(0)
        return False


_watch = FirstPaint()
_rows = FirstRows()
_original_show = QWidget.show
_want_rows = sys.argv[1] == "--rows"
if _want_rows:
    del sys.argv[1]


def _show_and_watch(widget: QWidget) -> None:
    if widget.isWindow() and not _watch.reported:
        widget.installEventFilter(_watch)
        if _want_rows:
            QApplication.instance().installEventFilter(_rows)
    _original_show(widget)


QWidget.show = _show_and_watch  # type: ignore[method-assign]

if sys.argv[1] == "-m":
    sys.argv = [sys.argv[2], *sys.argv[3:]]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
