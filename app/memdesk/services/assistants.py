"""Assistants connected over MCP: when each was last seen and what it wrote.

Each assistant's writes are history steps whose actor is its name (``mcp:<client>``), so
"what it wrote" is a history query and undo works on it like on any change.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from memdesk.services.context import Context
from memdesk.services.history import History, StepInfo
from memdesk.store.models import AgentClient


@dataclass(frozen=True)
class ClientInfo:
    name: str
    first_seen: datetime
    last_seen: datetime
    calls: int


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

    def list(self) -> list[ClientInfo]:
        """Every assistant seen, the most recently seen first."""
        with self.ctx.store.read() as session:
            rows = session.scalars(
                select(AgentClient).order_by(AgentClient.last_seen.desc(), AgentClient.name)
            )
            return [ClientInfo(r.name, r.first_seen, r.last_seen, r.calls) for r in rows]

    def writes(self, name: str, limit: int = 20) -> list[StepInfo]:
        """What the assistant wrote, newest first, as history steps."""
        return History(self.ctx).list(limit, actor=name)
