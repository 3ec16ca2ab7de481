"""A proposal as a readable diff, line by line: the CLI prints it, the window tints it."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Literal

from memdesk.core.timefmt import format_minute
from memdesk.services.compaction.model import Change, Proposal

Op = Literal[" ", "-", "+", "…"]
CONTEXT_LINES = 3


@dataclass(frozen=True)
class DiffLine:
    op: Op  # unchanged, removed, added, or "…" for a run of unchanged lines left out
    text: str


def diff_lines(before: str, after: str, context: int = CONTEXT_LINES) -> list[DiffLine]:
    """Removed and added lines, with up to ``context`` unchanged lines around each change."""
    old, new = before.splitlines(), after.splitlines()
    lines: list[DiffLine] = []
    opcodes = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag == "equal":
            lines += _unchanged(old[i1:i2], context, first=index == 0, last=index == len(opcodes) - 1)
            continue
        lines += [DiffLine("-", text) for text in old[i1:i2]]
        lines += [DiffLine("+", text) for text in new[j1:j2]]
    return lines


def _unchanged(run: list[str], context: int, first: bool, last: bool) -> list[DiffLine]:
    head = 0 if first else context
    tail = 0 if last else context
    if len(run) <= head + tail + 1:
        return [DiffLine(" ", text) for text in run]
    hidden = len(run) - head - tail
    return [
        *(DiffLine(" ", text) for text in run[:head]),
        DiffLine("…", f"{hidden} unchanged {'line' if hidden == 1 else 'lines'}"),
        *(DiffLine(" ", text) for text in run[len(run) - tail :]),
    ]


def change_diff(change: Change) -> list[DiffLine]:
    return diff_lines(change.before, change.result())


def format_proposal(proposal: Proposal) -> str:
    """The whole proposal as text: a heading, then each change with its reason and diff."""
    backend = proposal.backend + (f" ({proposal.model})" if proposal.model else "")
    count = proposal.message_count
    out = [
        f"Compaction of {proposal.session_id}: {count} {'message' if count == 1 else 'messages'} "
        f"up to {format_minute(proposal.last_message_at)} UTC",
        f"Backend {backend}: {proposal.usage.describe()}",
    ]
    for number, change in enumerate(proposal.changes, 1):
        state = "" if change.accepted else " (not accepted)"
        out += ["", f"[{number}] {change.title}{state}"]
        if change.reason:
            out.append(f"    why: {change.reason}")
        if change.suspicious:
            out.append(f"    SUSPICIOUS: {change.suspicion}")
        if change.ungrounded:
            out.append(f"    UNGROUNDED: {change.grounding}")
        if change.note:
            out.append(f"    note: {change.note}")
        out += [f"  {line.op} {line.text}".rstrip() for line in change_diff(change)]
    if proposal.notes:
        out += ["", *(f"Note: {note}" for note in proposal.notes)]
    return "\n".join(out)
