"""A view around one markdown text that saves itself (documents, working memory).

Below the editor a footer shows the text's size and its save state; Ctrl+S saves at once,
Escape takes back the edits since the last save, and leaving the view saves.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets.autosave import AutosaveController
from memdesk.gui.widgets.markdown_editor import MarkdownEditor
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.services.memdesk import Memdesk

STATE_TEXT = {
    "loading": "Loading…",
    "saved": "Saved",
    "edited": "Edited",
    "saving": "Saving…",
    "conflict": "Not saved: changed elsewhere",
}


class EditorView(Page):
    """Subclasses put their own widgets above the editor and say how the size reads."""

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.bar = MessageBar()
        self.editor = MarkdownEditor()
        self.autosave = AutosaveController(tasks, self.editor, self.bar)
        self.autosave.state_changed.connect(self._state_changed)
        self.editor.text_edited.connect(self._update_size)
        self.size_label = QLabel()
        self.state_label = QLabel()

    def _add_editor(self, layout: QVBoxLayout) -> None:
        """The bar, the editor and the footer go last in the view's layout."""
        footer = QHBoxLayout()
        footer.addWidget(self.size_label)
        footer.addStretch(1)
        footer.addWidget(self.state_label)
        for label in (self.size_label, self.state_label):
            theme.follow(label, lambda label=label: theme.set_text_color(label, theme.muted()))
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

    def has_unsaved_changes(self) -> bool:
        return self.autosave.has_unsaved_changes()

    def flush(self) -> None:
        self.autosave.flush()

    def hideEvent(self, event: object) -> None:
        self.autosave.flush()  # autosave on leaving the view
        super().hideEvent(event)

    def _state_changed(self, state: str) -> None:
        self.state_label.setText(STATE_TEXT[state])
        self._update_size()

    def _update_size(self) -> None:
        raise NotImplementedError
