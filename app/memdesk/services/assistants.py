"""Assistants: who connected (MCP clients, admin API tokens), how far each is trusted, and
what each wrote.

Each assistant's writes are history steps whose actor is its name (``mcp:<client>`` or
``api:<token>``), so "what it wrote" is a history query and undo works on it like on any
change. Its trust level decides which of its writes wait for review (``services.review``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from memdesk.core.trust import (
    ACTOR_MAX_CHARS,
    API_PREFIX,
    DEFAULT_LEVEL,
    TrustLevel,
    is_assistant,
    parse_level,
)
from memdesk.errors import BadInputError, NotFoundError
from memdesk.services.clients.known import BY_NAME as KNOWN_CLIENTS
from memdesk.services.context import Context
from memdesk.services.history import History, StepInfo
from memdesk.store.models import (
    AgentClient,
    ApiToken,
    AssistantApp,
    AssistantRead,
    AssistantTrust,
    HeldWrite,
)


@dataclass(frozen=True)
class ClientInfo:
    name: str
    first_seen: datetime | None  # None: a token that has not been used yet
    last_seen: datetime | None
    calls: int
    level: TrustLevel = DEFAULT_LEVEL
    level_is_default: bool = True  # no level set for it: the default setting applies
    pending: int = 0  # its writes waiting for review
    apps: frozenset[str] | None = None  # the apps it may read (None: every app)


class Assistants:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def seen(self, name: str, calls: int = 0, at: datetime | None = None) -> None:
        """Note that the assistant ``name`` connected (or is still there) and made ``calls`` more calls."""
        now = at or self.ctx.now()
        with self.ctx.store.write() as session:
            client = session.get(AgentClient, name)
            if client is None:
                session.add(AgentClient(name=name, first_seen=now, last_seen=now, calls=calls))
            else:
                client.last_seen = max(client.last_seen, now)
                client.calls += calls

    @property
    def default_level(self) -> TrustLevel:
        try:
            return parse_level(self.ctx.settings.agents.default_trust)
        except ValueError:
            return DEFAULT_LEVEL

    def level(self, actor: str) -> TrustLevel:
        """The trust level of ``actor`` (read from the store on every call, so a running
        server follows a change the person makes from the next call on)."""
        with self.ctx.store.read(consistent=False) as session:
            level = session.scalar(select(AssistantTrust.level).where(AssistantTrust.actor == actor))
        return TrustLevel(level) if level is not None else self.default_level

    def set_level(self, name: str, level: TrustLevel | str) -> str:
        """Give an assistant a trust level; the actor name it was set for."""
        actor = self.resolve(name)
        chosen = level if isinstance(level, TrustLevel) else _level(level)
        with self.ctx.store.write() as session:
            row = session.get(AssistantTrust, actor)
            if row is None:
                session.add(AssistantTrust(actor=actor, level=chosen.value, updated_at=self.ctx.now()))
            else:
                row.level, row.updated_at = chosen.value, self.ctx.now()
        return actor

    def resolve(self, name: str) -> str:
        """The actor ``name`` means (see ``resolve_saying``)."""
        return self.resolve_saying(name)[0]

    def resolve_saying(self, name: str) -> tuple[str, str]:
        """The actor ``name`` means: ``mcp:web-agent`` as given, ``web-agent`` when one known
        assistant has that name, or a client's short name from ``memdesk connect`` (``codex``)
        for the name that client gives itself (``mcp:codex-mcp-client``) once it has connected.
        Then, when the name was not the actor's own, a sentence saying which it led to."""
        name = name.strip()
        if is_assistant(name):
            if len(name) > ACTOR_MAX_CHARS:
                raise BadInputError(f"an assistant's name has at most {ACTOR_MAX_CHARS} characters")
            return name, ""
        known = [c.name for c in self.list()]
        matches = [actor for actor in known if actor.split(":", 1)[1] == name]
        if len(matches) == 1:
            return matches[0], ""
        if len(matches) > 1:
            raise BadInputError(f"{name!r} is ambiguous: {', '.join(matches)}", "give the full name")
        client = KNOWN_CLIENTS.get(name.lower())
        if client is None or not client.actor:
            raise NotFoundError(
                f"no assistant called {name!r}",
                "see `memdesk assistant list`; name it as mcp:NAME, api:NAME or python:NAME",
            )
        actor = client.actor
        if actor not in known:
            raise NotFoundError(
                f"{client.title} has not connected to this store yet",
                f"it will show up as {actor}, the name it gives itself; give that name to set it now",
            )
        return actor, f"{name} is {client.title}, which connects as {actor}."

    def list(self) -> list[ClientInfo]:
        """Every assistant known: MCP clients seen, admin API tokens, those whose reads are
        logged (Claude Code's SessionStart hook reads without a call), and any with a level, an
        app limit or held writes; the most recently seen first."""
        with self.ctx.store.read() as session:
            clients = {r.name: r for r in session.scalars(select(AgentClient))}
            readers = _readers(session)
            active = select(ApiToken).where(ApiToken.revoked_at.is_(None))
            tokens = {API_PREFIX + r.name: r for r in session.scalars(active)}
            trust = select(AssistantTrust.actor, AssistantTrust.level)
            levels = {actor: level for actor, level in session.execute(trust)}
            waiting = (
                select(HeldWrite.actor, func.count())
                .where(HeldWrite.state == "pending", HeldWrite.deleted_at.is_(None))
                .group_by(HeldWrite.actor)
            )
            # Compaction's held text waits in Review too, but compaction is not an assistant.
            pending = {actor: count for actor, count in session.execute(waiting) if is_assistant(actor)}
            limits: dict[str, set[str]] = {}
            for actor, app_id in session.execute(select(AssistantApp.actor, AssistantApp.app_id)):
                limits.setdefault(actor, set()).add(app_id)
        infos: list[ClientInfo] = []
        named = set(clients) | set(tokens) | set(readers) | set(levels) | set(pending) | set(limits)
        for name in sorted(named):
            client, token = clients.get(name), tokens.get(name)
            first_read, last_read = readers.get(name, (None, None))
            # A token's own "last used" (kept to the minute) may be newer than its calls'
            # count, which a running server writes every 30 s.
            first = min(
                (at for at in (client and client.first_seen, token and token.created_at, first_read) if at),
                default=None,
            )
            last = max(
                (at for at in (client and client.last_seen, token and token.last_used_at, last_read) if at),
                default=None,
            )
            infos.append(
                ClientInfo(
                    name=name,
                    first_seen=first,
                    last_seen=last,
                    calls=client.calls if client else 0,
                    level=TrustLevel(levels[name]) if name in levels else self.default_level,
                    level_is_default=name not in levels,
                    pending=pending.get(name, 0),
                    apps=frozenset(limits[name]) if name in limits else None,
                )
            )
        # Python's sort is stable: by name, then the most recently seen first.
        return sorted(infos, key=lambda c: c.last_seen or datetime.min, reverse=True)

    def writes(self, name: str, limit: int = 20) -> list[StepInfo]:
        """What the assistant wrote, newest first, as history steps."""
        return History(self.ctx).list(limit, actor=name)


def _readers(session: Session) -> dict[str, tuple[datetime, datetime]]:
    """Each actor in the read log, with its first and last read. One index seek per actor (the
    log may hold millions of reads, from a handful of assistants)."""
    found: dict[str, tuple[datetime, datetime]] = {}
    actor = session.scalar(select(func.min(AssistantRead.actor)))
    while actor is not None:
        span = select(func.min(AssistantRead.at), func.max(AssistantRead.at)).where(
            AssistantRead.actor == actor
        )
        first, last = session.execute(span).one()
        found[actor] = (first, last)
        actor = session.scalar(select(func.min(AssistantRead.actor)).where(AssistantRead.actor > actor))
    return found


def _level(text: str) -> TrustLevel:
    try:
        return parse_level(text)
    except ValueError as error:
        raise BadInputError(str(error)) from None
