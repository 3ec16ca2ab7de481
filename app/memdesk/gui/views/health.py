"""Memory health: live facts that disagree or are stored twice, each with its fixes.

The list reads ``Health.findings`` off the GUI thread (a look at what changed since the last);
keep this one, keep that one, merge into an edited text, or ignore run as writes, each one
History step that Ctrl+Z undoes. A finding fixed or changed elsewhere meanwhile is refused
with one line and the list is read again.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memdesk.gui import dialogs, theme
from memdesk.gui.models.common import TableModel
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets import display
from memdesk.gui.widgets.tables import selected_rows, setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.health import FACT_KINDS, Fact, Finding, FindingKind
from memdesk.services.memdesk import Memdesk

EMPTY_TEXT = (
    "Nothing to fix.\n\nWhen two live facts say different things about one thing (where you live, "
    "your editor, your manager…), or one fact is stored twice in other words, it is listed here, "
    "wherever the facts are kept: profile, patterns and facts, knowledge, app memories."
)


def what(finding: Finding) -> str:
    if finding.kind is FindingKind.CONFLICT:
        return f"Conflict: {finding.slot}"
    return "Near-duplicate"


class HealthModel(TableModel):
    KIND, FACTS = range(2)
    HEADERS = ("Finding", "Facts")

    @property
    def items(self) -> list[Finding]:
        return self._rows

    def set_items(self, items: list[Finding]) -> None:
        self._reset_rows(items)

    def cell(self, item: Finding, column: int, role: int) -> Any:
        facts = (item.first, item.second)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == self.KIND:
                return what(item)
            return "   ·   ".join(f"{display.one_line(fact.text)} ({fact.name})" for fact in facts)
        if role == Qt.ItemDataRole.ToolTipRole and column == self.FACTS:
            return "\n\n".join(f"{fact.name}:\n{fact.text[:1000]}" for fact in facts)
        return None


class _FactCard(QFrame):
    """One fact of the selected finding: where it is, its text, keep it, open it."""

    keep = Signal()
    open = Signal()

    def __init__(self, heading: str) -> None:
        super().__init__()
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.heading = heading
        self.where = QLabel()
        self.where.setTextFormat(Qt.TextFormat.RichText)
        self.where.setWordWrap(True)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.keep_button = QPushButton("Keep This One")
        self.keep_button.setToolTip("Keep this fact and remove the other (one undoable step)")
        self.open_button = QPushButton("Open")
        self.keep_button.clicked.connect(self.keep)
        self.open_button.clicked.connect(self.open)
        buttons = QHBoxLayout()
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.open_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.where)
        layout.addWidget(self.text, 1)
        layout.addLayout(buttons)

    def show_fact(self, fact: Fact) -> None:
        self.where.setText(f"<b>{html.escape(self.heading)}</b> · {html.escape(fact.name)}")
        self.text.setText(fact.text)


class HealthView(Page):
    status_message = Signal(str)

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.header = ViewHeader("Memory health")
        self.merge_button = self.header.add_action(QPushButton("Merge…"))
        self.ignore_button = self.header.add_action(QPushButton("Ignore"))
        self.merge_button.setToolTip("Write one text for both: it replaces the first, the other is removed")
        self.ignore_button.setToolTip("Stop listing this finding, until either fact changes")
        self.merge_button.clicked.connect(self.merge_selected)
        self.ignore_button.clicked.connect(self.ignore_selected)
        self.model = HealthModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(self.table, HealthModel.FACTS, {HealthModel.KIND: 18})
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.first_card, self.second_card = _FactCard("One fact"), _FactCard("The other")
        self.first_card.keep.connect(lambda: self.keep_selected("first"))
        self.second_card.keep.connect(lambda: self.keep_selected("second"))
        self.first_card.open.connect(lambda: self._open("first"))
        self.second_card.open.connect(lambda: self._open("second"))
        cards = QWidget()
        row = QGridLayout(cards)
        row.setContentsMargins(0, 8, 0, 0)
        row.addWidget(self.first_card, 0, 0)
        row.addWidget(self.second_card, 0, 1)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(cards)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([300, 220])
        self.splitter.setChildrenCollapsible(False)
        self.empty_label = theme.empty_note(EMPTY_TEXT)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.empty_label, 1)
        self.setFocusProxy(self.table)
        self._selection_changed()

    # --- reading --------------------------------------------------------------------------

    def refresh(self) -> None:
        self.tasks.read(lambda app: app.health.findings(), on_done=self._show)

    def _show(self, findings: list[Finding]) -> None:
        selected = {finding.id for finding in self.selected()}
        self.model.set_items(findings)
        selection = self.table.selectionModel()
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        for row, finding in enumerate(findings):
            if finding.id in selected:
                selection.select(self.model.index(row, 0), flags)
        if findings and not selection.hasSelection():
            self.table.selectRow(0)
        conflicts = sum(1 for finding in findings if finding.kind is FindingKind.CONFLICT)
        self.header.set_text(
            "Memory health",
            f"{display.plural(conflicts, 'conflict')} and "
            f"{display.plural(len(findings) - conflicts, 'near-duplicate')} among the live facts. "
            "Every fix is one step in History.",
        )
        self.splitter.setVisible(bool(findings))
        self.empty_label.setVisible(not findings)
        self._selection_changed()

    def selected(self) -> list[Finding]:
        return [self.model.items[row] for row in selected_rows(self.table)]

    def _selection_changed(self) -> None:
        finding = self._chosen()
        self.merge_button.setEnabled(finding is not None)
        self.ignore_button.setEnabled(finding is not None)
        if finding is not None:
            self.first_card.show_fact(finding.first)
            self.second_card.show_fact(finding.second)

    # --- fixing ---------------------------------------------------------------------------

    def _chosen(self) -> Finding | None:
        chosen = self.selected()
        return chosen[0] if chosen else None

    def keep_selected(self, which: str) -> None:
        finding = self._chosen()
        if finding is not None:
            kept = finding.first if which == "first" else finding.second
            self._fix(lambda app: app.health.keep(finding.id, which), f"Kept {kept.name}.")

    def merge_selected(self) -> None:
        finding = self._chosen()
        if finding is None:
            return
        label = f"One text for both. It replaces {finding.first.name}; {finding.second.name} is removed."
        text = dialogs.ask_long_text(self, "Merge", label, finding.second.text)
        if text is not None:
            self._fix(lambda app: app.health.merge(finding.id, text), f"Merged into {finding.first.name}.")

    def ignore_selected(self) -> None:
        finding = self._chosen()
        if finding is not None:
            self._fix(lambda app: app.health.ignore(finding.id), "Ignored; Ctrl+Z lists it again.")

    def _fix(self, job: Callable[[Memdesk], Any], done: str) -> None:
        self.tasks.write(
            job,
            on_done=lambda _step: self.status_message.emit(done),
            on_error=self._refused,
            changes=FACT_KINDS,
        )

    def _refused(self, exc: Exception) -> None:
        """Fixed or changed elsewhere meanwhile: one line, and the list read again."""
        self.status_message.emit(dialogs.describe_error(exc))
        self.refresh()

    def _open(self, which: str) -> None:
        finding = self._chosen()
        if finding is not None:
            self.open_requested.emit((finding.first if which == "first" else finding.second).item)
