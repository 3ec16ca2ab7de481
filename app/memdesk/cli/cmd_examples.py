"""``memdesk examples``: the example memories the window's welcome page offers, from the command line."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    examples = subparsers.add_parser(
        "examples",
        help="load example memories to look around in",
        description="Load the example store that ships with Memdesk: a made-up person (Maya), her "
        "apps, knowledge and conversations, dated as if written just now. It is one step in "
        "History: `memdesk undo` takes it out again.",
    )
    actions = examples.add_subparsers(dest="action", metavar="ACTION", required=True)
    load = actions.add_parser("load", help="load the example memories into an empty store")
    load.add_argument(
        "--force",
        action="store_true",
        help="load them into a store that is not empty: documents, entries, apps and sessions it "
        "already has are kept as they are; app memories and messages are added again",
    )
    load.set_defaults(handler=examples_load)


def examples_load(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.plural import plural
    from memdesk.errors import ConflictError
    from memdesk.services.examples import load_example

    if not args.force and not app.is_empty():
        raise ConflictError(
            "the store is not empty, so the example memories would mix with yours",
            "add --force to load them anyway, or try them in a folder of their own: "
            "memdesk --data-dir DIR examples load",
        )
    report = load_example(app)
    kept = f" ({plural(report.skipped, 'item')} already there left unchanged)" if report.skipped else ""
    print(f"Loaded the example memories: {plural(report.added, 'item')} added{kept}.")
    print("Look at them with `memdesk gui`, or `memdesk prompt --app calendar`; `memdesk undo` removes them.")
    return 0
