"""Claude Code's hooks: Memdesk's prompt at the start of a session, its transcript read at the end.

Claude Code runs ``memdesk hook claude-code`` with the event as JSON on standard input.
``SessionStart`` answers with the composed prompt for the session's working folder (its app,
and its project's MEMORY.md when the person trusts the project) as ``additionalContext``;
``Stop``, ``SessionEnd`` and ``PreCompact`` read what is new in ``transcript_path`` (when the
claude-code source is on). Other events get no answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

EVENTS = ("SessionStart", "Stop", "SessionEnd", "PreCompact")
# Who receives the prompt the hook hands over (its read limit, the read log): Claude Code, as
# its MCP client.
ASSISTANT = "mcp:claude-code"
READ_TOOL = "SessionStart hook"
# The longest the hook waits for its read to be logged (a store another program keeps locked).
LOG_WAIT_SECONDS = 2.0
SYNC_EVENTS = frozenset(EVENTS[1:])


def handle(event: dict[str, Any], open_app: Callable[[], Memdesk]) -> dict[str, Any] | None:
    """What to print for ``event`` (None: nothing); opens the store only when the event needs it."""
    name = event.get("hook_event_name")
    if name == "SessionStart":
        app = open_app()  # first: it loads the ORM with garbage collection held off
        try:
            from memdesk.services.access_log import items_in_prompt
            from memdesk.services.projects import project_for
            from memdesk.services.prompt import PromptSpec

            folder = event.get("cwd")
            # Composed as Claude Code reads over MCP: within its app limit, if it has one.
            spec = PromptSpec(reader=ASSISTANT)
            if isinstance(folder, str) and folder:
                spec = spec.in_project(project_for(folder, app.settings.files.trusted_projects))
            composed = app.prompt.compose(spec)
            app.access_log.record(ASSISTANT, READ_TOOL, items_in_prompt(composed))
            app.access_log.close(LOG_WAIT_SECONDS)
            text = composed.text
        finally:
            app.close()
        return {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    path = event.get("transcript_path")
    if name in SYNC_EVENTS and isinstance(path, str) and path:
        app = open_app()
        try:
            read = app.sources.sync_file(path, "claude-code") if app.settings.sources.claude_code else None
        finally:
            app.close()
        if read is not None and read.problem:
            raise TranscriptNotRead(f"{read.path} {read.problem}")
    return None


class TranscriptNotRead(Exception):
    """The event's transcript could not be read; the hook logs it, Claude Code sees nothing."""
