"""``memdesk connect`` / ``disconnect``: add Memdesk to an assistant's config, print how to, or
take it out again."""

from __future__ import annotations

import argparse
import sys
import textwrap

from memdesk.servers.client_setup import STDIO_CLIENT
from memdesk.services.clients.known import BY_NAME, CLIENTS

HELP_WIDTH = 88


def _client_list() -> str:
    width = max(len(client.name) for client in CLIENTS)
    lines = [f"  {client.name:<{width}}  {client.title}: {client.config_path()}" for client in CLIENTS]
    lines.append(
        f"  {STDIO_CLIENT:<{width}}  any other client (--print only): the command that starts the server"
    )
    return "\n".join(lines)


def register(subparsers: argparse._SubParsersAction) -> None:
    connect = subparsers.add_parser(
        "connect",
        help="add Memdesk's MCP server to an assistant's config (or print it with --print)",
        # Wrapped here: the raw formatter that keeps the client list below also keeps this as written.
        description=textwrap.fill(
            "Add Memdesk's MCP server, set to open the store in use, to the client's own config "
            "file, merged with what is there; the file is backed up beside itself first "
            "(NAME.memdesk-backup-TIME). claude-code also gets Memdesk's hooks (prompt at "
            "SessionStart; transcript read at Stop, SessionEnd and PreCompact) in "
            "~/.claude/settings.json. claude-code and codex also turn their transcript source on "
            "(`memdesk sources`). Running it again changes "
            "nothing. A config that is not valid JSON or TOML, is read-only or is a symlink is left "
            "as it is.",
            HELP_WIDTH,
            break_on_hyphens=False,
        ),
        epilog="clients and the files they read on this machine:\n"
        + _client_list()
        + "\n\npi has no MCP client, so there is nothing to connect: start it with Memdesk's prompt,\n"
        '  pi --append-system-prompt "$(memdesk prompt --app APP)"\n'
        "and turn its transcripts on with `memdesk sources enable pi`.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    connect.add_argument(
        "client", choices=[*BY_NAME, STDIO_CLIENT], metavar="CLIENT", help="the assistant to set up"
    )
    connect.add_argument(
        "--print", dest="print_only", action="store_true", help="print the set-up only; change nothing"
    )
    # --print needs only where the store is, so it works even when the store cannot be reached.
    connect.set_defaults(handler=run_connect, needs_store=False)
    disconnect = subparsers.add_parser(
        "disconnect",
        help="take Memdesk's MCP server (and Claude Code's hooks) out of an assistant's config",
        description="Remove exactly what `memdesk connect CLIENT` adds, backing the file up first; "
        "everything else in it stays.",
    )
    disconnect.add_argument(
        "client", choices=list(BY_NAME), metavar="CLIENT", help="the assistant to take it out of"
    )
    disconnect.set_defaults(handler=run_disconnect, needs_store=False)


def run_connect(args: argparse.Namespace, _app: None) -> int:
    from memdesk.errors import BadInputError
    from memdesk.paths import resolve_paths
    from memdesk.servers.client_setup import memdesk_command, server_args, snippets

    command, server = memdesk_command(), server_args(resolve_paths(args.data_dir, args.db, args.config))
    if args.print_only:
        snippet = next(s for s in snippets(command, server) if s.name == args.client)
        # Only the snippet on standard output, so `--print > config.json` is the file itself.
        print(snippet.text)
        print(snippet.where, file=sys.stderr)
        return 0
    if args.client == STDIO_CLIENT:
        raise BadInputError("stdio is not a client with a config file to write", "add --print")
    from memdesk.services.clients.connect import (
        change_lines,
        connect,
        connect_store,
        has_transcript_source,
        outcome,
    )

    client = BY_NAME[args.client]
    if not has_transcript_source(client):
        lines = change_lines(connect(client, command, server))
    else:  # it also turns on reading the client's transcripts, a setting of the store
        from memdesk.cli.main import open_app

        app = open_app(args)
        try:
            lines = connect_store(app, client, command, server)
        finally:
            app.close()
    print(outcome(client, lines, connecting=True))
    return 0


def run_disconnect(args: argparse.Namespace, _app: None) -> int:
    from memdesk.services.clients.connect import change_lines, disconnect, has_transcript_source, outcome

    client = BY_NAME[args.client]
    lines = change_lines(disconnect(client))
    print(outcome(client, lines, connecting=False))
    if lines and has_transcript_source(client):
        # connect turned the transcript source on; disconnect opens no store, so it says so instead.
        print(
            f"The {client.name} transcript source stays on (what it read stays in the store); "
            f"`memdesk sources disable {client.name}` turns it off."
        )
    return 0
