"""``memdesk connect`` / ``disconnect``: add Memdesk to an assistant's config, print how to, or
take it out again."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import TYPE_CHECKING

from memdesk.servers.client_setup import STDIO_CLIENT
from memdesk.services.clients.known import BY_NAME, CLIENTS, PI

if TYPE_CHECKING:
    from memdesk.servers.client_setup import Snippet

HELP_WIDTH = 88


def _client_list() -> str:
    """Every file each client's connect writes, resolved for this machine."""
    from memdesk.paths import resolve_paths
    from memdesk.services.clients.connect import has_transcript_source, hooks_file

    width = max(len(client.name) for client in CLIENTS)
    lines = []
    for client in CLIENTS:
        lines.append(f"  {client.name:<{width}}  {client.title}: {client.config_path()}")
        hooks = hooks_file(client)
        if hooks is not None:
            lines.append(f"  {'':<{width}}    and its hooks: {hooks}")
    lines.append(f"  {PI:<{width}}  pi (an extension, not MCP): {_pi_extension_path()}")
    lines.append(
        f"  {STDIO_CLIENT:<{width}}  any other client (--print only): the command that starts the server"
    )
    with_source = [name for name in [*BY_NAME, PI] if has_transcript_source(name)]
    lines.append(
        textwrap.fill(
            f"{', '.join(with_source[:-1])} and {with_source[-1]} also write Memdesk's own settings "
            f"file, to turn their transcript source on: {resolve_paths().config_file} (with --data-dir "
            "or --config, that one's).",
            HELP_WIDTH,
            break_on_hyphens=False,
            break_long_words=False,
        )
    )
    return "\n".join(lines)


def _pi_extension_path() -> str:
    from memdesk.services.clients.pi_extension import extension_path

    return str(extension_path())


def register(subparsers: argparse._SubParsersAction) -> None:
    connect = subparsers.add_parser(
        "connect",
        help="add Memdesk to an assistant: its MCP server, or pi's extension (--remove takes it out)",
        # Wrapped here: the raw formatter that keeps the client list below also keeps this as written.
        description=textwrap.fill(
            "Add Memdesk's MCP server, set to open the store in use, to the client's own config "
            "file, merged with what is there; the file is backed up beside itself first "
            "(NAME.memdesk-backup-TIME). claude-code also gets Memdesk's hooks (prompt at "
            "SessionStart; transcript read at Stop, SessionEnd and PreCompact) in "
            "~/.claude/settings.json. pi, which has no MCP client, gets an extension file instead "
            "(its path is below): Memdesk's prompt for the project folder's app added to its system "
            "prompt before each message, and a remember tool that saves to that app as the "
            "assistant python:pi, through the write check and Review. claude-code, codex and pi "
            "also turn their transcript source on (`memdesk sources`). Running it again changes "
            "nothing. A config that is not valid JSON or TOML, is read-only or is a symlink is left "
            "as it is.",
            HELP_WIDTH,
            break_on_hyphens=False,
        ),
        epilog="clients, and every file connect writes for each on this machine:\n" + _client_list(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    connect.add_argument(
        "client", choices=[*BY_NAME, PI, STDIO_CLIENT], metavar="CLIENT", help="the assistant to set up"
    )
    modes = connect.add_mutually_exclusive_group()
    modes.add_argument(
        "--print", dest="print_only", action="store_true", help="print the set-up only; change nothing"
    )
    modes.add_argument(
        "--remove", action="store_true", help="take out what connect adds (as `memdesk disconnect`)"
    )
    connect.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    # --print needs only where the store is, so it works even when the store cannot be reached.
    connect.set_defaults(handler=run_connect, needs_store=False)
    disconnect = subparsers.add_parser(
        "disconnect",
        help="take Memdesk's MCP server (Claude Code's hooks, pi's extension) out of an assistant",
        description="Remove exactly what `memdesk connect CLIENT` adds, backing a config file up "
        "first; everything else in it stays (pi's extension, Memdesk's own file, is deleted). The "
        "same as `memdesk connect CLIENT --remove`.",
    )
    disconnect.add_argument(
        "client", choices=[*BY_NAME, PI], metavar="CLIENT", help="the assistant to take it out of"
    )
    disconnect.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    disconnect.set_defaults(handler=run_disconnect, needs_store=False)


def run_connect(args: argparse.Namespace, _app: None) -> int:
    from memdesk.errors import BadInputError
    from memdesk.paths import resolve_paths
    from memdesk.servers.client_setup import memdesk_command, server_args, snippets

    if args.remove:
        return run_disconnect(args, None)
    paths = resolve_paths(args.data_dir, args.db, args.config)
    command, server = memdesk_command(), server_args(paths)
    if args.print_only:
        text, where = (
            _pi_print(command, paths.reopen_options())
            if args.client == PI
            else _snippet(snippets(command, server), args.client)
        )
        # Only the set-up on standard output, so `--print > FILE` is the file itself.
        print(text)
        print(where, file=sys.stderr)
        return 0
    if args.client == STDIO_CLIENT:
        raise BadInputError("stdio is not a client with a config file to write", "add --print")
    from memdesk.services.clients.connect import change_lines, connect, has_transcript_source, turn_on_source

    if args.client == PI:
        from memdesk.services.clients import pi_extension

        title = PI
        changes = pi_extension.connect([command, *paths.reopen_options()], args.dry_run)
    else:
        client = BY_NAME[args.client]
        title = client.title
        changes = connect(client, command, server, args.dry_run)
    lines = change_lines(changes)
    if has_transcript_source(args.client):  # a setting of the store
        from memdesk.cli.main import open_app

        app = open_app(args)
        try:
            lines += turn_on_source(app, args.client, args.dry_run)
        finally:
            app.close()
    print(_said(title, lines, connecting=True, dry_run=args.dry_run))
    return 0


def run_disconnect(args: argparse.Namespace, _app: None) -> int:
    from memdesk.services.clients.connect import change_lines, disconnect, has_transcript_source

    if args.client == PI:
        from memdesk.services.clients import pi_extension

        title, lines = PI, change_lines(pi_extension.remove(args.dry_run))
    else:
        client = BY_NAME[args.client]
        title, lines = client.title, change_lines(disconnect(client, args.dry_run))
    print(_said(title, lines, connecting=False, dry_run=args.dry_run))
    if lines and has_transcript_source(args.client) and not args.dry_run:
        # connect turned the transcript source on; disconnect opens no store, so it says so instead.
        print(
            f"The {args.client} transcript source stays on (what it read stays in the store); "
            f"`memdesk sources disable {args.client}` turns it off."
        )
    return 0


def _said(title: str, lines: list[str], connecting: bool, dry_run: bool) -> str:
    from memdesk.services.clients.connect import outcome

    text = outcome(title, lines, connecting)
    return f"Would change (--dry-run: nothing was written):\n{text}" if dry_run and lines else text


def _snippet(found: list[Snippet], name: str) -> tuple[str, str]:
    snippet = next(s for s in found if s.name == name)
    return snippet.text, snippet.where


def _pi_print(command: str, store_options: list[str]) -> tuple[str, str]:
    from memdesk.services.clients.pi_extension import extension_path, extension_text

    return extension_text([command, *store_options]), f"Save this as {extension_path()}."
