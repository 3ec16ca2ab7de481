"""The ``memdesk`` command. Parsing is cheap; the store, Qt and LLM clients load only when used."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from memdesk import __version__
from memdesk.cli import (
    cmd_compact,
    cmd_connect,
    cmd_db,
    cmd_files,
    cmd_gui,
    cmd_history,
    cmd_hook,
    cmd_mcp,
    cmd_memory,
    cmd_prompt,
    cmd_review,
    cmd_serve,
    cmd_sources,
    cmd_token,
    cmd_transfer,
)
from memdesk.cli.io import warn_about_settings
from memdesk.errors import MemdeskError

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

COMMAND_MODULES = (
    cmd_gui,
    cmd_memory,
    cmd_prompt,
    cmd_transfer,
    cmd_history,
    cmd_files,
    cmd_compact,
    cmd_sources,
    cmd_hook,
    cmd_connect,
    cmd_db,
    cmd_mcp,
    cmd_serve,
    cmd_token,
    cmd_review,
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"memdesk: bad usage: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="memdesk",
        description="See and control what your personal AI assistant remembers.",
    )
    parser.add_argument("--version", action="version", version=f"memdesk {__version__}")
    parser.add_argument("--db", metavar="PATH", help="SQLite file or SQLAlchemy URL (MEMDESK_DB)")
    parser.add_argument("--data-dir", metavar="DIR", help="data folder (MEMDESK_DATA_DIR)")
    parser.add_argument("--config", metavar="FILE", help="settings file to use")
    parser.add_argument("--now", metavar="ISO", help="act as if the current time were ISO (UTC)")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMAND_MODULES:
        module.register(subparsers)
    return parser


def open_app(args: argparse.Namespace, actor: str = "cli") -> Memdesk:
    from memdesk.core.timefmt import parse_iso, utcnow
    from memdesk.services.memdesk import Memdesk

    clock: Callable[[], datetime] = utcnow
    if args.now:
        fixed = parse_iso(args.now, "--now")

        def clock() -> datetime:
            return fixed

    app = Memdesk.open(args.data_dir, args.db, args.config, actor=actor, clock=clock)
    warn_about_settings(app.settings_problems)
    return app


def _report(error: MemdeskError) -> int:
    print(f"memdesk: error: {error.message}", file=sys.stderr)
    if error.hint:
        print(f"  {error.hint}", file=sys.stderr)
    return error.exit_code


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        given = sys.argv[1:] if argv is None else list(argv)
        args = parser.parse_args([*given, "gui"])
    try:
        if getattr(args, "needs_store", True):
            app = open_app(args)
            try:
                return int(args.handler(args, app) or 0)
            finally:
                app.close()
        return int(args.handler(args, None) or 0)
    except MemdeskError as error:
        return _report(error)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
