"""Starting quickly: no garbage collection while the modules and the store load."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_loads = 0  # loads under way, in any thread: collection resumes when the last one ends
_collecting = False  # whether collection was on before the first of them


@contextmanager
def loading() -> Iterator[None]:
    """Imports make many long-lived objects (the ORM, the mapped models, the MCP SDK) and no
    garbage: collecting meanwhile only delays the first answer. Afterwards what was made is
    frozen, so later collections do not walk it again and again. Loads may overlap (the MCP
    server opens the store on a thread of its own while it loads the SDK)."""
    global _loads, _collecting
    with _lock:
        if _loads == 0:
            _collecting = gc.isenabled()
            gc.disable()
        _loads += 1
    try:
        yield
    finally:
        with _lock:
            _loads -= 1
            gc.freeze()
            if _loads == 0 and _collecting:
                gc.enable()
