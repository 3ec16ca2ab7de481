"""When a session is due for compaction (PicoBot's three triggers)."""

from __future__ import annotations

from datetime import datetime, timedelta
from math import ceil

from sqlalchemy import Integer, func, select

from memdesk.config import Settings
from memdesk.core.tokens import CHARS_PER_TOKEN
from memdesk.services.compaction.model import DueSession
from memdesk.store.engine import Store
from memdesk.store.models import ChatSession, Message


def due_sessions(store: Store, settings: Settings, now: datetime) -> list[DueSession]:
    """Sessions whose new messages fill over half the context window, that have had
    ``turn_threshold`` user turns since the last compaction, or that have been idle for
    ``idle_minutes`` with new messages. Oldest last message first."""
    compaction = settings.compaction
    pending = (
        select(
            ChatSession.id,
            ChatSession.last_message_at,
            func.sum(func.length(Message.content)).label("chars"),
            func.sum((Message.role == "user").cast(Integer)).label("user_turns"),
        )
        .join(Message, Message.session_id == ChatSession.id)
        .where(ChatSession.deleted_at.is_(None), Message.id > ChatSession.last_consolidated_message_id)
        .group_by(ChatSession.id)
        .order_by(ChatSession.last_message_at, ChatSession.id)
    )
    idle_after = timedelta(minutes=compaction.idle_minutes)
    due: list[DueSession] = []
    with store.read() as session:
        for row in session.execute(pending):
            reasons = []
            tokens = ceil((row.chars or 0) / CHARS_PER_TOKEN)
            if tokens > compaction.context_window_tokens / 2:
                reasons.append(f"about {tokens:,} tokens, over half the context window")
            if (row.user_turns or 0) >= compaction.turn_threshold:
                reasons.append(f"{row.user_turns} user turns since the last compaction")
            if row.last_message_at is not None and now - row.last_message_at >= idle_after:
                minutes = int((now - row.last_message_at).total_seconds() // 60)
                reasons.append(f"idle for {minutes} minutes")
            if reasons:
                due.append(DueSession(row.id, tuple(reasons)))
    return due
