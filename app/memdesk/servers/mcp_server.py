"""The MCP server: Memdesk's memory as tools, resources and a prompt for an assistant.

build_server(app) makes the server; run it over stdio (``server.run("stdio")``) or serve
http_app(server) with any ASGI server. Each call is recorded as the calling client's
(``mcp:<clientInfo.name>``), so history shows which assistant wrote what.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import parse_qs, urlsplit

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.resources import ResourceTemplate
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field
from starlette.types import ASGIApp

from memdesk import __version__
from memdesk.errors import MemdeskError
from memdesk.servers.actors import actor_for_client
from memdesk.servers.clients import ClientLog, SettingsWatch
from memdesk.servers.tools import MemoryTools, Reply

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# Wraps the streamable-HTTP app, e.g. with bearer-token, Host/Origin and body-size checks.
AsgiWrapper = Callable[[ASGIApp], ASGIApp]

INSTRUCTIONS = """\
Memdesk is the user's own memory store, which they can see, edit and undo. Use it to remember
what will matter in later conversations, and to look things up before asking the user again.
Read the `prompt` tool's text (or the session-start prompt) at the start of a session: it is
what the user has chosen to share about themselves. Every write is recorded under your name
and the user can undo it, so write only what you would be glad for them to read."""

STORE_DESC = """\
Save a lasting fact, preference or decision about the user under a stable key; the same key
later replaces it. Store when the user states a preference, corrects you, or tells you something
you will need in a future conversation. Good keys are short snake_case names of the subject, e.g.
`user_language_pref`, `home_city`, `project_memdesk_deadline`. category: `knowledge` for lasting
facts, `timeline` for dated events (these expire after a while). importance: 0 to 1 (default 0.5).
Do not store secrets (passwords, keys, card or ID numbers), one-off chatter, or what the user's
profile already says."""

RECALL_DESC = """\
Search the stored facts and events by words, best match first. Use it before asking the user
something they may have told you already. Optional: category (`knowledge` or `timeline`),
since/until (ISO 8601 like 2026-05-01 or Unix seconds) and limit (1-50)."""

FORGET_DESC = """\
Delete a stored fact by its key when the user asks you to forget it or it is wrong or outdated.
It goes to the user's Trash, where they can restore it."""

APP_MEMORIES_DESC = """\
The memories kept for one app (e.g. `calendar`), most recent first, with their ids. Each app has
a small cap (10 by default), so read them before adding."""

APP_ADD_DESC = """\
Add one short memory (a sentence, at most 200 characters by default) about this conversation
for later ones in the same app. At the cap, Memdesk decides which existing memory to drop or
merge, as compaction does; the reply says what happened."""

APP_DELETE_DESC = """\
Delete one of an app's memories by its id (from app_memories) when it is wrong or outdated.
It goes to the user's Trash."""

WORKING_DESC = """\
The user's working memory: a short summary of what they are working on now, while it is live
(it expires some days after it was written)."""

WORKING_SET_DESC = """\
Replace the working memory with a short summary of what the user is working on now and what is
pending. It replaces the whole text, is cut to its token budget and expires after some days;
keep lasting facts in memory_store instead."""

DOC_READ_DESC = """\
Read a memory document: `user/profile` (who the user is), `user/patterns`, `user/facts`,
`global`, or `sessions/<channel:id>`."""

DOC_APPEND_DESC = """\
Append text (a line or a few bullets) to a memory document such as `user/facts` or `user/profile`.
Prefer memory_store for single facts; never append secrets. Working memory has its own tool."""

SESSION_LOG_DESC = """\
Log one message of the conversation (role `user`, `assistant` or `system`) to session
`<channel>:<id>`, e.g. `telegram:42`, so compaction can summarise it later. app: the app id the
session belongs to, if any."""

PROMPT_DESC = """\
The exact system prompt Memdesk composes for a session: profile, working memory, app memories
and recalled facts, with each section's source and tokens, and why any section was left out.
session: `<channel>:<id>`; app: app id; message: the user's first message (drives recall);
at: compose as of this time (ISO 8601 or Unix seconds)."""

PROPOSE_DESC = """\
Compact a session's new messages: proposes a working-memory summary, timeline entry, new facts
and an app memory, writing nothing. Returns a proposal id and numbered changes to review."""

APPLY_DESC = """\
Write a proposal's changes as one step the user can undo. accept: the change ids to write;
by default every change not marked suspicious."""

# Argument types the tools share; the description becomes part of each tool's schema.
AppId = Annotated[str, Field(description="app id")]

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)
WRITES = ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)
DELETES = ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False)

_PROMPT_URI = re.compile(r"^memdesk://prompt/?(\?.*)?$")


