"""Working memory: the rolling "recent context" that expires unless extended or pinned."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from memdesk.core import working as working_format
from memdesk.core.lifetime import expires_at, has_expired
from memdesk.core.namespaces import working_namespace
from memdesk.core.timefmt import format_iso, naive_utc
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.context import MAX_DOCUMENT_CHARS, Context, check_text
from memdesk.services.documents import find_document
from memdesk.services.expirable import adjust_expiry
from memdesk.store.models import Document


@dataclass(frozen=True)
class WorkingState:
    """A working memory as it is now: ``live`` when the prompt carries it (written, not
    expired); ``expires_at`` is None when pinned."""

    namespace: str
    content: str
    updated_at: datetime
    expires_at: datetime | None  # None when pinned
    pinned: bool
    live: bool

    @property
    def reason(self) -> str:
        """Why it is left out of the prompt, in the composer's words ('' when live)."""
        if self.live:
            return ""
        if not self.content.strip():
            return "empty"
        assert self.expires_at is not None
        return f"expired at {format_iso(self.expires_at)}"


def state_of(doc: Document, now: datetime) -> WorkingState:
    pinned = bool(doc.pinned)
    expiry = expires_at(pinned, doc.expires_at, doc.updated_at)
    live = bool(doc.content.strip()) and not has_expired(expiry, now)
    return WorkingState(
        namespace=doc.namespace,
        content=doc.content,
        updated_at=doc.updated_at,
        expires_at=None if pinned else doc.expires_at,
        pinned=pinned,
        live=live,
    )


def check_days(days: object, what: str = "days") -> int:
    if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 3650:
        raise BadInputError(f"{what} must be a whole number from 1 to 3650, not {days!r}")
    return days


class WorkingMemory:
    """The working memory of a session (the default session's without ``session_id``): one
    document the prompt carries under "Recent context" until it expires."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def namespace(self, session_id: str | None = None) -> str:
        return working_namespace(self.ctx.settings.memory.user_namespace, session_id)

    def state(self, session_id: str | None = None) -> WorkingState | None:
        """Its content, when it expires and whether it is live (None: never written)."""
        namespace = self.namespace(session_id)
        with self.ctx.store.read() as session:
            doc = find_document(session, namespace)
            if doc is None or doc.deleted_at is not None:
                return None
            return state_of(doc, self.ctx.now())

    def write(
        self,
        content: str,
        ttl_days: int | None = None,
        session_id: str | None = None,
        updated_at: datetime | None = None,
        expires_at: datetime | None = None,
    ) -> WorkingState:
        """Replace working memory, cut to the token budget, with a fresh expiry: ``ttl_days``
        from now (default: the ``memory.working_memory_ttl_days`` setting), or ``expires_at``.

        ``updated_at`` and ``expires_at``: an aware time is converted to UTC, a naive one means UTC.
        """
        updated_at, expires_at = naive_utc(updated_at), naive_utc(expires_at)
        memory = self.ctx.settings.memory
        check_text(content, "working memory", MAX_DOCUMENT_CHARS)
        ttl = check_days(ttl_days if ttl_days is not None else memory.working_memory_ttl_days, "ttl")
        namespace = self.namespace(session_id)
        now = updated_at or self.ctx.now()
        with self.ctx.change(f"Write {namespace}") as session:
            doc = self._row(session, namespace, now)
            doc.content = working_format.cut_to_budget(content.strip(), memory.working_memory_max_tokens)
            doc.updated_at = now
            doc.expires_at = expires_at or now + timedelta(days=ttl)
            doc.pinned = False
            doc.deleted_at = None
            return state_of(doc, self.ctx.now())

    def extend(self, days: int, session_id: str | None = None) -> WorkingState:
        """Push its expiry ``days`` later (from now, if it has passed); unpins."""
        check_days(days)
        return self._adjust(f"Extend working memory by {days} days", session_id, extend_days=days)

    def pin(self, session_id: str | None = None) -> WorkingState:
        """Keep it until it is rewritten: it never expires."""
        return self._adjust("Pin working memory", session_id, pin=True)

    def expire(self, session_id: str | None = None) -> WorkingState:
        """Expire it now: it leaves the prompt."""
        return self._adjust("Expire working memory now", session_id, expire=True)

    def _adjust(
        self,
        label: str,
        session_id: str | None,
        extend_days: int = 0,
        pin: bool = False,
        expire: bool = False,
    ) -> WorkingState:
        namespace = self.namespace(session_id)
        now = self.ctx.now()
        with self.ctx.change(label) as session:
            doc = find_document(session, namespace)
            if doc is None or doc.deleted_at is not None or not doc.content.strip():
                raise NotFoundError("there is no working memory", "write it with `memdesk working set`")
            adjust_expiry(doc, now, doc.expires_at, extend_days, pin, expire)
            return state_of(doc, now)

    @staticmethod
    def _row(session: Session, namespace: str, now: datetime) -> Document:
        doc = find_document(session, namespace)
        if doc is None:
            doc = Document(namespace=namespace, content="", created_at=now, updated_at=now)
            session.add(doc)
        return doc

    def export_text(self, session_id: str | None = None) -> str | None:
        """The Flynn ``working.md`` file, or None when there is no working memory."""
        state = self.state(session_id)
        if state is None or not state.content.strip():
            return None
        expires = state.expires_at or (self.ctx.now() + timedelta(days=3650))
        return working_format.render(state.content, state.updated_at, expires) + "\n"
