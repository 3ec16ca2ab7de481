"""Connect an assistant: every client ``memdesk connect`` knows, whether its own config starts
Memdesk on this store (read back from the file each time), Connect and Disconnect, and the
set-up text to add by hand. pi, which has no MCP client, is connected by Memdesk's extension
file in its folder. The welcome page and the Assistants page show this same panel."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.items import NOTHING
from memdesk.gui import dialogs, theme
from memdesk.gui.models.common import TableModel
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.tables import selected_rows, setup_table
from memdesk.servers.client_setup import Snippet, memdesk_command, other_clients, server_args, snippet
from memdesk.services.claude_hook import EVENTS
from memdesk.services.clients import claude_code, pi_extension
from memdesk.services.clients.connect import (
    ClientStatus,
    State,
    change_lines,
    connect_store,
    disconnect,
    outcome,
    status,
    turn_on_source,
)
from memdesk.services.clients.known import BY_NAME, CLIENTS, PI
from memdesk.services.memdesk import Memdesk


@dataclass(frozen=True)
class ClientRow:
    status: ClientStatus
    snippet: Snippet

    @property
    def can_connect(self) -> bool:
        return not self.status.problem and self.status.state is not State.CONNECTED

    @property
    def can_disconnect(self) -> bool:
        return not self.status.problem and self.status.state in (State.CONNECTED, State.DIFFERENT)


def read_clients(app: Memdesk) -> tuple[list[ClientRow], Snippet]:
    """Each known client's state, read from its config now, and its set-up text for this store;
    then the command line any other client starts."""
    command, args = memdesk_command(), server_args(app.paths)
    rows = [ClientRow(status(client, command, args), snippet(client, command, args)) for client in CLIENTS]
    rows.append(_pi_row(_pi_command(app)))
    return rows, other_clients(command, args)


def _pi_command(app: Memdesk) -> list[str]:
    """What pi's extension runs: ``memdesk`` and the options that open this store."""
    return [memdesk_command(), *app.paths.reopen_options()]


def _pi_row(command: list[str]) -> ClientRow:
    path = pi_extension.extension_path()
    where = (
        f"pi has no MCP client: Connect saves this extension as {short_path(path)}. Before each of "
        "your messages it adds Memdesk's prompt for the project folder's app, and it gives pi a "
        "remember tool; both act as the assistant python:pi. Or save it there yourself."
    )
    text = pi_extension.extension_text(command)
    return ClientRow(pi_extension.status(command), Snippet(PI, PI, where, text))


def _connect(app: Memdesk, name: str) -> list[str]:
    """Connect the client ``name`` to this store (pi: write its extension); what changed."""
    if name == PI:
        return change_lines(pi_extension.connect(_pi_command(app))) + turn_on_source(app, name)
    return connect_store(app, BY_NAME[name], memdesk_command(), server_args(app.paths))


def _disconnect(name: str) -> list[str]:
    """Take Memdesk out of the client ``name`` (pi: delete its extension); what changed."""
    if name == PI:
        return change_lines(pi_extension.remove())
    return change_lines(disconnect(BY_NAME[name]))


def short_path(path: Path) -> str:
    """``path`` with the home folder as ``~``, as the clients' own documentation writes it."""
    home = Path.home()
    return f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path)


def connected_text(status: ClientStatus) -> str:
    """What a connected client has in place, in words: its server entry, Claude Code's hooks, or
    pi's extension."""
    if status.name == PI:
        return (
            f"pi is connected: Memdesk's extension, {short_path(status.path)}, adds Memdesk's prompt "
            "for the project folder's app before each of your messages and gives pi a remember "
            "tool, both as the assistant python:pi. Restart pi after a change."
        )
    text = (
        f"{status.title} is connected: {short_path(status.path)} starts Memdesk's MCP server on this store."
    )
    if status.name == "claude-code":
        starts, *reads = EVENTS
        text += (
            f" Its hooks in {short_path(claude_code.settings_path())} give it your prompt at "
            f"{starts} and read its transcript at {', '.join(reads[:-1])} and {reads[-1]}."
        )
    return text + f" Restart {status.title} after a change."


