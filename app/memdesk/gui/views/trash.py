"""Trash: deleted items until restored or removed for good, with their purge dates."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel, QSortFilterProxyModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QPushButton, QTableView, QWidget

from memdesk.core.items import ItemKind
from memdesk.gui import dialogs, theme
from memdesk.gui.models.common import TableModel
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets import display
from memdesk.gui.widgets.tables import selected_rows, setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk
from memdesk.services.trash import TrashItem

KIND_NAMES = {
    ItemKind.APP_MEMORY: "App memory",
    ItemKind.ENTRY: "Entry",
    ItemKind.DOCUMENT: "Document",
    ItemKind.SESSION: "Session",
}
SORT_ROLE = Qt.ItemDataRole.UserRole + 1


class TrashModel(TableModel):
    KIND, ITEM, TEXT, DELETED, PURGE = range(5)
    HEADERS = ("Kind", "Item", "Text", "Deleted", "Purge date")

    @property
    def items(self) -> list[TrashItem]:
        return self._rows

    def set_items(self, items: list[TrashItem]) -> None:
        self._reset_rows(items)

    def cell(self, item: TrashItem, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                KIND_NAMES.get(item.kind, item.kind),
                item.label,
                display.one_line(item.text),
                display.when(item.deleted_at),
                display.day(item.purge_at),
            )[column]
        if role == SORT_ROLE:
            return (item.kind, item.label, item.text, item.deleted_at.isoformat(), item.purge_at.isoformat())[
                column
            ]
        if role == Qt.ItemDataRole.ToolTipRole and column == self.TEXT:
            return item.text[:2000]
        return None


class TrashView(Page):
    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.header = ViewHeader("Trash")
        self.restore_button = self.header.add_action(QPushButton("Restore"))
        self.empty_button = self.header.add_action(QPushButton("Empty Trash…"))
        self.restore_button.clicked.connect(self.restore_selected)
        self.empty_button.clicked.connect(self.empty)
        self.model = TrashModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(TrashModel.DELETED, Qt.SortOrder.DescendingOrder)
        setup_table(
            self.table,
            TrashModel.TEXT,
            {TrashModel.KIND: 12, TrashModel.ITEM: 22, TrashModel.DELETED: 17, TrashModel.PURGE: 12},
            multi_select=True,
        )
        self.table.doubleClicked.connect(lambda _index: self.restore_selected())
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.empty_label = theme.empty_note("Trash is empty. Deleted memories wait here until you empty it.")
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty_label, 1)
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            shortcut = QShortcut(QKeySequence(key), self.table, context=Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(self.restore_selected)
        self.setFocusProxy(self.table)
        self._update_buttons()

    def refresh(self) -> None:
        self.tasks.read(
            lambda app: (app.trash.list(), app.settings.memory.trash_retention_days), on_done=self._show
        )

    def _show(self, result: tuple[list[TrashItem], int]) -> None:
        items, days = result
        selected = {self.model.items[row].id for row in selected_rows(self.table)}
        self.model.set_items(items)
        for row, item in enumerate(items):
            if item.id in selected:
                index = self.proxy.mapFromSource(self.model.index(row, 0))
                flags = QItemSelectionModel.SelectionFlag
                self.table.selectionModel().select(index, flags.Select | flags.Rows)
        count = len(items)
        self.header.set_text(
            "Trash",
            f"{display.plural(count, 'item')}. Items are removed for good {days} days after deletion, "
            "or when you empty Trash.",
        )
        self.table.setVisible(count > 0)
        self.empty_label.setVisible(count == 0)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.restore_button.setEnabled(bool(selected_rows(self.table)))
        self.empty_button.setEnabled(bool(self.model.items))

    def restore_selected(self) -> None:
        ids = [self.model.items[row].id for row in selected_rows(self.table)]
        if not ids:
            return

        def job(app: Memdesk) -> int:
            for item_id in ids:
                app.trash.restore(item_id)
            return len(ids)

        self.tasks.write(job, on_done=lambda _count: self.refresh(), label="Restoring…")

    def empty(self) -> None:
        count = len(self.model.items)
        if not count:
            return
        question = (
            f"Remove {display.plural(count, 'item')} from Trash for good?\n\n"
            "Their text is also removed from History. This cannot be undone."
        )
        if dialogs.confirm(self, "Empty Trash", question, action="Empty Trash"):
            self.tasks.write(
                lambda app: app.trash.empty(), on_done=lambda _n: self.refresh(), label="Emptying Trash…"
            )
