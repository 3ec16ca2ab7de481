"""Run records: one row per compaction run, kept outside history (they log, they are not memory)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from memdesk.services.compaction.model import RunRecord, Usage
from memdesk.store.engine import Store
from memdesk.store.models import CompactionRun

DEGRADED = "degraded"  # the outcome of a run that archived the raw messages
_WROTE = ("applied", DEGRADED)


def record_run(
    store: Store,
    *,
    session_id: str | None,
    started_at: datetime,
    backend: str,
    model: str,
    usage: Usage,
    outcome: str,
    message: str,
) -> int:
    with store.write() as session:
        row = CompactionRun(
            session_id=session_id,
            started_at=started_at,
            backend=backend,
            model=model,
            duration_ms=round(usage.seconds * 1000),
            calls=usage.calls,
            tokens_in=usage.tokens_in,
            tokens_out=usage.tokens_out,
            tokens_estimated=usage.estimated,
            outcome=outcome,
            message=message,
        )
        session.add(row)
        session.flush()
        return row.id


def finish_run(store: Store, run_id: int, outcome: str, message: str, step_id: int | None) -> None:
    with store.write() as session:
        row = session.get(CompactionRun, run_id)
        if row is not None:
            row.outcome = outcome
            row.message = message
            row.history_step_id = step_id


def list_runs(store: Store, limit: int = 50) -> list[RunRecord]:
    """The latest runs, newest first."""
    with store.read() as session:
        rows = session.scalars(select(CompactionRun).order_by(CompactionRun.id.desc()).limit(limit))
        return [
            RunRecord(
                row.id,
                row.session_id,
                row.started_at,
                row.backend,
                row.model,
                row.duration_ms,
                row.calls,
                row.tokens_in,
                row.tokens_out,
                row.tokens_estimated,
                row.outcome,
                row.message,
                row.history_step_id,
            )
            for row in rows
        ]


def archived_by(store: Store, session_id: str) -> int | None:
    """The history step of the session's last writing run when that run archived its raw
    messages after failed model calls (None when it applied a proposal, or none wrote)."""
    with store.read() as session:
        row = session.scalar(
            select(CompactionRun)
            .where(CompactionRun.session_id == session_id, CompactionRun.outcome.in_(_WROTE))
            .order_by(CompactionRun.id.desc())
            .limit(1)
        )
        return row.history_step_id if row is not None and row.outcome == DEGRADED else None
