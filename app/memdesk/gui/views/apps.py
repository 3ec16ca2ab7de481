"""One app's memories: the cap, a sortable and filterable table, add, edit, delete, purge."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QWidget,
)

from memdesk.core.items import Changes, ItemKind, ItemRef
from memdesk.core.privacy import Target, TargetKind
from memdesk.gui import dialogs, theme
from memdesk.gui.models.apps import AppMemoryModel
from memdesk.gui.models.common import sort_filter_proxy
from memdesk.gui.models.editing import CellDelegate, write_edit
from memdesk.gui.models.tableview import DATE, ENTER_KEYS, SelectionKeeper, size_columns, table_action
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets.display import plural
from memdesk.gui.widgets.last_read import LastReadLabel
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.gui.widgets.private_toggle import PrivateToggle
from memdesk.gui.widgets.tables import setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.apps import AddResult, AppPage, MemoryRow
from memdesk.services.memdesk import Memdesk

M = AppMemoryModel
NO_APP = "Choose an app in the sidebar to see what it remembers."
NO_APPS = (
    "No apps yet.\n\nAn app appears here when an assistant keeps a note for it (the MCP tool "
    'app_memory_add), or when you add one in a terminal:\nmemdesk app add calendar "Prefers '
    'meetings after 2pm"'
)


# What the app page's writes change: a memory's fields; adding (the cap may move the oldest
# to Trash, a new app joins the sidebar) or purging; moving memories to Trash.
_MEMORIES = Changes.of(ItemKind.APP_MEMORY)
_ADDED = Changes.of(ItemKind.APP, ItemKind.APP_MEMORY, ItemKind.TRASH)
_TRASHED = Changes.of(ItemKind.APP_MEMORY, ItemKind.TRASH)


class AppMemoriesView(Page):
    compact_requested = Signal(ItemRef)  # an app

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.app_id: str | None = None
        self.page: AppPage | None = None
        self._generation = 0  # results for an app no longer shown are dropped
        self._select_when_loaded: int | None = None
        self._refresh_after_edit = False

        self.header = ViewHeader("App memories", NO_APP)
        self.private_toggle = PrivateToggle(tasks, ItemKind.APP)
        self.header.add_action(self.private_toggle)
        self.cap_label = QLabel()
        self.cap_label.setFont(theme.scaled_font(self.font(), 1.45, bold=True))
        self.header.add_action(self.cap_label)
        theme.follow(self.cap_label, self._paint_cap)
        self.notice = MessageBar(hue=theme.INFO_HUE)

        self.filter_box = QLineEdit(placeholderText="Filter memories", clearButtonEnabled=True)
        self.delete_button = QPushButton("Delete")
        self.compact_button = QPushButton("Compact now")
        self.purge_button = QPushButton("Purge app…")
        self.filter_box.textChanged.connect(self._filter)
        self.delete_button.clicked.connect(self.delete_selected)
        self.compact_button.clicked.connect(self._compact)
        self.purge_button.clicked.connect(self.purge)

        self.model = AppMemoryModel(self)
        self.proxy = sort_filter_proxy(self.model, self)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        # First hidden in a narrow window; the importance, a number under a wide title, last.
        narrow_drops = (M.CREATED, M.ID, M.TAGS, M.EXPIRES, M.IMPORTANCE)
        setup_table(
            self.table, M.CONTENT, widths={}, multi_select=True, droppable=narrow_drops, two_lines=True
        )
        size_columns(
            self.table,
            {
                M.ID: "99999",
                M.CREATED: DATE,
                M.UPDATED: DATE,
                M.IMPORTANCE: "10",
                M.TAGS: "work travel",
                M.EXPIRES: DATE,
            },
        )
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(M.UPDATED, Qt.SortOrder.DescendingOrder)
        self.table.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.delegate = CellDelegate(
            self.table, text_columns={M.CONTENT}, number_ranges={M.IMPORTANCE: (0, 10, 0)}
        )
        self.table.setItemDelegate(self.delegate)
        self.delegate.closeEditor.connect(lambda *_: QTimer.singleShot(0, self._edit_closed))
        self.table.doubleClicked.connect(self._double_clicked)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.keeper = SelectionKeeper(self.table, self.model)
        self.model.edit_requested.connect(self._write_edit)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)
        self.table.selectionModel().currentChanged.connect(self._update_buttons)

        table_action(self.table, "Edit text", self.edit_current, *ENTER_KEYS)
        table_action(self.table, "Delete", self.delete_selected, QKeySequence.StandardKey.Delete)
        self.open_source_action = table_action(self.table, "Open source session", self._open_source)

        self.add_box = QLineEdit(
            placeholderText="Add a memory: type it and press Enter", clearButtonEnabled=True
        )
        self.add_box.setToolTip("Adds a memory to the app shown")
        self.no_apps = theme.empty_note(NO_APPS)
        self.no_apps.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.no_apps.hide()
        self.add_box.returnPressed.connect(self.add_memory)

        tools = QHBoxLayout()
        tools.addWidget(self.filter_box, 1)
        for button in (self.delete_button, self.compact_button, self.purge_button):
            tools.addWidget(button)
        self.setFocusProxy(self.table)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.notice)
        layout.addLayout(tools)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.no_apps, 1)
        self.last_read = LastReadLabel(tasks)
        layout.addWidget(self.last_read)
        layout.addWidget(self.add_box)
        self._show_page()

    # --- what the window calls ---------------------------------------------------------------

    def show_no_app(self, apps_exist: bool) -> None:
        """No app chosen: with none in the store, say how one comes to exist."""
        self._generation += 1
        self.app_id, self.page = None, None
        self.model.set_rows([])
        self.no_apps.setVisible(not apps_exist)
        self.table.setVisible(apps_exist)
        self._show_page()

    def show_app(self, app_id: str) -> None:
        if app_id == self.app_id:
            self.refresh()
            return
        self._generation += 1
        self.app_id, self.page = app_id, None
        self.no_apps.hide()
        self.table.show()
        self.filter_box.clear()
        self.notice.hide()
        self.model.set_rows([])
        self.private_toggle.show_target(Target(TargetKind.APP, app_id))
        self._show_page()
        self.refresh()

    def select_memory(self, memory_id: int) -> None:
        """Select a memory of the app shown (after it has loaded, if it is loading)."""
        source_row = self.model.rows_of([memory_id]).get(memory_id)
        if source_row is None:
            self._select_when_loaded = memory_id
            return
        if not self.proxy.mapFromSource(self.model.index(source_row, 0)).isValid():
            self.filter_box.clear()  # the filter hides it
        index = self.proxy.mapFromSource(self.model.index(source_row, M.CONTENT))
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)

    def refresh(self) -> None:
        """Read the app's memories again, keeping selection and scroll position."""
        if self.app_id is None:
            return
        if self.table.state() == QAbstractItemView.State.EditingState:
            self._refresh_after_edit = True  # never pull the text from under the person typing
            return
        app_id, generation = self.app_id, self._generation
        self.private_toggle.refresh()
        self.tasks.read(
            lambda app: app.apps.page(app_id), on_done=lambda page: self._loaded(generation, page)
        )

    # --- actions -----------------------------------------------------------------------------

    def add_memory(self) -> None:
        content = self.add_box.text()
        if self.app_id is None or not content.strip():
            return
        app_id = self.app_id
        self.tasks.write(lambda app: app.apps.add(app_id, content), on_done=self._added, changes=_ADDED)

    def edit_current(self) -> None:
        current = self.table.currentIndex()
        if current.isValid():
            self.table.edit(
                current
                if current.flags() & Qt.ItemFlag.ItemIsEditable
                else current.siblingAtColumn(M.CONTENT)
            )

    def delete_selected(self) -> None:
        ids = self.keeper.selected_ids()
        if not ids:
            return
        self.keeper.expect_removal()
        self.tasks.write(
            lambda app: app.apps.delete(ids), on_done=lambda _count: self.refresh(), changes=_TRASHED
        )

    def purge(self) -> None:
        page = self.page
        if page is None or not page.rows:
            return
        count = len(page.rows)
        what = f"all {count} memories" if count > 1 else "the only memory"
        if not dialogs.confirm(
            self, "Purge app", f"Move {what} of {page.label} to Trash?", action="Move to Trash"
        ):
            return
        app_id = page.app_id
        self.tasks.write(lambda app: app.apps.purge(app_id), on_done=self._purged, changes=_ADDED)

    # --- results -----------------------------------------------------------------------------

    def _loaded(self, generation: int, page: AppPage) -> None:
        if generation != self._generation:
            return
        self.page = page
        self.model.set_rows(page.rows)
        self._show_page()
        if self._select_when_loaded is not None:
            memory_id, self._select_when_loaded = self._select_when_loaded, None
            if memory_id in self.model.rows_of([memory_id]):
                self.select_memory(memory_id)

    def _added(self, result: AddResult) -> None:
        self.add_box.clear()
        if result.removed:
            self.notice.show_message(
                f"Moved {plural(len(result.removed), 'older memory', 'older memories')} to Trash "
                f"to keep at most {self.app.apps.cap} per app."
            )
        else:
            self.notice.hide()
        self._select_when_loaded = result.memory.id
        self.refresh()

    def _purged(self, count: int) -> None:
        self.notice.show_message(f"Moved {plural(count, 'memory', 'memories')} to Trash.")
        self.refresh()

    def _write_edit(self, row: MemoryRow, column: int, value: object) -> None:
        if column == M.CONTENT:
            write_edit(
                self.tasks,
                self,
                lambda app, seen: app.apps.edit(row.id, str(value), seen),
                row.updated_at,
                on_done=self.model.replace_row,
                on_kept_theirs=self.refresh,
                changes=_MEMORIES,
            )
        elif column == M.IMPORTANCE:
            self.tasks.write(
                lambda app: app.apps.update(row.id, importance=int(value)),
                on_done=lambda _: self.refresh(),
                changes=_MEMORIES,
            )
        else:
            tags = str(value).replace(",", " ").split()
            self.tasks.write(
                lambda app: app.apps.update(row.id, tags=tags),
                on_done=lambda _: self.refresh(),
                changes=_MEMORIES,
            )

    # --- small helpers -----------------------------------------------------------------------

    def _show_page(self) -> None:
        page = self.page
        if self.app_id is None:
            self.header.set_text("App memories", "" if self.no_apps.isVisibleTo(self) else NO_APP)
        elif page is None:
            self.header.set_text(self.app_id, "Loading…")
        else:
            expired = len(page.rows) - page.live
            counts = plural(len(page.rows), "memory", "memories") + (
                f", {expired} expired" if expired else ""
            )
            subtitle = f"{page.app_id} · {counts}" if page.name else counts
            self.header.set_text(page.label, subtitle)
        self._paint_cap()
        for widget in (self.filter_box, self.compact_button, self.add_box):
            widget.setEnabled(self.app_id is not None)
        self.add_box.setPlaceholderText(
            "Add a memory: type it and press Enter" if self.app_id else "Choose an app to add a memory to it"
        )
        self.purge_button.setEnabled(bool(page and page.rows))
        self._update_buttons()

    def _paint_cap(self) -> None:
        page = self.page
        self.cap_label.setVisible(page is not None)
        if page is None:
            return
        over = page.live > page.cap
        self.cap_label.setText(f"{page.live}/{page.cap}")
        self.cap_label.setToolTip(
            f"{plural(page.live, 'memory', 'memories')} reach the prompt; at most {page.cap} are kept, "
            "the oldest going to Trash when a new one is added"
        )
        theme.set_text_color(self.cap_label, theme.danger() if over else self.palette().windowText().color())

    def _update_buttons(self) -> None:
        self.delete_button.setEnabled(self.table.selectionModel().hasSelection())
        current = self.table.currentIndex()
        row = self.model.row_at(self.proxy.mapToSource(current).row()) if current.isValid() else None
        self.open_source_action.setEnabled(bool(row and row.source_session))
        self.last_read.show_item(ItemRef(ItemKind.APP_MEMORY, str(row.id)) if row else None)

    def _filter(self, text: str) -> None:
        self.proxy.setFilterFixedString(text.strip())

    def _compact(self) -> None:
        if self.app_id is not None:
            self.compact_requested.emit(ItemRef(ItemKind.APP, self.app_id))

    def _open_source(self) -> None:
        current = self.table.currentIndex()
        if current.isValid():
            row = self.model.row_at(self.proxy.mapToSource(current).row())
            if row.source_session:
                self.open_requested.emit(ItemRef(ItemKind.SESSION, row.source_session))

    def _double_clicked(self, index: QModelIndex) -> None:
        if not index.flags() & Qt.ItemFlag.ItemIsEditable:
            self.table.edit(index.siblingAtColumn(M.CONTENT))  # a double-click anywhere edits the text

    def _edit_closed(self) -> None:
        if self._refresh_after_edit and self.table.state() != QAbstractItemView.State.EditingState:
            self._refresh_after_edit = False
            self.refresh()
