"""What the person's settings let every assistant do, whichever server it calls (the MCP
tools, the admin API): write at all (``agents.allow_writes``), and delete
(``agents.allow_forget``). Read from the settings on every write, so a server that reloads
them follows a change from the next call on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memdesk.errors import NotAllowedError

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
