"""``memdesk trash``, ``history``, ``undo`` and ``redo``."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from memdesk.cli.io import listed, one_line, say_aside
from memdesk.core.actors import MEANINGS, described

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def _limit(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= 100000:
        raise argparse.ArgumentTypeError(f"expected a number from 1 to 100000, not {value!r}")
    return int(value)


def register(subparsers: argparse._SubParsersAction) -> None:
    trash = subparsers.add_parser("trash", help="deleted items, until restored or emptied")
    sub = trash.add_subparsers(dest="action", metavar="ACTION", required=True)
    sub.add_parser("list", help="what is in Trash").set_defaults(handler=trash_list)
    restore = sub.add_parser("restore", help="put an item back")
    restore.add_argument("item_id", metavar="ID", help="as `trash list` shows it, e.g. memory:42")
    restore.set_defaults(handler=trash_restore)
    empty = sub.add_parser("empty", help="remove everything in Trash for good")
    empty.add_argument("--yes", action="store_true", help="confirm")
    empty.add_argument("--expired", action="store_true", help="only items past their purge date")
    empty.set_defaults(handler=trash_empty)
    history = subparsers.add_parser("history", help="the change history, newest first")
    history.add_argument("--limit", type=_limit, default=20, metavar="N")
    history.add_argument(
        "--actor",
        metavar="NAME",
        help=f"only changes by NAME: {', '.join(map(described, MEANINGS))}, or an assistant "
        "(mcp:NAME, api:NAME, python:NAME, e.g. mcp:claude-code)",
    )
    history.set_defaults(handler=history_list)
    subparsers.add_parser("undo", help="undo the last change").set_defaults(handler=undo)
    subparsers.add_parser("redo", help="redo the last undone change").set_defaults(handler=redo)


def trash_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_day, format_iso

    for item in app.trash.list():
        print(
            f"{item.id}\tdeleted {format_iso(item.deleted_at)}\tpurge {format_day(item.purge_at)}\t"
            f"{item.label}: {one_line(item.text, 80)}"
        )
    return 0


def trash_restore(args: argparse.Namespace, app: Memdesk) -> int:
    app.trash.restore(args.item_id)
    print(f"restored {args.item_id}")
    return 0


def trash_empty(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.errors import BadInputError

    if not args.yes:
        raise BadInputError("emptying Trash needs --yes", "items removed from Trash cannot be undone")
    print(f"removed {app.trash.empty(only_expired=args.expired)} items for good")
    return 0


def history_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso
    from memdesk.services.step_words import readable

    steps = app.history.list(args.limit, actor=args.actor)
    for step in steps:
        print(f"#{step.id}\t{format_iso(step.at)}\t{step.actor}\t{step.state}\t{readable(step.label)}")
    if not steps and args.actor is not None:
        actors = app.history.actors()
        known = f"; the history has changes by {', '.join(map(described, actors))}" if actors else ""
        say_aside(f"No changes by {args.actor}{known}.")
        return 0
    return listed(app, len(steps))


def undo(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.services.step_words import readable

    step = app.history.undo()
    print(f"undid #{step.id}: {readable(step.label)}")
    return 0


def redo(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.services.step_words import readable

    step = app.history.redo()
    print(f"redid #{step.id}: {readable(step.label)}")
    return 0
