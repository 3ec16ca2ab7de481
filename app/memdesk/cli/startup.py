"""Starting quickly: no garbage collection while the modules and the store load."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def loading() -> Iterator[None]:
    """Imports make many long-lived objects (the ORM, the mapped models, the MCP SDK) and no
    garbage: collecting meanwhile only delays the first answer. Afterwards what was made is
    frozen, so later collections do not walk it again and again."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
