"""While the window is open, the enabled assistants' transcripts are read as they grow.

Every few seconds the new lines of each enabled source (Claude Code, Codex CLI, pi) are read
in the background, as `memdesk sources sync` does: only files whose size or time changed are
opened, so a quiet machine costs a few directory listings. Sessions that gained messages show
through the usual change refresh.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from memdesk.core.items import Changes, ItemKind
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.display import plural

if TYPE_CHECKING:
    from memdesk.services.sources.sync import SyncResult

READ_EVERY_MS = 10_000
READ = Changes.of(ItemKind.SESSION)  # reading transcripts writes sessions and their messages


class SourceReader(QObject):
    """``said`` carries a line for the status bar when something was read or went wrong."""

    said = Signal(str)

    def __init__(
        self, tasks: TaskRunner, interval_ms: int = READ_EVERY_MS, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self._reading = False
        self._timer = QTimer(self, interval=interval_ms)
        self._timer.timeout.connect(self.read)

    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def read(self) -> None:
        """Read what is new now, unless a read is still running or no source is on."""
        if self._reading or not self.tasks.app.sources.enabled():
            return
        self._reading = True
        self.tasks.long_write(
            lambda app: app.sources.sync(), on_done=self._done, on_error=self._failed, changes=READ
        )

    def _done(self, result: SyncResult) -> None:
        self._reading = False
        if result.messages:
            files = sum(1 for item in result.files if item.messages)
            self.said.emit(
                f"Read {plural(result.messages, 'new message')} from {plural(files, 'transcript')}."
            )

    def _failed(self, exc: Exception) -> None:
        self._reading = False
        self.said.emit(f"Could not read assistants' transcripts: {exc}")
