"""Working memory: the recent context that expires unless extended or pinned."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from memdesk.core import working as working_format
from memdesk.core.items import Changes, ItemKind, ItemRef
from memdesk.core.tokens import estimate_tokens
from memdesk.gui import dialogs, theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.editor_view import EditorView
from memdesk.gui.widgets import display
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk
from memdesk.services.working import WorkingState

PER_SESSION_TEXT = (
    "Memdesk is in per-session mode (the user namespace setting is empty), so working memory "
    "belongs to each session. Open a session to see its working memory."
)


class WorkingView(EditorView):
    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(app, tasks, parent)
        self.session_id: str | None = None
        self.state: WorkingState | None = None
        self._now: datetime | None = None  # the store's clock when the state was read
        self.header = ViewHeader("Working memory")
        self.extend_button = self.header.add_action(QPushButton("Extend…"))
        self.pin_button = self.header.add_action(QPushButton("Pin"))
        self.expire_button = self.header.add_action(QPushButton("Expire now"))
        self.extend_button.setToolTip("Push the expiry back by some days")
        self.pin_button.setToolTip("Keep it in the prompt until you expire it")
        self.expire_button.setToolTip("Take it out of the prompt now; the text stays, greyed")
        self.extend_button.clicked.connect(self.extend)
        self.pin_button.clicked.connect(self.pin)
        self.expire_button.clicked.connect(self.expire)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.autosave.saved.connect(self._read_state)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.status)
        self._add_editor(layout)
        theme.follow(self.status, self._show_state)

    @property
    def per_session_mode(self) -> bool:
        return not self.app.settings.memory.user_namespace and self.session_id is None

    def show_working(self, session_id: str | None = None) -> None:
        """The user's working memory, or a session's in per-session mode."""
        self.session_id = session_id
        if self.per_session_mode:
            self.header.set_text("Working memory", PER_SESSION_TEXT)
            self.editor.setEnabled(False)
            self._set_buttons(None)
            return
        self.editor.setEnabled(True)
        namespace = self.app.working.namespace(session_id)
        self.header.set_text(
            "Working memory",
            f"{namespace} · What the assistant was last working on; leaves the prompt when it expires.",
        )

        def save(app: Memdesk, text: str) -> str:
            if not text.strip():  # an empty text is never written: Expire now is the way out
                return load(app)
            return app.working.write(text, session_id=session_id).content

        def load(app: Memdesk) -> str:
            state = app.working.state(session_id)
            return state.content if state else ""

        self.autosave.open(
            namespace, load, save, Changes.of(ItemKind.WORKING, refs=(ItemRef(ItemKind.WORKING, namespace),))
        )
        self._read_state()

    def refresh(self) -> None:
        if self.per_session_mode:
            return
        self.autosave.refresh()
        self._read_state()

    # --- actions -----------------------------------------------------------------------

    def extend(self) -> None:
        default = self.app.settings.memory.working_memory_ttl_days
        days = dialogs.ask_int(self, "Extend working memory", "Days to add:", default, 1, 3650)
        if days is not None:
            self._adjust(lambda app: app.working.extend(days, self.session_id), "Extending…")

    def pin(self) -> None:
        self._adjust(lambda app: app.working.pin(self.session_id), "Pinning…")

    def expire(self) -> None:
        self._adjust(lambda app: app.working.expire(self.session_id), "Expiring…")

    def _adjust(self, change: Callable[[Memdesk], WorkingState], label: str) -> None:
        self.autosave.flush()  # the text first, so the change applies to what is on screen
        self.tasks.write(change, on_done=lambda _state: self._read_state(), label=label)

    # --- state -------------------------------------------------------------------------

    def _read_state(self) -> None:
        session_id = self.session_id
        self.tasks.read(lambda app: (app.working.state(session_id), app.now()), on_done=self._got_state)

    def _got_state(self, result: tuple[WorkingState | None, datetime]) -> None:
        state, self._now = result
        self._set_state(state)

    def _set_state(self, state: WorkingState | None) -> None:
        self.state = state
        self._show_state()
        self._set_buttons(state)

    def _set_buttons(self, state: WorkingState | None) -> None:
        has_text = state is not None and bool(state.content.strip())
        self.extend_button.setEnabled(has_text)
        self.pin_button.setEnabled(has_text and not state.pinned)
        self.expire_button.setEnabled(has_text and state.live)

    def _show_state(self) -> None:
        state = self.state
        now = self._now or self.app.now()
        if state is None or not state.content.strip():
            text = "Empty: nothing is in the prompt. Write something to start."
            color, dimmed = theme.muted(), False
        elif state.pinned:
            text = f"Pinned: in the prompt until you expire it. Written {display.when(state.updated_at)}."
            color, dimmed = theme.ok(), False
        elif state.live:
            assert state.expires_at is not None
            text = (
                f"In the prompt. Written {display.when(state.updated_at)}; "
                f"expires {display.in_days(state.expires_at, now)} ({display.when(state.expires_at)})."
            )
            color, dimmed = theme.ok(), False
        else:
            assert state.expires_at is not None
            text = (
                f"Expired {display.when(state.expires_at)}: not in the prompt. "
                "Extend or pin it to bring it back, or write new text."
            )
            color, dimmed = theme.danger(), True
        self.status.setText(text)
        theme.set_text_color(self.status, color)
        self.editor.set_dimmed(dimmed)

    def _update_size(self) -> None:
        text = self.editor.text()
        budget = self.app.settings.memory.working_memory_max_tokens
        tokens = estimate_tokens(text)
        over = len(working_format.cut_to_budget(text.strip(), budget)) < len(text.strip())
        note = " · over the budget: the end will be cut when saved" if over else ""
        self.size_label.setText(f"{tokens:,} of {budget:,} tokens{note}")
