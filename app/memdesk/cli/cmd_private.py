"""``memdesk private``: keep an app, an entry or a document from every assistant."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from memdesk.core.privacy import TARGET_FORMS

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    private = subparsers.add_parser(
        "private",
        help="keep apps, entries and documents from every assistant",
        description="A private item is left out of every prompt, recall, MCP tool and resource and "
        "the admin API; assistants are answered as if it were not there. You still see and edit "
        "it in the window. Marking and unmarking are undoable.",
    )
    sub = private.add_subparsers(dest="action", metavar="ACTION", required=True)
    for action, about in (("add", "make an item private"), ("remove", "let assistants read it again")):
        parser = sub.add_parser(action, help=about)
        parser.add_argument("target", metavar="TARGET", help=TARGET_FORMS)
        parser.set_defaults(handler=private_set, private=action == "add")
    listing = sub.add_parser("list", help="the private items")
    listing.add_argument("--json", action="store_true", help="print JSON")
    listing.set_defaults(handler=private_list)


def private_set(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.services.privacy import parse_target  # the store layer: not on every command's start

    target = parse_target(args.target)
    changed = app.privacy.set_private(target, args.private)
    state = "private" if args.private else "readable by assistants"
    print(f"{target} is {'now' if changed else 'already'} {state}")
    return 0


def private_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso

    items = app.privacy.list()
    if args.json:
        rows = [
            {
                "target": str(i.target),
                "kind": str(i.target.kind),
                "name": i.target.name,
                "since": format_iso(i.since),
                "exists": i.exists,
            }
            for i in items
        ]
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for item in items:
        print(f"{item.target}\tsince {format_iso(item.since)}" + ("" if item.exists else "\t(not there now)"))
    if not items:
        print("Nothing is private.")
    return 0
