"""``memdesk hook claude-code``: what Claude Code runs at its hook events.

A hook must never break or slow the assistant: whatever goes wrong, it prints nothing,
exits 0 and leaves one line in Memdesk's log (``<log dir>/hooks.log``). Typed by hand at a
terminal, where no event comes, it says what it is for instead of waiting.
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
    from memdesk.services.memdesk import Memdesk

MAX_EVENT_BYTES = 1024 * 1024
LOG_FILE = "hooks.log"


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hook",
        help="run at an assistant's hook events (set up by `memdesk connect claude-code`)",
        description="Read Claude Code's hook event (JSON) on standard input: at SessionStart print "
        "Memdesk's prompt for the project as additional context; at Stop, SessionEnd and PreCompact "
        "read what is new in the transcript. Never fails: problems go to the log.",
    )
    parser.add_argument("client", choices=["claude-code"])
    parser.set_defaults(handler=hook, needs_store=False)


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
