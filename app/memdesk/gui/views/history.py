"""History: every change, newest first, with undo / redo and each change's before and after."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memdesk.errors import NotFoundError
from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets import display
from memdesk.gui.widgets.tables import selected_rows, setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.history import StepInfo
from memdesk.services.memdesk import Memdesk
from memdesk.store.models import HistoryChange

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
STEP_LIMIT = 200
TABLE_NAMES = {
    "documents": "Document",
    "apps": "App",
    "app_memories": "App memory",
    "entries": "Entry",
    "sessions": "Session",
    "messages": "Message",
}
STATE_NAMES = {"done": "Done", "undone": "Undone", "discarded": "Replaced"}
# Bookkeeping columns that change with every edit and would only be noise in the diff.
QUIET_FIELDS = ("id", "updated_at")


def undo_or_redo(
    tasks: TaskRunner, direction: str, on_done: Callable[[str], Any], on_nothing: Callable[[str], Any]
) -> None:
    """Undo or redo the latest step through the one history service (used by every view).

    ``on_done`` gets a sentence for the status bar; "nothing to undo" goes to ``on_nothing``
    rather than an error dialog, any other failure to the one error dialog.
    """

    def job(app: Memdesk) -> StepInfo:
        return app.history.undo() if direction == "undo" else app.history.redo()

    def done(step: StepInfo) -> None:
        on_done(f"{'Undid' if direction == 'undo' else 'Redid'}: {step.label}")

    def failed(exc: Exception) -> None:
        if isinstance(exc, NotFoundError):
            on_nothing(exc.message[:1].upper() + exc.message[1:])
        else:
            tasks.error.emit(exc)

    tasks.write(job, on_done=done, on_error=failed, label="Undoing…" if direction == "undo" else "Redoing…")


class StepsModel(QAbstractTableModel):
    WHEN, ACTOR, ACTION, STATE, CHANGES = range(5)
    HEADERS = ("When", "By", "Action", "State", "Changes")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps: list[StepInfo] = []

    def set_steps(self, steps: list[StepInfo]) -> None:
        self.beginResetModel()
        self.steps = steps
        self.endResetModel()

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.steps)

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        step = self.steps[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                display.when(step.at),
                step.actor,
                step.label,
                STATE_NAMES.get(step.state, step.state),
                str(step.changes),
            )[index.column()]
        if role == Qt.ItemDataRole.ForegroundRole and step.state != "done":
            return theme.muted()
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == self.CHANGES:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


@dataclass(frozen=True)
class ChangeRow:
    item: str
    what: str
    before: str
    after: str


def _load(data: str | None) -> dict[str, Any] | None:
    return None if data is None else json.loads(data)


def _format_value(name: str, value: Any) -> str:
    if value is None:
        return "none"
    if name.endswith("_at") and isinstance(value, str):
        return display.when(datetime.fromisoformat(value))
    return value if isinstance(value, str) else json.dumps(value)


def _format_fields(values: dict[str, Any] | None, fields: list[str]) -> str:
    if values is None:
        return "(did not exist)"
    parts = []
    for name in fields:
        text = _format_value(name, values.get(name))
        parts.append(text if name == "content" and len(fields) == 1 else f"{name}: {text}")
    return "\n".join(parts)


def describe_change(change: HistoryChange) -> ChangeRow:
    """One row's change, in words, with only the fields that changed."""
    item = f"{TABLE_NAMES.get(change.table_name, change.table_name)} {change.item_key}"
    if change.redacted:
        return ChangeRow(item, "removed from Trash for good", "(text removed)", "(text removed)")
    before, after = _load(change.before), _load(change.after)
    if before is None or after is None:
        values = after if before is None else before
        assert values is not None
        fields = [name for name in values if name not in QUIET_FIELDS and values[name] not in (None, "")]
        what = "added" if before is None else "removed"
    else:
        fields = [name for name in after if before.get(name) != after.get(name) and name not in QUIET_FIELDS]
        if fields == ["deleted_at"]:
            what = "moved to Trash" if after["deleted_at"] else "restored from Trash"
        else:
            what = "changed " + ", ".join(fields)
        fields = fields or ["updated_at"]
    return ChangeRow(item, what, _format_fields(before, fields), _format_fields(after, fields))


