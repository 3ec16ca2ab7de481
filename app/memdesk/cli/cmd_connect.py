"""``memdesk connect`` / ``disconnect``: set an assistant up to use Memdesk, or print how to."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# ``--print`` clients and the snippet each one takes from ``client_setup.snippets``.
SNIPPETS = {
    "claude-desktop": "Claude Desktop",
    "claude-code": "Claude Code",
    "cursor": "Cursor",
    "stdio": "Other clients",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    connect = subparsers.add_parser(
        "connect",
        help="set an assistant up to use Memdesk (claude-code), or print its set-up (--print)",
        description="claude-code: add Memdesk's MCP server to ~/.claude.json and its hooks (prompt at "
        "SessionStart; transcript read at Stop, SessionEnd and PreCompact) to ~/.claude/settings.json, "
        "merged with what is there, each file backed up first; turns the claude-code source on. "
        "--print: print the set-up snippet for a client instead of changing anything.",
    )
    connect.add_argument("client", choices=list(SNIPPETS))
    connect.add_argument("--print", dest="print_only", action="store_true", help="print the snippet only")
    # --print needs only where the store is, so it works even when the store cannot be reached.
    connect.set_defaults(handler=run_connect, needs_store=False)
    disconnect = subparsers.add_parser(
        "disconnect", help="take Memdesk's MCP server and hooks out of Claude Code's settings"
    )
    disconnect.add_argument("client", choices=["claude-code"])
    disconnect.set_defaults(handler=run_disconnect)


def run_connect(args: argparse.Namespace, _app: None) -> int:
    from memdesk.errors import BadInputError
    from memdesk.paths import resolve_paths
    from memdesk.servers.client_setup import memdesk_command, server_args, snippets

    command, server = memdesk_command(), server_args(resolve_paths(args.data_dir, args.db, args.config))
    if args.print_only:
        snippet = next(s for s in snippets(command, server) if s.client == SNIPPETS[args.client])
        # Only the snippet on standard output, so `--print > config.json` is the file itself.
        print(snippet.text)
        print(snippet.where, file=sys.stderr)
        return 0
    if args.client != "claude-code":
        raise BadInputError(f"memdesk connect {args.client} only prints its set-up", "add --print")
    from memdesk.cli.main import open_app
    from memdesk.services.claude_connect import connect_store

    app = open_app(args)
    try:
        _show(connect_store(app, command, server), "Claude Code already uses Memdesk; nothing changed.")
    finally:
        app.close()
    return 0


def run_disconnect(args: argparse.Namespace, _app: Memdesk) -> int:
    from memdesk.services.claude_connect import change_lines, disconnect

    _show(change_lines(disconnect()), "Claude Code had no Memdesk entries; nothing changed.")
    return 0


def _show(lines: list[str], unchanged: str) -> None:
    print("\n".join(lines) if lines else unchanged)
