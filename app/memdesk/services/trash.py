"""Trash: what was deleted, until it is restored or Trash is emptied on purpose."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from memdesk.core.items import ItemKind
from memdesk.errors import BadInputError, ConflictError, NotFoundError
from memdesk.services.context import Context
from memdesk.services.history import ITEM_NAMES
from memdesk.store.models import (
    AppMemory,
    Base,
    ChatSession,
    Document,
    Entry,
    HeldWrite,
    HistoryChange,
    HistoryStep,
    Message,
)

# Each table Trash holds: the id prefix shown to people ("memory:42", a stable part of the
# CLI), and the kind of item a row is.
TRASHABLE: dict[type[Base], tuple[str, ItemKind]] = {
    AppMemory: ("memory", ItemKind.APP_MEMORY),
    Entry: ("entry", ItemKind.ENTRY),
    Document: ("doc", ItemKind.DOCUMENT),
    ChatSession: ("session", ItemKind.SESSION),
    HeldWrite: ("held", ItemKind.HELD_WRITE),  # rejected in Review; restoring reviews it again
}
PREFIXES: dict[str, type[Base]] = {prefix: model for model, (prefix, _kind) in TRASHABLE.items()}


def restore_label(prefix: str, name: str) -> str:
    """History's name for restoring one item: "Restore entry gym from Trash"."""
    return f"Restore {ITEM_NAMES[PREFIXES[prefix].__tablename__].lower()} {name} from Trash"


def _name(row: Base) -> str:
    """What a person calls a trashed row: an entry by its key, a document by its namespace."""
    if isinstance(row, Entry):
        return row.key
    if isinstance(row, Document):
        return row.namespace
    if isinstance(row, AppMemory):
        return f"{row.id} of {row.app_id}"
    assert isinstance(row, ChatSession | HeldWrite)
    return str(row.id)


@dataclass(frozen=True)
class TrashItem:
    id: str  # e.g. "memory:42", "entry:7", "doc:3", "session:telegram:1"
    kind: ItemKind  # what was deleted
    label: str
    text: str
    deleted_at: datetime
    purge_at: datetime


def _describe(row: Base) -> tuple[str, str]:
    if isinstance(row, AppMemory):
        return f"app {row.app_id}", row.content
    if isinstance(row, Entry):
        return f"{row.category} {row.key}", row.content
    if isinstance(row, Document):
        return row.namespace, row.content
    if isinstance(row, HeldWrite):
        return f"rejected write by {row.actor} to {row.target}", row.content
    assert isinstance(row, ChatSession)
    return f"session {row.id}", f"{row.channel} conversation"


def parse_trash_id(item_id: str) -> tuple[str, str]:
    kind, sep, key = item_id.partition(":")
    if not sep or kind not in PREFIXES or not key:
        raise BadInputError(
            f"trash id {item_id!r} is not valid", "expected e.g. memory:42 (see `memdesk trash list`)"
        )
    return kind, key


def _pk(kind: str, key: str) -> int | str:
    if kind == "session":
        return key
    if not key.isdigit():
        raise BadInputError(f"trash id {kind}:{key} needs a number after the colon")
    return int(key)


class Trash:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    @property
    def retention(self) -> timedelta:
        return timedelta(days=self.ctx.settings.memory.trash_retention_days)

    def list(self) -> list[TrashItem]:
        items: list[TrashItem] = []
        with self.ctx.store.read() as session:
            for model, (prefix, kind) in TRASHABLE.items():
                rows = session.scalars(select(model).where(model.deleted_at.is_not(None)))
                for row in rows:
                    label, body = _describe(row)
                    deleted_at: datetime = row.deleted_at
                    purge_at = deleted_at + self.retention
                    items.append(TrashItem(f"{prefix}:{row.id}", kind, label, body, deleted_at, purge_at))
        return sorted(items, key=lambda item: item.deleted_at, reverse=True)

    def count(self) -> int:
        """How many items are in Trash, counted in SQL (the sidebar asks after every change)."""
        with self.ctx.store.read() as session:
            return sum(
                session.scalar(select(func.count()).select_from(model).where(model.deleted_at.is_not(None)))
                or 0
                for model in PREFIXES.values()
            )

    def restore(self, item_id: str) -> None:
        kind, key = parse_trash_id(item_id)
        with self.ctx.store.read() as reading:
            named = reading.get(PREFIXES[kind], _pk(kind, key))
            label = restore_label(kind, _name(named) if named is not None else key)
        with self.ctx.change(label) as session:
            row = session.get(PREFIXES[kind], _pk(kind, key))
            if row is None or row.deleted_at is None:
                raise NotFoundError(f"{item_id} is not in Trash")
            if isinstance(row, Document | Entry):
                self._check_no_live_twin(session, row)
            row.deleted_at = None

    @staticmethod
    def _check_no_live_twin(session: Session, row: Document | Entry) -> None:
        model = type(row)
        column = Document.namespace if model is Document else Entry.key
        name = row.namespace if isinstance(row, Document) else row.key
        twin = session.scalar(select(model).where(column == name, model.id != row.id))
        if twin is not None and twin.deleted_at is None:
            raise ConflictError(f"{name} exists again; restoring would replace it")

    def empty(self, only_expired: bool = False) -> int:
        """Remove items from Trash for good, and scrub their text from history."""
        now = self.ctx.now()
        removed = 0
        with self.ctx.store.write() as session:
            for model in PREFIXES.values():
                condition = model.deleted_at.is_not(None)
                if only_expired:
                    condition = condition & (model.deleted_at < now - self.retention)
                rows = list(session.scalars(select(model).where(condition)))
                for row in rows:
                    self._redact(session, model.__tablename__, str(row.id))
                    if isinstance(row, ChatSession):
                        message_ids = session.scalars(select(Message.id).where(Message.session_id == row.id))
                        for message_id in message_ids:
                            self._redact(session, "messages", str(message_id))
                    session.delete(row)
                removed += len(rows)
            if removed:
                # Recorded for the record only: "final" steps are never undone or redone.
                label = f"Empty Trash ({removed} item{'s' if removed != 1 else ''} removed for good)"
                session.add(HistoryStep(at=now, actor=self.ctx.current_actor, label=label, state="final"))
        return removed

    @staticmethod
    def _redact(session: Session, table: str, key: str) -> None:
        session.execute(
            update(HistoryChange)
            .where(HistoryChange.table_name == table, HistoryChange.item_key == key)
            .values(before=None, after=None, redacted=True)
        )
