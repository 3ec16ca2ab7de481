"""The sidebar and status-bar counts: read off the GUI thread, only the ones a change touches.

Each count says which kinds of item it depends on; a write that changed documents reads
the document count again and leaves the app list and Trash alone. Changes that arrive
while a read runs are gathered into one more read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from memdesk.core.items import EVERYTHING, NOTHING, Changes, ItemKind
from memdesk.gui.tasks import TaskRunner

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def _entries(category: str) -> Callable[[Memdesk], int]:
    return lambda app: app.entries.live_count(category)


# name -> (the kinds it depends on, how to read it)
COUNTS: dict[str, tuple[frozenset[ItemKind], Callable[[Memdesk], Any]]] = {
    # The apps' names only: each app's counts are read when its sidebar row is made.
    "apps": (frozenset({ItemKind.APP, ItemKind.APP_MEMORY}), lambda app: app.apps.list_apps(counted=False)),
    "app_memories": (frozenset({ItemKind.APP_MEMORY}), lambda app: app.apps.memory_count()),
    "review": (frozenset({ItemKind.HELD_WRITE}), lambda app: app.review.count()),
    "trash": (frozenset({ItemKind.TRASH}), lambda app: app.trash.count()),
    # A big store's first look (every fact read once) is left to the Memory health page.
    "health": (
        frozenset({ItemKind.DOCUMENT, ItemKind.ENTRY, ItemKind.APP_MEMORY}),
        lambda app: app.health.count(first_look=False),
    ),
    "sessions": (frozenset({ItemKind.SESSION}), lambda app: len(app.sessions.list())),
    "documents": (frozenset({ItemKind.DOCUMENT, ItemKind.WORKING}), lambda app: len(app.documents.list())),
    "knowledge": (frozenset({ItemKind.ENTRY}), _entries("knowledge")),
    "timeline": (frozenset({ItemKind.ENTRY}), _entries("timeline")),
}


def counts_for(changes: Changes) -> list[str]:
    """The counts ``changes`` may have changed."""
    return [name for name, (kinds, _read) in COUNTS.items() if changes.touches(kinds)]


def read_counts(app: Memdesk, names: list[str]) -> dict[str, Any]:
    return {name: COUNTS[name][1](app) for name in names}


class CountReader(QObject):
    """Reads the counts a change touched; ``counted`` carries the ones read (name -> value)."""

    counted = Signal(dict)
    failed = Signal(Exception)

    def __init__(self, tasks: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self._pending = NOTHING
        self._reading = False

    def refresh(self, changes: Changes = EVERYTHING) -> None:
        self._pending = self._pending | changes
        if self._reading:
            return  # read again when this one is done
        names = counts_for(self._pending)
        self._pending = NOTHING
        if not names:
            return
        self._reading = True
        self.tasks.read(lambda app: read_counts(app, names), on_done=self._done, on_error=self._failed)

    def _done(self, counts: dict[str, Any]) -> None:
        self._reading = False
        self.counted.emit(counts)
        self.refresh(NOTHING)

    def _failed(self, exc: Exception) -> None:
        self._reading = False
        self.failed.emit(exc)
        self.refresh(NOTHING)
