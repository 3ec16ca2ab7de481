"""``memdesk token``: the bearer tokens the local HTTP servers accept."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


def register(subparsers: argparse._SubParsersAction) -> None:
    token = subparsers.add_parser("token", help="tokens for `memdesk serve` (and the MCP server)")
    sub = token.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = sub.add_parser("create", help="create a token and print it (shown only this once)")
    create.add_argument("name", metavar="NAME", help="who will use it; recorded in history as api:NAME")
    create.set_defaults(handler=token_create)
    sub.add_parser(
        "list",
        help="tokens with when they were created and last used",
        description="Each token with when it was created and last used. Last used is kept to the "
        "minute, so checking a token rarely writes to the database.",
    ).set_defaults(handler=token_list)
    revoke = sub.add_parser("revoke", help="stop a token from working, for good")
    revoke.add_argument("name", metavar="NAME")
    revoke.set_defaults(handler=token_revoke)


def token_create(args: argparse.Namespace, app: Memdesk) -> int:
    print(app.tokens.create(args.name))
    return 0


def token_list(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.core.timefmt import format_iso

    for token in app.tokens.list():
        used = format_iso(token.last_used_at) if token.last_used_at else "never"
        state = f"revoked {format_iso(token.revoked_at)}" if token.revoked_at else "active"
        print(f"{token.name}\tcreated {format_iso(token.created_at)}\tlast used {used}\t{state}")
    return 0


def token_revoke(args: argparse.Namespace, app: Memdesk) -> int:
    app.tokens.revoke(args.name)
    print(f"revoked {args.name}")
    return 0
