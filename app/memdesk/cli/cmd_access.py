"""``memdesk access log``: what assistants read, when, and through which tool."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    access = subparsers.add_parser(
        "access",
        help="what assistants read (the read log)",
        description="Every read by an assistant (MCP tools and resources, the admin API, Claude Code's "
        "SessionStart hook) is logged with the items it returned: references only, never the text.",
    )
    sub = access.add_subparsers(dest="action", metavar="ACTION", required=True)
    log = sub.add_parser(
        "log",
        help="reads, newest first, with the items each returned",
        description="Reads, newest first: the time, the assistant, the tool and the items returned "
        "(entry keys, app memory ids, document namespaces); an item deleted since says so.",
    )
    log.add_argument("--assistant", metavar="NAME", help="only this assistant's (mcp:NAME, api:NAME or NAME)")
    log.add_argument(
        "--since", metavar="DATE", help="only reads at or after DATE (ISO 8601, UTC, or Unix seconds)"
    )
    log.add_argument("--json", action="store_true", help="print a JSON list")
    log.set_defaults(handler=access_log)


def access_log(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso, parse_moment

    actor = app.assistants.resolve(args.assistant) if args.assistant else None
    since = parse_moment(args.since, "--since") if args.since else None
    reads = app.access_log.all_reads(actor, since)
    out = sys.stdout
    if args.json:
        # Written read by read: one assistant may have read a hundred thousand times. One
        # encoder for them all: ``json.dumps`` with options makes a new one each call.
        encode = json.JSONEncoder(ensure_ascii=False).encode
        out.write("[")
        for number, read in enumerate(reads):
            out.write(("," if number else "") + "\n" + encode(read.to_json()))
        out.write("\n]\n")
        return 0
    for read in reads:
        items = ", ".join(str(item) for item in read.items) or "nothing"
        out.write(f"{format_iso(read.at)}  {read.actor}  {read.tool}  {items}\n")
    return 0