def _path_label() -> QLabel:
    """A wrapped, selectable label that a long path does not widen: it wraps (or is cut) instead."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


class ClientStatesModel(TableModel):
    NAME, STATE, CONFIG = range(3)
    HEADERS = ("Assistant", "State", "Config file")

    @property
    def clients(self) -> list[ClientRow]:
        return self._rows

    def set_clients(self, rows: list[ClientRow]) -> None:
        self._reset_rows(rows)

    def cell(self, row: ClientRow, column: int, role: int) -> Any:
        state = row.status.state
        if role == Qt.ItemDataRole.DisplayRole:
            shown = (
                state.value
                if not row.status.problem or state is State.UNREADABLE
                else f"{state.value} (locked)"
            )
            return (row.status.title, shown, short_path(row.status.path))[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.status.problem or str(row.status.path)
        if role == Qt.ItemDataRole.ForegroundRole and column == self.STATE:
            if row.status.problem:
                return theme.warning()
            return theme.ok() if state is State.CONNECTED else None
        return None


class ClientConnections(QWidget):
    """The clients and their state; with ``snippets``, also the selected one's set-up text."""

    changed = Signal()  # a client's config was written: connecting Claude Code also turns its source on
    status_message = Signal(str)

    def __init__(self, tasks: TaskRunner, snippets: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.model = ClientStatesModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(
            self.table, ClientStatesModel.CONFIG, {ClientStatesModel.NAME: 16, ClientStatesModel.STATE: 24}
        )
        self.table.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.connect_button = QPushButton("Connect")
        self.connect_button.setToolTip(
            "Add Memdesk to this assistant's config file, set to open this store (backed up first)"
        )
        self.disconnect_button = QPushButton("Disconnect")
        self.disconnect_button.setToolTip(
            "Take Memdesk out of this assistant's config file (backed up first)"
        )
        self.connect_button.clicked.connect(self.connect_selected)
        self.disconnect_button.clicked.connect(self.disconnect_selected)
        self.detail = _path_label()
        theme.follow(self.detail, lambda: theme.set_text_color(self.detail, theme.muted()))
        buttons = QHBoxLayout()
        buttons.addWidget(self.connect_button)
        buttons.addWidget(self.disconnect_button)
        buttons.addStretch(1)
        clients = QVBoxLayout()
        clients.setContentsMargins(0, 0, 0, 0)
        clients.addWidget(self.table, 1)
        clients.addLayout(buttons)
        clients.addWidget(self.detail)
        # Beside the list, not below it: the Assistants page has more width than height to give.
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(clients, 3)
        self.where: QLabel | None = None
        self.text: QPlainTextEdit | None = None
        self.copy_button: QPushButton | None = None
        self.copy_other_button: QPushButton | None = None
        self.pane_disconnect: QPushButton | None = None
        self.other_clients: Snippet | None = None  # the command line, for any other client
        if snippets:
            self._add_snippet_view(layout)
        self._update_buttons()

    def _add_snippet_view(self, layout: QHBoxLayout) -> None:
        self.where = QLabel()
        self.where.setWordWrap(True)
        self.where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.where.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.text = QPlainTextEdit(readOnly=True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        # Wrapped: a one-line command is read whole, never cut at the pane's edge.
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the set-up text, to add it by hand")
        self.copy_button.clicked.connect(self.copy)
        self.copy_other_button = QPushButton("Copy Command for Other Clients")
        self.copy_other_button.clicked.connect(self.copy_other)
        # Connected, the set-up text would add a second server: the pane offers Disconnect.
        self.pane_disconnect = QPushButton("Disconnect")
        self.pane_disconnect.setToolTip(self.disconnect_button.toolTip())
        self.pane_disconnect.clicked.connect(self.disconnect_selected)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.pane_disconnect)
        buttons.addWidget(self.copy_other_button)
        buttons.addStretch(1)
        column = QVBoxLayout()
        column.addWidget(self.where)
        column.addWidget(self.text, 1)
        column.addLayout(buttons)
        layout.addLayout(column, 2)

    # --- reading -------------------------------------------------------------------------

    def refresh(self) -> None:
        self.tasks.read(read_clients, on_done=self._show, owner=self)

    def _show(self, result: tuple[list[ClientRow], Snippet]) -> None:
        rows, other = result
        self.other_clients = other
        if self.copy_other_button is not None:
            self.copy_other_button.setToolTip(f"{other.where}\n{other.text}")
        chosen = self._chosen()
        keep = chosen.status.name if chosen else None
        self.model.set_clients(rows)
        names = [row.status.name for row in rows]
        self.table.selectRow(names.index(keep) if keep in names else 0)
        self._update_buttons()

    def _chosen(self) -> ClientRow | None:
        rows = selected_rows(self.table)
        return self.model.clients[rows[0]] if rows else None

    def _update_buttons(self) -> None:
        row = self._chosen()
        self.connect_button.setEnabled(row is not None and row.can_connect)
        self.disconnect_button.setEnabled(row is not None and row.can_disconnect)
        self.connect_button.setText("Update" if row and row.status.state is State.DIFFERENT else "Connect")
        self.detail.setText(row.status.problem if row else "")
        self.detail.setVisible(bool(self.detail.text()))
        if self.where is not None and self.text is not None and self.copy_button is not None:
            assert self.pane_disconnect is not None
            connected = row is not None and row.status.state is State.CONNECTED
            if connected:
                assert row is not None
                self.where.setText(connected_text(row.status))
            else:
                self.where.setText(row.snippet.where if row else "")
            self.text.setPlainText(row.snippet.text if row and not connected else "")
            self.text.setVisible(not connected)
            self.copy_button.setVisible(not connected)
            self.copy_button.setText("Copy")
            self.pane_disconnect.setVisible(connected)
            self.pane_disconnect.setEnabled(bool(row and row.can_disconnect))

    def copy(self) -> None:
        row = self._chosen()
        if row is not None and self.copy_button is not None:
            QGuiApplication.clipboard().setText(row.snippet.text)
            self.copy_button.setText("Copied")

    def copy_other(self) -> None:
        """The command line any other MCP client starts, on the clipboard."""
        if self.other_clients is not None:
            QGuiApplication.clipboard().setText(self.other_clients.text)
            self.status_message.emit(f"Copied: {self.other_clients.text}")

    # --- changing a client's config --------------------------------------------------------

    def connect_selected(self) -> None:
        row = self._chosen()
        if row is None or not row.can_connect:
            return
        name, title, path = row.status.name, row.status.title, row.status.path
        if name == PI:
            question = (
                f"Add Memdesk's extension to pi, set to open this store?\n\n{path}\n\nIt is one file "
                "of Memdesk's own; nothing else of pi's changes. Restart pi to use it."
            )
        else:
            extra = (
                " Claude Code also gets Memdesk's hooks (your prompt when a session starts; its "
                "transcript read when one stops)."
                if name == "claude-code"
                else ""
            )
            question = (
                f"Add Memdesk to {title}'s config, set to open this store?\n\n{path}\n\n"
                f"Everything else in the file is kept, and it is backed up beside itself first.{extra} "
                f"Restart {title} to use it."
            )
        if dialogs.confirm(self, f"Connect {title}", question, action="Connect"):
            self.tasks.write(
                lambda app: _connect(app, name),
                on_done=lambda lines: self._done(title, outcome(title, lines, connecting=True)),
                changes=NOTHING,
            )

    def disconnect_selected(self) -> None:
        row = self._chosen()
        if row is None or not row.can_disconnect:
            return
        name, title, path = row.status.name, row.status.title, row.status.path
        question = (
            f"Delete Memdesk's extension from pi?\n\n{path}\n\nOnly that file, which Memdesk wrote, goes."
            if name == PI
            else f"Take Memdesk out of {title}'s config?\n\n{path}\n\nIt is backed up first."
        )
        if dialogs.confirm(self, f"Disconnect {title}", question, action="Disconnect"):
            self.tasks.write(
                lambda _app: _disconnect(name),
                on_done=lambda lines: self._done(title, outcome(title, lines, connecting=False)),
                changes=NOTHING,
            )

    def _done(self, title: str, text: str) -> None:
        dialogs.info(self, title, text)
        self.refresh()
        self.changed.emit()
