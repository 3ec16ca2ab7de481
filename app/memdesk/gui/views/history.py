"""History: every change, newest first, with undo / redo and each change's before and after;
and the compaction runs, with what each cost and how it ended."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.actors import MEANINGS
from memdesk.errors import NotFoundError
from memdesk.gui import theme
from memdesk.gui.models.common import NUMBER_ALIGNMENT, Index, TableModel
from memdesk.gui.models.tableview import ACTOR_SAMPLE, DATE, ENTER_KEYS, size_columns, table_action
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.views.history_changes import ChangeRow, describe_change
from memdesk.gui.widgets import display
from memdesk.gui.widgets.tables import CutAtEnd, selected_rows, setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.history import StepInfo
from memdesk.services.memdesk import Memdesk
from memdesk.services.step_words import readable

if TYPE_CHECKING:  # the compaction package pulls in the LLM clients: load it only when used
    from memdesk.services.compaction import RunRecord

STEP_LIMIT = 200
RUN_LIMIT = 200
STATE_NAMES = {"done": "Done", "undone": "Undone", "discarded": "Replaced"}
EVERYONE = "Everyone"
OUTCOME_NAMES = {
    "proposed": "Not applied",
    "applied": "Applied",
    "failed": "Failed",
    "degraded": "Archived raw",
    "cancelled": "Cancelled",
}
OUTCOME_HINTS = {
    "proposed": "A proposal was made; it was discarded, or is still waiting for review",
    "degraded": "The model failed too often in a row, so the messages were archived as they are",
}


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
        on_done(f"{'Undid' if direction == 'undo' else 'Redid'}: {readable(step.label)}")

    def failed(exc: Exception) -> None:
        if isinstance(exc, NotFoundError):
            on_nothing(exc.message[:1].upper() + exc.message[1:])
        else:
            tasks.error.emit(exc)

    tasks.write(job, on_done=done, on_error=failed, label="Undoing…" if direction == "undo" else "Redoing…")


class StepsModel(TableModel):
    WHEN, ACTOR, ACTION, STATE, CHANGES = range(5)
    HEADERS = ("When", "By", "Action", "State", "Changes")
    NUMERIC = frozenset({CHANGES})

    @property
    def steps(self) -> list[StepInfo]:
        return self._rows

    def set_steps(self, steps: list[StepInfo]) -> None:
        self._reset_rows(steps)

    def cell(self, step: StepInfo, column: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                display.when(step.at),
                step.actor,
                readable(step.label),
                STATE_NAMES.get(step.state, step.state),
                str(step.changes),
            )[column]
        if role == Qt.ItemDataRole.ToolTipRole and column in (self.ACTOR, self.ACTION):
            return step.actor if column == self.ACTOR else readable(step.label)
        if role == Qt.ItemDataRole.ForegroundRole and step.state != "done":
            return theme.muted()
        if role == Qt.ItemDataRole.TextAlignmentRole and column == self.CHANGES:
            return NUMBER_ALIGNMENT
        return None


class ChangesModel(TableModel):
    ITEM, WHAT = range(2)
    HEADERS = ("Item", "Change")

    @property
    def rows(self) -> list[ChangeRow]:
        return self._rows

    def set_rows(self, rows: list[ChangeRow]) -> None:
        self._reset_rows(rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        row = self.rows[index.row()]
        return (row.item, row.what)[index.column()]


class RunsModel(TableModel):
    # How a run ended comes early: in a narrow window the costs are what scrolls out of view.
    WHEN, SESSION, OUTCOME, BACKEND, MODEL, DURATION, CALLS, TOKENS_IN, TOKENS_OUT, MESSAGE = range(10)
    HEADERS = (
        "When",
        "Session",
        "Outcome",
        "Backend",
        "Model",
        "Time",
        "Calls",
        "Tokens in",
        "Tokens out",
        "Message",
    )
    NUMERIC = frozenset({DURATION, CALLS, TOKENS_IN, TOKENS_OUT})

    @property
    def runs(self) -> list[RunRecord]:
        return self._rows

    def set_runs(self, runs: list[RunRecord]) -> None:
        self._reset_rows(runs)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if (
            orientation == Qt.Orientation.Horizontal
            and role == Qt.ItemDataRole.ToolTipRole
            and section in (self.TOKENS_IN, self.TOKENS_OUT)
        ):
            return "≈: estimated from the text, because the backend did not count"
        return super().headerData(section, orientation, role)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        run, column = self.runs[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                display.when(run.started_at),
                run.session_id or "",
                OUTCOME_NAMES.get(run.outcome, run.outcome),
                run.backend,
                run.model or "—",
                display.duration(run.duration_ms),
                f"{run.calls:,}",
                display.tokens(run.tokens_in, run.tokens_estimated),
                display.tokens(run.tokens_out, run.tokens_estimated),
                display.one_line(run.message),
            )[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.MESSAGE:
                return run.message or None
            if column == self.OUTCOME:
                return OUTCOME_HINTS.get(run.outcome)
            if column == self.MODEL and not run.model and run.backend == "offline":
                return "No model: the offline backend works without one"
            return None
        if role == Qt.ItemDataRole.ForegroundRole and column == self.OUTCOME:
            if run.outcome in ("failed", "degraded"):
                return theme.danger()
            if run.outcome == "applied":
                return theme.ok()
            return theme.muted()
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.NUMERIC:
            return NUMBER_ALIGNMENT
        return None


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


class HistoryView(Page):
    status_message = Signal(str)

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.header = ViewHeader(
            "History",
            "Every change, newest first. Undo and redo work one action at a time. "
            "Compaction runs are listed with what each cost.",
        )
        self.actor_filter = self.header.add_action(QComboBox())
        self.actor_filter.setToolTip("Only the changes of one actor: you, the command line or an assistant")
        self.actor_filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.actor_filter.addItem(EVERYONE)
        self.actor_filter.currentIndexChanged.connect(lambda _index: self.refresh())
        self.undo_button = self.header.add_action(QPushButton("Undo"))
        self.redo_button = self.header.add_action(QPushButton("Redo"))
        self.undo_button.clicked.connect(lambda: self._move("undo"))
        self.redo_button.clicked.connect(lambda: self._move("redo"))
        self.steps = StepsModel(self)
        self.steps_table = QTableView()
        self.steps_table.setModel(self.steps)
        setup_table(self.steps_table, StepsModel.ACTION, {StepsModel.STATE: 9, StepsModel.CHANGES: 8})
        size_columns(self.steps_table, {StepsModel.WHEN: DATE, StepsModel.ACTOR: ACTOR_SAMPLE})
        # A long name keeps both ends ("mcp:cod…client"); the tooltip has all of it. An action
        # keeps its start, where its verb is ("Memory health: ignore entr…").
        self.steps_table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.steps_table.setItemDelegateForColumn(StepsModel.ACTION, CutAtEnd(self.steps_table))
        self.steps_table.selectionModel().currentRowChanged.connect(self._step_selected)
        self.changes = ChangesModel(self)
        self.changes_table = QTableView()
        self.changes_table.setModel(self.changes)
        setup_table(self.changes_table, ChangesModel.WHAT, {ChangesModel.ITEM: 18}, stretch_min_chars=12)
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
        self.runs = RunsModel(self)
        self.runs_table = QTableView()
        self.runs_table.setModel(self.runs)
        setup_table(self.runs_table, RunsModel.MESSAGE, {})
        size_columns(
            self.runs_table,
            {
                RunsModel.WHEN: DATE,
                RunsModel.SESSION: "telegram:123456",
                RunsModel.BACKEND: "anthropic",
                RunsModel.MODEL: "claude-haiku-4-5",  # the longest default model name
                RunsModel.DURATION: "99.9 s",
                RunsModel.CALLS: "99",
                RunsModel.TOKENS_IN: "≈99,999",
                RunsModel.TOKENS_OUT: "≈99,999",
                RunsModel.OUTCOME: "Archived raw",
            },
        )
        self.runs_table.selectionModel().currentRowChanged.connect(self._run_selected)
        self.runs_table.doubleClicked.connect(lambda _index: self.open_run_step())
        self.runs_table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.open_step_action = table_action(
            self.runs_table, "Show its changes", self.open_run_step, *ENTER_KEYS
        )
        self.run_detail = QLabel()
        self.run_detail.setWordWrap(True)
        self.run_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        runs_page = QWidget()
        runs_layout = QVBoxLayout(runs_page)
        runs_layout.setContentsMargins(0, 6, 0, 0)
        runs_layout.addWidget(self.runs_table, 1)
        runs_layout.addWidget(self.run_detail)

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)  # no frame around a frame: the tables have their own
        self.tabs.addTab(main, "Changes")
        self.tabs.addTab(runs_page, "Compaction runs")
        self.tabs.currentChanged.connect(lambda _index: self.setFocusProxy(self.tabs.currentWidget()))
        main.setFocusProxy(self.steps_table)
        runs_page.setFocusProxy(self.runs_table)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.tabs, 1)
        self.setFocusProxy(main)
        self._selected_step: int | None = None
        self._wanted_step: int | None = None  # to select once the steps arrive (show_step)
        self._show_run(None)

    @property
    def actor(self) -> str | None:
        """The actor whose changes are listed; None for everyone's."""
        text = self.actor_filter.currentText()
        return None if text == EVERYONE else text

    def set_actor(self, actor: str | None) -> None:
        if actor is not None and self.actor_filter.findText(actor) < 0:
            self.actor_filter.addItem(actor)
        self.actor_filter.setCurrentText(actor or EVERYONE)

    def refresh(self) -> None:
        actor = self.actor

        def job(app: Memdesk) -> tuple[list[StepInfo], list[str]]:
            actors = sorted({*MEANINGS, *(client.name for client in app.assistants.list())})
            return app.history.list(limit=STEP_LIMIT, actor=actor), actors

        self.tasks.read(job, on_done=self._show_with_actors)
        self.tasks.read(lambda app: app.compaction.runs(RUN_LIMIT), on_done=self._show_runs)

    def show_step(self, step_id: int) -> None:
        """List everyone's changes and select step ``step_id`` (when it is among those listed)."""
        self._wanted_step = step_id
        self.tabs.setCurrentIndex(0)
        if self.actor is not None:
            self.set_actor(None)  # refreshes
        else:
            self.refresh()

    def _show_with_actors(self, result: tuple[list[StepInfo], list[str]]) -> None:
        steps, actors = result
        current = self.actor_filter.currentText()
        self.actor_filter.blockSignals(True)
        self.actor_filter.clear()
        self.actor_filter.addItems([EVERYONE, *actors])
        if current != EVERYONE and current not in actors:
            self.actor_filter.addItem(current)
        self.actor_filter.setCurrentText(current)
        self.actor_filter.blockSignals(False)
        self._show(steps)

    def show_runs(self) -> None:
        self.tabs.setCurrentIndex(1)

    def _show(self, steps: list[StepInfo]) -> None:
        rows = selected_rows(self.steps_table)
        keep = self.steps.steps[rows[0]].id if rows else None
        if self._wanted_step is not None:
            keep, self._wanted_step = self._wanted_step, None
            if all(step.id != keep for step in steps):
                self.status_message.emit(f"History step #{keep} is older than the {STEP_LIMIT} listed.")
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
            lambda app: [describe_change(change, app) for change in app.history.changes(step_id)],
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

    def _show_runs(self, runs: list[RunRecord]) -> None:
        rows = selected_rows(self.runs_table)
        keep = self.runs.runs[rows[0]].id if rows else None
        self.runs.set_runs(runs)
        self.tabs.setTabText(1, f"Compaction runs ({len(runs):,})" if runs else "Compaction runs")
        row = next((i for i, run in enumerate(runs) if run.id == keep), 0 if runs else None)
        if row is None:
            self._show_run(None)
        else:
            self.runs_table.selectRow(row)

    def _run_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        run = self.runs.runs[current.row()] if current.isValid() else None
        self.open_step_action.setEnabled(run is not None and run.history_step_id is not None)
        self._show_run(run)

    def _show_run(self, run: RunRecord | None) -> None:
        if run is None:
            self.run_detail.setText(
                "No compaction has run yet. Runs started here or by an assistant (memdesk compact) "
                "are listed with their backend, time and tokens."
            )
            return
        where = f" of {run.session_id}" if run.session_id else ""
        text = f"Run {run.id}{where}: {run.message}"
        if run.history_step_id is not None:
            text += f" (history step #{run.history_step_id}; Enter shows its changes)"
        self.run_detail.setText(text)

    def open_run_step(self) -> None:
        """Enter or double-click on an applied run: its history step, in the Changes tab."""
        current = self.runs_table.currentIndex()
        step_id = self.runs.runs[current.row()].history_step_id if current.isValid() else None
        if step_id is None:
            return
        row = next((i for i, step in enumerate(self.steps.steps) if step.id == step_id), None)
        if row is None:
            self.status_message.emit(f"History step #{step_id} is older than the {STEP_LIMIT} listed.")
            return
        self.tabs.setCurrentIndex(0)
        self.steps_table.selectRow(row)
        self.steps_table.setFocus()

    def _move(self, direction: str) -> None:
        undo_or_redo(self.tasks, direction, self._moved, self.status_message.emit)

    def _moved(self, sentence: str) -> None:
        self.status_message.emit(sentence)
        self.refresh()
