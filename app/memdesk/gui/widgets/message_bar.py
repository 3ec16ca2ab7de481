"""A tinted bar above a view's content: a sentence and a few buttons (e.g. Reload / Keep mine)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from memdesk.gui import theme


class MessageBar(QFrame):
    def __init__(self, parent: QWidget | None = None, hue: int = theme.WARNING_HUE) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(12, 8, 8, 8)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self._layout.addWidget(self.label, 1)
        self._buttons: list[QPushButton] = []
        theme.follow(self, lambda: theme.set_background(self, theme.tint(hue)))
        self.hide()

    def show_message(self, text: str, actions: list[tuple[str, Callable[[], None]]] = ()) -> None:
        for button in self._buttons:
            button.deleteLater()
        self._buttons = []
        self.label.setText(text)
        for label, callback in actions:
            button = QPushButton(label)
            button.clicked.connect(callback)
            self._layout.addWidget(button)
            self._buttons.append(button)
        self.show()

    def button(self, label: str) -> QPushButton:
        """The button with this label (for keyboard focus and tests)."""
        return next(b for b in self._buttons if b.text() == label)
