"""The toolbar's search field: types and steers; the search page does the work.

Its own module so the window's chrome is built without loading the search code.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QWidget

TYPING_PAUSE_MS = 200


class SearchBox(QLineEdit):
    """The toolbar's search field. It only types and steers; the panel does the work."""

    query_changed = Signal(str)  # after a pause in typing
    step = Signal(int)  # -1 up, +1 down
    activated = Signal()
    cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText("Search memories  (Ctrl+K)")
        self.setClearButtonEnabled(True)
        self.setAccessibleName("Search")
        self._timer = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self._timer.timeout.connect(lambda: self.query_changed.emit(self.text().strip()))
        self.textEdited.connect(lambda _text: self._timer.start())
        self.textChanged.connect(lambda text: text or self._timer.start())  # the clear button

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Down, Qt.Key.Key_Up):
            self.step.emit(1 if key == Qt.Key.Key_Down else -1)
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if self._timer.isActive():  # Enter right after typing: search first, then open
                self._timer.stop()
                self.query_changed.emit(self.text().strip())
            self.activated.emit()
        elif key == Qt.Key.Key_Escape:
            self.cancelled.emit()
        else:
            super().keyPressEvent(event)
