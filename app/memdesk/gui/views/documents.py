"""Documents: profile, patterns, facts, global and session notes, edited as markdown."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from memdesk.core.namespaces import is_working
from memdesk.core.tokens import estimate_tokens
from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.autosave import AutosaveController
from memdesk.gui.widgets.markdown_editor import MarkdownEditor
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk

STATE_TEXT = {
    "loading": "Loading…",
    "saved": "Saved",
    "edited": "Edited",
    "saving": "Saving…",
    "conflict": "Not saved: changed elsewhere",
}
DESCRIPTIONS = {
    "profile": "Who the person is: name, role, how they like to be addressed. Always in the prompt.",
    "patterns": "How the person works and what they prefer, learned over time.",
    "facts": "Lasting facts worth recalling when a message touches them.",
    "global": "Notes shared by every user and session.",
}


def document_title(namespace: str) -> str:
    if namespace == "global":
        return "Global notes"
    if namespace.startswith("sessions/"):
        return f"Session notes · {namespace.removeprefix('sessions/')}"
    return namespace.rsplit("/", 1)[-1].capitalize()


def user_documents(user_namespace: str) -> list[str]:
    base = user_namespace or "user"
    return [f"{base}/profile", f"{base}/patterns", f"{base}/facts", "global"]


class DocumentsView(QWidget):
    open_requested = Signal(str, str)

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.namespace = ""
        self.header = ViewHeader()
        self.picker = QComboBox()
        self.picker.setAccessibleName("Document")
        self.picker.setMinimumContentsLength(18)
        self.picker.activated.connect(lambda index: self.show_namespace(self.picker.itemData(index)))
        self.header.add_action(self.picker)
        self.bar = MessageBar()
        self.editor = MarkdownEditor()
        self.autosave = AutosaveController(tasks, self.editor, self.bar)
        self.autosave.state_changed.connect(self._state_changed)
        self.editor.text_edited.connect(self._update_size)
        self.size_label = QLabel()
        self.state_label = QLabel()
        footer = QHBoxLayout()
        footer.addWidget(self.size_label)
        footer.addStretch(1)
        footer.addWidget(self.state_label)
        for label in (self.size_label, self.state_label):
            theme.follow(label, lambda label=label: theme.set_text_color(label, theme.muted()))
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.bar)
        layout.addWidget(self.editor, 1)
        layout.addLayout(footer)
        save = QShortcut(
            QKeySequence.StandardKey.Save, self, context=Qt.ShortcutContext.WidgetWithChildrenShortcut
        )
        save.activated.connect(self.autosave.flush)
        cancel = QShortcut(
            QKeySequence(Qt.Key.Key_Escape),
            self.editor,
            context=Qt.ShortcutContext.WidgetWithChildrenShortcut,
        )
        cancel.activated.connect(self.autosave.revert)
        self.setFocusProxy(self.editor)

    def show_namespace(self, namespace: str) -> None:
        self.namespace = namespace
        kind = namespace.rsplit("/", 1)[-1] if "/" in namespace else namespace
        description = DESCRIPTIONS.get(kind, "Notes kept for this conversation.")
        self.header.set_text(document_title(namespace), f"{namespace} · {description}")
        self.autosave.open(
            namespace,
            lambda app: app.documents.text(namespace),
            lambda app, text: app.documents.set(namespace, text).content,
        )
        self._fill_picker()

    def refresh(self) -> None:
        self.autosave.refresh()
        self._fill_picker()

    def has_unsaved_changes(self) -> bool:
        return self.autosave.has_unsaved_changes()

    def flush(self) -> None:
        self.autosave.flush()

    def hideEvent(self, event: object) -> None:
        self.autosave.flush()  # autosave on leaving the view
        super().hideEvent(event)

    def _fill_picker(self) -> None:
        standard = user_documents(self.app.settings.memory.user_namespace)

        def job(app: Memdesk) -> list[str]:
            sessions = [
                doc.namespace
                for doc in app.documents.list()
                if doc.namespace.startswith("sessions/") and not is_working(doc.namespace)
            ]
            return standard + sessions

        self.tasks.read(job, on_done=self._set_picker)

    def _set_picker(self, namespaces: list[str]) -> None:
        if self.namespace and self.namespace not in namespaces:
            namespaces.append(self.namespace)
        self.picker.blockSignals(True)
        self.picker.clear()
        for namespace in namespaces:
            self.picker.addItem(document_title(namespace), namespace)
        self.picker.setCurrentIndex(max(0, self.picker.findData(self.namespace)))
        self.picker.blockSignals(False)

    def _state_changed(self, state: str) -> None:
        self.state_label.setText(STATE_TEXT[state])
        self._update_size()

    def _update_size(self) -> None:
        text = self.editor.text()
        self.size_label.setText(f"{estimate_tokens(text):,} tokens · {len(text):,} characters")