def client_actor(ctx: Context) -> str:
    """The calling client's actor name, from the name it gave in the MCP handshake."""
    try:
        params = ctx.session.client_params
    except (AttributeError, ValueError):
        params = None
    return actor_for_client(params.clientInfo.name if params is not None else "")


def to_result(reply: Reply) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=reply.text)], structuredContent=reply.data)


def error_result(error: MemdeskError) -> CallToolResult:
    text = f"{error.message}\n{error.hint}" if error.hint else error.message
    return CallToolResult(content=[TextContent(type="text", text=text)], isError=True)


class PromptTemplate(ResourceTemplate):
    """``memdesk://prompt?app=…&session=…&message=…``: every query parameter optional."""

    def matches(self, uri: str) -> dict[str, Any] | None:
        if not _PROMPT_URI.match(uri):
            return None
        query = parse_qs(urlsplit(uri).query)
        return {name: values[-1] for name, values in query.items() if name in ("app", "session", "message")}


class MemdeskMCP:
    """The server and what it keeps between calls: the tools, the client log, the settings."""

    def __init__(self, app: Memdesk, host: str = "127.0.0.1", port: int = 8000) -> None:
        self.app = app
        self.tools = MemoryTools(app)
        self.clients = ClientLog(app)
        self.settings = SettingsWatch(app)
        self.server = FastMCP("memdesk", instructions=INSTRUCTIONS, host=host, port=port, log_level="WARNING")
        # FastMCP 1.x has no parameter for the version the handshake reports; its server has.
        self.server._mcp_server.version = __version__
        self._add_tools()
        self._add_resources()
        self._add_prompt()

    def call(self, ctx: Context, tool: Callable[..., Reply], *args: Any) -> CallToolResult:
        """Run one tool as the calling client; expected failures become tool errors."""
        actor = client_actor(ctx)
        try:
            self.settings.refresh()
            self.clients.call(actor)
            with self.app.ctx.acting_as(actor):
                return to_result(tool(*args))
        except MemdeskError as error:
            return error_result(error)

    def read(self, fn: Callable[..., str], *args: Any) -> str:
        self.settings.refresh()
        return fn(*args)

    # --- tools ---------------------------------------------------------------------------

    def _add_tools(self) -> None:
        tools, tool = self.tools, self.server.tool

        @tool(description=STORE_DESC, annotations=WRITES)
        def memory_store(
            key: Annotated[str, Field(description="stable snake_case name, e.g. user_language_pref")],
            content: Annotated[str, Field(description="the fact, in a sentence or two")],
            category: Annotated[str, Field(description="knowledge or timeline")],
            ctx: Context,
            importance: Annotated[float | None, Field(description="0 to 1")] = None,
        ) -> CallToolResult:
            return self.call(ctx, tools.memory_store, key, content, category, importance)

        @tool(description=RECALL_DESC, annotations=READ_ONLY)
        def memory_recall(
            query: Annotated[str, Field(description="words to look for")],
            ctx: Context,
            category: Annotated[str | None, Field(description="knowledge or timeline")] = None,
            since: Annotated[str | int | None, Field(description="ISO 8601 or Unix seconds")] = None,
            until: Annotated[str | int | None, Field(description="ISO 8601 or Unix seconds")] = None,
            limit: Annotated[int | None, Field(description="1 to 50")] = None,
        ) -> CallToolResult:
            return self.call(ctx, tools.memory_recall, query, category, since, until, limit)

        @tool(description=FORGET_DESC, annotations=DELETES)
        def memory_forget(key: str, ctx: Context) -> CallToolResult:
            return self.call(ctx, tools.memory_forget, key)

        @tool(description=APP_MEMORIES_DESC, annotations=READ_ONLY)
        def app_memories(app: AppId, ctx: Context) -> CallToolResult:
            return self.call(ctx, tools.app_memories, app)

        @tool(description=APP_ADD_DESC, annotations=WRITES)
        def app_memory_add(
            app: AppId, content: str, ctx: Context
        ) -> CallToolResult:
            return self.call(ctx, tools.app_memory_add, app, content)

        @tool(description=APP_DELETE_DESC, annotations=DELETES)
        def app_memory_delete(
            app: AppId,
            id: Annotated[int, Field(description="memory id from app_memories")],
            ctx: Context,
        ) -> CallToolResult:
            return self.call(ctx, tools.app_memory_delete, app, id)

        @tool(description=WORKING_DESC, annotations=READ_ONLY)
        def working_memory(ctx: Context) -> CallToolResult:
            return self.call(ctx, tools.working_memory)

        @tool(description=WORKING_SET_DESC, annotations=WRITES)
        def working_memory_set(content: str, ctx: Context) -> CallToolResult:
            return self.call(ctx, tools.working_memory_set, content)

        @tool(description=DOC_READ_DESC, annotations=READ_ONLY)
        def document_read(
            namespace: Annotated[str, Field(description="e.g. user/profile")], ctx: Context
        ) -> CallToolResult:
            return self.call(ctx, tools.document_read, namespace)

        @tool(description=DOC_APPEND_DESC, annotations=WRITES)
        def document_append(
            namespace: Annotated[str, Field(description="e.g. user/facts")], text: str, ctx: Context
        ) -> CallToolResult:
            return self.call(ctx, tools.document_append, namespace, text)

        @tool(description=SESSION_LOG_DESC, annotations=WRITES)
        def session_log(
            session: Annotated[str, Field(description="<channel>:<id>, e.g. telegram:42")],
            role: Annotated[str, Field(description="user, assistant or system")],
            content: str,
            ctx: Context,
            app: Annotated[str | None, Field(description="app id")] = None,
        ) -> CallToolResult:
            return self.call(ctx, tools.session_log, session, role, content, app)

        @tool(description=PROMPT_DESC, annotations=READ_ONLY)
        def prompt(
            ctx: Context,
            session: str | None = None,
            app: str | None = None,
            message: str | None = None,
            at: Annotated[str | int | None, Field(description="ISO 8601 or Unix seconds")] = None,
        ) -> CallToolResult:
            return self.call(ctx, tools.prompt, session, app, message, at)

        @tool(description=PROPOSE_DESC, annotations=READ_ONLY)
        def compaction_propose(
            session: Annotated[str, Field(description="<channel>:<id>")], ctx: Context
        ) -> CallToolResult:
            return self.call(ctx, tools.compaction_propose, session)

        @tool(description=APPLY_DESC, annotations=WRITES)
        def compaction_apply(
            proposal_id: str,
            ctx: Context,
            accept: Annotated[list[int] | None, Field(description="change ids to write")] = None,
        ) -> CallToolResult:
            return self.call(ctx, tools.compaction_apply, proposal_id, accept)

    # --- resources and the prompt --------------------------------------------------------

    def _add_resources(self) -> None:
        tools, resource = self.tools, self.server.resource

        def composed(app: str | None = None, session: str | None = None, message: str | None = None) -> str:
            return self.read(lambda: tools.compose(session, app, message).text)

        # FastMCP 1.x matches only path parameters ({name}), so this template, whose parameters
        # are all optional query parameters, goes in beside the ones its decorator makes.
        self.server._resource_manager._templates["memdesk://prompt{?app,session,message}"] = PromptTemplate(
            uri_template="memdesk://prompt{?app,session,message}",
            name="prompt",
            title="Composed system prompt",
            description="The exact system prompt for an app, session and first message (all optional).",
            mime_type="text/plain",
            fn=composed,
            parameters={},
        )

        @resource("memdesk://working", name="working-memory", mime_type="text/markdown")
        def working() -> str:
            """The user's working memory while it is live ("" once expired)."""
            return self.read(lambda: tools.working_memory().data.get("content", ""))

        @resource("memdesk://documents/user/profile", name="profile", mime_type="text/markdown")
        def profile() -> str:
            """Who the user is: the profile document."""
            return self.read(lambda: tools.document_read(self._profile_namespace()).data["content"])

        @resource("memdesk://apps/{app}/memories", name="app-memories", mime_type="text/plain")
        def app_memories(app: str) -> str:
            """An app's live memories, one per line, most recent first."""
            return self.read(lambda: tools.app_memories(app).text)

    def _profile_namespace(self) -> str:
        return f"{self.app.settings.memory.user_namespace or 'user'}/profile"

    def _add_prompt(self) -> None:
        @self.server.prompt(
            name="session-start",
            description="The system prompt to start a session with: profile, working memory, app memories "
            "and what recall finds for the first message.",
        )
        def session_start(app: str | None = None, message: str | None = None) -> str:
            return self.read(lambda: self.tools.compose(None, app, message).text)


def build_server(app: Memdesk, host: str = "127.0.0.1", port: int = 8000) -> MemdeskMCP:
    return MemdeskMCP(app, host, port)


def http_app(mcp: MemdeskMCP, wrap: AsgiWrapper | None = None) -> ASGIApp:
    """The streamable-HTTP app (endpoint ``/mcp``), wrapped by ``wrap`` when given.

    ``wrap`` is where request checks belong (bearer token, Host and Origin, body size); it
    must pass the ASGI lifespan through, which starts the MCP session manager.
    """
    asgi: ASGIApp = mcp.server.streamable_http_app()
    return wrap(asgi) if wrap is not None else asgi
