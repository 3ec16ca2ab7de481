"""The status bar's notice that assistants' reads are not being logged (the store is locked,
the disk is full): the processes that serve assistants say so in small status files."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

from memdesk.gui import theme

CHECK_MS = 5000


class ReadLogNotice(QLabel):
    """Shown while any process serving this store cannot write its read log."""

    def __init__(self, status_dir: Path, store_where: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.status_dir = status_dir
        self.store_where = store_where
        theme.follow(self, lambda: theme.set_text_color(self, theme.warning()))
        self.hide()
        self._timer = QTimer(self, interval=CHECK_MS)
        self._timer.timeout.connect(self.check)
        self._timer.start()

    def check(self) -> None:
        # Loaded here: the window's frame paints before the store layer loads.
        from memdesk.services.access_log import unlogged_reasons

        reasons = unlogged_reasons(self.status_dir, self.store_where)
        self.setVisible(bool(reasons))
        if reasons:
            self.setText("Reads are not being logged")
            self.setToolTip(
                "Assistants still get their answers, but what they read is not recorded: "
                + "; ".join(sorted(set(reasons)))
            )
