"""``memdesk review`` and ``memdesk assistant``: what assistants may write, and their writes
that wait for the person's review."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from memdesk.cli.io import EMPTY_STORE, one_line, say_aside
from memdesk.core.plural import plural
from memdesk.core.trust import LEVELS

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk
    from memdesk.services.review import HeldInfo


NO_ASSISTANT = "No assistant has used this store yet: `memdesk connect --help` shows how to connect one."


def register(subparsers: argparse._SubParsersAction) -> None:
    review = subparsers.add_parser(
        "review",
        help="assistants' writes waiting for your review",
        description="List, approve or reject the writes assistants made that wait for your review.",
    )
    sub = review.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = sub.add_parser(
        "list",
        help="the writes waiting, newest first",
        description="Each write waiting, newest first: #ID, when it was held, the assistant and what "
        "it wants to do; then its text, where it goes (as Review's Goes to column says it) and why "
        "it waits.",
    )
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.add_argument("--assistant", metavar="NAME", help="only this assistant's")
    listing.set_defaults(handler=review_list)
    approve = sub.add_parser("approve", help="put writes into memory (one undoable step)")
    approve.add_argument("ids", metavar="ID", type=int, nargs="+")
    approve.add_argument(
        "--replace",
        action="store_true",
        help="also when its target was created or changed after it was held: replace what is there now "
        "(without it, such a write is refused, showing both texts)",
    )
    approve.set_defaults(handler=review_approve)
    reject = sub.add_parser("reject", help="move writes to Trash (undoable)")
    reject.add_argument("ids", metavar="ID", type=int, nargs="+")
    reject.set_defaults(handler=review_reject)

    assistant = subparsers.add_parser(
        "assistant",
        help="assistants and how far you trust each",
        description="List the assistants that use this store, and set how far each is trusted.",
    )
    sub = assistant.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser(
        "list",
        help="assistants with their trust level, calls and writes waiting",
        description="Each assistant (MCP clients as mcp:NAME, API tokens as api:NAME, assistants "
        "written in Python as python:NAME): its trust level, the apps it may read, when it was last "
        "seen, its calls (tool calls and HTTP requests alike) and its writes waiting for review. "
        "A running assistant's calls and last seen are written at its first call, then at most "
        "every 30 seconds.",
    ).set_defaults(handler=assistant_list)
    trust = sub.add_parser(
        "trust",
        help="set an assistant's trust level",
        description="read-only: its writes are refused; review-everything: every write waits for you; "
        "review-suspicious (the default): writes that look like instructions to an assistant wait; "
        "trusted: nothing waits. Writes to the profile and patterns wait at every level but trusted.",
    )
    trust.add_argument(
        "name", metavar="NAME", help="e.g. mcp:claude-code, claude-code when unique, or codex for Codex CLI"
    )
    trust.add_argument("level", metavar="LEVEL", help=", ".join(LEVELS))
    trust.set_defaults(handler=assistant_trust)
    apps = sub.add_parser(
        "apps",
        help="limit the apps an assistant may read",
        description="The assistant reads only these apps' memories; reading another is refused, and "
        "its prompt and recall are composed within them. An app need not exist yet. An assistant "
        "not known yet (named in full, mcp:NAME or api:NAME) is added with this limit.",
    )
    apps.add_argument(
        "name", metavar="NAME", help="e.g. mcp:claude-code, claude-code when unique, or codex for Codex CLI"
    )
    apps.add_argument("apps", metavar="APP", nargs="*", help="the apps it may read")
    apps.add_argument("--all", action="store_true", help="lift the limit: every app")
    apps.set_defaults(handler=assistant_apps)


def _held_json(app: Memdesk, held: HeldInfo) -> dict[str, object]:
    from memdesk.core.timefmt import format_iso

    return {
        "id": held.id,
        "actor": held.actor,
        "at": format_iso(held.created_at),
        "operation": str(held.write.operation),
        "title": held.write.title,
        "target": app.review.where(held.write),
        "text": held.write.content,
        "reasons": list(held.reasons),
        "changedSinceHeld": [
            {"what": change.what, "now": change.now, "puts": change.put}
            for change in app.review.unseen_changes(held)
        ],
    }


def review_list(args: argparse.Namespace, app: Memdesk) -> int:
    actor = app.assistants.resolve(args.assistant) if args.assistant else None
    waiting = app.review.list(limit=1_000_000, actor=actor)
    from memdesk.core import detector

    # Said first (to stderr beside JSON), since it changes what waits here.
    off = detector.status()
    if off:
        print(off, file=sys.stderr if args.json else sys.stdout)
    if args.json:
        print(json.dumps([_held_json(app, held) for held in waiting], ensure_ascii=False, indent=2))
        return 0
    from memdesk.core.timefmt import format_iso
    from memdesk.services.review import GOES_TO

    for held in waiting:
        print(f"#{held.id}\t{format_iso(held.created_at)}\t{held.actor}\t{held.write.title}")
        if held.write.content:
            print(f"\t{one_line(held.write.content)}")
        print(f"\t{GOES_TO.lower()}: {app.review.where(held.write)}")
        print(f"\twhy: {'; '.join(held.reasons)}")
        for change in app.review.unseen_changes(held):
            print(f"\tchanged since it was held: {change.what} now reads: {one_line(change.now)}")
    if not waiting:
        print("Nothing waits for review.")
    return 0


def review_approve(args: argparse.Namespace, app: Memdesk) -> int:
    steps = app.review.approve(args.ids, replace=args.replace)
    count = len(args.ids)
    print(f"approved {count} write{'s' if count != 1 else ''} (history step {', '.join(map(str, steps))})")
    return 0


def review_reject(args: argparse.Namespace, app: Memdesk) -> int:
    count = app.review.reject(args.ids)
    print(f"rejected {count} write{'s' if count != 1 else ''}: in Trash, `memdesk undo` brings them back")
    return 0


def assistant_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso

    clients = app.assistants.list()
    if not clients:
        say_aside(EMPTY_STORE if app.is_empty() else NO_ASSISTANT)
    for client in clients:
        seen = format_iso(client.last_seen) if client.last_seen else "never"
        level = client.level.value + (" (default)" if client.level_is_default else "")
        reads = "reads " + (", ".join(sorted(client.apps)) if client.apps is not None else "every app")
        print(
            f"{client.name}\t{level}\t{reads}\tlast seen {seen}\t{plural(client.calls, 'call')}\t"
            f"{client.pending} waiting"
        )
    return 0


def assistant_trust(args: argparse.Namespace, app: Memdesk) -> int:
    actor, how = app.assistants.resolve_saying(args.name)
    app.assistants.set_level(actor, args.level)
    if how:
        print(how)
    print(f"{actor} is now {app.assistants.level(actor).value}")
    return 0


def assistant_apps(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.errors import BadInputError

    if args.all == bool(args.apps):
        raise BadInputError(
            "name the apps it may read, or give --all", "e.g. memdesk assistant apps coder work"
        )
    actor = app.privacy.set_app_limit(args.name, None if args.all else args.apps)
    if args.all:
        print(f"{actor} may read every app")
    else:
        print(f"{actor} may read only {', '.join(sorted(set(args.apps)))}")
    return 0
