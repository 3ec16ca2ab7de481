"""``memdesk compact``: propose, print and (with --yes) apply compaction."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.core.backends import BACKENDS
from memdesk.core.plural import plural

if TYPE_CHECKING:
    from memdesk.errors import MemdeskError
    from memdesk.services.compaction import Change, Compaction, Progress, Proposal
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "compact",
        help="turn a session's new messages into memory, showing the changes first",
        description=(
            "Summarise a session's new messages into working memory, a timeline entry, facts and "
            "an app memory. Without --yes nothing is written: the proposed changes are printed."
        ),
    )
    parser.add_argument("session", nargs="?", metavar="SESSION", help="the session to compact")
    parser.add_argument("--due", action="store_true", help="every session whose trigger has fired")
    parser.add_argument(
        "--transcript",
        metavar="FILE",
        help="a transcript file: JSONL of {role, content, timestamp}, a Claude Code transcript, a "
        "Codex CLI rollout file, a pi session file, or 'role: text' lines",
    )
    parser.add_argument(
        "--session",
        dest="into",
        metavar="ID",
        help="with --transcript: the session to log it into (default import:<file name>)",
    )
    parser.add_argument("--backend", choices=BACKENDS, help="this run only (default: llm.backend)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="print the proposal as a diff; write nothing")
    mode.add_argument(
        "--yes",
        action="store_true",
        help="apply the proposed changes, except any marked suspicious or ungrounded",
    )
    parser.add_argument(
        "--accept",
        type=_numbers,
        metavar="N,N",
        help="apply exactly these changes, numbered as the dry run prints them (e.g. 1,2,4)",
    )
    parser.add_argument(
        "--reject",
        type=_numbers,
        action="extend",
        default=[],
        metavar="N,N",
        help="leave out these changes, numbered as the dry run prints them (e.g. 3)",
    )
    parser.add_argument(
        "--accept-suspicious",
        action="store_true",
        help="with --yes: also apply changes whose text reads as instructions to an assistant",
    )
    parser.add_argument(
        "--accept-ungrounded",
        action="store_true",
        help="with --yes: also apply changes that name things not in the conversation",
    )
    parser.set_defaults(handler=compact)


def compact(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.errors import BadInputError
    from memdesk.services.compaction import Compaction

    if [bool(args.session), args.due, bool(args.transcript)].count(True) != 1:
        raise BadInputError(
            "name one SESSION, or use --due or --transcript FILE",
            "e.g. memdesk compact telegram:42 --dry-run",
        )
    if args.into and not args.transcript:
        raise BadInputError(
            "--session goes with --transcript", "to compact a session, name it: compact SESSION"
        )
    for option, given in (
        ("--accept-suspicious", args.accept_suspicious),
        ("--accept-ungrounded", args.accept_ungrounded),
    ):
        if given and not args.yes:
            raise BadInputError(
                f"{option} goes with --yes", "review first with --dry-run, then apply with --yes"
            )
    if args.due and (args.accept is not None or args.reject):
        raise BadInputError(
            "--accept and --reject go with one SESSION: each due session numbers its own changes",
            "review one with memdesk compact SESSION --dry-run",
        )
    compaction = Compaction(app)
    if args.due:
        return _due(args, compaction)
    if args.transcript:
        return _transcript(args, app, compaction)
    _one(args, compaction, args.session)
    return 0


def _one(args: argparse.Namespace, compaction: Compaction, session_id: str) -> None:
    proposal = compaction.propose(
        session_id, backend=args.backend, progress=_progress(), dry_run=not args.yes
    )
    _finish(args, compaction, proposal)


def _finish(args: argparse.Namespace, compaction: Compaction, proposal: Proposal) -> None:
    from memdesk.services.compaction.held import waiting_for_review
    from memdesk.services.compaction.render import format_proposal

    proposal.accept_marked(suspicious=args.accept_suspicious, ungrounded=args.accept_ungrounded)
    proposal.choose(accept=args.accept, reject=args.reject)
    print(format_proposal(proposal))
    print()
    if args.yes:
        step_id = compaction.apply(proposal)
        accepted = proposal.accepted()
        applied = plural(len(accepted), "change")
        if len(accepted) < len(proposal.changes):
            applied = f"{len(accepted)} of {len(proposal.changes)} changes ({_listed(proposal, accepted)})"
        if step_id is None:
            print(f"Applied {applied}; they changed nothing.")
        else:
            print(f"Applied {applied} as history step #{step_id}; `memdesk undo` reverts them all.")
        _rejected(proposal)
        for line in proposal.refused:
            print(line)
        _held_back(proposal)
        _ungrounded(proposal, "Left out")
    else:
        waiting = waiting_for_review(proposal)
        if waiting:
            print(
                f"--yes would hold {plural(len(waiting), 'suspicious change')} "
                f"({_listed(proposal, waiting)}) for your review; --reject leaves one out."
            )
        _ungrounded(proposal, "--yes would leave out")
        if args.dry_run:
            print("Dry run: nothing was written.")
        else:
            print("Nothing was written. Run again with --yes to apply these changes.")


def _numbers(value: str) -> list[int]:
    """Change numbers as the dry run prints them: "1,2,4", "3" or "[3]"."""
    words = value.replace(",", " ").replace("[", " ").replace("]", " ").split()
    if not words or not all(word.isdigit() for word in words):
        raise argparse.ArgumentTypeError(
            f"expected change numbers as the dry run prints them, e.g. 1,2,4, not {value!r}"
        )
    return [int(word) for word in words]


def _listed(proposal: Proposal, changes: list[Change]) -> str:
    return ", ".join(f"[{proposal.number(change)}]" for change in changes)


def _rejected(proposal: Proposal) -> None:
    """The changes left out for no mark of their own: rejected by the person (or doubted)."""
    for change in proposal.changes:
        if not (change.accepted or change.suspicious or change.ungrounded):
            print(f"Left out [{proposal.number(change)}] {change.title}.")


def _held_back(proposal: Proposal) -> None:
    """Where the suspicious changes went: to Review, or (rejected, or of a kind Review cannot
    hold) nowhere."""
    if proposal.held:
        listed = ", ".join(f"[{number}] as #{held_id}" for number, held_id in proposal.held.items())
        print(
            f"Held {plural(len(proposal.held), 'suspicious change')} for review ({listed}): their "
            "text reads as instructions to an assistant. `memdesk review list` shows them; "
            "`memdesk review approve ID` writes one, `memdesk review reject ID` drops it."
        )
    left_out = [change for change in proposal.held_back() if proposal.number(change) not in proposal.held]
    if not left_out:
        return
    print(
        f"Left out {plural(len(left_out), 'suspicious change')} ({_listed(proposal, left_out)}): "
        "their text reads as instructions to an assistant, and memory goes into every later prompt. "
        "The messages are marked compacted and stay in the session log (memdesk session show). To "
        "keep such text, review a proposal with --dry-run and apply it with --yes --accept-suspicious."
    )


def _ungrounded(proposal: Proposal, verb: str) -> None:
    """Each change left out for saying what the conversation does not, with what it says."""
    from memdesk.llm.offline import OfflineSteps

    held = proposal.held_back_ungrounded()
    if not held:
        return
    if proposal.backend == OfflineSteps.name:
        # No model wrote it: the offline summary copies sentences, so a mark means a copy differs.
        why = "the offline summary's text is not all in the conversation as it was said"
    else:
        why = "what the model wrote is not all in the conversation"
    print(
        f"{verb} {len(held)} ungrounded {'change' if len(held) == 1 else 'changes'}: {why}, "
        "and memory goes into every later prompt."
    )
    for change in held:
        print(f"  [{proposal.number(change)}] {change.title}: {change.grounding}")
    print("To keep such text, edit it in the Compaction window, or apply with --yes --accept-ungrounded.")


def _due(args: argparse.Namespace, compaction: Compaction) -> int:
    from memdesk.errors import MemdeskError

    due = compaction.due_sessions()
    if not due:
        print("No session is due for compaction.")
        return 0
    failed = 0
    for number, item in enumerate(due):
        if number:
            print()
        print(f"=== {item.session_id} (due: {'; '.join(item.reasons)})")
        try:
            _one(args, compaction, item.session_id)
        except MemdeskError as error:  # one session failing never stops the others
            _report(f"{item.session_id}: ", error)
            failed += 1
    return 1 if failed else 0


def _transcript(args: argparse.Namespace, app: Memdesk, compaction: Compaction) -> int:
    from memdesk.errors import MemdeskError
    from memdesk.services.transcripts import read_transcript

    transcript = read_transcript(Path(args.transcript))
    count = len(transcript.messages)
    if not args.yes:
        proposal = compaction.propose(
            transcript, session_id=args.into, backend=args.backend, progress=_progress(), dry_run=True
        )
        _finish(args, compaction, proposal)
        print("The transcript was not imported; --yes imports it and applies the changes.")
        return 0
    # Logged first, like any conversation, so a failed model call loses nothing.
    session_id = app.transcripts.import_messages(transcript, args.into)
    print(f"Imported {plural(count, 'message')} ({transcript.format}) into {session_id}.")
    try:
        _one(args, compaction, session_id)
    except MemdeskError:
        print(f"The messages stay in {session_id}, not compacted yet.", file=sys.stderr)
        raise
    return 0


def _progress() -> Progress | None:
    """Step-by-step progress on standard error when a person is watching."""
    if not sys.stderr.isatty():
        return None

    def show(label: str, number: int, total: int) -> None:
        print(f"[{number}/{total}] {label}…", file=sys.stderr)

    return show


def _report(prefix: str, error: MemdeskError) -> None:
    print(f"memdesk: error: {prefix}{error.message}", file=sys.stderr)
    if error.hint:
        print(f"  {error.hint}", file=sys.stderr)
