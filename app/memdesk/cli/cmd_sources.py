"""``memdesk sources``: the assistants' own transcripts on this machine, read into sessions."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from memdesk.core.plural import plural

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

NAMES = ("claude-code", "codex", "pi")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sources",
        help="read Claude Code, Codex CLI and pi transcripts into sessions",
        description="List the assistants whose transcripts are on this machine, turn each on or off, "
        "and read what is new in them into sessions (<assistant>:<session id>) for compaction. "
        "Reading never sends anything anywhere.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("list", help="each assistant: its folder, how many transcripts, on or off")
    for name, verb in (("enable", "read"), ("disable", "stop reading")):
        action = actions.add_parser(name, help=f"{verb} an assistant's transcripts")
        action.add_argument("source", choices=NAMES)
    sync = actions.add_parser("sync", help="read what is new in the enabled sources' transcripts, once")
    sync.add_argument("source", nargs="*", help="claude-code, codex or pi (default: the enabled ones)")
    sync.add_argument("--file", metavar="PATH", help="only this transcript file")
    parser.set_defaults(handler=sources)


def sources(args: argparse.Namespace, app: Memdesk) -> int:
    if args.action == "list":
        for info in app.sources.list():
            state = "on " if info.enabled else "off"
            count = plural(info.transcripts, "transcript")
            where = f"{count} in {info.folder}" if info.found else f"not found ({info.folder})"
            print(f"{state} {info.name:<12} {where}")
        return 0
    if args.action in ("enable", "disable"):
        info = app.sources.set_enabled(args.source, args.action == "enable")
        print(
            f"{info.title}: {'on' if info.enabled else 'off'} ({info.setting} = {str(info.enabled).lower()})"
        )
        return 0
    if args.file:
        result = [app.sources.sync_file(args.file, args.source[0] if args.source else None)]
        files, unchanged = result, 0
    else:
        outcome = app.sources.sync(args.source or None)
        files, unchanged = list(outcome.files), outcome.unchanged
    problems = 0
    for item in files:
        if item.messages:
            print(f"{item.session_id}: {plural(item.messages, 'new message')}")
        if item.problem:
            problems += 1
            print(f"memdesk: {item.path}: {item.problem}", file=sys.stderr)
        for line in item.skipped:
            print(f"memdesk: {item.path}: {line}", file=sys.stderr)
    total = sum(item.messages for item in files)
    read = f"{plural(total, 'new message')} from {plural(len(files), 'transcript')}"
    print(f"Read {read} ({unchanged} unchanged).")
    # One file named and not read is a failure; over whole folders a foreign file is not.
    return 1 if args.file and problems else 0
