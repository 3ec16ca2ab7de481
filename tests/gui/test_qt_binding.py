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
    after = (sys.getrefcount(True), sys.getrefcount(None))
    # A leak per emit would show thousands; other threads of the process (a writer thread left
    # by an earlier test) may hold a reference or two for a moment.
    assert all(abs(now - then) < 50 for now, then in zip(after, before, strict=True)), (before, after)
