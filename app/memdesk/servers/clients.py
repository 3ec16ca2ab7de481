"""Keeping a long-running server in step with the person: who is calling, and the settings.

A server runs for hours beside the window; the person may change a setting there (say,
make assistants read-only) and expects it to hold from the next call on.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import TYPE_CHECKING, Any

from memdesk.errors import MemdeskError

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

FLUSH_SECONDS = 30.0
EXIT_WAIT_SECONDS = 10.0

log = logging.getLogger(__name__)


class ClientLog:
    """Counts each assistant's calls (tool calls and admin API requests alike) and writes them
    from a thread of its own: an assistant's first call at once, later ones at most every 30 s.
    So `memdesk assistant list` is at most 30 s behind a running server.

    Writing on every call would make a database write (and a refresh of the open window)
    out of every read an assistant makes; writing on the caller's thread could hold up its
    answer while another program writes.
    """

    def __init__(self, app: Memdesk, flush_seconds: float = FLUSH_SECONDS) -> None:
        self.app = app
        self.flush_seconds = flush_seconds
        self._pending: dict[str, int] = {}
        self._flushed_at: dict[str, float] = {}
        self._timer: threading.Timer | None = None
        self._timer_due = 0.0
        self._lock = threading.Lock()
        self._writing = threading.Lock()  # a flush waits for a write under way (before a close)

    def call(self, actor: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._pending[actor] = self._pending.get(actor, 0) + 1
            last = self._flushed_at.get(actor)
            due = now if last is None else last + self.flush_seconds
            if self._timer is not None and self._timer_due <= due:
                return  # a write is coming soon enough
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(max(0.0, due - now), self._write_due)
            self._timer.daemon = True
            self._timer_due = due
            self._timer.start()

    def _write_due(self) -> None:
        with self._lock:
            self._timer = None
        self.flush()

    def flush_before_exit(self) -> None:
        """``flush`` from the SIGTERM handler: on a thread of its own, so the handler's thread
        holds no transaction that a second SIGTERM's flushes (the read log's) would wait for."""
        writer = threading.Thread(target=self.flush, name="memdesk-client-log", daemon=True)
        writer.start()
        writer.join(EXIT_WAIT_SECONDS)  # given up then: the counts are not worth a hung exit

    def flush(self) -> None:
        """Write every count not written yet (a server calls this before it ends)."""
        with self._writing:
            with self._lock:
                if self._timer is not None:  # what it would write is written now
                    self._timer.cancel()
                    self._timer = None
                counts, self._pending = self._pending, {}
                now = time.monotonic()
                for name in counts:
                    self._flushed_at[name] = now
            for name, calls in counts.items():
                try:
                    self.app.assistants.seen(name, calls)
                except MemdeskError as error:  # a busy database: counted again with the next write
                    log.warning("could not note %s's calls: %s", name, error.message)
                    with self._lock:
                        self._pending[name] = self._pending.get(name, 0) + calls


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
