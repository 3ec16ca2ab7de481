"""Suspicious text a compaction proposes waits in Review instead of being dropped.

A change whose text reads as instructions to an assistant is not written with the others.
Unless the person rejected it, applying the proposal holds it in Review like an assistant's
held write, with its reason, for the person to approve or reject later. A fact change that
bundles suspicious lines with honest ones is split first, so only the suspicious lines wait.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from memdesk.core.suspicious import describe
from memdesk.services.compaction.model import Change, ChangeKind, Proposal
from memdesk.services.review import Write

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# Who Review shows as the writer of what a compaction held, and who approving it acts as.
COMPACTION_ACTOR = "compaction"


def facts_title(count: int, namespace: str) -> str:
    return f"Add {count} {'fact' if count == 1 else 'facts'} to {namespace}"


def split_suspicious_facts(changes: list[Change], screen: Callable[[Change], None]) -> list[Change]:
    """Each fact change with suspicious and honest lines as two changes: the honest lines
    (screened again, so accepted unless marked otherwise) and the suspicious ones."""
    result: list[Change] = []
    for change in changes:
        lines = [line for line in change.after.splitlines() if line.strip()]
        suspicious = [line for line in lines if describe(line)] if change.suspicious else []
        honest = [line for line in lines if line not in suspicious]
        if change.kind is not ChangeKind.APPEND_FACTS or not suspicious or not honest:
            result.append(change)
            continue
        for part in (honest, suspicious):
            piece = replace(change, title=facts_title(len(part), change.target), after="\n".join(part))
            piece.accepted = True
            screen(piece)
            result.append(piece)
    return result


def goes_to_review(change: Change) -> bool:
    """Whether applying holds the change in Review: suspicious, not accepted, not rejected
    by the person, and of a kind a held write can make."""
    return change.suspicious and not (change.accepted or change.rejected) and change.kind in _HOLDABLE


def waiting_for_review(proposal: Proposal) -> list[Change]:
    return [change for change in proposal.changes if goes_to_review(change)]


def hold_for_review(app: Memdesk, proposal: Proposal) -> dict[int, int]:
    """Hold each of ``waiting_for_review`` in Review (joining the change open, if any);
    the held write's id by change number."""
    held: dict[int, int] = {}
    for change in waiting_for_review(proposal):
        write = _HOLDABLE[change.kind](app, change)
        reason = (
            f"the compaction of {proposal.session_id} proposed it, and "
            f"{change.suspicion[:1].lower()}{change.suspicion[1:]}"
        )
        held[proposal.number(change)] = app.review.hold(COMPACTION_ACTOR, write, [reason]).id
    return held


def _facts(app: Memdesk, change: Change) -> Write:
    lines = (line.strip().removeprefix("- ") for line in change.after.splitlines() if line.strip())
    return Write.append_document(change.target, "\n".join(f"- {line}" for line in lines))


_HOLDABLE: dict[ChangeKind, Callable[[Memdesk, Change], Write]] = {
    ChangeKind.APPEND_FACTS: _facts,
    ChangeKind.REPLACE_WORKING: lambda app, change: Write.set_working(change.target, change.after),
    ChangeKind.ADD_TIMELINE: lambda app, change: Write.save_entry(change.target, change.after, "timeline"),
    ChangeKind.ADD_APP_MEMORY: lambda app, change: Write.add_app_memory(
        change.target, change.after.strip(), app.settings.memory.app_memory_max_chars
    ),
}
