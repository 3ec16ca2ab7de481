"""``memdesk prompt``: print the exact system prompt a session would receive."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.cli.io import EMPTY_STORE, say_aside, text_argument

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


EMPTY_PROMPT = "The prompt is empty: nothing stored goes into it with these options (--json says why)."


def register(subparsers: argparse._SubParsersAction) -> None:
    prompt = subparsers.add_parser("prompt", help="print the exact system prompt for a session")
    prompt.add_argument("--session", metavar="S")
    prompt.add_argument("--app", metavar="A")
    prompt.add_argument("--message", metavar="M", help="the user's first message (drives recall)")
    prompt.add_argument("--base", metavar="FILE", help="the assistant's own system prompt file")
    prompt.add_argument(
        "--project",
        metavar="DIR",
        help="the session's working folder: its app (unless --app is given) and, when the project "
        "is trusted (`memdesk files trust`), its MEMORY.md",
    )
    prompt.add_argument("--trusted", action="store_true", help="trust the project for this once")
    prompt.add_argument("--as", dest="reader", metavar="NAME", help="the prompt this assistant receives")
    prompt.add_argument("--json", action="store_true", help="the text with per-section details")
    prompt.set_defaults(handler=prompt_run)


def prompt_run(args: argparse.Namespace, app: Memdesk) -> int:
    from memdesk.errors import BadInputError
    from memdesk.services.prompt import PromptSpec

    if args.trusted and not args.project:
        raise BadInputError("--trusted needs --project DIR")
    from_stdin = args.base == "-"
    spec = PromptSpec(
        base=text_argument("-", "base prompt") if from_stdin else "",
        base_file=None if from_stdin else Path(args.base) if args.base else app.prompt.configured_base_file(),
        session=args.session,
        app=args.app,
        message=args.message,
        reader=app.assistants.resolve(args.reader) if args.reader else None,
    )
    if args.project:
        from memdesk.services.projects import project_for

        spec = spec.in_project(project_for(args.project, app.settings.files.trusted_projects, args.trusted))
    composed = app.prompt.compose(spec)
    if args.json:
        print(json.dumps(composed.to_json(), ensure_ascii=False, indent=2))
    else:
        print(composed.text)
    if not composed.text:
        say_aside(EMPTY_STORE if app.is_empty() else EMPTY_PROMPT)
    return 0