class ChangesModel(QAbstractTableModel):
    ITEM, WHAT = range(2)
    HEADERS = ("Item", "Change")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[ChangeRow] = []

    def set_rows(self, rows: list[ChangeRow]) -> None:
        self.beginResetModel()
        self.rows = rows
        self.endResetModel()

    def rowCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = ROOT) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        row = self.rows[index.row()]
        return (row.item, row.what)[index.column()]


def _titled(title: str, widget: QWidget) -> QWidget:
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    label = QLabel(title)
    label.setFont(theme.scaled_font(label.font(), 1.0, bold=True))
    layout.addWidget(label)
    layout.addWidget(widget, 1)
    return box


class HistoryView(QWidget):
    open_requested = Signal(str, str)
    status_message = Signal(str)

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.header = ViewHeader(
            "History", "Every change, newest first. Undo and redo work one action at a time."
        )
        self.undo_button = self.header.add_action(QPushButton("Undo"))
        self.redo_button = self.header.add_action(QPushButton("Redo"))
        self.undo_button.clicked.connect(lambda: self._move("undo"))
        self.redo_button.clicked.connect(lambda: self._move("redo"))
        self.steps = StepsModel(self)
        self.steps_table = QTableView()
        self.steps_table.setModel(self.steps)
        setup_table(
            self.steps_table,
            StepsModel.ACTION,
            {StepsModel.WHEN: 17, StepsModel.ACTOR: 6, StepsModel.STATE: 9, StepsModel.CHANGES: 8},
        )
        self.steps_table.selectionModel().currentRowChanged.connect(self._step_selected)
        self.changes = ChangesModel(self)
        self.changes_table = QTableView()
        self.changes_table.setModel(self.changes)
        setup_table(self.changes_table, ChangesModel.WHAT, {ChangesModel.ITEM: 18})
        self.changes_table.selectionModel().currentRowChanged.connect(self._change_selected)
        self.before = QPlainTextEdit(readOnly=True)
        self.after = QPlainTextEdit(readOnly=True)
        detail = QSplitter(Qt.Orientation.Horizontal)
        detail.addWidget(_titled("Changes in this step", self.changes_table))
        detail.addWidget(_titled("Before", self.before))
        detail.addWidget(_titled("After", self.after))
        detail.setChildrenCollapsible(False)
        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(self.steps_table)
        main.addWidget(detail)
        main.setStretchFactor(0, 3)
        main.setStretchFactor(1, 2)
        main.setChildrenCollapsible(False)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(main, 1)
        self.setFocusProxy(self.steps_table)
        self._selected_step: int | None = None

    def refresh(self) -> None:
        self.tasks.read(lambda app: app.history.list(limit=STEP_LIMIT), on_done=self._show)

    def _show(self, steps: list[StepInfo]) -> None:
        rows = selected_rows(self.steps_table)
        keep = self.steps.steps[rows[0]].id if rows else None
        self.steps.set_steps(steps)
        self.undo_button.setEnabled(any(step.state == "done" for step in steps))
        self.redo_button.setEnabled(any(step.state == "undone" for step in steps))
        row = next((i for i, step in enumerate(steps) if step.id == keep), 0 if steps else None)
        if row is None:
            self.changes.set_rows([])
            self._show_sides(None)
        else:
            self.steps_table.selectRow(row)

    def _step_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        step_id = self.steps.steps[current.row()].id
        self._selected_step = step_id
        self.tasks.read(
            lambda app: [describe_change(change) for change in app.history.changes(step_id)],
            on_done=lambda rows: self._show_changes(step_id, rows),
        )

    def _show_changes(self, step_id: int, rows: list[ChangeRow]) -> None:
        if step_id != self._selected_step:
            return
        self.changes.set_rows(rows)
        if rows:
            self.changes_table.selectRow(0)
        else:
            self._show_sides(None)

    def _change_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_sides(self.changes.rows[current.row()] if current.isValid() else None)

    def _show_sides(self, row: ChangeRow | None) -> None:
        self.before.setPlainText(row.before if row else "")
        self.after.setPlainText(row.after if row else "")

    def _move(self, direction: str) -> None:
        undo_or_redo(self.tasks, direction, self._moved, self.status_message.emit)

    def _moved(self, sentence: str) -> None:
        self.status_message.emit(sentence)
        self.refresh()
