"""An item's "Last read by … at …" line, read off the GUI thread from the read log."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QWidget

from memdesk.core.items import ItemRef, read_kind
from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets import display

if TYPE_CHECKING:  # made with the first page, before the store layer has loaded
    from memdesk.services.access_log import LastRead


class LastReadLabel(QLabel):
    """``Last read by mcp:coder at 2026-11-26 09:30 (memory_recall)`` for the item shown."""

    def __init__(self, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.item: ItemRef | None = None
        theme.follow(self, lambda: theme.set_text_color(self, theme.muted()))

    def show_item(self, item: ItemRef | None, again: bool = False) -> None:
        """Show who last read ``item``; the same item again is read again only when asked."""
        wanted = None if item is None else ItemRef(read_kind(item.kind), item.ref)
        if wanted == self.item and not again:
            return
        self.item = wanted
        if wanted is None:
            self.clear()
            return
        self.tasks.read(
            lambda app: app.access_log.last_read(wanted), on_done=lambda last: self._show(wanted, last)
        )

    def _show(self, item: ItemRef, last: LastRead | None) -> None:
        if item != self.item:
            return
        if last is None:
            self.setText("No assistant has read it.")
        else:
            self.setText(f"Last read by {last.actor} at {display.when(last.at)} ({last.tool})")
