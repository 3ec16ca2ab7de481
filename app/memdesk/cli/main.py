"""The ``memdesk`` command. Parsing is cheap; the store, Qt and LLM clients load only when used."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from datetime import datetime
from types import ModuleType
from typing import TYPE_CHECKING

from memdesk import __version__
from memdesk.cli.io import warn_about_settings
from memdesk.cli.startup import loading
from memdesk.core.actors import COMMAND
from memdesk.errors import MemdeskError

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# Each command's module, by the commands it adds, in the order `memdesk --help` lists them. A
# run builds only its own command's parser, so the modules of the others are never imported.
COMMANDS: dict[str, tuple[str, ...]] = {
    "cmd_gui": ("gui",),
    "cmd_examples": ("examples",),
    "cmd_memory": ("doc", "working", "app", "entry", "recall", "session"),
    "cmd_prompt": ("prompt",),
    "cmd_transfer": ("export", "import"),
    "cmd_history": ("trash", "history", "undo", "redo"),
    "cmd_files": ("files",),
    "cmd_compact": ("compact",),
    "cmd_sources": ("sources",),
    "cmd_hook": ("hook",),
    "cmd_connect": ("connect", "disconnect"),
    "cmd_db": ("db",),
    "cmd_mcp": ("mcp",),
    "cmd_serve": ("serve",),
    "cmd_token": ("token",),
    "cmd_review": ("review", "assistant"),
    "cmd_access": ("access",),
    "cmd_private": ("private",),
    "cmd_health": ("health",),
}
# Global options that take a value: the word after one is not the command.
_VALUE_OPTIONS = frozenset({"--db", "--data-dir", "--config", "--now"})


def command_module(name: str) -> ModuleType:
    return importlib.import_module(f"memdesk.cli.{name}")


def _command_in(argv: Sequence[str]) -> str | None:
    """The module of the command ``argv`` runs, when it names one; None: build them all."""
    words = iter(argv)
    for word in words:
        if word in _VALUE_OPTIONS:
            next(words, None)
        elif not word.startswith("-"):
            return next((module for module, names in COMMANDS.items() if word in names), None)
    return None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, f"memdesk: bad usage: {message}\n{self._choices_hint(message)}")

    def _choices_hint(self, message: str) -> str:
        """When what is missing is a choice the usage line names only by its placeholder
        (`memdesk review` ACTION, `memdesk connect` CLIENT), the ones to choose from."""
        for action in self._actions:
            if action.choices and action.metavar and message.endswith(f" required: {action.metavar}"):
                choices = ", ".join(action.choices)
                return f"  choose one of: {choices}; `{self.prog} --help` says what each does\n"
        return ""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only`` (a module of ``COMMANDS``), just that module's commands."""
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
    for module in [only] if only else COMMANDS:
        command_module(module).register(subparsers)
    _describe(parser)
    return parser


def _describe(parser: argparse.ArgumentParser) -> None:
    """`memdesk COMMAND [ACTION] --help` opens with what it does: its line from the list it is
    chosen from, where it has no longer description of its own."""
    for group in parser._actions:
        if not isinstance(group, argparse._SubParsersAction):
            continue
        helps = {action.dest: action.help for action in group._choices_actions}
        for name, command in group.choices.items():
            if not command.description and helps.get(name):
                command.description = f"{helps[name][0].upper()}{helps[name][1:]}."
            _describe(command)


def open_app(args: argparse.Namespace, actor: str = COMMAND) -> Memdesk:
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


def report(error: MemdeskError) -> int:
    """The error on standard error, its hint below it; the exit code it calls for."""
    print(f"memdesk: error: {error.message}", file=sys.stderr)
    if error.hint:
        print(f"  {error.hint}", file=sys.stderr)
    return error.exit_code


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors="replace")
    try:
        with loading():
            given = sys.argv[1:] if argv is None else list(argv)
            parser = build_parser(_command_in(given))
            args = parser.parse_args(given)
            if args.command is None:
                args = build_parser("cmd_gui").parse_args([*given, "gui"])
            app = open_app(args) if getattr(args, "needs_store", True) else None
    except MemdeskError as error:
        return report(error)
    except KeyboardInterrupt:
        return 130
    try:
        if app is not None:
            try:
                return int(args.handler(args, app) or 0)
            finally:
                app.close()
        return int(args.handler(args, None) or 0)
    except MemdeskError as error:
        return report(error)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
