"""Work a process must finish before it ends, also when it is ended with SIGTERM.

A service with something buffered (the read log) registers a flush here; a command that
serves assistants calls ``finish_on_sigterm`` from its main thread. Loads nothing heavy: the
MCP server installs it before its store has loaded.
"""

from __future__ import annotations

import signal
import weakref
from collections.abc import Callable
from typing import Any

_flushes: list[weakref.WeakMethod[Callable[[], Any]]] = []


def before_exit(flush: Callable[[], Any]) -> None:
    """Run ``flush`` (a bound method; not kept alive by this) when SIGTERM arrives."""
    _flushes.append(weakref.WeakMethod(flush))  # type: ignore[arg-type]


def finish_now() -> None:
    for ref in list(_flushes):
        flush = ref()
        if flush is not None:
            flush()


def finish_on_sigterm() -> None:
    """On SIGTERM, run the registered flushes, then end as SIGTERM would have (or hand the
    signal to the handler that was there before)."""
    previous = signal.getsignal(signal.SIGTERM)

    def handler(signum: int, frame: Any) -> None:
        finish_now()
        if callable(previous):
            previous(signum, frame)
            return
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)

    signal.signal(signal.SIGTERM, handler)
