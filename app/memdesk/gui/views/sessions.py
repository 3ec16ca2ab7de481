"""Conversation sessions with their compaction state, and the messages of the selected one."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.items import Changes, ItemKind, ItemRef
from memdesk.errors import NotFoundError
from memdesk.gui import dialogs, theme
from memdesk.gui.models.common import sort_filter_proxy
from memdesk.gui.models.sessions import MessageModel, SessionModel
from memdesk.gui.models.tableview import DATE, SelectionKeeper, size_columns, table_action
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets.display import plural
from memdesk.gui.widgets.tables import setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk
from memdesk.services.sessions import MessageRow, SessionSummary

S = SessionModel
MSG = MessageModel


class _SpacedRows(QStyledItemDelegate):
    """Wrapped messages with a little room between them."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        return super().sizeHint(option, index) + QSize(0, 8)


class SessionsView(Page):
    compact_requested = Signal(ItemRef)  # a session

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self._show_when_loaded: str | None = None
        self._messages_of: str | None = None  # the session whose messages are shown
        self._messages_generation = 0

        self.header = ViewHeader("Sessions", "Loading…")
        self.filter_box = QLineEdit(placeholderText="Filter sessions", clearButtonEnabled=True)
        self.open_app_button = QPushButton("Open app")
        self.compact_button = QPushButton("Compact now")
        self.delete_button = QPushButton("Delete…")
        self.filter_box.textChanged.connect(lambda text: self.proxy.setFilterFixedString(text.strip()))
        self.open_app_button.clicked.connect(self._open_app)
        self.compact_button.clicked.connect(self._compact)
        self.delete_button.clicked.connect(self.delete_current)

        self.model = SessionModel(self)
        self.proxy = sort_filter_proxy(self.model, self)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        setup_table(self.table, stretch_column=S.SESSION, widths={})
        samples = {
            S.CHANNEL: "telegram",
            S.APP: "travel-planner",
            S.MESSAGES: "9,999",
            S.UNCONSOLIDATED: "999",
        }
        size_columns(self.table, samples | {S.LAST_MESSAGE: DATE, S.LAST_CONSOLIDATED: DATE})
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(S.LAST_MESSAGE, Qt.SortOrder.DescendingOrder)
        self.keeper = SelectionKeeper(self.table, self.model)
        self.table.selectionModel().currentRowChanged.connect(self._current_changed)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        table_action(self.table, "Compact now", self._compact)
        table_action(self.table, "Open app", self._open_app)
        table_action(self.table, "Delete…", self.delete_current, QKeySequence.StandardKey.Delete)

        self.messages_label = QLabel()
        theme.follow(self.messages_label, lambda: theme.set_text_color(self.messages_label, theme.muted()))
        self.messages = MessageModel(self)
        self.messages_table = QTableView()
        self.messages_table.setModel(self.messages)
        setup_table(self.messages_table, stretch_column=MSG.TEXT, widths={})
        size_columns(self.messages_table, {MSG.ROLE: "assistant", MSG.TIME: DATE})
        self.messages_table.setWordWrap(True)
        self.messages_table.setItemDelegate(_SpacedRows(self.messages_table))
        self.messages_table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.messages_keeper = SelectionKeeper(self.messages_table, self.messages)

        tools = QHBoxLayout()
        tools.addWidget(self.filter_box, 1)
        for button in (self.open_app_button, self.compact_button, self.delete_button):
            tools.addWidget(button)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.messages_label)
        lower_layout.addWidget(self.messages_table, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(lower)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([2, 3])
        self.setFocusProxy(self.table)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addLayout(tools)
        layout.addWidget(self.splitter, 1)
        self._update_buttons()
        self.refresh()

    # --- what the window calls ---------------------------------------------------------------

    def refresh(self) -> None:
        """Read sessions (and the shown messages) again, keeping selection and scroll position."""
        self.tasks.read(lambda app: app.sessions.list(), on_done=self._loaded)

    def show_session(self, session_id: str) -> None:
        """Select a session and show its messages (after loading, if the list is loading)."""
        source_row = self.model.rows_of([session_id]).get(session_id)
        if source_row is None:
            self._show_when_loaded = session_id
            return
        if not self.proxy.mapFromSource(self.model.index(source_row, 0)).isValid():
            self.filter_box.clear()  # the filter hides it
        index = self.proxy.mapFromSource(self.model.index(source_row, S.SESSION))
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)

    def current_session(self) -> SessionSummary | None:
        current = self.table.currentIndex()
        return self.model.row_at(self.proxy.mapToSource(current).row()) if current.isValid() else None

    # --- actions -----------------------------------------------------------------------------

    def delete_current(self) -> None:
        chat = self.current_session()
        if chat is None:
            return
        question = f"Move session {chat.id} and its {plural(chat.messages, 'message')} to Trash?"
        if dialogs.confirm(self, "Delete session", question, action="Move to Trash"):
            self.keeper.expect_removal()
            self.tasks.write(
                lambda app: app.sessions.delete(chat.id),
                on_done=lambda _: self.refresh(),
                changes=Changes.of(ItemKind.SESSION, ItemKind.TRASH),
            )

    def _compact(self) -> None:
        chat = self.current_session()
        if chat is not None:
            self.compact_requested.emit(ItemRef(ItemKind.SESSION, chat.id))

    def _open_app(self) -> None:
        chat = self.current_session()
        if chat is not None and chat.app_id:
            self.open_requested.emit(ItemRef(ItemKind.APP, chat.app_id))

    # --- results -----------------------------------------------------------------------------

    def _loaded(self, sessions: list[SessionSummary]) -> None:
        self.model.set_rows(sessions)
        pending = sum(chat.unconsolidated for chat in sessions)
        self.header.set_text(
            "Sessions", f"{plural(len(sessions), 'session')} · {plural(pending, 'message')} not compacted yet"
        )
        if self._show_when_loaded is not None:
            session_id, self._show_when_loaded = self._show_when_loaded, None
            if session_id in self.model.rows_of([session_id]):
                self.show_session(session_id)
        if not self.table.currentIndex().isValid() and self.proxy.rowCount():
            self.table.selectRow(0)  # a conversation to read, rather than an empty messages pane
        self._load_messages()

    def _current_changed(self, _current: QModelIndex, _previous: QModelIndex) -> None:
        self._update_buttons()
        self._load_messages()

    def _load_messages(self) -> None:
        chat = self.current_session()
        if chat is None:
            self._messages_of = None
            self.messages.set_rows([])
            self.messages_label.setText("Select a session to read its messages.")
            return
        self._messages_generation += 1
        generation, session_id = self._messages_generation, chat.id
        self.tasks.read(
            lambda app: app.sessions.messages(session_id),
            on_done=lambda rows: self._messages_loaded(generation, chat, rows),
            on_error=self._messages_failed,
        )

    def _messages_failed(self, exc: Exception) -> None:
        if not isinstance(exc, NotFoundError):  # deleted meanwhile: the next refresh drops it
            self.tasks.error.emit(exc)

    def _messages_loaded(self, generation: int, chat: SessionSummary, rows: list[MessageRow]) -> None:
        if generation != self._messages_generation:
            return
        bar = self.messages_table.verticalScrollBar()
        same = chat.id == self._messages_of
        follow_end = not same or bar.value() == bar.maximum()  # new messages arrive at the end
        self._messages_of = chat.id
        self.messages.set_rows(rows)
        if follow_end:
            self.messages_table.scrollToBottom()
        pending = f", {chat.unconsolidated:,} not compacted yet" if chat.unconsolidated else ""
        self.messages_label.setText(f"{chat.id} · {plural(len(rows), 'message')}{pending}")

    def _update_buttons(self) -> None:
        chat = self.current_session()
        self.compact_button.setEnabled(chat is not None)
        self.delete_button.setEnabled(chat is not None)
        self.open_app_button.setEnabled(bool(chat and chat.app_id))
