"""Starting quickly: no garbage collection while the modules and the store load."""

from __future__ import annotations

from contextlib import AbstractContextManager

from memdesk.core.collection import collection_held


def loading() -> AbstractContextManager[None]:
    """Imports make many long-lived objects (the ORM, the mapped models, the MCP SDK) and no
    garbage: collecting meanwhile only delays the first answer. Afterwards what was made is
    frozen, so later collections do not walk it again and again. Loads may overlap (the MCP
    server opens the store on a thread of its own while it loads the SDK)."""
    return collection_held(freeze=True)
