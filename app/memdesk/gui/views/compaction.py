"""Compaction: run it for a session, watch each step, review every change, apply the accepted ones.

The model calls run on a worker (``tasks.read``) and stop before the next call when
cancelled; applying runs through ``tasks.write`` as one history step, so Ctrl+Z reverts it.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.backends import BACKEND_LABELS, BACKENDS
from memdesk.core.grounding import Mark
from memdesk.core.items import EVERYTHING
from memdesk.core.suspicious import Finding
from memdesk.errors import LLMError, MemdeskError
from memdesk.gui import dialogs, theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets import display
from memdesk.gui.widgets.diff_label import DiffLabel
from memdesk.gui.widgets.display import plural
from memdesk.gui.widgets.marked_text import marked_html
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.compaction import (
    CancelToken,
    Change,
    ChangeKind,
    CompactionCancelled,
    CompactionDegraded,
    Proposal,
)
from memdesk.services.compaction.held import goes_to_review
from memdesk.services.compaction.model import FACT_CHANGES
from memdesk.services.compaction.render import change_diff
from memdesk.services.memdesk import Memdesk
from memdesk.services.sessions import SessionSummary
from memdesk.services.transcripts import read_transcript

TRANSCRIPT_FILTERS = "Transcripts (*.jsonl *.json *.txt *.md *.log);;All files (*)"
EMPTY_TEXT = (
    "Pick a session and press Run. Memdesk proposes the changes (working memory, a timeline entry, "
    "facts, the app's memory) and writes nothing until you apply the ones you accept."
)
MARKED_CHARS = 600  # of the model's marked lines shown on a card
REJECT_HINTS = {
    ChangeKind.DELETE_APP_MEMORY: (
        "Keep this memory. If the new memory is added, the oldest one goes instead, so the app "
        "stays within its cap."
    ),
    ChangeKind.ADVANCE_POINTER: "Leave the messages to be compacted again next time.",
    **dict.fromkeys(FACT_CHANGES, "Keep the stored fact as it is."),
}


class _Relay(QObject):
    """Carries progress from the worker to the GUI thread (a queued signal)."""

    progress = Signal(str, int, int)


def _held_back(badge_text: str, reason: str, sentence: str) -> tuple[QLabel, QLabel]:
    """A badge and the sentence under it for a change that starts rejected (none when no ``reason``)."""
    badge = QLabel(badge_text)
    badge.setToolTip(reason)
    badge.setVisible(bool(reason))
    why = QLabel(
        f"{sentence} Memory goes into every later prompt, so this change stays rejected until you accept it."
    )
    why.setWordWrap(True)
    why.setVisible(bool(reason))
    return badge, why


class ChangeCard(QFrame):
    """One proposed change: what and why, its diff, Accept / Reject, and Edit for its new text."""

    changed = Signal()

    def __init__(self, number: int, change: Change, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.change = change
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.title = QLabel(f"{number}. {change.title}")
        self.title.setWordWrap(True)
        self.title.setFont(theme.scaled_font(self.font(), 1.0, bold=True))
        self.state = QLabel()
        self.reason = QLabel(change.reason)
        self.reason.setWordWrap(True)
        self.reason.setVisible(bool(change.reason))
        # A suspicious change starts rejected; the badge and its reason say why.
        self.badge, self.suspicion = _held_back("⚠ Suspicious", change.suspicion, change.suspicion)
        # So does a change that says what the conversation does not: the reason, and the
        # model's text with those words marked.
        grounding = f"{change.grounding[:1].upper()}{change.grounding[1:]}."
        self.ungrounded_badge, self.grounding = _held_back("⚠ Ungrounded", change.grounding, grounding)
        self.marked = QLabel()
        self.marked.setWordWrap(True)
        self.marked.setTextFormat(Qt.TextFormat.RichText)
        self.marked.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.marked.setVisible(change.ungrounded)
        self.note = QLabel(change.note)
        self.note.setWordWrap(True)
        self.note.setVisible(bool(change.note))
        self.accept_button = QPushButton("Accept", checkable=True, checked=change.accepted)
        self.reject_button = QPushButton("Reject", checkable=True, checked=not change.accepted)
        self.reject_button.setToolTip(
            REJECT_HINTS.get(change.kind, "Leave this out; nothing of it is written.")
        )
        group = QButtonGroup(self)
        group.addButton(self.accept_button)
        group.addButton(self.reject_button)
        self.accept_button.toggled.connect(self._accept_toggled)
        self.edit_button = QPushButton("Edit", checkable=True)
        self.edit_button.setVisible(change.editable)
        self.edit_button.setToolTip("Change the text this change writes")
        self.edit_button.toggled.connect(self._edit_toggled)
        self.diff = DiffLabel()
        self.editor = QPlainTextEdit()
        self.editor.setTabChangesFocus(True)
        self.editor.setPlaceholderText(
            "One fact per line" if change.kind is ChangeKind.APPEND_FACTS else "The new text"
        )
        self.editor.hide()
        self.editor.textChanged.connect(self._edited)

        # Kept in place when hidden, so the buttons of every card line up.
        policy = self.edit_button.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.edit_button.setSizePolicy(policy)

        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.ungrounded_badge, 0, Qt.AlignmentFlag.AlignTop)
        for button in (self.accept_button, self.reject_button, self.edit_button):
            top.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.addLayout(top)
        layout.addWidget(self.state)
        layout.addWidget(self.suspicion)
        layout.addWidget(self.grounding)
        layout.addWidget(self.marked)
        layout.addWidget(self.reason)
        layout.addWidget(self.note)
        layout.addWidget(self.diff)
        layout.addWidget(self.editor)
        self.restyle()

    def restyle(self) -> None:
        self.diff.show_lines(change_diff(self.change), dimmed=not self.change.accepted)
        self._style()

    def _accept_toggled(self, accepted: bool) -> None:
        self.change.accepted = accepted
        self.change.rejected = not accepted
        if not accepted:
            self.edit_button.setChecked(False)
        self.restyle()
        self.changed.emit()

    def _edit_toggled(self, editing: bool) -> None:
        if editing:
            self.editor.setPlainText(self.change.after)
            self.editor.setMinimumHeight(self.editor.fontMetrics().lineSpacing() * 8)
            self.editor.setFocus()
        self.editor.setVisible(editing)
        self.edit_button.setText("Done" if editing else "Edit")

    def _edited(self) -> None:
        if not self.edit_button.isChecked():
            return
        self.change.after = self.editor.toPlainText()
        self.restyle()
        self.changed.emit()

    def _style(self) -> None:
        accepted = self.change.accepted
        if goes_to_review(self.change):
            words, color = "Not accepted: suspicious, will wait in Review", theme.danger()
        elif not accepted and self.change.suspicious:
            words, color = "Not accepted: suspicious, will not be written", theme.danger()
        elif not accepted and self.change.ungrounded:
            words, color = "Not accepted: not in the conversation, will not be written", theme.danger()
        elif not accepted:
            words, color = "Rejected: will not be written", theme.muted()
        elif self.change.edited:
            words, color = "Will be written, as edited", theme.ok()
        else:
            words, color = "Will be written", theme.ok()
        self.state.setText(words)
        theme.set_text_color(self.state, color)
        theme.set_text_color(self.reason, theme.muted())
        theme.set_text_color(self.note, theme.muted())
        theme.set_text_color(self.suspicion, theme.danger())
        theme.set_text_color(self.grounding, theme.danger())
        badge = (
            f"QLabel {{ background-color: {theme.tint(theme.DANGER_HUE, strength=0.3).name()}; "
            f"color: {theme.danger().name()}; font-weight: bold; border-radius: 4px; padding: 2px 8px; }}"
        )
        self.badge.setStyleSheet(badge)
        self.ungrounded_badge.setStyleSheet(badge)
        if self.change.ungrounded:
            # The marks are on the text the model wrote, whatever the reviewer makes of it since.
            text, findings = marked_lines(self.change.original_after, self.change.marks)
            mark = theme.tint(theme.WARNING_HUE, strength=0.35)
            self.marked.setText(marked_html(text, findings, mark, theme.danger()))
        self.edit_button.setEnabled(accepted)


def marked_lines(text: str, marks: tuple[Mark, ...]) -> tuple[str, list[Finding]]:
    """The lines of ``text`` that hold a mark (the rest is in the diff), with the marks'
    spans moved to match; "…" stands for lines left out between them, and for the end of a
    text longer than ``MARKED_CHARS``."""
    kept: list[str] = []
    findings: list[Finding] = []
    length = 0
    start = 0
    for line in text.splitlines(keepends=True):
        end = start + len(line)
        inside = [mark for mark in marks if mark.start < end and mark.end > start]
        if inside:
            findings += [
                Finding(
                    mark.kind, length + max(mark.start, start) - start, length + min(mark.end, end) - start
                )
                for mark in inside
            ]
            kept.append(line)
            length += len(line)
        elif kept and kept[-1] != "…\n":
            kept.append("…\n")
            length += 2
        start = end
    while kept and kept[-1] == "…\n":
        kept.pop()
    shown = "".join(kept).rstrip("\n")
    if len(shown) > MARKED_CHARS:  # a loop can fill the whole text; its start shows what it is
        shown = shown[:MARKED_CHARS] + "…"
        findings = [
            Finding(f.reason, f.start, min(f.end, MARKED_CHARS)) for f in findings if f.start < MARKED_CHARS
        ]
    return shown, findings


class CompactionView(Page):
    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.proposal: Proposal | None = None
        self.cards: list[ChangeCard] = []
        self._sessions: list[SessionSummary] = []
        self._wanted_session: str | None = None
        self._wanted_app: str | None = None
        self._backend_touched = False
        self._cancel: CancelToken | None = None
        self._relay = _Relay(self)
        self._relay.progress.connect(self._progress)

        self.header = ViewHeader(
            "Compaction",
            "Turn a session's new messages into memory. Every change is shown before it is written.",
        )
        self.session_box = QComboBox()
        self.session_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.session_box.setMinimumContentsLength(18)
        self.session_box.currentIndexChanged.connect(self._update_buttons)
        self.import_button = QPushButton("Import transcript…")
        self.import_button.setToolTip(
            "Log a transcript file (JSONL, a pi session, or role: text lines) as a session"
        )
        self.import_button.clicked.connect(self.import_transcript)
        self.backend_box = QComboBox()
        for name in BACKENDS:
            self.backend_box.addItem(BACKEND_LABELS[name], name)
        self.backend_box.activated.connect(self._backend_chosen)
        self.run_button = QPushButton("Run")
        self.run_button.setDefault(True)
        self.run_button.setToolTip("Propose changes for the session's new messages; nothing is written yet")
        self.run_button.clicked.connect(self.run)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop before the next model call; nothing is written")
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setMaximumWidth(160)
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.bar = MessageBar(hue=theme.INFO_HUE)
        self.error_bar = MessageBar(hue=theme.DANGER_HUE)

        controls = QGridLayout()
        controls.setHorizontalSpacing(8)
        controls.addWidget(QLabel("Session:"), 0, 0)
        controls.addWidget(self.session_box, 0, 1)
        controls.addWidget(self.import_button, 0, 2)
        controls.addWidget(QLabel("Backend:"), 1, 0)
        runs = QHBoxLayout()
        runs.setSpacing(8)
        runs.addWidget(self.backend_box)
        runs.addWidget(self.run_button)
        runs.addWidget(self.cancel_button)
        runs.addStretch(1)
        controls.addLayout(runs, 1, 1)
        controls.setColumnStretch(1, 1)
        progress = QHBoxLayout()
        progress.addWidget(self.progress_bar)
        progress.addWidget(self.progress_label, 1)

        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.empty = QLabel(EMPTY_TEXT)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.cards_box = QVBoxLayout()
        self.cards_box.setSpacing(10)
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 6, 0)
        content_layout.addWidget(self.summary)
        content_layout.addWidget(self.notes)
        content_layout.addLayout(self.cards_box)
        content_layout.addWidget(self.empty, 1)
        content_layout.addStretch(0)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(content)

        self.accepted_label = QLabel()
        self.discard_button = QPushButton("Discard")
        self.discard_button.setToolTip("Forget this proposal; nothing is written")
        self.discard_button.clicked.connect(self.discard)
        self.apply_button = QPushButton("Apply accepted changes")
        self.apply_button.setToolTip("Write the accepted changes as one step (Ctrl+Z undoes it)")
        self.apply_button.clicked.connect(self.apply)
        footer = QHBoxLayout()
        footer.addWidget(self.accepted_label, 1)
        footer.addWidget(self.discard_button)
        footer.addWidget(self.apply_button)

        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addLayout(controls)
        layout.addLayout(progress)
        layout.addWidget(self.error_bar)
        layout.addWidget(self.bar)
        layout.addWidget(self.scroll, 1)
        layout.addLayout(footer)
        self._set_progress_visible(False)
        self._show_proposal_widgets()
        self._restyle()
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        # A new application palette reaches child widgets as PaletteChange (light ↔ dark).
        if event.type() == QEvent.Type.PaletteChange:
            self._restyle()

    def _restyle(self) -> None:
        for label in (self.notes, self.empty):
            theme.set_text_color(label, theme.muted())
        for card in self.cards:
            card.restyle()

    # --- what the window calls ---------------------------------------------------------------

    def refresh(self) -> None:
        """Read the sessions again; a proposal under review stays as it is."""
        if not self._backend_touched:
            self._select_backend(self.app.settings.llm.backend)
        self.tasks.read(lambda app: app.sessions.list(), on_done=self._got_sessions)

    def select_session(self, session_id: str) -> None:
        self._wanted_session, self._wanted_app = session_id, None
        self.refresh()

    def select_app(self, app_id: str) -> None:
        """Pick the latest session of the app that has messages to compact."""
        self._wanted_session, self._wanted_app = None, app_id
        self.refresh()

    # --- sessions ------------------------------------------------------------------------

    def _got_sessions(self, sessions: list[SessionSummary]) -> None:
        current = self.session_box.currentData()
        # Sessions with something to compact first, the latest first (the order list() gives).
        self._sessions = sorted(sessions, key=lambda s: s.unconsolidated == 0)
        self.session_box.blockSignals(True)
        self.session_box.clear()
        for summary in self._sessions:
            self.session_box.addItem(_session_label(summary), summary.id)
        self.session_box.blockSignals(False)
        wanted = self._wanted_session or current
        if self._wanted_app is not None:
            wanted = self._session_of_app(self._wanted_app)
        self._wanted_session = self._wanted_app = None
        index = self.session_box.findData(wanted) if wanted else -1
        self.session_box.setCurrentIndex(max(index, 0) if self._sessions else -1)
        if not self._sessions:
            self.session_box.setPlaceholderText("No sessions logged yet")
        self._update_buttons()
        if self.proposal is None:
            self.run_button.setFocus()

    def _session_of_app(self, app_id: str) -> str | None:
        of_app = [s for s in self._sessions if s.app_id == app_id]
        if not of_app:
            self.bar.show_message(
                f"No session of app {app_id} has been logged, so it has nothing to compact yet."
            )
            return None
        return of_app[0].id

    def _selected(self) -> SessionSummary | None:
        session_id = self.session_box.currentData()
        return next((s for s in self._sessions if s.id == session_id), None)

    def _select_backend(self, name: str) -> None:
        self.backend_box.setCurrentIndex(max(self.backend_box.findData(name), 0))

    def _backend_chosen(self) -> None:
        self._backend_touched = True

    # --- running ---------------------------------------------------------------------------

    def run(self) -> None:
        chosen = self._selected()
        if chosen is None or self._cancel is not None:
            return
        if self.proposal is not None and not dialogs.confirm(
            self, "Compaction", "Discard the proposal under review and run again?", "Run again"
        ):
            return
        self._clear_proposal()
        self.bar.hide()
        self.error_bar.hide()
        session_id, backend = chosen.id, self.backend_box.currentData()
        token = self._cancel = CancelToken()
        relay = self._relay.progress.emit

        def propose(app: Memdesk) -> Proposal:
            return app.compaction.propose(session_id, backend=backend, cancel=token, progress=relay)

        self._set_progress_visible(True)
        self.empty.hide()
        self.progress_bar.setRange(0, 0)
        self.progress_label.setText(f"Starting compaction of {session_id}…")
        self._update_buttons()
        self.tasks.long_write(propose, on_done=self._got_proposal, on_error=self._run_failed)

    def cancel(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()
            self.cancel_button.setEnabled(False)
            self.progress_label.setText("Cancelling after the current model call…")

    def _progress(self, label: str, number: int, total: int) -> None:
        if self._cancel is None or self._cancel.cancelled:
            return
        self.progress_bar.setRange(0, max(total, 1))
        self.progress_bar.setValue(number - 1)
        self.progress_label.setText(f"Step {number} of {total}: {label}…")

    def _finished(self) -> None:
        self._cancel = None
        self._set_progress_visible(False)
        self._show_proposal_widgets()
        self._update_buttons()

    def _run_failed(self, exc: Exception) -> None:
        """Said once, above the proposal: what failed, what became of the messages, what to
        check. Only an unexpected error gets a dialog (and its details in the terminal)."""
        self._finished()
        if isinstance(exc, CompactionCancelled):
            self.bar.show_message("Cancelled. Nothing was written; the messages are as they were.")
            return
        if isinstance(exc, CompactionDegraded):
            self.tasks.store_changed.emit(EVERYTHING)  # a new timeline entry: other views and counts follow
            said = (
                f"The model failed again, so the {exc.archived} messages were archived as they are in "
                f"timeline entry {exc.entry_key}. Ctrl+Z undoes that."
            )
        elif isinstance(exc, LLMError):
            said = exc.message.rstrip(" .") + ". The messages stay as they are, to compact later."
        elif isinstance(exc, MemdeskError):
            said = exc.message.rstrip(" .") + "."
        else:
            self.refresh()
            dialogs.show_error(self, exc, "Compaction failed")
            return
        hint = f"<br><br>{html.escape(exc.hint)}" if isinstance(exc, MemdeskError) and exc.hint else ""
        self.error_bar.show_message(f"<b>Compaction failed.</b> {html.escape(said)}{hint}")
        self.refresh()  # failure counts and archives change the session list

    # --- the proposal ------------------------------------------------------------------------

    def _got_proposal(self, proposal: Proposal) -> None:
        self._finished()
        self.proposal = proposal
        backend = proposal.backend + (f" ({proposal.model})" if proposal.model else "")
        usage = proposal.usage
        cost = (
            f"{plural(usage.calls, 'model call')}, {display.tokens(usage.tokens_in, usage.estimated)} tokens "
            f"in, {display.tokens(usage.tokens_out, usage.estimated)} out, {usage.seconds:.1f} s"
        )
        details = (
            f"for {proposal.session_id} from {plural(proposal.message_count, 'message')} · {backend} · {cost}"
        )
        held = len(proposal.held_back())
        flagged = f" · <b>{held} suspicious, not accepted: they wait in Review</b>" if held else ""
        ungrounded = len(proposal.held_back_ungrounded())
        flagged += f" · <b>{ungrounded} not in the conversation, not accepted</b>" if ungrounded else ""
        self.summary.setText(
            f"<b>{plural(len(proposal.changes), 'change')} proposed</b> {html.escape(details)}{flagged}"
        )
        self.notes.setText("\n".join(proposal.notes))
        for number, change in enumerate(proposal.changes, 1):
            card = ChangeCard(number, change)
            card.changed.connect(self._update_buttons)
            self.cards_box.addWidget(card)
            self.cards.append(card)
        self._show_proposal_widgets()
        self._update_buttons()
        self.scroll.verticalScrollBar().setValue(0)
        if self.cards:
            self.cards[0].accept_button.setFocus()

    def apply(self) -> None:
        proposal = self.proposal
        if proposal is None or not proposal.accepted():
            return
        count = len(proposal.accepted())
        self._set_reviewing(False)
        self.tasks.write(
            lambda app: app.compaction.apply(proposal),
            on_done=lambda step_id: self._applied(count, step_id, proposal),
            on_error=self._apply_failed,
            label="Applying compaction",
        )

    def _applied(self, count: int, step_id: int | None, proposal: Proposal) -> None:
        self._clear_proposal()
        step = f" (history step #{step_id})" if step_id is not None else ""
        refused = proposal.refused
        held = f" {plural(len(proposal.held), 'suspicious change')} wait in Review." if proposal.held else ""
        self.bar.show_message(
            f"Applied {plural(count - len(refused), 'change')} as one step{step}. Ctrl+Z undoes all of "
            "them; anything removed is in Trash." + held + "".join(f" {line}" for line in refused)
        )
        self.refresh()

    def _apply_failed(self, exc: Exception) -> None:
        self._set_reviewing(True)
        if isinstance(exc, MemdeskError):
            dialogs.error(
                self, "Could not apply the changes", dialogs.describe_error(exc) + "\n\nNothing was written."
            )
        else:
            dialogs.show_error(self, exc, "Could not apply the changes")

    def discard(self) -> None:
        self._clear_proposal()
        self.bar.show_message("Proposal discarded. Nothing was written.")

    def import_transcript(self) -> None:
        path = dialogs.open_file(self, "Import a transcript", TRANSCRIPT_FILTERS)
        if path is None:
            return

        def load(app: Memdesk) -> tuple[str, int, str]:
            transcript = read_transcript(Path(path))
            return app.transcripts.import_messages(transcript), len(transcript.messages), transcript.format

        self.tasks.write(
            load, on_done=self._imported, on_error=self._import_failed, label="Importing transcript"
        )

    def _imported(self, result: tuple[str, int, str]) -> None:
        session_id, count, fmt = result
        self.bar.show_message(
            f"Imported {plural(count, 'message')} ({fmt}) into session {session_id}. Press Run to compact "
            "them; Ctrl+Z removes the import."
        )
        self.select_session(session_id)

    def _import_failed(self, exc: Exception) -> None:
        if isinstance(exc, MemdeskError):
            dialogs.error(self, "Could not import the transcript", dialogs.describe_error(exc))
        else:
            dialogs.show_error(self, exc, "Could not import the transcript")

    # --- widget state ----------------------------------------------------------------------

    def _clear_proposal(self) -> None:
        self.proposal = None
        for card in self.cards:
            card.deleteLater()
        self.cards = []
        self._show_proposal_widgets()
        self._update_buttons()

    def _show_proposal_widgets(self) -> None:
        has = self.proposal is not None
        self.summary.setVisible(has)
        self.notes.setVisible(has and bool(self.proposal.notes))
        self.empty.setVisible(not has)
        for widget in (self.accepted_label, self.discard_button, self.apply_button):
            widget.setVisible(has)

    def _set_reviewing(self, enabled: bool) -> None:
        for card in self.cards:
            card.setEnabled(enabled)
        self.apply_button.setEnabled(enabled)
        self.discard_button.setEnabled(enabled)

    def _set_progress_visible(self, visible: bool) -> None:
        self.progress_bar.setVisible(visible)
        self.progress_label.setVisible(visible)
        self.cancel_button.setVisible(visible)
        self.cancel_button.setEnabled(True)

    def _update_buttons(self) -> None:
        running = self._cancel is not None
        chosen = self._selected()
        self.run_button.setEnabled(not running and chosen is not None and chosen.unconsolidated > 0)
        self.run_button.setToolTip(
            "This session has no new messages to compact"
            if chosen is not None and chosen.unconsolidated == 0
            else "Propose changes for the session's new messages; nothing is written yet"
        )
        for widget in (self.session_box, self.backend_box, self.import_button):
            widget.setEnabled(not running)
        if self.proposal is not None:
            accepted = len(self.proposal.accepted())
            self.accepted_label.setText(f"{accepted} of {len(self.proposal.changes)} changes accepted")
            self.apply_button.setEnabled(accepted > 0)


def _session_label(summary: SessionSummary) -> str:
    parts = [summary.id]
    if summary.app_id:
        parts.append(f"app {summary.app_id}")
    parts.append(f"{summary.unconsolidated:,} new" if summary.unconsolidated else "nothing new")
    if summary.failure_count:
        parts.append(f"{plural(summary.failure_count, 'failed run')}")
    return " · ".join(parts)
