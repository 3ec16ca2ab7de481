"""Holding off Python's garbage collection while a block makes many objects and no garbage.

A collection walks every object that may form a cycle; while a block builds a long list of
them (the modules and the store loading, a listing of ten thousand reads), collections run
again and again over objects that are all still in use, and only delay the block. Blocks may
overlap, in any thread: collection resumes when the last one ends, if it was on before.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holds = 0  # blocks under way, in any thread
_collecting = False  # whether collection was on before the first of them


@contextmanager
def collection_held(freeze: bool = False) -> Iterator[None]:
    """No garbage collection in the block. ``freeze``: what exists at its end is long-lived
    (loaded modules, mapped models), and later collections no longer walk it."""
    global _holds, _collecting
    with _lock:
        if _holds == 0:
            _collecting = gc.isenabled()
            gc.disable()
        _holds += 1
    try:
        yield
    finally:
        with _lock:
            _holds -= 1
            if freeze:
                gc.freeze()
            if _holds == 0 and _collecting:
                gc.enable()
