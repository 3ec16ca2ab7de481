"""A page for a place whose view is not built yet: says so plainly instead of showing nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QWidget

from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk


class CompactionPlaceholder(QWidget):
    open_requested = Signal(str, str)

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        header = ViewHeader(
            "Compaction", "Turn long conversations into memories, with every change reviewed first."
        )
        note = QLabel(
            "Compaction is not available in this version yet.\n"
            "Your conversations are kept as they are until it is."
        )
        note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        theme.follow(note, lambda: theme.set_text_color(note, theme.muted()))
        layout = theme.view_layout(self)
        layout.addWidget(header)
        layout.addWidget(note, 1)

    def refresh(self) -> None:
        """Nothing to read yet."""
