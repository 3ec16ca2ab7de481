"""What every service needs: the store, the settings, the clock and who is acting."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy.orm import Session

from memdesk.config import Settings
from memdesk.core.actors import PYTHON
from memdesk.core.records import MAX_DOCUMENT_CHARS as MAX_DOCUMENT_CHARS
from memdesk.core.records import MAX_ENTRY_CHARS as MAX_ENTRY_CHARS
from memdesk.core.timefmt import naive_utc, utcnow
from memdesk.errors import BadInputError
from memdesk.store.engine import Store
from memdesk.store.recorder import Touched, recorded_change

# Who acts for the current thread or task, when it is not the context's own ``actor``
# (a server answering several assistants names each one for its own requests).
_acting: ContextVar[str | None] = ContextVar("memdesk_acting", default=None)


@dataclass
class Context:
    store: Store
    settings: Settings
    files_global_dir: Path
    actor: str = PYTHON
    clock: Callable[[], datetime] = utcnow
    # Where the vectors of stored texts are kept for recall by meaning (None: in memory only).
    meaning_cache: Path | None = None
    # What is derived from memory and kept up to date inside each change (Memory health's
    # index): each is called with the rows a step changed, before its commit.
    derived: list[Callable[[Session, Touched], None]] = field(default_factory=list)

    def now(self) -> datetime:
        """The clock's time as naive UTC: a clock may return aware times."""
        return naive_utc(self.clock())

    @property
    def current_actor(self) -> str:
        """The actor history records for changes made now, on this thread or task."""
        return _acting.get() or self.actor

    @contextmanager
    def acting_as(self, actor: str) -> Iterator[None]:
        """Record changes made inside the block, on this thread or task, as ``actor``'s."""
        token = _acting.set(actor)
        try:
            yield
        finally:
            _acting.reset(token)

    # Per thread, so a change on one thread never joins one open on another.
    _open: threading.local = field(default_factory=threading.local, init=False, repr=False)

    @contextmanager
    def change(self, label: str) -> Iterator[Session]:
        """One user action: one transaction, one history step.

        A change opened inside another on the same thread joins it, so a composite action
        (an import, an applied compaction) is still one step that one undo reverts.
        """
        self._open.last_step_id = None  # joined: the outer change makes the step, later
        open_session: Session | None = getattr(self._open, "session", None)
        if open_session is not None:
            yield open_session
            return
        self._open.later = []
        with recorded_change(
            self.store, label, self.current_actor, self.now(), self.keep_derived
        ) as recording:
            self._open.session = recording.session
            try:
                yield recording.session
            finally:
                self._open.session = None
        self._open.last_step_id = recording.step_id
        work, self._open.later = self._open.later, []
        for step in work:
            step()

    def after_commit(self, work: Callable[[], None]) -> None:
        """Run ``work`` once the change open on this thread has committed (a derived cache
        that must not hold the store's write lock while it is computed)."""
        self._open.later.append(work)

    def in_change(self) -> bool:
        """Whether a change is open on this thread (its transaction holds the store's write lock)."""
        return getattr(self._open, "session", None) is not None

    def keep_derived(self, session: Session, touched: Touched) -> None:
        """Bring what is derived from the ``touched`` rows up to date, in ``session``'s transaction."""
        for keep in self.derived:
            keep(session, touched)

    def last_step_id(self) -> int | None:
        """The history step the last change made on this thread left (None: it changed nothing)."""
        return getattr(self._open, "last_step_id", None)


def check_text(value: object, what: str, max_chars: int, allow_empty: bool = False) -> str:
    """Refuse text that is not text, is empty, holds NUL bytes, or is too long."""
    if not isinstance(value, str):
        raise BadInputError(f"{what} must be text, not {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise BadInputError(f"{what} is empty")
    if "\x00" in value:
        raise BadInputError(f"{what} contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate, e.g. from "\ud800" in JSON
        raise BadInputError(f"{what} is not valid UTF-8 text (character {exc.start + 1})") from None
    if len(value) > max_chars:
        raise BadInputError(
            f"{what} is {len(value):,} characters; the limit is {max_chars:,}",
            "split it into smaller pieces",
        )
    return value
