"""The Assistants page's Reads tab: what the chosen assistant read, newest first, filterable by
item.

Pages of the log are read off the GUI thread, a page at a time as the list is scrolled, so a
log of a million reads opens as fast as one of ten.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QLineEdit, QTableView, QVBoxLayout, QWidget

from memdesk.gui import theme
from memdesk.gui.models.common import TableModel
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets import display
from memdesk.gui.widgets.tables import setup_table
from memdesk.services.access_log import PAGE_SIZE, Read

FILTER_DELAY_MS = 250  # typing an item's name reads the log once, not once per letter


class ReadsModel(TableModel):
    WHEN, TOOL, ITEMS = range(3)
    HEADERS = ("When", "Tool", "Items returned")

    @property
    def reads(self) -> list[Read]:
        return self._rows

    def set_reads(self, reads: list[Read]) -> None:
        self._reset_rows(reads)

    def add_reads(self, reads: list[Read]) -> None:
        if reads:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(reads) - 1)
            self._rows = self._rows + reads
            self.endInsertRows()

    def cell(self, read: Read, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.WHEN:
                return display.when(read.at)
            if column == self.TOOL:
                return read.tool
            return ", ".join(str(item) for item in read.items) or "nothing"
        if role == Qt.ItemDataRole.ToolTipRole and column == self.ITEMS:
            return f"{read.tool} returned:\n" + ("\n".join(str(item) for item in read.items) or "nothing")
        deleted = bool(read.items) and all(item.deleted for item in read.items)
        if role == Qt.ItemDataRole.ForegroundRole and column == self.ITEMS and deleted:
            return theme.muted()  # everything it read is gone since
        return None


class ReadsPanel(QWidget):
    """One assistant's reads; ``show_assistant`` chooses whose."""

    def __init__(self, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.actor: str | None = None
        self._generation = 0  # pages for an earlier assistant or filter are dropped
        self._complete = True  # the last page read was the last there is
        self._loading = False
        self.filter_box = QLineEdit(
            placeholderText="Filter by item: an entry key, memory id or namespace", clearButtonEnabled=True
        )
        self._filter_timer = QTimer(self, singleShot=True, interval=FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self.reload)
        self.filter_box.textChanged.connect(self._filter_timer.start)
        self.filter_box.returnPressed.connect(self.reload)
        self.model = ReadsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        # In a narrow window the tool steps aside (the items' tooltip names it).
        widths = {ReadsModel.WHEN: 17, ReadsModel.TOOL: 16}
        setup_table(self.table, ReadsModel.ITEMS, widths, droppable=(ReadsModel.TOOL,))
        self.table.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.table.verticalScrollBar().rangeChanged.connect(lambda *_: self._scrolled())
        self.empty_label = QLabel()
        self.empty_label.setWordWrap(True)
        theme.follow(self.empty_label, lambda: theme.set_text_color(self.empty_label, theme.muted()))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.addWidget(self.filter_box)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty_label)
        self.empty_label.hide()

    def show_assistant(self, actor: str | None) -> None:
        self.actor = actor
        self.reload()

    def reload(self) -> None:
        self._filter_timer.stop()
        self._generation += 1
        self.model.set_reads([])
        self._complete = self.actor is None
        self._update_empty()
        if self.actor is not None:
            self._read_page()

    def _read_page(self) -> None:
        actor, item, generation = self.actor, self.filter_box.text().strip(), self._generation
        last = self.model.reads[-1] if self.model.reads else None
        before = (last.at, last.id) if last is not None else None
        self._loading = True
        self.tasks.read(
            lambda app: app.access_log.reads(actor, item=item, before=before),
            on_done=lambda reads: self._show_page(generation, reads),
        )

    def _show_page(self, generation: int, reads: list[Read]) -> None:
        if generation != self._generation:
            return
        self._loading = False
        self._complete = len(reads) < PAGE_SIZE
        self.model.add_reads(reads)
        self._update_empty()

    def showEvent(self, event: QShowEvent) -> None:
        """Coming back to the tab shows the reads made meanwhile (a read does not change the
        store's revision, so nothing else tells the window of it)."""
        super().showEvent(event)
        if self.actor is not None:
            self.reload()

    def _scrolled(self, _value: int = 0) -> None:
        """Read the next page once the list, on screen, is scrolled near its end (or does not
        fill the view)."""
        bar = self.table.verticalScrollBar()
        near_end = bar.value() >= bar.maximum() - bar.pageStep()
        if not self._complete and not self._loading and near_end and self.table.isVisible():
            self._read_page()

    def _update_empty(self) -> None:
        empty = self._complete and not self.model.reads
        if empty:
            what = "items starting with that" if self.filter_box.text().strip() else "anything"
            self.empty_label.setText(
                "Choose an assistant above to see what it read."
                if self.actor is None
                else f"No read of {what} by {self.actor} is in the log."
            )
        self.empty_label.setVisible(empty)
