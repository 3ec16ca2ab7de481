"""The Assistants page's transcripts: the assistants found on this machine whose own session
files Memdesk can read (Claude Code, Codex CLI, pi), each turned on or off; reading them now.
(Connecting Claude Code, which turns its source on: the page's client list.)"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from memdesk.core.items import NOTHING
from memdesk.gui import theme
from memdesk.gui.source_reader import READ
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.display import plural
from memdesk.services.sources.sync import SourceInfo, SyncResult


def describe(source: SourceInfo) -> str:
    if not source.found:
        return f"{source.title}: not found on this machine ({source.folder})"
    return f"{source.title}: {plural(source.transcripts, 'transcript')} in {source.folder}"


class SourcesPanel(QWidget):
    status_message = Signal(str)

    def __init__(self, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        note = QLabel(
            "Memdesk can read the conversations these assistants keep, as sessions that compaction "
            "turns into memories. Reading them sends nothing anywhere."
        )
        note.setWordWrap(True)
        theme.follow(note, lambda: theme.set_text_color(note, theme.muted()))
        self.boxes: dict[str, QCheckBox] = {}
        self.rows = QVBoxLayout()
        self.read_button = QPushButton("Read New Lines Now")
        self.read_button.clicked.connect(self.read_now)
        buttons = QHBoxLayout()
        buttons.addWidget(self.read_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(note)
        layout.addLayout(self.rows)
        layout.addLayout(buttons)
        layout.addStretch(1)

    def refresh(self) -> None:
        self.tasks.read(lambda app: app.sources.list(), on_done=self._show)

    def _show(self, sources: list[SourceInfo]) -> None:
        for source in sources:
            box = self.boxes.get(source.name)
            if box is None:
                box = QCheckBox()
                box.toggled.connect(lambda on, name=source.name: self._set_enabled(name, on))
                self.boxes[source.name] = box
                self.rows.addWidget(box)
            box.blockSignals(True)
            box.setChecked(source.enabled)
            box.blockSignals(False)
            box.setText(describe(source))
            box.setToolTip(f"Setting {source.setting}")
        self.read_button.setEnabled(any(source.enabled for source in sources))

    def _set_enabled(self, name: str, on: bool) -> None:
        # A setting, not memory: nothing else on screen shows it.
        self.tasks.write(
            lambda app: app.sources.set_enabled(name, on), on_done=self._changed, changes=NOTHING
        )

    def _changed(self, source: SourceInfo) -> None:
        self.status_message.emit(
            f"{'Reading' if source.enabled else 'Not reading'} {source.title}'s transcripts."
        )
        self.refresh()

    def read_now(self) -> None:
        self.tasks.long_write(
            lambda app: app.sources.sync(), on_done=self._read, label="Reading transcripts…", changes=READ
        )

    def _read(self, result: SyncResult) -> None:
        files = sum(1 for item in result.files if item.messages)
        problems = [line for line in result.lines() if ": " in line and "new messages" not in line]
        text = f"Read {plural(result.messages, 'new message')} from {plural(files, 'transcript')}."
        self.status_message.emit(text + (f" {problems[0]}" if problems else ""))
