"""Review: assistants' writes that wait for the person, with why each waits and where it
would go; approve (one History step, undoable), edit then approve, or reject (to Trash).

Every decision runs through ``tasks.write`` on the review service, which reads each held
write again inside its transaction: when another window or process decided it first, the
person gets one line saying so, and nothing is applied twice.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from memdesk.core import detector
from memdesk.core.items import NOTHING
from memdesk.core.suspicious import Finding, findings
from memdesk.core.trust import TrustLevel, is_assistant
from memdesk.errors import ChangedSinceHeldError, UnseenChange
from memdesk.gui import dialogs, theme
from memdesk.gui.models.common import TableModel
from memdesk.gui.models.tableview import ACTOR_SAMPLE, DATE, size_columns
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets import display
from memdesk.gui.widgets.diff_label import DiffLabel
from memdesk.gui.widgets.marked_text import escaped, marked_html
from memdesk.gui.widgets.tables import CutAtEnd, selected_rows, setup_table
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.compaction.render import diff_lines
from memdesk.services.documents import appended
from memdesk.services.health import Fact
from memdesk.services.memdesk import Memdesk
from memdesk.services.review import PAGE, HeldInfo, Operation

EMPTY_TEXT = (
    "Nothing waits for review.\n\nWhen an assistant writes something that needs your look (what its "
    "trust level asks for, text that reads like instructions, or your profile and patterns), it waits "
    "here and reaches no prompt until you approve it."
)
# How Review speaks of a held write; History's Before/After says it in the same words.
WANTS_TO = "wants to"
GOES_TO = "Goes to"
WHY_IT_WAITS = "Why it waits"
REPLACES_STORED = "Replaces what is stored"
CHANGED_SINCE_HELD = "Changed since held"
# Writes whose text replaces what is there: Review shows the change as a diff.
_REPLACING = frozenset({Operation.SAVE_ENTRY, Operation.SET_WORKING, Operation.EDIT_APP_MEMORY})
_REMOVING = frozenset({Operation.FORGET_ENTRY, Operation.DELETE_APP_MEMORY})


@dataclass(frozen=True)
class ReviewItem:
    """A held write with what the reviewer needs beside it, read off the GUI thread."""

    held: HeldInfo
    where: str  # the part of the prompt it would change, in words
    current: str | None  # what it replaces or removes, as it is now
    findings: list[Finding]
    replaces: list[Fact]  # stored facts it contradicts: approving replaces them
    changed: UnseenChange | None  # its target, when written after the write was held

    @property
    def before_after(self) -> tuple[str, str] | None:
        """The text before and after approving, when the write changes existing text."""
        write = self.held.write
        if self.changed is not None:
            return self.changed.now, self.changed.put
        if self.current is None:
            return None
        if write.operation in _REPLACING:
            return self.current, write.content
        if write.operation in _REMOVING:
            return self.current, ""
        if write.operation is Operation.APPEND_DOCUMENT:
            return self.current, appended(self.current, write.content)
        return None


@dataclass(frozen=True)
class ReviewData:
    items: list[ReviewItem]
    total: int
    model_off: str  # why the learned detector is off; "" when it is on


def read_review(app: Memdesk) -> ReviewData:
    items = [
        ReviewItem(
            held,
            app.review.where(held.write),
            app.review.current(held),
            findings(held.write.content),
            app.review.replaces(held),
            app.review.changed_since_held(held),
        )
        for held in app.review.list(PAGE)
    ]
    return ReviewData(items, app.review.count(), detector.status())


class ReviewModel(TableModel):
    ASSISTANT, ACTION, WHERE, TEXT, HELD = range(5)
    HEADERS = ("Assistant", "Wants to", "Goes to", "Text", "Held")

    @property
    def items(self) -> list[ReviewItem]:
        return self._rows

    def set_items(self, items: list[ReviewItem]) -> None:
        self._reset_rows(items)

    def cell(self, item: ReviewItem, column: int, role: int) -> Any:
        held = item.held
        # Where it goes, marked when something was written there since: the mark leads.
        where = item.where if item.changed is None else f"{CHANGED_SINCE_HELD} · {item.where}"
        if role == Qt.ItemDataRole.DisplayRole:
            return (
                held.actor,
                held.write.title,
                where,
                display.one_line(held.write.content),
                display.when(held.created_at),
            )[column]
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == self.WHERE and item.changed is not None:
                return f"{where}: {_changed_sentence(item.changed)}"
            whole = (held.actor, held.write.title, where, None, display.when(held.created_at))[column]
            return whole or "\n".join(held.reasons) or None  # the text's cell: why it waits
        if role == Qt.ItemDataRole.ForegroundRole and column == self.WHERE and item.changed is not None:
            return theme.danger()
        return None


class ReviewView(Page):
    status_message = Signal(str)

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.total = 0
        self.header = ViewHeader("Review")
        self.approve_button = self.header.add_action(QPushButton("Approve"))
        self.reject_button = self.header.add_action(QPushButton("Reject"))
        self.approve_button.setToolTip(
            "Let the selected writes into memory: one step in History, undone with Ctrl+Z"
        )
        self.reject_button.setToolTip("Move the selected writes to Trash; they never reach a prompt")
        self.approve_button.clicked.connect(self.approve_selected)
        self.reject_button.clicked.connect(self.reject_selected)
        self.model = ReviewModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        setup_table(
            self.table,
            ReviewModel.TEXT,
            {ReviewModel.ACTION: 22, ReviewModel.WHERE: 28},
            multi_select=True,
        )
        size_columns(self.table, {ReviewModel.ASSISTANT: ACTOR_SAMPLE, ReviewModel.HELD: DATE})
        # A long name keeps both ends; every cut cell has its whole text as a tooltip. Where it
        # goes keeps its start, with the mark of a target written since it was held (the key
        # it ends with is in "Wants to").
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setItemDelegateForColumn(ReviewModel.WHERE, CutAtEnd(self.table))
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        for key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            shortcut = QShortcut(QKeySequence(key), self.table, context=Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(self.reject_selected)
        self.detail = _Detail()
        self.detail.edit_button.clicked.connect(self.edit_and_approve)
        self.detail.approve_all_button.clicked.connect(self.approve_all_from_assistant)
        self.detail.trust_button.clicked.connect(self.trust_assistant)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.detail)
        # The detail is what a reviewer reads; the list only picks the write.
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([200, 400])
        self.splitter.setChildrenCollapsible(False)
        # Said above the list: with the model off, less waits here than would.
        self.model_off = QLabel()
        self.model_off.setWordWrap(True)
        self.model_off.hide()
        theme.follow(self.model_off, lambda: theme.set_text_color(self.model_off, theme.danger()))
        self.empty_label = theme.empty_note(EMPTY_TEXT)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.model_off)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.empty_label, 1)
        self.setFocusProxy(self.table)
        self._selection_changed()

    # --- reading --------------------------------------------------------------------------

    def refresh(self) -> None:
        self.tasks.read(read_review, on_done=self._show)

    def _show(self, result: ReviewData) -> None:
        items, self.total = result.items, result.total
        self.model_off.setText(result.model_off)
        self.model_off.setVisible(bool(result.model_off))
        selected = {item.held.id for item in self.selected_items()}
        self.model.set_items(items)
        selection = self.table.selectionModel()
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        for row, item in enumerate(items):
            if item.held.id in selected:
                selection.select(self.model.index(row, 0), flags)
        if items and not selection.hasSelection():
            self.table.selectRow(0)
        shown = "" if self.total <= len(items) else f" The newest {len(items)} are listed."
        self.header.set_text(
            "Review",
            f"{display.plural(self.total, 'write')} from assistants {'waits' if self.total == 1 else 'wait'} "
            f"for you; none reaches a prompt until you approve it.{shown}",
        )
        self.splitter.setVisible(bool(items))
        self.empty_label.setVisible(not items)
        self._selection_changed()

    def selected_items(self) -> list[ReviewItem]:
        return [self.model.items[row] for row in selected_rows(self.table)]

    def _selection_changed(self) -> None:
        chosen = self.selected_items()
        self.approve_button.setEnabled(bool(chosen))
        self.reject_button.setEnabled(bool(chosen))
        self.detail.show_item(chosen[0] if len(chosen) == 1 else None, len(chosen))

    # --- deciding -------------------------------------------------------------------------

    def approve_selected(self) -> None:
        ids = [item.held.id for item in self.selected_items()]
        if ids:
            self._approve(
                lambda app, replace: app.review.approve(ids, replace=replace),
                f"Approved {display.plural(len(ids), 'write')}.",
            )

    def reject_selected(self) -> None:
        ids = [item.held.id for item in self.selected_items()]
        if ids:
            self._decide(
                lambda app: app.review.reject(ids),
                f"Rejected {display.plural(len(ids), 'write')} (in Trash).",
            )

    def edit_and_approve(self) -> None:
        chosen = self.selected_items()
        if len(chosen) != 1:
            return
        held = chosen[0].held
        text = dialogs.ask_long_text(self, "Edit, then approve", f"{held.write.title}:", held.write.content)
        if text is not None:
            self._approve(
                lambda app, replace: app.review.approve([held.id], edited=text, replace=replace),
                "Approved your edited text.",
            )

    def approve_all_from_assistant(self) -> None:
        actor = self._one_actor()
        if actor is None:
            return
        waiting = sum(1 for item in self.model.items if item.held.actor == actor)
        question = f"Approve every write {actor} has waiting ({waiting} listed here)?"
        if dialogs.confirm(self, "Approve all", question, action="Approve all"):
            self._approve(
                lambda app, replace: app.review.approve_all(actor, replace=replace),
                f"Approved every write from {actor}.",
            )

    def trust_assistant(self) -> None:
        actor = self._one_actor()
        if actor is None:
            return
        question = (
            f"Trust {actor}?\n\nIts future writes go straight into memory, unchecked, even to your "
            "profile and patterns. What waits here now still waits for you. You can change this "
            "on the Assistants page or with `memdesk assistant trust`."
        )
        if dialogs.confirm(self, "Trust this assistant", question, action="Trust"):
            self.tasks.write(
                lambda app: app.assistants.set_level(actor, TrustLevel.TRUSTED),
                on_done=lambda _actor: self.status_message.emit(f"{actor} is trusted now."),
                changes=NOTHING,  # a setting, not memory: no page shows it here
            )

    def _one_actor(self) -> str | None:
        actors = {item.held.actor for item in self.selected_items()}
        return actors.pop() if len(actors) == 1 else None

    def _decide(self, job: Any, done: str) -> None:
        self.tasks.write(job, on_done=lambda _result: self.status_message.emit(done), on_error=self._refused)

    def _approve(self, job: Callable[[Memdesk, bool], Any], done: str) -> None:
        """Approve; when that would replace text written since the write was held, show both
        texts and approve again, replacing it, only when the person says so."""

        def refused(exc: Exception) -> None:
            if not isinstance(exc, ChangedSinceHeldError):
                self._refused(exc)
            elif dialogs.confirm(self, "Replace what is there now?", _unseen_text(exc), action="Replace"):
                self._decide(lambda app: job(app, True), done)
            else:
                self.status_message.emit("Nothing was approved: what is there now stays.")
                self.refresh()

        self.tasks.write(
            lambda app: job(app, False),
            on_done=lambda _result: self.status_message.emit(done),
            on_error=refused,
        )

    def _refused(self, exc: Exception) -> None:
        """Decided elsewhere meanwhile, or its target is gone: one line, and the list read again."""
        self.status_message.emit(dialogs.describe_error(exc))
        self.refresh()


class _Detail(QScrollArea):
    """The selected write: who, what, where, why, its text marked, and the change it makes."""

    def __init__(self) -> None:
        super().__init__()
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget()
        self.summary = _rich_label()
        self.text = _rich_label()
        self.text.setFrameShape(QFrame.Shape.StyledPanel)
        self.text.setMargin(6)
        self.change_title = _rich_label()
        self.diff = DiffLabel()
        self.replaces_title = _rich_label()
        self.replaces_diff = DiffLabel()
        self.edit_button = QPushButton("Edit, then Approve…")
        self.edit_button.setToolTip("Change the text before it goes into memory")
        self.approve_all_button = QPushButton("Approve All from This Assistant")
        self.trust_button = QPushButton("Trust This Assistant…")
        buttons = QHBoxLayout()
        for button in (self.edit_button, self.approve_all_button, self.trust_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.text)
        layout.addWidget(self.change_title)
        layout.addWidget(self.diff)
        layout.addWidget(self.replaces_title)
        layout.addWidget(self.replaces_diff)
        layout.addLayout(buttons)
        layout.addStretch(1)
        self.setWidget(body)
        self._item: ReviewItem | None = None
        self._count = 0
        theme.follow(self, self._render)

    def show_item(self, item: ReviewItem | None, count: int) -> None:
        self._item, self._count = item, count
        self._render()

    def _render(self) -> None:
        item = self._item
        self.approve_all_button.setEnabled(item is not None)
        # What compaction held came from a conversation, not from an assistant one could trust.
        self.trust_button.setEnabled(item is not None and is_assistant(item.held.actor))
        self.edit_button.setEnabled(item is not None and bool(item.held.write.content))
        if item is None:
            self.summary.setText(
                f"<i>{self._count} writes selected: Approve or Reject decides them all.</i>"
                if self._count
                else ""
            )
            for widget in (self.text, self.change_title, self.diff, self.replaces_title, self.replaces_diff):
                widget.hide()
            return
        held = item.held
        pal = theme.palette()
        hidden = theme.danger(pal).name()
        reasons = "".join(f"<li>{escaped(reason, hidden)}</li>" for reason in held.reasons)
        self.summary.setText(
            f"<p><b>{html.escape(held.actor)}</b> {WANTS_TO} <b>{html.escape(held.write.title)}</b>"
            f" · held {html.escape(display.when(held.created_at))}</p>"
            f"<p>{GOES_TO}: {html.escape(item.where, quote=False)}</p>"
            f"<p>{WHY_IT_WAITS}:</p><ul>{reasons}</ul>"
        )
        content = held.write.content
        self.text.setVisible(bool(content))
        if content:
            mark = theme.tint(theme.WARNING_HUE, pal, 0.35)
            self.text.setText(marked_html(content, item.findings, mark, theme.danger(pal)))
        change = item.before_after
        self.change_title.setVisible(change is not None)
        self.diff.setVisible(change is not None)
        if item.changed is not None:
            self.change_title.setText(
                f'<b>What approving changes</b><br><span style="color:{hidden}"><b>{CHANGED_SINCE_HELD}:</b> '
                f"{html.escape(_changed_sentence(item.changed))}.</span>"
                "<br>− what is there now · + what approving puts"
            )
        else:
            self.change_title.setText("<b>What approving changes</b>")
        if change is not None:
            self.diff.show_lines(diff_lines(*change))
        self._show_replaced(item)

    def _show_replaced(self, item: ReviewItem) -> None:
        """The stored facts the write contradicts, and the change from them to its text."""
        replaced = item.replaces
        self.replaces_title.setVisible(bool(replaced))
        self.replaces_diff.setVisible(bool(replaced))
        if replaced:
            names = ", ".join(html.escape(fact.name) for fact in replaced)
            self.replaces_title.setText(
                f"<b>{REPLACES_STORED}</b> ({names}): approving removes the old fact"
                f"{'s' if len(replaced) > 1 else ''} in the same step"
            )
            before = "\n".join(fact.text for fact in replaced)
            self.replaces_diff.show_lines(diff_lines(before, item.held.write.content))


def _changed_sentence(change: UnseenChange) -> str:
    """Why a held write is marked: what was written to its target after it was held."""
    return (
        f"{change.what} was written after this write was held, so the assistant never saw it; "
        f"approving asks before it {'replaces' if change.put else 'removes'} it"
    )


def _unseen_text(error: ChangedSinceHeldError) -> str:
    """The question's text: each target written since, what it holds now and what approving puts."""
    parts = [
        f"{change.what[:1].upper()}{change.what[1:]}: written after write #{change.held_id} was held.\n\n"
        f"There now:\n{change.now}\n\nApproving puts:\n{change.put or '(nothing: it is removed)'}"
        for change in error.changes
    ]
    return "\n\n".join([*parts, "Replace what is there now? Undo brings it back."])


def _rich_label() -> QLabel:
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    return label
