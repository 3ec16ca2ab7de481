"""Autosave for one text at a time, that never silently overwrites someone else's change.

The controller remembers the text as it was in the store when it was loaded or last saved.
A save first checks the store still holds that text; a refresh that finds a different
text reloads it when the person has not typed since, and otherwise shows a bar so the
person chooses: Reload (take theirs) or Keep mine (save over it).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from memdesk.core.items import EVERYTHING, Changes
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.markdown_editor import MarkdownEditor
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.services.memdesk import Memdesk

AUTOSAVE_DELAY_MS = 800
Loader = Callable[[Memdesk], str]
Saver = Callable[[Memdesk, str], str]  # returns the text as stored

CONFLICT_TEXT = (
    "<b>Changed by another program</b> while you were editing. "
    "Reload to see their version, or keep yours and save it over theirs."
)


class AutosaveController(QObject):
    # "loading", "saved", "edited", "saving", "conflict"
    state_changed = Signal(str)
    saved = Signal()

    def __init__(
        self,
        tasks: TaskRunner,
        editor: MarkdownEditor,
        bar: MessageBar,
        delay_ms: int = AUTOSAVE_DELAY_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent or editor)
        self.tasks = tasks
        self.editor = editor
        self.bar = bar
        self.key: str | None = None
        self._load: Loader | None = None
        self._save: Saver | None = None
        self._changes = EVERYTHING
        self._loaded = False
        self._stored = ""  # the store's text, as last seen
        self._base_text = ""  # the editor text that corresponds to _stored
        self._in_flight = 0  # saves submitted and not yet delivered
        # The store's text as the writer thread will find it; saves queued one after the
        # other for the same key check against it, so a chained save is not a false conflict.
        self._box: dict[str, str] = {"stored": ""}
        self._recheck = False
        self._pending_text = ""
        self._theirs: str | None = None  # set while the conflict bar is up
        self._generation = 0
        self._timer = QTimer(self, singleShot=True, interval=delay_ms)
        self._timer.timeout.connect(self.flush)
        editor.text_edited.connect(self._edited)

    # --- what views call ---------------------------------------------------------------

    def open(self, key: str, load: Loader, save: Saver, changes: Changes = EVERYTHING) -> None:
        """Show ``key``'s text; the previous text is saved first if it was edited.

        ``changes`` is what a save changes, so the window refreshes only what shows that."""
        if key == self.key:
            self.refresh()
            return
        self.flush()
        self._generation += 1
        self.key, self._load, self._save, self._changes = key, load, save, changes
        self._loaded = False
        self._theirs = None
        self.bar.hide()
        self.editor.set_read_only(True)
        self._set_state("loading")
        generation = self._generation
        self.tasks.read(load, on_done=lambda text: self._opened(generation, text))

    def refresh(self) -> None:
        """Look for a change made elsewhere (called when the store changed)."""
        if not self._loaded or self._load is None:
            return
        if self._in_flight:
            self._recheck = True
            return
        generation = self._generation
        self.tasks.read(self._load, on_done=lambda text: self._compare(generation, text))

    def flush(self) -> None:
        """Save now if there is anything unsaved (on leaving, on Ctrl+S)."""
        self._timer.stop()
        if not self._loaded or self._theirs is not None or self._load is None or self._save is None:
            return
        text = self.editor.text()
        if text == (self._pending_text if self._in_flight else self._base_text):
            return
        load, save, box, generation = self._load, self._save, self._box, self._generation

        def job(app: Memdesk) -> tuple[bool, str]:
            current = load(app)
            if current != box["stored"]:
                return False, current
            box["stored"] = save(app, text)
            return True, box["stored"]

        self._in_flight += 1
        self._pending_text = text
        self._set_state("saving")
        self.tasks.write(
            job,
            on_done=lambda result: self._save_done(generation, text, *result),
            on_error=lambda exc: self._save_failed(generation, exc),
            changes=self._changes,
        )

    def revert(self) -> None:
        """Esc: drop the edit not saved yet and show the text as stored."""
        self._timer.stop()
        if self._loaded and self._theirs is None and not self._in_flight:
            self.editor.set_text(self._base_text)
            self._set_state("saved")

    def has_unsaved_changes(self) -> bool:
        return self._loaded and (self.editor.text() != self._base_text or self._in_flight > 0)

    # --- internals ---------------------------------------------------------------------

    def _set_state(self, state: str) -> None:
        self.state_changed.emit(state)

    def _opened(self, generation: int, text: str) -> None:
        if generation != self._generation:
            return
        self._remember(text)
        self.editor.set_text(text)
        self.editor.set_read_only(False)
        self._loaded = True
        self._set_state("saved")

    def _edited(self) -> None:
        if not self._loaded:
            return
        if self._theirs is None:
            self._timer.start()
        self._set_state("edited" if self.editor.text() != self._base_text else "saved")

    def _save_done(self, generation: int, sent: str, ok: bool, stored: str) -> None:
        self._in_flight -= 1
        if generation != self._generation:
            return
        if not ok:
            self._conflict(stored)
            return
        self._stored, self._base_text = stored, sent
        self.saved.emit()
        if self.editor.text() != sent:
            self._edited()
        else:
            self._set_state("saved")
        if self._recheck:
            self._recheck = False
            self.refresh()

    def _save_failed(self, generation: int, exc: Exception) -> None:
        self._in_flight -= 1
        if generation == self._generation:
            self._set_state("edited")
        self.tasks.error.emit(exc)

    def _compare(self, generation: int, stored: str) -> None:
        if generation != self._generation or self._in_flight or stored == self._stored:
            return
        if self._theirs is not None:
            self._theirs = stored
            if stored == self.editor.text():  # they now agree: nothing to choose
                self._accept(stored)
            return
        if self.editor.text() == self._base_text:
            self._accept(stored)
            self.editor.set_text(stored)
        else:
            self._conflict(stored)

    def _remember(self, stored: str) -> None:
        self._stored = self._base_text = stored
        self._box = {"stored": stored}

    def _accept(self, stored: str) -> None:
        self._remember(stored)
        self._theirs = None
        self.bar.hide()
        self._set_state("saved")

    def _conflict(self, theirs: str) -> None:
        self._timer.stop()
        self._theirs = theirs
        self.bar.show_message(CONFLICT_TEXT, [("Reload", self.reload), ("Keep mine", self.keep_mine)])
        self._set_state("conflict")

    def reload(self) -> None:
        """Take the other program's text, dropping the edit in progress."""
        if self._theirs is None:
            return
        theirs = self._theirs
        self._accept(theirs)
        self.editor.set_text(theirs)

    def keep_mine(self) -> None:
        """Save the edit in progress over the other program's text."""
        if self._theirs is None:
            return
        self._stored = self._theirs
        self._box = {"stored": self._theirs}
        self._theirs = None
        self.bar.hide()
        self.flush()
