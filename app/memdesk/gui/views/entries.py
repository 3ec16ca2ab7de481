"""Knowledge or timeline entries: a searchable, sortable table that stays fast at a million rows."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTableView,
    QWidget,
)

from memdesk.core.items import Changes, ItemKind, ItemRef
from memdesk.core.privacy import Target, TargetKind
from memdesk.gui import dialogs, theme
from memdesk.gui.models.editing import CellDelegate, write_edit
from memdesk.gui.models.entries import EntryTableModel
from memdesk.gui.models.tableview import DATE, ENTER_KEYS, SelectionKeeper, size_columns, table_action
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets.display import plural
from memdesk.gui.widgets.last_read import LastReadLabel
from memdesk.gui.widgets.private_toggle import PRIVATE_TIP
from memdesk.gui.widgets.tables import setup_table
from memdesk.gui.widgets.view_header import ViewHeader

if TYPE_CHECKING:  # the view may be made before the store layer has loaded
    from memdesk.core.entry_rows import EntryRow
    from memdesk.services.first_page import FirstPage

E = EntryTableModel
FILTER_DELAY_MS = 250  # typing a word reads the store once, not once per letter
CONFIRM_DELETE_FROM = 50  # deleting this many entries at once asks first
TITLES = {"knowledge": "Knowledge", "timeline": "Timeline"}
# What an empty list says: what lands here, and how.
EMPTY_TEXTS = {
    "knowledge": "No knowledge entries yet.\n\nLasting facts kept under a short key (home_city, "
    "editor…) land here: an assistant saves them with the MCP tool memory_store, and you add one "
    "with Add… above. Each is recalled into the prompt when a message matches it.",
    "timeline": "No timeline entries yet.\n\nDated events land here: what compaction keeps from "
    "a conversation, and what an assistant saves with memory_store as a timeline entry.",
}


class EntriesView(Page):
    def __init__(
        self,
        tasks: TaskRunner,
        category: str,
        first_page: FirstPage | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """``first_page``: the first rows, read before the store was open, shown until the
        model's own reads replace them."""
        super().__init__(parent)
        self.tasks = tasks
        self.category = category
        self._open_when_loaded: int | None = None
        self._refresh_after_edit = False

        self.header = ViewHeader(TITLES[category], "Loading…")
        self.filter_box = QLineEdit(placeholderText="Filter by words in key or text", clearButtonEnabled=True)
        self.add_button = QPushButton("Add…")
        self.delete_button = QPushButton("Delete")
        self._filter_timer = QTimer(self, singleShot=True, interval=FILTER_DELAY_MS)
        self._filter_timer.timeout.connect(self._apply_filter)
        self.filter_box.textChanged.connect(self._filter_timer.start)
        self.filter_box.returnPressed.connect(self._apply_filter)
        self.add_button.clicked.connect(self.add_entry)
        self.delete_button.clicked.connect(self.delete_selected)

        self.model = EntryTableModel(tasks, category, self)
        self.table = QTableView()
        self.table.setModel(self.model)
        # First hidden in a narrow window (a timeline key already carries its date); the
        # importance, a number under a wide title, goes before the text is squeezed.
        narrow_drops = (
            (E.SESSION, E.UPDATED, E.CREATED, E.IMPORTANCE)
            if category == "timeline"
            else (E.SESSION, E.UPDATED, E.IMPORTANCE)
        )
        setup_table(
            self.table, E.CONTENT, widths={}, multi_select=True, droppable=narrow_drops, two_lines=True
        )
        samples = {E.KEY: "a-typical-key-name", E.IMPORTANCE: "0.50", E.SESSION: "telegram:123456"}
        size_columns(self.table, samples | {E.CREATED: DATE, E.UPDATED: DATE, E.EXPIRES: DATE})
        self.table.horizontalHeader().setSortIndicator(E.CREATED, Qt.SortOrder.DescendingOrder)
        self.table.setSortingEnabled(True)  # the model sorts in SQL
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.delegate = CellDelegate(
            self.table, text_columns={E.CONTENT}, number_ranges={E.IMPORTANCE: (0, 1, 2)}
        )
        self.table.setItemDelegate(self.delegate)
        self.delegate.closeEditor.connect(lambda *_: QTimer.singleShot(0, self._edit_closed))
        self.table.doubleClicked.connect(self._double_clicked)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.keeper = SelectionKeeper(self.table, self.model)
        table_action(self.table, "Edit text", self.edit_current, *ENTER_KEYS)
        table_action(self.table, "Delete", self.delete_selected, QKeySequence.StandardKey.Delete)
        self.open_session_action = table_action(self.table, "Open session", self._open_session)
        self.private_action = table_action(self.table, "Private", self._toggle_private)
        self.private_action.setCheckable(True)
        self.private_action.setToolTip(PRIVATE_TIP)
        self.model.edit_requested.connect(self._write_edit)
        self.model.ids_loaded.connect(self._ids_loaded)
        self.model.query_changed.connect(self.keeper.expect_new_order)
        for signal in (self.model.modelReset, self.model.rowsInserted):
            signal.connect(self._show_count)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.table.selectionModel().currentChanged.connect(self._update_buttons)

        tools = QHBoxLayout()
        tools.addWidget(self.filter_box, 1)
        tools.addWidget(self.add_button)
        tools.addWidget(self.delete_button)
        self.setFocusProxy(self.table)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addLayout(tools)
        layout.addWidget(self.table, 1)
        self.empty_label = theme.empty_note(EMPTY_TEXTS[category])
        self.empty_label.hide()
        layout.addWidget(self.empty_label, 1)
        self.last_read = LastReadLabel(tasks)
        layout.addWidget(self.last_read)
        if first_page is not None:
            self.model.start_from(first_page.rows, first_page.private_keys)
        self._update_buttons()
        self.model.refresh()
        self._read_private()

    # --- what the window calls ---------------------------------------------------------------

    def refresh(self) -> None:
        """Read the entries again, keeping selection and scroll position."""
        if self.table.state() == QAbstractItemView.State.EditingState:
            self._refresh_after_edit = True  # never pull the text from under the person typing
            return
        self.model.refresh()
        self._read_private()

    def open_entry(self, entry_id: int) -> None:
        """Select an entry and scroll to it; a filter that hides it is cleared."""
        row = self.model.row_of(entry_id)
        if row is not None:
            index = self.model.index(row, E.CONTENT)
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.table.selectionModel().setCurrentIndex(index, flags)
            self.table.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
            return
        if self.model.query.text:
            self._open_when_loaded = entry_id
            self.filter_box.clear()
            self._apply_filter()
        elif not self.model.complete:
            self._open_when_loaded = entry_id

    # --- actions -----------------------------------------------------------------------------

    def add_entry(self) -> None:
        what = self.category
        key = dialogs.ask_text(self, f"Add {what} entry", "Key (a short unique name):")
        if not key or not key.strip():
            return
        content = dialogs.ask_text(self, f"Add {what} entry", f"Text of {key.strip()}:")
        if not content or not content.strip():
            return
        self.tasks.write(
            lambda app: app.entries.add(key, content, what),
            on_done=self._added,
            changes=Changes.of(ItemKind.ENTRY),
        )

    def edit_current(self) -> None:
        current = self.table.currentIndex()
        if current.isValid():
            editable = current.flags() & Qt.ItemFlag.ItemIsEditable
            self.table.edit(current if editable else current.siblingAtColumn(E.CONTENT))

    def _toggle_private(self, private: bool) -> None:
        row = self._current_row()
        if row is None:
            return
        target = Target(TargetKind.ENTRY, row.key)
        self.tasks.write(
            lambda app: app.privacy.set_private(target, private),
            on_done=lambda _changed: self._read_private(),
            changes=Changes.of(ItemKind.ENTRY),
        )

    def delete_selected(self) -> None:
        ids = self.keeper.selected_ids()
        if not ids:
            return
        if len(ids) >= CONFIRM_DELETE_FROM and not dialogs.confirm(
            self,
            "Delete entries",
            f"Move {plural(len(ids), 'entry', 'entries')} to Trash?",
            action="Move to Trash",
        ):
            return
        self.keeper.expect_removal()
        self.tasks.write(
            lambda app: app.entries.delete(ids),
            on_done=lambda _count: self.refresh(),
            changes=Changes.of(ItemKind.ENTRY, ItemKind.TRASH),
        )

    # --- results -----------------------------------------------------------------------------

    def _added(self, row: EntryRow) -> None:
        self._open_when_loaded = row.id
        if self.model.query.text:
            self.filter_box.clear()
            self._apply_filter()
        else:
            self.refresh()

    def _ids_loaded(self) -> None:
        self._show_count()
        if self._open_when_loaded is not None:
            entry_id, self._open_when_loaded = self._open_when_loaded, None
            if self.model.row_of(entry_id) is not None:
                self.open_entry(entry_id)

    def _write_edit(self, row: EntryRow, column: int, value: object) -> None:
        change = {"content": str(value)} if column == E.CONTENT else {"importance": float(value)}
        write_edit(
            self.tasks,
            self,
            lambda app, seen: app.entries.edit(row.id, seen, **change),
            row.updated_at,
            on_done=self.model.put,
            on_kept_theirs=self.refresh,
            changes=Changes.of(ItemKind.ENTRY),
        )

    # --- small helpers -----------------------------------------------------------------------

    def _apply_filter(self) -> None:
        self._filter_timer.stop()
        self.model.set_filter(self.filter_box.text())

    def _show_count(self) -> None:
        count = self.model.rowCount()
        if not self.model.complete:
            self.header.set_text(TITLES[self.category], "Loading…")
            return
        # Nothing at all (not merely nothing matching the filter): say what would be here.
        empty = count == 0 and not self.model.query.text
        self.table.setVisible(not empty)
        self.empty_label.setVisible(empty)
        text = plural(count, "entry", "entries")
        if self.model.query.text:
            text += f" matching “{self.model.query.text}”"
        if self.category == "timeline":
            text += f" · kept {self.tasks.app.entries.retention_days} days after they are written"
        self.header.set_text(TITLES[self.category], text)

    def _read_private(self) -> None:
        self.tasks.read(lambda app: app.privacy.scope().private_entries, on_done=self._private_read)

    def _private_read(self, keys: frozenset[str]) -> None:
        self.model.set_private(keys)
        self._update_buttons()

    def _current_row(self) -> EntryRow | None:
        current = self.table.currentIndex()
        return self.model.entry_at(current.row()) if current.isValid() else None

    def _update_buttons(self) -> None:
        self.delete_button.setEnabled(self.table.selectionModel().hasSelection())
        row = self._current_row()
        self.open_session_action.setEnabled(bool(row and row.session_id))
        self.private_action.setEnabled(row is not None)
        self.private_action.setChecked(bool(row and row.key in self.model.private_keys))
        self.last_read.show_item(ItemRef(ItemKind.ENTRY, row.key) if row else None)

    def _open_session(self) -> None:
        row = self._current_row()
        if row and row.session_id:
            self.open_requested.emit(ItemRef(ItemKind.SESSION, row.session_id))

    def _double_clicked(self, index: QModelIndex) -> None:
        if not index.flags() & Qt.ItemFlag.ItemIsEditable:
            self.table.edit(index.siblingAtColumn(E.CONTENT))  # a double-click anywhere edits the text

    def _edit_closed(self) -> None:
        if self._refresh_after_edit and self.table.state() != QAbstractItemView.State.EditingState:
            self._refresh_after_edit = False
            self.refresh()
