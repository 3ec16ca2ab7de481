"""``Compaction``: propose, review, apply; with run records, failure counting and triggers."""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING

from memdesk.core.namespaces import check_session_id
from memdesk.core.timefmt import naive_utc
from memdesk.errors import LLMError, MemdeskError, ModelUnreachableError
from memdesk.services.compaction.apply import apply_proposal
from memdesk.services.compaction.backends import make_run_steps, settings_for
from memdesk.services.compaction.build import (
    Builder,
    Reporter,
    Source,
    grounding_sources,
    session_source,
    transcript_source,
)
from memdesk.services.compaction.failures import count_failure
from memdesk.services.compaction.held import split_suspicious_facts
from memdesk.services.compaction.model import (
    FACT_CHANGES,
    CancelToken,
    Change,
    CompactionCancelled,
    DueSession,
    Progress,
    Proposal,
    RunRecord,
    Tally,
)
from memdesk.services.compaction.runs import DEGRADED, finish_run, list_runs, record_run
from memdesk.services.compaction.triggers import due_sessions
from memdesk.services.transcripts import Transcript

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def _quiet(_label: str, _number: int, _total: int) -> None:
    pass


class Compaction:
    """Compaction over one Memdesk; safe to create per use (it holds no state of its own)."""

    def __init__(self, app: Memdesk) -> None:
        self.app = app

    def propose(
        self,
        source: str | Transcript,
        *,
        session_id: str | None = None,
        backend: str | None = None,
        cancel: CancelToken | None = None,
        progress: Progress | None = None,
        dry_run: bool = False,
    ) -> Proposal:
        """Run the steps over a session's new messages (or a transcript file's) and return
        the proposed changes, writing none of them.

        ``source`` is a session id or a parsed transcript (previewed as if logged into
        ``session_id``, by default ``import:<file stem>``; such a proposal cannot be applied).
        A failed model call raises LLMError and the messages stay as they are; unless
        ``dry_run`` or nothing answered at the model's address (ModelUnreachableError), the
        failure is counted, and at ``max_failures_before_degrade`` the raw
        messages are archived instead (CompactionDegraded). Every run leaves a run record.
        """
        cancel = cancel or CancelToken()
        settings = settings_for(self.app.settings, backend)
        if isinstance(source, str):
            src = session_source(self.app, source)
        else:
            target = (
                check_session_id(session_id)
                if session_id
                else self.app.transcripts.default_session_id(source.name)
            )
            src = transcript_source(self.app, source, target)
        started_at, clock = self.app.now(), time.perf_counter()
        tally = Tally()
        reporter = Reporter(progress or _quiet)
        model = ""

        def record(outcome: str, message: str) -> int:
            usage = tally.usage(time.perf_counter() - clock)
            return record_run(
                self.app.store,
                session_id=src.session_id,
                started_at=started_at,
                backend=settings.llm.backend,
                model=model,
                usage=usage,
                outcome=outcome,
                message=message,
            )

        try:
            steps, model = make_run_steps(settings, cancel, tally, reporter.call)
            builder = Builder(self.app, src, steps, settings, cancel, reporter, tally)
            builder.run()
        except CompactionCancelled as exc:
            record("cancelled", exc.message)
            raise
        except LLMError as exc:
            run_id = record("failed", str(exc))
            # Nothing answered, so nothing was tried on the conversation: not a failure of it.
            if not (dry_run or src.preview_only or isinstance(exc, ModelUnreachableError)):
                self._count_failure(src, exc, run_id)
            raise
        except MemdeskError as exc:
            record("failed", str(exc))
            raise
        sources = grounding_sources(src, settings, self.app.now())
        # A change to a stored fact was written with the other stored facts in view: a value
        # one of them holds ("Orange" of "ISP: Orange Polska") is read, not invented.
        compared = sources.with_text("\n".join(builder.compared))

        def screen(change: Change) -> None:
            change.screen(compared if change.kind in FACT_CHANGES else sources)

        for change in builder.changes:
            screen(change)
        changes = split_suspicious_facts(builder.changes, screen)
        flagged = sum(change.suspicious for change in changes)
        ungrounded = sum(change.ungrounded for change in changes)
        dry = " (dry run)" if dry_run else ""
        marked = f", {flagged} marked suspicious" if flagged else ""
        marked += f", {ungrounded} marked ungrounded" if ungrounded else ""
        run_id = record("proposed", f"{len(changes)} changes proposed{marked}{dry}")
        return Proposal(
            session_id=src.session_id,
            app_id=src.app_id,
            message_count=len(src.messages),
            last_message_id=src.last.id,
            last_message_at=src.last.at,
            base_message_id=src.base_message_id,
            changes=changes,
            notes=builder.notes,
            usage=tally.usage(time.perf_counter() - clock),
            backend=settings.llm.backend,
            model=model,
            run_id=run_id,
            preview_only=src.preview_only,
        )

    def _count_failure(self, src: Source, error: LLMError, run_id: int) -> None:
        degraded = count_failure(self.app, src, error)
        if degraded is not None:
            finish_run(self.app.store, run_id, DEGRADED, str(degraded), degraded.step_id)
            raise degraded from None

    def apply(self, proposal: Proposal) -> int | None:
        """Write the accepted changes as one history step (one undo reverts them all).

        Returns the step's id (None if the accepted changes changed nothing). Removed
        memories go to Trash. Raises ConflictError when the session was compacted since.
        """
        pushed_out, step_id = apply_proposal(self.app, proposal)
        message = f"{len(proposal.accepted())} of {len(proposal.changes)} changes applied"
        if pushed_out:
            ids = ", ".join(str(memory_id) for memory_id in pushed_out)
            message += f"; memory {ids} went to Trash to keep the app's cap"
        if proposal.held:
            message += f"; {len(proposal.held)} suspicious held for review"
        if len(proposal.held_back()) > len(proposal.held):
            message += f"; {len(proposal.held_back()) - len(proposal.held)} suspicious left out"
        if proposal.held_back_ungrounded():
            message += f"; {len(proposal.held_back_ungrounded())} ungrounded left out"
        if proposal.refused:
            message += f"; {len(proposal.refused)} refused: their target changed since the proposal"
        finish_run(self.app.store, proposal.run_id, "applied", message, step_id)
        return step_id

    def compact(self, session_id: str, *, backend: str | None = None) -> tuple[Proposal, int | None]:
        """Propose and apply every change but the suspicious and ungrounded ones, for assistants
        that trust the pipeline; ``proposal.held`` lists the suspicious ones held for review,
        ``held_back()`` and ``held_back_ungrounded()`` what was not written."""
        proposal = self.propose(session_id, backend=backend)
        return proposal, self.apply(proposal)

    def due_sessions(self, now: datetime | None = None) -> list[DueSession]:
        """Sessions whose compaction trigger has fired at ``now``.

        ``now``: an aware time is converted to UTC, a naive one means UTC.
        """
        return due_sessions(self.app.store, self.app.settings, naive_utc(now) or self.app.now())

    def runs(self, limit: int = 50) -> list[RunRecord]:
        """The latest run records, newest first (for the History view)."""
        return list_runs(self.app.store, limit)
