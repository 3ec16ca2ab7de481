"""The preview's "Who wrote it" tab: every item the prompt carries, who wrote it and when,
with the way to the History step that wrote it and to undoing that step."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt, Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QPushButton, QTableView, QVBoxLayout, QWidget

from memdesk.core.items import ItemKind, ItemRef
from memdesk.gui import theme
from memdesk.gui.models.common import TableModel
from memdesk.gui.widgets import display
from memdesk.gui.widgets.tables import setup_table
from memdesk.services.provenance import PromptSource
from memdesk.services.step_words import readable

ITEM_NAMES = {
    ItemKind.DOCUMENT: "document",
    ItemKind.WORKING: "working memory",
    ItemKind.ENTRY: "entry",
    ItemKind.APP_MEMORY: "app memory",
}
WRITER_KIND_ROLE = Qt.ItemDataRole.UserRole + 1  # ASSISTANT or "": what the filter reads
ASSISTANT = "assistant"
BEFORE_HISTORY = "before history"  # written before history began: nothing to open or undo


def item_label(source: PromptSource) -> str:
    item = source.item
    name = f"{ITEM_NAMES.get(item.kind, item.kind)} {item.key}"
    return f"{name}: “{display.one_line(item.text, 60)}”" if item.text else name


class SourcesModel(TableModel):
    SECTION, ITEM, WRITER, WHEN, STEP = range(5)
    HEADERS = ("Section", "Item", "Written by", "When", "Change")

    @property
    def sources(self) -> list[PromptSource]:
        return self._rows

    def set_sources(self, sources: list[PromptSource]) -> None:
        self._reset_rows(sources)

    def cell(self, source: PromptSource, column: int, role: int) -> Any:
        origin = source.origin
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                source.section,
                item_label(source),
                origin.writer if origin else BEFORE_HISTORY,
                display.when(origin.at) if origin else "",
                readable(origin.label) if origin else "",
            )[column]
        if role == Qt.ItemDataRole.ForegroundRole and origin is not None and origin.by_assistant:
            return theme.warning()
        if role == WRITER_KIND_ROLE:
            return ASSISTANT if origin is not None and origin.by_assistant else ""
        return None


class SourcesPanel(QWidget):
    """``marking_changed(bool)``: mark what assistants wrote in the prompt text, or not.
    ``open_requested(ItemRef)``: show a History step; ``undo_requested(int)``: undo one."""

    marking_changed = Signal(bool)
    open_requested = Signal(ItemRef)
    undo_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = SourcesModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setFilterRole(WRITER_KIND_ROLE)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        setup_table(
            self.table,
            SourcesModel.ITEM,
            {SourcesModel.SECTION: 10, SourcesModel.WRITER: 16, SourcesModel.WHEN: 15, SourcesModel.STEP: 24},
        )
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(lambda _index: self.open_selected())
        self.assistants_only = QCheckBox("Written by assistants")
        self.assistants_only.setToolTip("List only what assistants wrote, and mark it in the prompt")
        self.assistants_only.toggled.connect(self._filter)
        self.open_button = QPushButton("Show in History")
        self.open_button.clicked.connect(self.open_selected)
        self.undo_button = QPushButton("Undo This Change")
        self.undo_button.setToolTip("Undo the change that wrote this, even when newer changes followed")
        self.undo_button.clicked.connect(self.undo_selected)
        row = QHBoxLayout()  # the filter sits where the prompt tab shows it too (the preview places it)
        row.addStretch(1)
        row.addWidget(self.open_button)
        row.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        self._update_buttons()

    def set_sources(self, sources: list[PromptSource]) -> None:
        self.model.set_sources(sources)
        self._update_buttons()

    def selected(self) -> PromptSource | None:
        rows = self.table.selectionModel().selectedRows()
        return self.model.sources[self.proxy.mapToSource(rows[0]).row()] if rows else None

    def open_selected(self) -> None:
        source = self.selected()
        if source is not None and source.origin is not None:
            self.open_requested.emit(ItemRef(ItemKind.HISTORY_STEP, str(source.origin.step_id)))

    def undo_selected(self) -> None:
        source = self.selected()
        if source is not None and source.origin is not None:
            self.undo_requested.emit(source.origin.step_id)

    def _filter(self, only: bool) -> None:
        self.proxy.setFilterFixedString(ASSISTANT if only else "")
        self.marking_changed.emit(only)
        self._update_buttons()

    def _update_buttons(self) -> None:
        source = self.selected()
        has_step = source is not None and source.origin is not None
        self.open_button.setEnabled(has_step)
        self.undo_button.setEnabled(has_step)
