"""Keeping a long-running server in step with the person: who is calling, and the settings.

A server runs for hours beside the window; the person may change a setting there (say,
make assistants read-only) and expects it to hold from the next call on.
"""

from __future__ import annotations

import os
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

FLUSH_SECONDS = 30.0


class ClientLog:
    """Counts each assistant's calls; writes the first at once, then at most every 30 s.

    Writing on every call would make a database write (and a refresh of the open window)
    out of every read an assistant makes.
    """

    def __init__(self, app: Memdesk, flush_seconds: float = FLUSH_SECONDS) -> None:
        self.app = app
        self.flush_seconds = flush_seconds
        self._pending: dict[str, int] = {}
        self._flushed_at: dict[str, float] = {}
        self._lock = threading.Lock()

    def call(self, actor: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._pending[actor] = self._pending.get(actor, 0) + 1
            last = self._flushed_at.get(actor)
            due = last is None or now - last >= self.flush_seconds
            if due:
                self._flushed_at[actor] = now
        if due:
            self.flush(actor)

    def flush(self, actor: str | None = None) -> None:
        """Write the counted calls (of one actor, or of all)."""
        with self._lock:
            actors = [actor] if actor is not None else list(self._pending)
            counts = {name: self._pending.pop(name, 0) for name in actors}
        for name, calls in counts.items():
            if calls:
                self.app.assistants.seen(name, calls)


class SettingsWatch:
    """Reloads the settings file when it changes on disk (a cheap stat per call)."""

    def __init__(self, app: Memdesk) -> None:
        self.app = app
        self._stamp = self._read_stamp()

    def _read_stamp(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.app.paths.config_file)
        except OSError:
            return None
        return info.st_mtime_ns, info.st_size

    def refresh(self) -> None:
        stamp = self._read_stamp()
        if stamp == self._stamp:
            return
        self._stamp = stamp
        self.app.reload_settings()


class FollowingSettings:
    """ASGI middleware: before each request, the settings file is read again if it changed,
    so a local HTTP server holds to a setting the person changed from the next request on."""

    def __init__(self, app: Any, watch: SettingsWatch) -> None:
        self.app = app
        self.watch = watch

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            self.watch.refresh()
        await self.app(scope, receive, send)
