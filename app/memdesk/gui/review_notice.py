"""Telling the person that assistants' writes wait for review: a status-bar line whenever the
count of held writes grows, and a tray message where the desktop has a system tray."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QSystemTrayIcon

from memdesk import APP_NAME
from memdesk.gui import theme
from memdesk.gui.widgets.display import plural

TRAY_MESSAGE_MS = 8000


class ReviewNotice(QObject):
    """Fed the held-write count each time it is read; ``open_review`` when the tray message is clicked."""

    open_review = Signal()

    def __init__(self, show_status: Callable[[str], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.show_status = show_status
        self.count: int | None = None  # None until the first count is read
        self._tray: QSystemTrayIcon | None = None

    def update(self, count: int) -> None:
        previous, self.count = self.count, count
        if previous is None:
            if count:  # writes held while the window was closed
                self.show_status(f"{_waiting(count, 'write')} for your review (Review, Ctrl+R).")
            return
        if count > previous:
            new = count - previous
            line = f"{_waiting(new, 'new write')} for your review."
            self.show_status(f"{line} (Review, Ctrl+R)")
            self._tray_message(line)
        if count == 0 and self._tray is not None:
            self._tray.hide()

    def _tray_message(self, line: str) -> None:
        if not QSystemTrayIcon.isSystemTrayAvailable():
            return
        if self._tray is None:
            self._tray = QSystemTrayIcon(theme.app_icon(), self)
            self._tray.setToolTip(f"{APP_NAME}: writes wait for review")
            self._tray.messageClicked.connect(self.open_review)
            self._tray.activated.connect(lambda _reason: self.open_review.emit())
        self._tray.show()
        self._tray.showMessage(APP_NAME, line, QSystemTrayIcon.MessageIcon.Information, TRAY_MESSAGE_MS)


def _waiting(count: int, noun: str) -> str:
    return f"{plural(count, noun)} from assistants {'waits' if count == 1 else 'wait'}"
