"""What every service needs: the store, the settings, the clock and who is acting."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy.orm import Session

from memdesk.config import Settings
from memdesk.core.timefmt import naive_utc, utcnow
from memdesk.errors import BadInputError
from memdesk.store.engine import Store
from memdesk.store.recorder import recorded_change

MAX_DOCUMENT_CHARS = 1_000_000
MAX_ENTRY_CHARS = 100_000


@dataclass
class Context:
    store: Store
    settings: Settings
    files_global_dir: Path
    actor: str = "user"
    clock: Callable[[], datetime] = utcnow

    def now(self) -> datetime:
        """The clock's time as naive UTC: a clock may return aware times."""
        return naive_utc(self.clock())

    # Per thread, so a change on one thread never joins one open on another.
    _open: threading.local = field(default_factory=threading.local, init=False, repr=False)
    # Who acts on this thread when it is not ``actor`` (a request served for an API client).
    _acting: threading.local = field(default_factory=threading.local, init=False, repr=False)

    def current_actor(self) -> str:
        """The actor recorded for changes made on the calling thread."""
        return getattr(self._acting, "actor", None) or self.actor

    @contextmanager
    def acting_as(self, actor: str) -> Iterator[None]:
        """Record changes made on this thread, inside the block, as ``actor``; other threads are untouched."""
        previous = getattr(self._acting, "actor", None)
        self._acting.actor = actor
        try:
            yield
        finally:
            self._acting.actor = previous

    @contextmanager
    def change(self, label: str) -> Iterator[Session]:
        """One user action: one transaction, one history step.

        A change opened inside another on the same thread joins it, so a composite action
        (an import, an applied compaction) is still one step that one undo reverts.
        """
        open_session: Session | None = getattr(self._open, "session", None)
        if open_session is not None:
            yield open_session
            return
        with recorded_change(self.store, label, self.current_actor(), self.now()) as session:
            self._open.session = session
            try:
                yield session
            finally:
                self._open.session = None


def check_text(value: object, what: str, max_chars: int, allow_empty: bool = False) -> str:
    """Refuse text that is not text, is empty, holds NUL bytes, or is too long."""
    if not isinstance(value, str):
        raise BadInputError(f"{what} must be text, not {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise BadInputError(f"{what} is empty")
    if "\x00" in value:
        raise BadInputError(f"{what} contains a NUL character")
    if len(value) > max_chars:
        raise BadInputError(
            f"{what} is {len(value):,} characters; the limit is {max_chars:,}",
            "split it into smaller pieces",
        )
    return value
