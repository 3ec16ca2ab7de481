"""The lock that marks a private item, and the "Private" toggle on an app or a document.

Toggling writes one history step (``Privacy.set_private``), so ``Ctrl+Z`` takes it back like
any change.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QCheckBox, QWidget

from memdesk.core.items import Changes, ItemKind
from memdesk.core.privacy import Target
from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner

PRIVATE_TIP = (
    "Private: no assistant reads it. It is left out of every prompt, recall, assistant tool and "
    "the admin API; you still see and edit it here."
)
_ICON_SIZE = 32  # drawn once at this size; Qt scales it down for each use


def lock_icon(color: QColor | None = None) -> QIcon:
    """A small padlock in ``color`` (default: the palette's text colour)."""
    color = color or theme.palette().windowText().color()
    pixmap = QPixmap(_ICON_SIZE, _ICON_SIZE)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(color, 3.2)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawArc(QRectF(9, 3, 14, 18), 0, 180 * 16)  # the shackle
    painter.drawLine(9, 12, 9, 15)
    painter.drawLine(23, 12, 23, 15)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawRoundedRect(QRectF(5, 14, 22, 16), 3, 3)  # the body
    painter.end()
    return QIcon(pixmap)


class PrivateToggle(QCheckBox):
    """The Private toggle of one app or document: shows whether it is, and changes it when clicked."""

    def __init__(self, tasks: TaskRunner, kind: ItemKind, parent: QWidget | None = None) -> None:
        super().__init__("Private", parent)
        self.tasks = tasks
        self.kind = kind  # what the window refreshes after a change
        self.target: Target | None = None
        self.setToolTip(PRIVATE_TIP)
        self.setEnabled(False)
        self.clicked.connect(self._clicked)
        theme.follow(self, self._paint)

    def show_target(self, target: Target | None) -> None:
        """The item the toggle is for (None: nothing shown); reads whether it is private."""
        self.target = target
        self.setEnabled(target is not None)
        self._show(False)
        self.refresh()

    def refresh(self) -> None:
        target = self.target
        if target is not None:
            self.tasks.read(
                lambda app: app.privacy.is_private(target),
                on_done=lambda private: self._show(private) if target == self.target else None,
            )

    def _clicked(self, checked: bool) -> None:
        target = self.target
        if target is None:
            return
        self._paint()
        self.tasks.write(
            lambda app: app.privacy.set_private(target, checked),
            on_error=self._failed,
            changes=Changes.of(self.kind),
        )

    def _failed(self, error: Exception) -> None:
        self.refresh()  # show what the store holds, and say why it did not change
        self.tasks.error.emit(error)

    def _show(self, private: bool) -> None:
        self.setChecked(private)
        self._paint()

    def _paint(self) -> None:
        self.setIcon(lock_icon() if self.isChecked() else QIcon())
