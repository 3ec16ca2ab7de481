"""``memdesk hook claude-code``: what Claude Code runs at its hook events; ``memdesk hook pi``:
what pi's Memdesk extension runs.

A hook must never break or slow the assistant: whatever goes wrong, it prints nothing,
exits 0 and leaves one line in Memdesk's log (``<log dir>/hooks.log``). Typed by hand at a
terminal, where no event comes, Claude Code's says what it is for instead of waiting. pi's
``remember`` is a tool the model called, not a hook: its errors go back to the model.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from memdesk.cli.io import say_aside, typed_by_hand
from memdesk.core.actors import CLAUDE_CODE_HOOK

if TYPE_CHECKING:
    from memdesk.assistant import Assistant
    from memdesk.services.memdesk import Memdesk

MAX_EVENT_BYTES = 1024 * 1024
LOG_FILE = "hooks.log"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hook",
        help="run at an assistant's hook events (set up by `memdesk connect claude-code` or `pi`)",
        description="What Claude Code's hooks and pi's Memdesk extension run; `memdesk connect` "
        "sets them up.",
    )
    clients = parser.add_subparsers(dest="client", metavar="CLIENT", required=True)
    claude = clients.add_parser(
        "claude-code",
        help="Claude Code's hook events",
        description="Read Claude Code's hook event (JSON) on standard input: at SessionStart print "
        "Memdesk's prompt for the project as additional context; at Stop, SessionEnd and PreCompact "
        "read what is new in the transcript. Never fails: problems go to the log.",
    )
    claude.set_defaults(handler=hook, needs_store=False)
    pi = clients.add_parser(
        "pi",
        help="what pi's Memdesk extension runs",
        description="What the extension `memdesk connect pi` writes runs, as the assistant python:pi, "
        "for the app of pi's project folder.",
    )
    actions = pi.add_subparsers(dest="action", metavar="ACTION", required=True)
    prompt = actions.add_parser(
        "prompt",
        help="print the prompt pi reads (before each of your messages)",
        description="Print Memdesk's prompt for FOLDER's app as python:pi reads it. Never fails: "
        "problems go to the log and nothing is printed.",
    )
    prompt.add_argument("folder", metavar="FOLDER", help="pi's project folder")
    prompt.set_defaults(handler=pi_prompt, needs_store=False)
    remember = actions.add_parser(
        "remember",
        help="add a memory to the folder's app, as pi (its remember tool)",
        description="Add TEXT to FOLDER's app memories as python:pi; the write check and Review "
        "decide whether it waits for you.",
    )
    remember.add_argument("folder", metavar="FOLDER", help="pi's project folder")
    remember.add_argument("text", metavar="TEXT", help="what to remember")
    remember.set_defaults(handler=pi_remember, needs_store=False)


def hook(args: argparse.Namespace, _app: Memdesk | None) -> int:
    from memdesk.shutdown import finish_on_sigterm

    if typed_by_hand():
        say_aside(
            "memdesk: Claude Code runs this at its hook events, with the event as JSON on standard "
            "input; `memdesk connect claude-code` sets it up."
        )
        return 2
    finish_on_sigterm()  # Claude Code may end a hook that runs long: its read is logged first
    event_name = "?"
    try:
        event = json.loads(sys.stdin.buffer.read(MAX_EVENT_BYTES) or b"{}")
        if not isinstance(event, dict):
            raise ValueError("the hook input is not a JSON object")
        event_name = str(event.get("hook_event_name", "?"))
        from memdesk.services.claude_hook import handle

        answer = handle(event, lambda: _open(args))
        if answer is not None:
            sys.stdout.write(json.dumps(answer, ensure_ascii=False))
            sys.stdout.flush()
    except BaseException as exc:  # a hook must not fail Claude Code, whatever happens
        _log(args, f"hook claude-code {event_name}: {type(exc).__name__}: {exc}")
    return 0


def pi_prompt(args: argparse.Namespace, _app: None) -> int:
    try:
        from memdesk.services import pi_hook

        with _open_as_pi(args) as pi:
            text = pi_hook.prompt(pi, args.folder)
        if text:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
    except BaseException as exc:  # pi goes on without Memdesk's prompt, whatever happens
        _log(args, f"hook pi prompt: {type(exc).__name__}: {exc}")
    return 0


def pi_remember(args: argparse.Namespace, _app: None) -> int:
    from memdesk.services import pi_hook

    with _open_as_pi(args) as pi:
        print(pi_hook.remember(pi, args.folder, args.text))
    return 0


def _open_as_pi(args: argparse.Namespace) -> Assistant:
    from memdesk.cli.startup import loading

    with loading():  # pi waits for this before the model is asked
        from memdesk.assistant import Assistant
        from memdesk.services.pi_hook import NAME

        return Assistant.open(NAME, args.data_dir, args.db, args.config)


def _open(args: argparse.Namespace) -> Memdesk:
    from memdesk.cli.startup import loading

    with loading():  # a hook holds up Claude Code: no garbage collection while the store loads
        from memdesk.services.memdesk import Memdesk

        return Memdesk.open(args.data_dir, args.db, args.config, actor=CLAUDE_CODE_HOOK)


def _log(args: argparse.Namespace, text: str) -> None:
    try:
        from memdesk.paths import resolve_paths

        folder = resolve_paths(args.data_dir, args.db, args.config).log_dir
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        with (folder / LOG_FILE).open("a", encoding="utf-8") as log:
            log.write(f"{stamp} {' '.join(text.split())}\n")
    except OSError:
        pass  # no log folder either: still nothing for Claude Code to see
