"""What the person's settings let every assistant do, whichever server it calls (the MCP
tools, the admin API): write at all (``agents.allow_writes``), delete
(``agents.allow_forget``), and change an app memory only where it may read. Read from the
settings on every write, so a server that reloads them follows a change from the next call on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memdesk.core.privacy import OUTSIDE_LIMIT
from memdesk.errors import NotAllowedError, NotFoundError

if TYPE_CHECKING:
    from memdesk.config import Settings
    from memdesk.services.memdesk import Memdesk


def check_may_write(settings: Settings) -> None:
    if not settings.agents.allow_writes:
        raise NotAllowedError(
            "this Memdesk is read-only for assistants (setting agents.allow_writes is off)",
            "the person can allow writes in Memdesk's Settings, under Assistants",
        )


def check_may_forget(settings: Settings) -> None:
    check_may_write(settings)
    if not settings.agents.allow_forget:
        raise NotAllowedError(
            "assistants may not delete memories here (setting agents.allow_forget is off)",
            "ask the person to delete it in Memdesk",
        )


def check_may_add_app_memory(app: Memdesk, app_id: str) -> None:
    check_may_write(app.settings)
    if app.apps.cap and len(app.apps.memories(app_id, include_expired=False)) >= app.apps.cap:
        check_may_forget(app.settings)  # at the cap, adding means removing or rewriting another memory


def check_may_edit_app_memory(app: Memdesk, app_id: str, memory_id: int) -> None:
    """An assistant changes only a memory it can read: an app outside its read limit is
    refused; a memory of another app, in Trash, expired or of a private app is not found, as
    reading the app would not show it."""
    scope = app.privacy.scope()
    if not scope.may_read_app(app_id):
        raise NotAllowedError(OUTSIDE_LIMIT, "the person sets it on Memdesk's Assistants page")
    try:
        memory = app.apps.get(memory_id)
    except NotFoundError:
        memory = None
    if memory is None or memory.app_id != app_id or memory.expired or scope.hides_app(app_id):
        raise NotFoundError(f"no memory {memory_id} in app {app_id!r}")
    check_may_write(app.settings)
