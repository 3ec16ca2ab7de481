"""Hearing about other machines' writes on PostgreSQL: ``LISTEN`` on one connection of its own.

Every committed write sends its new revision on ``CHANNEL`` (``PostgresEngine.announce_write``).
A listener thread waits for those notifications without polling the server and hands each
revision to a callback; when the connection drops it says so and connects again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from sqlalchemy import URL

RECONNECT_AFTER_S = 2.0
# How long one wait for notifications lasts: the longest ``stop()`` takes to be obeyed.
WAIT_S = 0.5


class ChangeListener:
    def __init__(
        self,
        url: URL,
        channel: str,
        on_change: Callable[[int], None],
        on_error: Callable[[Exception], None],
    ) -> None:
        self._url = url
        self._channel = channel
        self._on_change = on_change
        self._on_error = on_error
        self._stopped = threading.Event()
        self._connected = threading.Event()
        self._thread = threading.Thread(target=self._run, name="memdesk-listen", daemon=True)

    def start(self) -> ChangeListener:
        self._thread.start()
        return self

    def wait_listening(self, timeout: float) -> bool:
        """Block until ``LISTEN`` is in place (notifications sent before that are not heard)."""
        return self._connected.wait(timeout)

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=WAIT_S * 4)

    def _run(self) -> None:
        import psycopg

        while not self._stopped.is_set():
            try:
                with psycopg.connect(
                    host=self._url.host or "",
                    port=self._url.port,
                    user=self._url.username,
                    password=self._url.password,
                    dbname=self._url.database,
                    autocommit=True,
                    connect_timeout=10,
                    application_name="memdesk-listen",
                    **{key: value for key, value in self._url.query.items() if isinstance(value, str)},
                ) as conn:
                    conn.execute(f'LISTEN "{self._channel}"')
                    self._connected.set()
                    while not self._stopped.is_set():
                        for note in conn.notifies(timeout=WAIT_S, stop_after=1):
                            if note.payload.isdigit():
                                self._on_change(int(note.payload))
            except psycopg.Error as exc:
                self._connected.clear()
                if self._stopped.is_set():
                    return
                self._on_error(exc)
                self._stopped.wait(RECONNECT_AFTER_S)
