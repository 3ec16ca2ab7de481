"""Conversation logs per session, the input compaction reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Integer, func, select
from sqlalchemy.orm import Session

from memdesk.core.namespaces import channel_of, check_session_id
from memdesk.core.plural import plural
from memdesk.core.records import ROLES
from memdesk.core.timefmt import naive_utc
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.apps import check_app_id
from memdesk.services.context import MAX_DOCUMENT_CHARS, Context, check_text
from memdesk.store.models import ChatSession, Message
from memdesk.store.prefix import starts_with


@dataclass(frozen=True)
class SessionSummary:
    id: str
    channel: str
    app_id: str | None
    messages: int
    unconsolidated: int
    last_message_at: datetime | None
    last_consolidated_at: datetime | None
    failure_count: int


def check_role(role: object) -> str:
    if role not in ROLES:
        raise BadInputError(f"role {role!r} is not valid", "expected user, assistant or system")
    return str(role)


@dataclass(frozen=True)
class SessionState:
    """A conversation and how far compaction has read it."""

    id: str
    channel: str
    app_id: str | None
    created_at: datetime
    last_message_at: datetime | None
    last_consolidated_at: datetime | None
    last_consolidated_message_id: int  # compaction has read every message up to this id
    failure_count: int  # compaction failures in a row


@dataclass(frozen=True)
class MessageRow:
    id: int
    session_id: str
    role: str
    content: str
    created_at: datetime
    consolidated: bool  # compaction has read it


class Sessions:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def log(
        self,
        session_id: str,
        role: str,
        content: str,
        app_id: str | None = None,
        at: datetime | None = None,
    ) -> MessageRow:
        """Append a message sent ``at`` (default now).

        ``at``: an aware time is converted to UTC, a naive one means UTC.
        """
        check_session_id(session_id)
        check_role(role)
        check_text(content, "message", MAX_DOCUMENT_CHARS)
        if app_id is not None:
            check_app_id(app_id)
        now = naive_utc(at) or self.ctx.now()
        # Inside another change (a transcript's import) it joins that change's step.
        with self.ctx.change(f"Log {role} message in {session_id}") as session:
            return self._log(session, session_id, role, content, app_id, now)

    def log_many(
        self, session_id: str, messages: Sequence[tuple[str, str, datetime]], app_id: str | None = None
    ) -> int:
        """Append ``(role, content, at)`` messages in one flush (a transcript's lines); how many."""
        check_session_id(session_id)
        for role, content, _at in messages:
            check_role(role)
            check_text(content, "message", MAX_DOCUMENT_CHARS)
        if app_id is not None:
            check_app_id(app_id)
        with self.ctx.change(f"Log {plural(len(messages), 'message')} in {session_id}") as session:
            for role, content, at in messages:
                message = Message(session_id=session_id, role=role, content=content, created_at=naive_utc(at))
                self._chat(session, session_id, app_id, message.created_at)
                session.add(message)
            session.flush()
        return len(messages)

    @staticmethod
    def _chat(session: Session, session_id: str, app_id: str | None, now: datetime) -> ChatSession:
        """The session's row, made on its first message; it has a message at ``now``."""
        chat = session.get(ChatSession, session_id)
        if chat is None:
            chat = ChatSession(id=session_id, channel=channel_of(session_id), created_at=now)
            session.add(chat)
        chat.deleted_at = None
        if app_id is not None:
            chat.app_id = app_id
        chat.last_message_at = max(chat.last_message_at or now, now)
        return chat

    @classmethod
    def _log(
        cls, session: Session, session_id: str, role: str, content: str, app_id: str | None, now: datetime
    ) -> MessageRow:
        cls._chat(session, session_id, app_id, now)
        message = Message(session_id=session_id, role=role, content=content, created_at=now)
        session.add(message)
        session.flush()
        return MessageRow(message.id, session_id, role, content, now, False)

    def ids_starting(self, prefix: str, limit: int) -> list[str]:
        """Session ids that start with ``prefix``, in order, at most ``limit`` (for completions)."""
        query = select(ChatSession.id).where(
            starts_with(ChatSession.id, prefix), ChatSession.deleted_at.is_(None)
        )
        with self.ctx.store.read() as session:
            return list(session.scalars(query.order_by(ChatSession.id).limit(limit)))

    def list(self) -> list[SessionSummary]:
        with self.ctx.store.read() as session:
            counts = (
                select(
                    Message.session_id,
                    func.count(Message.id).label("total"),
                    func.sum((Message.id > ChatSession.last_consolidated_message_id).cast(Integer)).label(
                        "pending"
                    ),
                )
                .join(ChatSession, ChatSession.id == Message.session_id)
                .group_by(Message.session_id)
            )
            totals = {row.session_id: (row.total, int(row.pending or 0)) for row in session.execute(counts)}
            chats = session.scalars(
                select(ChatSession)
                .where(ChatSession.deleted_at.is_(None))
                .order_by(ChatSession.last_message_at.desc().nulls_last(), ChatSession.id)
            )
            return [self._summary(chat, *totals.get(chat.id, (0, 0))) for chat in chats]

    @staticmethod
    def _summary(chat: ChatSession, total: int, pending: int) -> SessionSummary:
        return SessionSummary(
            id=chat.id,
            channel=chat.channel,
            app_id=chat.app_id,
            messages=total,
            unconsolidated=pending,
            last_message_at=chat.last_message_at,
            last_consolidated_at=chat.last_consolidated_at,
            failure_count=chat.failure_count,
        )

    def get(self, session_id: str) -> SessionState:
        with self.ctx.store.read() as session:
            chat = session.get(ChatSession, session_id)
            if chat is None or chat.deleted_at is not None:
                raise NotFoundError(f"no session {session_id!r}")
            return SessionState(
                chat.id,
                chat.channel,
                chat.app_id,
                chat.created_at,
                chat.last_message_at,
                chat.last_consolidated_at,
                chat.last_consolidated_message_id,
                chat.failure_count,
            )

    def messages(self, session_id: str, only_unconsolidated: bool = False) -> list[MessageRow]:
        chat = self.get(session_id)
        done = chat.last_consolidated_message_id
        query = select(Message).where(Message.session_id == session_id)
        if only_unconsolidated:
            query = query.where(Message.id > done)
        with self.ctx.store.read() as session:
            return [
                MessageRow(m.id, session_id, m.role, m.content, m.created_at, m.id <= done)
                for m in session.scalars(query.order_by(Message.id))
            ]

    def delete(self, session_id: str) -> None:
        with self.ctx.change(f"Delete session {session_id}") as session:
            chat = session.get(ChatSession, session_id)
            if chat is None or chat.deleted_at is not None:
                raise NotFoundError(f"no session {session_id!r}")
            chat.deleted_at = self.ctx.now()
