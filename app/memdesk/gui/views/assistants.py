"""Assistants: who connected over MCP, what each wrote (open it in History or undo it), and
connecting each client Memdesk knows (its state read back from its own config)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.items import NOTHING, ItemKind, ItemRef
from memdesk.core.trust import LEVEL_MEANINGS, TrustLevel
from memdesk.gui import theme
from memdesk.gui.models.common import NUMBER_ALIGNMENT, TableModel
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.assistant_reads import ReadsPanel
from memdesk.gui.views.base import Page
from memdesk.gui.views.client_connections import ClientConnections
from memdesk.gui.views.history import StepsModel
from memdesk.gui.views.sources_panel import SourcesPanel
from memdesk.gui.widgets import display
from memdesk.gui.widgets.tables import selected_rows, setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.apps import AppSummary
from memdesk.services.assistants import ClientInfo
from memdesk.services.clients.known import product_title
from memdesk.services.history import StepInfo
from memdesk.services.memdesk import Memdesk
from memdesk.services.step_words import readable

WRITES_LIMIT = 50


def with_product(shown: str, actor: str) -> str:
    """``shown`` with the product behind ``actor`` beside it, when its name does not say it:
    "codex-mcp-client (Codex CLI)"."""
    product = product_title(actor)
    return f"{shown} ({product})" if product else shown


class ClientsModel(TableModel):
    NAME, TRUST, READS, WAITING, LAST_SEEN, FIRST_SEEN, CALLS = range(7)
    HEADERS = ("Assistant", "Trust", "Reads", "Waiting", "Last connected", "First seen", "Calls")
    NUMERIC = frozenset({WAITING, CALLS})

    @property
    def clients(self) -> list[ClientInfo]:
        return self._rows

    def set_clients(self, clients: list[ClientInfo]) -> None:
        self._reset_rows(clients)

    def cell(self, client: ClientInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                with_product(client.name.removeprefix("mcp:"), client.name),
                client.level.label,
                reads_text(client),
                f"{client.pending:,}" if client.pending else "",
                display.when(client.last_seen),
                display.when(client.first_seen),
                f"{client.calls:,}",
            )[column]
        if role == Qt.ItemDataRole.ToolTipRole and column == self.NAME:
            return f"Its changes are recorded in History as {client.name}"
        if role == Qt.ItemDataRole.ToolTipRole and column == self.TRUST:
            where = "the default for new assistants (Settings)" if client.level_is_default else "set for it"
            return f"{LEVEL_MEANINGS[client.level].capitalize()}: {where}"
        if role == Qt.ItemDataRole.ToolTipRole and column == self.READS:
            return (
                "It may read every app's memories"
                if client.apps is None
                else f"It may read only these apps' memories: {reads_text(client)}"
            )
        if role == Qt.ItemDataRole.ToolTipRole and column == self.WAITING and client.pending:
            return "Writes waiting for your review (the Review page)"
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.NUMERIC:
            return NUMBER_ALIGNMENT
        return None


def reads_text(client: ClientInfo) -> str:
    """The apps an assistant may read, in a few words."""
    return "Every app" if client.apps is None else ", ".join(sorted(client.apps))


class AssistantsView(Page):
    status_message = Signal(str)

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.header = ViewHeader(
            "Assistants",
            "Assistants that used Memdesk (MCP, HTTP or Python) and what each wrote. "
            "Every write is in History under the assistant's name and can be undone.",
        )
        # A push button draws its menu arrow beside the text, like the header's other buttons.
        self.trust_button = self.header.add_action(QPushButton("Trust Level"))
        self.trust_button.setToolTip("Which writes of the selected assistant wait for your review")
        trust_menu = QMenu(self.trust_button)
        self.level_actions: dict[TrustLevel, QAction] = {}
        for level in TrustLevel:
            action = trust_menu.addAction(f"{level.label}: {LEVEL_MEANINGS[level]}")
            action.setCheckable(True)
            action.triggered.connect(lambda _checked=False, level=level: self.set_trust(level))
            self.level_actions[level] = action
        self.trust_button.setMenu(trust_menu)
        self.apps_button = self.header.add_action(QPushButton("Apps It Reads"))
        self.apps_button.setToolTip(
            "The apps whose memories the selected assistant may read; a running server follows "
            "from its next call"
        )
        self.apps_menu = QMenu(self.apps_button)
        self.apps_menu.aboutToShow.connect(self._fill_apps_menu)
        self.apps_button.setMenu(self.apps_menu)
        self._app_ids: list[str] = []
        self.open_button = self.header.add_action(QPushButton("Show in History"))
        self.undo_button = self.header.add_action(QPushButton("Undo this change"))
        self.open_button.clicked.connect(self.open_selected)
        self.undo_button.clicked.connect(self.undo_selected)

        self.clients = ClientsModel(self)
        self.clients_table = QTableView()
        self.clients_table.setModel(self.clients)
        setup_table(
            self.clients_table,
            ClientsModel.NAME,
            {
                ClientsModel.TRUST: 18,
                ClientsModel.READS: 14,
                ClientsModel.WAITING: 7,
                ClientsModel.LAST_SEEN: 17,
                ClientsModel.FIRST_SEEN: 17,
                ClientsModel.CALLS: 7,
            },
            stretch_min_chars=18,
            droppable=(
                ClientsModel.FIRST_SEEN,
                ClientsModel.CALLS,
                ClientsModel.LAST_SEEN,
                ClientsModel.READS,
            ),
        )
        self.clients_table.selectionModel().currentRowChanged.connect(self._client_selected)
        self.writes = StepsModel(self)
        self.writes_table = QTableView()
        self.writes_table.setModel(self.writes)
        setup_table(
            self.writes_table,
            StepsModel.ACTION,
            {StepsModel.WHEN: 17, StepsModel.STATE: 9, StepsModel.CHANGES: 7},
            droppable=(StepsModel.STATE, StepsModel.CHANGES),
        )
        self.writes_table.hideColumn(StepsModel.ACTOR)  # the assistant chosen above
        self.writes_table.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.writes_table.doubleClicked.connect(lambda _index: self.open_selected())
        self.empty_label = QLabel(
            "No assistant has connected yet. Connect one below: it starts `memdesk mcp` itself."
        )
        self.empty_label.setWordWrap(True)
        theme.follow(self.empty_label, lambda: theme.set_text_color(self.empty_label, theme.muted()))
        # What the selected assistant wrote, and what it read.
        self.reads = ReadsPanel(tasks)
        self.activity_tabs = QTabWidget()
        self.activity_tabs.setDocumentMode(True)
        self.activity_tabs.addTab(self.writes_table, "Writes")
        self.activity_tabs.addTab(self.reads, "Reads")
        tables = QSplitter(Qt.Orientation.Horizontal)
        tables.addWidget(self.clients_table)
        tables.addWidget(self.activity_tabs)
        tables.setStretchFactor(0, 2)
        tables.setStretchFactor(1, 3)
        tables.setChildrenCollapsible(False)

        self.permissions = QLabel()
        self.permissions.setWordWrap(True)
        self.connections = ClientConnections(tasks, snippets=True)
        self.connections.changed.connect(lambda: self.sources.refresh())
        self.connections.status_message.connect(self.status_message)
        setup = QWidget()
        setup_layout = QVBoxLayout(setup)
        setup_layout.setContentsMargins(6, 6, 6, 6)
        setup_layout.addWidget(self.permissions)
        setup_layout.addWidget(self.connections, 1)
        self.sources = SourcesPanel(tasks)
        self.sources.status_message.connect(self.status_message)
        # Setting an assistant up and reading its transcripts: one at a time, so the lists
        # above keep their room in a small window.
        self.bottom_tabs = QTabWidget()
        self.bottom_tabs.addTab(setup, "Connect an assistant")
        self.bottom_tabs.addTab(self.sources, "Transcripts on this machine")
        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(tables)
        main.addWidget(self.bottom_tabs)
        main.setStretchFactor(0, 3)
        main.setStretchFactor(1, 2)
        main.setChildrenCollapsible(False)

        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.empty_label)
        layout.addWidget(main, 1)
        self.setFocusProxy(self.clients_table)
        self._selected_client: str | None = None
        self._update_buttons()

    # --- loading -------------------------------------------------------------------------

    def refresh(self) -> None:
        self.tasks.read(
            lambda app: (app.assistants.list(), app.settings.agents, app.apps.list_apps(counted=False)),
            on_done=self._show,
        )
        self.sources.refresh()
        self.connections.refresh()

    def _show(self, result: tuple[list[ClientInfo], Any, list[AppSummary]]) -> None:
        clients, agents, apps = result
        self._app_ids = [summary.app_id for summary in apps]
        self._show_permissions(agents.allow_writes, agents.allow_forget)
        keep = self._selected_client
        self.clients.set_clients(clients)
        self.empty_label.setVisible(not clients)
        row = next((i for i, c in enumerate(clients) if c.name == keep), 0 if clients else None)
        if row is None:
            self.writes.set_steps([])
            self.reads.show_assistant(None)
            self._update_buttons()
        else:
            self.clients_table.selectRow(row)
            self._load_writes(clients[row].name)

    def _show_permissions(self, allow_writes: bool, allow_forget: bool) -> None:
        if not allow_writes:
            text = "Assistants may read but not write (Settings › Assistants)."
        elif not allow_forget:
            text = "Assistants may read and write, but not delete (Settings › Assistants)."
        else:
            text = "Assistants may read, write and delete; you can limit that in Settings › Assistants."
        self.permissions.setText(text)

    def _client_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._load_writes(self.clients.clients[current.row()].name)

    def _load_writes(self, name: str) -> None:
        self._selected_client = name
        self.reads.show_assistant(name)
        self.tasks.read(
            lambda app: app.assistants.writes(name, WRITES_LIMIT),
            on_done=lambda steps: self._show_writes(name, steps),
        )

    def _show_writes(self, name: str, steps: list[StepInfo]) -> None:
        if name != self._selected_client:
            return
        self.writes.set_steps(steps)
        if steps:
            self.writes_table.selectRow(0)
        self._update_buttons()

    # --- acting on a write ---------------------------------------------------------------

    def _selected_step(self) -> StepInfo | None:
        rows = selected_rows(self.writes_table)
        return self.writes.steps[rows[0]] if rows else None

    def _selected_assistant(self) -> ClientInfo | None:
        rows = selected_rows(self.clients_table)
        return self.clients.clients[rows[0]] if rows else None

    def set_trust(self, level: TrustLevel) -> None:
        """Give the selected assistant ``level``; a running server follows from its next call."""
        client = self._selected_assistant()
        if client is None:
            return
        name = client.name

        def done(_actor: str) -> None:
            self.status_message.emit(f"{with_product(name, name)} is now at {level.label}.")
            self.refresh()

        self.tasks.write(lambda app: app.assistants.set_level(name, level), on_done=done, changes=NOTHING)

    def _fill_apps_menu(self) -> None:
        """Every app, and each app with a check when the selected assistant may read it."""
        self.apps_menu.clear()
        client = self._selected_assistant()
        if client is None:
            return
        every = self.apps_menu.addAction("Every app")
        every.setCheckable(True)
        every.setChecked(client.apps is None)
        every.triggered.connect(lambda: self.set_apps(None))
        self.apps_menu.addSeparator()
        allowed = client.apps or frozenset()
        for app_id in sorted(set(self._app_ids) | allowed):
            action = self.apps_menu.addAction(app_id)
            action.setCheckable(True)
            action.setChecked(app_id in allowed)
            action.triggered.connect(
                lambda checked, app_id=app_id: self.set_apps(
                    (allowed | {app_id}) if checked else (allowed - {app_id})
                )
            )

    def set_apps(self, apps: frozenset[str] | None) -> None:
        """Limit the selected assistant to ``apps`` (None or none left: every app)."""
        client = self._selected_assistant()
        if client is None:
            return
        name, chosen = client.name, apps or None

        def done(_actor: str) -> None:
            reads = "every app" if chosen is None else "only " + ", ".join(sorted(chosen))
            self.status_message.emit(f"{name} may read {reads}.")
            self.refresh()

        self.tasks.write(lambda app: app.privacy.set_app_limit(name, chosen), on_done=done, changes=NOTHING)

    def _update_buttons(self) -> None:
        client = self._selected_assistant()
        self.trust_button.setEnabled(client is not None)
        self.apps_button.setEnabled(client is not None)
        for level, action in self.level_actions.items():
            action.setChecked(client is not None and client.level is level)
        step = self._selected_step()
        self.open_button.setEnabled(step is not None)
        self.undo_button.setEnabled(step is not None and step.state == "done")

    def open_selected(self) -> None:
        step = self._selected_step()
        if step is not None:
            self.open_requested.emit(ItemRef(ItemKind.HISTORY_STEP, str(step.id)))

    def undo_selected(self) -> None:
        step = self._selected_step()
        if step is None or step.state != "done":
            return
        step_id = step.id

        def done(undone: StepInfo) -> None:
            self.status_message.emit(f"Undid: {readable(undone.label)}")
            self.refresh()

        self.tasks.write(lambda app: app.history.undo(step_id), on_done=done, label="Undoing…")
