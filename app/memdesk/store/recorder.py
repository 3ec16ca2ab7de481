"""Recording one user action as one history step: every touched row, before and after."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import event, inspect, update
from sqlalchemy.orm import Session

from memdesk.store.engine import Store
from memdesk.store.models import TRACKED_MODELS, Base, HistoryChange, HistoryStep
from memdesk.store.snapshots import HISTORY_SKIP, committed_snapshot, primary_key, snapshot


class _Recorder:
    def __init__(self) -> None:
        # id(obj) -> (obj, snapshot before the step or None for a new row)
        self.touched: dict[int, tuple[Base, dict[str, Any] | None]] = {}

    def before_flush(self, session: Session, _context: object, _instances: object) -> None:
        for obj in session.new:
            if isinstance(obj, TRACKED_MODELS):
                self.touched.setdefault(id(obj), (obj, None))
        for obj in list(session.dirty) + list(session.deleted):
            if isinstance(obj, TRACKED_MODELS) and id(obj) not in self.touched:
                self.touched[id(obj)] = (obj, committed_snapshot(obj, HISTORY_SKIP))

    def changes(self) -> Iterator[HistoryChange]:
        for obj, before in self.touched.values():
            state = inspect(obj)
            after = None if (state.deleted or state.was_deleted) else snapshot(obj, HISTORY_SKIP)
            if before == after or (before is None and after is None):
                continue
            yield HistoryChange(
                table_name=obj.__tablename__,
                item_key=primary_key(obj),
                before=None if before is None else json.dumps(before, ensure_ascii=False),
                after=None if after is None else json.dumps(after, ensure_ascii=False),
            )


@dataclass
class Recording:
    """The session of a recorded change, and afterwards the id of the step it made."""

    session: Session
    step_id: int | None = None  # None until committed, and when nothing changed


@dataclass(frozen=True)
class Touched:
    """The rows a step changed, as (table, primary key), and the step (None for an undo or a
    redo, which restores rows under a step made before)."""

    rows: list[tuple[str, str]]
    step_id: int | None


@contextmanager
def recorded_change(
    store: Store,
    label: str,
    actor: str,
    now: datetime,
    before_commit: Callable[[Session, Touched], None] | None = None,
) -> Iterator[Recording]:
    """A write transaction that becomes one undoable history step (if it changed anything).

    ``before_commit`` sees the rows the step changed, in its transaction: what is derived
    from them is kept up to date in the same commit.
    """
    with store.write() as session:
        recording = Recording(session)
        recorder = _Recorder()
        event.listen(session, "before_flush", recorder.before_flush)
        yield recording
        session.flush()
        changes = list(recorder.changes())
        event.remove(session, "before_flush", recorder.before_flush)
        if changes:
            session.execute(
                update(HistoryStep).where(HistoryStep.state == "undone").values(state="discarded")
            )
            step = HistoryStep(at=now, actor=actor, label=label, state="done")
            session.add(step)
            session.flush()
            for change in changes:
                change.step_id = step.id
            session.add_all(changes)
            recording.step_id = step.id
            if before_commit is not None:
                rows = [(change.table_name, change.item_key) for change in changes]
                before_commit(session, Touched(rows, step.id))
