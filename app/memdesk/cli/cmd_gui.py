"""``memdesk gui``: open the desktop window (Qt loads only here)."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    gui = subparsers.add_parser("gui", help="open the desktop window (the default)")
    gui.add_argument(
        "--smoke-test",
        action="store_true",
        help="start, open the store, show the window for one event-loop tick, exit 0",
    )
    gui.set_defaults(handler=gui_run, needs_store=False)


# Qt comes with the `gui` extra only: an install for a library or a server goes without it.
QT_MISSING = (
    "memdesk: the window cannot open: it needs Qt, which is not installed here. Install it with "
    "pip install 'memdesk[gui]' (from a source checkout: pip install '.[gui]'); the command line, "
    "the MCP server and the HTTP API work without it."
)


def gui_run(args: argparse.Namespace, _app: None) -> int:
    import importlib.util

    if importlib.util.find_spec("PySide6") is None:  # before the display check: this comes first
        print(QT_MISSING, file=sys.stderr)
        return 1
    from memdesk.cli.io import command_as_started
    from memdesk.gui import xcb

    missing = xcb.problem(command=command_as_started())
    if missing is not None:  # Qt would abort without saying what to install
        print(missing, file=sys.stderr)
        return 1
    from memdesk.cli.startup import loading

    with loading():  # the window's modules
        from memdesk.gui.application import run

    return run(args)
