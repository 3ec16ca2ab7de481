"""Consecutive model failures per session, and the raw archive that ends a run of them.

Counting is bookkeeping, not a change anyone undoes, so it is written without a history
step (history ignores ``failure_count``); the raw archive is a real change and is one step.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from memdesk.core.timefmt import format_minute
from memdesk.errors import LLMError
from memdesk.services.compaction.build import Source
from memdesk.services.compaction.model import CompactionDegraded
from memdesk.store.models import ChatSession

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def raw_archive(source: Source) -> str:
    """``[YYYY-MM-DD HH:MM] [RAW] N messages`` and then each message as ``role: text``."""
    lines = [f"[{format_minute(source.last.at)}] [RAW] {len(source.messages)} messages"]
    lines += [f"{m.role}: {m.content.strip()}" for m in source.messages]
    return "\n".join(lines)


def count_failure(app: Memdesk, source: Source, error: LLMError) -> CompactionDegraded | None:
    """Count one more failure; at the limit, archive the raw messages and reset the count.

    Returns the error to report when the messages were archived, None otherwise.
    """
    limit = app.settings.compaction.max_failures_before_degrade
    failures = app.sessions.get(source.session_id).failure_count + 1
    if failures < limit:
        with app.store.write() as session:
            chat = session.get(ChatSession, source.session_id)
            if chat is not None:
                chat.failure_count = failures
        return None
    key = f"ctx_{source.session_id}_{uuid.uuid4().hex[:8]}"
    label = f"Archive {len(source.messages)} raw messages of {source.session_id}"
    with app.ctx.change(label) as session:
        chat = session.get(ChatSession, source.session_id)
        if chat is None or chat.last_consolidated_message_id != source.base_message_id:
            return None  # compacted meanwhile by someone else: nothing left to archive
        # The whole conversation, however long: an archive that cut messages would lose them.
        archive = raw_archive(source)
        app.entries.upsert(key, archive, "timeline", session_id=source.session_id, max_chars=len(archive))
        chat.last_consolidated_message_id = source.last.id
        chat.last_consolidated_at = source.last.at
        chat.failure_count = 0
    return CompactionDegraded(error, failures, key, len(source.messages), app.ctx.last_step_id())
