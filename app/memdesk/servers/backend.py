"""What the MCP server's calls run on: the open store, its tools, the client log and the
settings watch; made in the background, so the server answers its handshake meanwhile.

Loading SQLAlchemy and the services takes as long as loading the MCP SDK. A client's first
requests (initialize, tools/list) need neither the store nor the services, so the server
answers them while another thread opens the store; the first call that needs it waits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from memdesk.servers.clients import ClientLog, SettingsWatch
    from memdesk.servers.tools import MemoryTools, Reply
    from memdesk.services.memdesk import Memdesk


class Backend:
    def __init__(self, app: Memdesk) -> None:
        # Loaded with the store, not before the server's first answers.
        from memdesk.servers.clients import ClientLog, SettingsWatch
        from memdesk.servers.tools import MemoryTools

        self.app = app
        self.tools: MemoryTools = MemoryTools(app)
        self.clients: ClientLog = ClientLog(app)
        self.settings: SettingsWatch = SettingsWatch(app)

    def run(self, actor: str, tool: str, *args: Any, **kwargs: Any) -> Reply:
        """Call the tool named ``tool`` as the assistant ``actor``: under the settings the
        file holds now, counted for `memdesk assistant list`, its writes through Review, and
        what a read gave it logged. Every face an assistant calls through (the MCP server,
        an assistant written in Python) calls here."""
        from memdesk.servers.reads import READ_TOOLS, record

        self.settings.refresh()
        self.clients.call(actor)
        with self.app.ctx.acting_as(actor):
            reply: Reply = getattr(self.tools, tool)(*args, **kwargs)
        if tool in READ_TOOLS:
            record(self.app, actor, tool, reply.data)
        return reply


def ready(app: Memdesk) -> Future[Backend]:
    """The backend of a store that is open already."""
    future: Future[Backend] = Future()
    future.set_result(Backend(app))
    return future


def in_background(open_app: Callable[[], Memdesk]) -> Future[Backend]:
    """Start opening the store on a thread of its own; the future holds the backend, or the
    error that kept the store from opening (each call that needs it reports that)."""
    future: Future[Backend] = Future()

    def run() -> None:
        try:
            future.set_result(Backend(open_app()))
        except BaseException as error:  # handed to every call that waits for it
            future.set_exception(error)

    threading.Thread(target=run, name="memdesk-store", daemon=True).start()
    return future
