"""Compaction: conversation into memory, as a proposal a person (or an agent) reviews first.

compaction = Compaction(app)
proposal = compaction.propose("telegram:42")      # nothing written yet
proposal.changes[1].accepted = False               # reject one change
step_id = compaction.apply(proposal)               # one history step; app.history.undo() reverts it
"""

from memdesk.services.compaction.model import (
    CancelToken,
    Change,
    ChangeKind,
    CompactionCancelled,
    CompactionDegraded,
    DueSession,
    Progress,
    Proposal,
    RunRecord,
    Usage,
)
from memdesk.services.compaction.service import Compaction

__all__ = [
    "CancelToken",
    "Change",
    "ChangeKind",
    "Compaction",
    "CompactionCancelled",
    "CompactionDegraded",
    "DueSession",
    "Progress",
    "Proposal",
    "RunRecord",
    "Usage",
]
