"""Adding an app memory at the cap the way compaction does: the decision step chooses which
memory goes or absorbs the new one, and the oldest goes when it cannot choose (its reason
then says so, and why).

``AppMemories.add`` alone drops the oldest memory; assistants adding memories one at a time
go through here so a full app keeps its most useful memories.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memdesk.services.apps import check_app_id
from memdesk.services.context import check_text

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


@dataclass(frozen=True)
class DecidedAdd:
    memory_id: int  # the new memory, or the one that absorbed it
    merged: bool  # True when an existing memory absorbed the new one
    removed: list[int] = field(default_factory=list)  # moved to Trash to keep the cap
    reason: str = ""  # the decision's reason ("" under the cap)


def add_app_memory(app: Memdesk, app_id: str, content: str) -> DecidedAdd:
    """Add ``content`` to ``app_id``; over the cap, one history step holds the add and its decision."""
    from memdesk.services.compaction.backends import make_run_steps
    from memdesk.services.compaction.model import CancelToken, Tally

    check_app_id(app_id)
    content = check_text(content, "memory text", app.settings.memory.app_memory_max_chars).strip()
    live = sorted(app.apps.memories(app_id, include_expired=False), key=lambda m: (m.created_at, m.id))
    if len(live) + 1 <= app.apps.cap:
        result = app.apps.add(app_id, content)
        return DecidedAdd(result.memory.id, False, [m.id for m in result.removed])
    steps, _model = make_run_steps(app.settings, CancelToken(), Tally(), lambda: None)
    decision = steps.decide_compaction([(m.id, m.content) for m in live], content, None).value
    with app.ctx.change(f"Add memory to {app_id}"):
        if decision.action == "edit" and decision.new_content is not None:
            memory = app.apps.edit(decision.target_id, decision.new_content)
            removed = app.apps.enforce_cap(app_id, keep=memory.id)
            return DecidedAdd(memory.id, True, [m.id for m in removed], decision.reason)
        app.apps.delete([decision.target_id])
        result = app.apps.add(app_id, content)
        return DecidedAdd(
            result.memory.id, False, [decision.target_id, *(m.id for m in result.removed)], decision.reason
        )
