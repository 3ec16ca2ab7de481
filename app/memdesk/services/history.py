"""History: every change, and undo/redo one user action at a time.

Undo puts each row back as it was before the step; redo puts it as it was after. Both
refuse, changing nothing, when a row has been changed since (by another program, say),
rather than silently overwrite that newer change.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from memdesk.errors import ConflictError, NotFoundError
from memdesk.services.context import Context
from memdesk.store.models import HistoryChange, HistoryStep
from memdesk.store.recorder import Touched
from memdesk.store.snapshots import HISTORY_SKIP, MODEL_BY_TABLE, apply_snapshot, column_values, snapshot

# What a person calls a row of each table history records (a test checks there is one for each).
ITEM_NAMES = {
    "documents": "Document",
    "apps": "App",
    "app_memories": "App memory",
    "entries": "Entry",
    "sessions": "Session",
    "messages": "Message",
    "held_writes": "Held write",  # an assistant's write waiting in Review
    "private_items": "Private",  # the mark on an app, entry or document kept from assistants
    "health_findings": "Health finding",
}


def item_label(table_name: str, item_key: str) -> str:
    """One changed row as a person names it: "Held write 2", "Private app:coder"."""
    return f"{ITEM_NAMES[table_name]} {item_key}"


@dataclass(frozen=True)
class StepInfo:
    """One history step: who made it (``actor``), when, its label, ``done`` or ``undone``,
    and how many rows it changed."""

    id: int
    at: datetime
    actor: str
    label: str
    state: str
    changes: int


@dataclass(frozen=True)
class ChangeInfo:
    """One row's state before and after a step (None: the row did not exist)."""

    table_name: str
    item_key: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    redacted: bool  # its text was scrubbed when Trash was emptied


def _load(data: str | None) -> dict[str, Any] | None:
    return None if data is None else json.loads(data)


class History:
    """Every change as a step (who made it, when, what it did): listed, undone and redone."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def list(self, limit: int = 50, actor: str | None = None) -> list[StepInfo]:
        """The latest steps, newest first; only ``actor``'s when given."""
        query = select(HistoryStep)
        if actor is not None:
            query = query.where(HistoryStep.actor == actor)
        with self.ctx.store.read() as session:
            steps = list(session.scalars(query.order_by(HistoryStep.id.desc()).limit(limit)))
            counted = (
                select(HistoryChange.step_id, func.count())
                .where(HistoryChange.step_id.in_([step.id for step in steps]))
                .group_by(HistoryChange.step_id)
            )
            counts: dict[int, int] = {step_id: count for step_id, count in session.execute(counted)}
        return [StepInfo(s.id, s.at, s.actor, s.label, s.state, counts.get(s.id, 0)) for s in steps]

    def actors(self) -> list[str]:
        """Everyone with a change in the history, by name."""
        with self.ctx.store.read() as session:
            return list(session.scalars(select(HistoryStep.actor).distinct().order_by(HistoryStep.actor)))

    def changes(self, step_id: int) -> list[ChangeInfo]:
        """What the step changed, row by row: each one's values before and after."""
        query = select(HistoryChange).where(HistoryChange.step_id == step_id).order_by(HistoryChange.id)
        with self.ctx.store.read() as session:
            return [
                ChangeInfo(c.table_name, c.item_key, _load(c.before), _load(c.after), c.redacted)
                for c in session.scalars(query)
            ]

    def undo(self, step_id: int | None = None) -> StepInfo:
        """Undo the latest step, or the step ``step_id`` (refused if a row changed since)."""
        return self._move("undo", step_id)

    def redo(self) -> StepInfo:
        """Do again the oldest step that was undone."""
        return self._move("redo")

    def _move(self, direction: str, step_id: int | None = None) -> StepInfo:
        with self.ctx.store.write() as session:
            if step_id is not None:
                query = select(HistoryStep).where(HistoryStep.id == step_id, HistoryStep.state == "done")
            elif direction == "undo":
                query = select(HistoryStep).where(HistoryStep.state == "done").order_by(HistoryStep.id.desc())
            else:
                query = select(HistoryStep).where(HistoryStep.state == "undone").order_by(HistoryStep.id)
            step = session.scalars(query.limit(1)).first()
            if step is None and step_id is not None:
                raise NotFoundError(f"history step #{step_id} is not there to undo (undone already?)")
            if step is None:
                raise NotFoundError("nothing to undo" if direction == "undo" else "nothing to redo")
            changes = list(session.scalars(select(HistoryChange).where(HistoryChange.step_id == step.id)))
            if any(change.redacted for change in changes):
                raise ConflictError(
                    f"cannot {direction} {step.label!r}: it touched items since removed from Trash for good"
                )
            ordered = reversed(changes) if direction == "undo" else changes
            for change in ordered:
                current, target = change.after, change.before
                if direction == "redo":
                    current, target = target, current
                self._restore(session, change, _load(current), _load(target), step.label, direction)
            step.state = "undone" if direction == "undo" else "done"
            session.flush()
            restored = [(change.table_name, change.item_key) for change in changes]
            self.ctx.keep_derived(session, Touched(restored, None))
            return StepInfo(step.id, step.at, step.actor, step.label, step.state, len(changes))

    @staticmethod
    def _restore(
        session: Session,
        change: HistoryChange,
        expected: dict[str, Any] | None,
        target: dict[str, Any] | None,
        label: str,
        direction: str,
    ) -> None:
        model = MODEL_BY_TABLE[change.table_name]
        numeric = change.item_key.isdigit() and change.table_name != "sessions"
        key: int | str = int(change.item_key) if numeric else change.item_key
        row = session.get(model, key)
        actual = None if row is None else snapshot(row, HISTORY_SKIP)
        if actual != expected:
            raise ConflictError(
                f"cannot {direction} {label!r}: {item_label(change.table_name, change.item_key)} has "
                "changed since",
                "look at History to see the newer change",
            )
        if target is None:
            session.delete(row)
        elif row is None:
            session.add(model(**column_values(model, target)))
        else:
            apply_snapshot(row, target)
        session.flush()
