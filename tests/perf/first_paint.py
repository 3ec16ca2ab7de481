"""Run a Qt program and report when its first window first painted.

    python first_paint.py -m memdesk gui --smoke-test
    python first_paint.py bare_window.py

Prints ``first-paint-ms <ms>`` on stderr, counted from the start of this script, so the
interpreter's own start (the same for every program) is left out. The program runs
unchanged: the only hook is an event filter put on the first widget shown.
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()

import runpy  # noqa: E402  (after the clock starts)
import sys  # noqa: E402

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QWidget  # noqa: E402


class FirstPaint(QObject):
    reported = False

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if not self.reported and event.type() == QEvent.Type.Paint:
            self.reported = True
            print(f"first-paint-ms {(time.perf_counter() - STARTED) * 1000:.1f}", file=sys.stderr)
        return False


_watch = FirstPaint()
_original_show = QWidget.show


def _show_and_watch(widget: QWidget) -> None:
    if widget.isWindow() and not _watch.reported:
        widget.installEventFilter(_watch)
    _original_show(widget)


QWidget.show = _show_and_watch  # type: ignore[method-assign]

if sys.argv[1] == "-m":
    sys.argv = [sys.argv[2], *sys.argv[3:]]
    runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
else:
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
