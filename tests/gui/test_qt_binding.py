"""Guards against a Qt binding that corrupts reference counts on signal emission.

PySide6 6.12.0 on Python 3.11 drops a reference to ``True`` on every ``emit()``; a window
that polls the store would abort after some minutes. The dependency range excludes it; this
test fails if a bad build comes back.
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    plain = Signal()
    with_value = Signal(int)


def test_emitting_signals_keeps_reference_counts_stable():
    emitter = _Emitter()
    before = (sys.getrefcount(True), sys.getrefcount(None))
    for _ in range(2000):
        emitter.plain.emit()
        emitter.with_value.emit(1)
    assert (sys.getrefcount(True), sys.getrefcount(None)) == before
