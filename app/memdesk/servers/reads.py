"""What a reply gave an assistant, as item references for the read log.

Each server records a read in one place, its dispatch, from the reply it is about to send:
the MCP tools' structured content, the admin API's JSON bodies. A body's shape says what it
holds: memories with a key are entries, with an id app memories; a namespace with content
is a document; a composed prompt names its items section by section.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from memdesk.core.items import ItemKind, ItemRef, read_kind

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk
    from memdesk.services.prompt import ComposedPrompt

# The MCP tools that read (the others write, and their replies hold what they wrote).
READ_TOOLS = frozenset(
    {"memory_recall", "app_memories", "working_memory", "document_read", "prompt", "compaction_propose"}
)


class PromptBody(dict):
    """A composed prompt's JSON body that also carries the items the prompt holds (not sent)."""

    def __init__(self, composed: ComposedPrompt) -> None:
        # Here, not above: the MCP server answers its handshake before the store layer loads.
        from memdesk.services.access_log import items_in_prompt

        super().__init__(composed.to_json())
        self.refs = items_in_prompt(composed)  # not "items": JSON encoders call dict.items()


def returned_items(body: Any) -> list[ItemRef]:
    """The items a reply body holds, in the order it gives them."""
    if isinstance(body, PromptBody):
        return body.refs
    if not isinstance(body, Mapping):
        return []
    found: list[ItemRef] = []
    for listing in ("memories", "results"):
        for row in body.get(listing) or ():
            if "key" in row:
                found.append(ItemRef(ItemKind.ENTRY, str(row["key"])))
            elif "id" in row:
                found.append(ItemRef(ItemKind.APP_MEMORY, str(row["id"])))
    for section in body.get("sections") or ():
        if section.get("included"):
            for item in section.get("items") or ():
                found.append(ItemRef(read_kind(ItemKind(item["kind"])), str(item["key"])))
    if body.get("content"):
        if "namespace" in body:
            found.append(ItemRef(ItemKind.DOCUMENT, str(body["namespace"])))
        elif "key" in body:
            found.append(ItemRef(ItemKind.ENTRY, str(body["key"])))
    if "proposal_id" in body and "session" in body:  # a compaction proposal reads the conversation
        found.append(ItemRef(ItemKind.SESSION, str(body["session"])))
    return found


def record(app: Memdesk, actor: str, tool: str, body: Any) -> None:
    """Log that ``actor`` was given ``body`` by ``tool``: queued, written off the reply path."""
    app.access_log.record(actor, tool, returned_items(body))
