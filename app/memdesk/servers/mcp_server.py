"""The MCP server: Memdesk's memory as tools, resources and a prompt for an assistant.

build_server(app) makes the server; run it over stdio (``server.run("stdio")``) or serve
http_app(server) with any ASGI server. Each call is recorded as the calling client's
(``mcp:<clientInfo.name>``), so history shows which assistant wrote what.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import parse_qs, unquote, urlsplit
from weakref import WeakKeyDictionary

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.server.fastmcp.resources import ResourceTemplate
from mcp.types import (
    CallToolResult,
    Completion,
    CompletionArgument,
    CompletionContext,
    ContentBlock,
    LoggingLevel,
    PromptReference,
    ResourceTemplateReference,
    TextContent,
    ToolAnnotations,
)
from pydantic import Field, ValidationError
from starlette.types import ASGIApp

from memdesk import __version__
from memdesk.core.records import KNOWLEDGE
from memdesk.errors import MemdeskError
from memdesk.servers import tool_results as results
from memdesk.servers.actors import actor_for_client
from memdesk.servers.arguments import (
    AppId,
    Category,
    DocumentText,
    EntryText,
    Importance,
    Key,
    MemoryId,
    MemoryText,
    Message,
    Moment,
    Namespace,
    ProjectFolder,
    ProposalId,
    Query,
    RecallLimit,
    Role,
    SessionId,
    readable,
)
from memdesk.servers.backend import Backend, ready
from memdesk.servers.reads import PromptBody, record

if TYPE_CHECKING:
    from memdesk.core.privacy import ReadScope
    from memdesk.servers.tools import Reply
    from memdesk.services.memdesk import Memdesk
    from memdesk.services.prompt import ComposedPrompt

# Wraps the streamable-HTTP app, e.g. with bearer-token, Host/Origin and body-size checks.
AsgiWrapper = Callable[[ASGIApp], ASGIApp]

INSTRUCTIONS = """\
Memdesk is the user's own memory store, which they can see, edit and undo.
When to read: at the start of a session or a new task, read the `prompt` tool's text (or the
session-start prompt): it is what the user chose to share about themselves. Before asking the
user something they may have told you already, and when a task touches their projects, people
or plans, call `memory_recall` with a few words of the subject.
When to write: when the user states a preference, decision or fact that will matter in a later
conversation, or corrects you, call `memory_store` with a short snake_case key (the same key
later replaces it). Keep one app's notes with `app_memory_add` (change one that no longer
holds with `app_memory_edit`), and what the user is working on now with `working_memory_set`.
Do not store secrets, passing chatter, or what the prompt already says.
The user reviews what assistants write: a write may come back with `held: true`. It then waits
for their approval; do not write it again. Every write is recorded under your name and can be
undone, so write only what you would be glad for them to read."""

STORE_DESC = """\
Save a lasting fact, preference or decision about the user under a stable key; the same key
later replaces it. Store when the user states a preference, corrects you, or tells you something
you will need in a future conversation. Good keys are short snake_case names of the subject, e.g.
`user_language_pref`, `home_city`, `project_memdesk_deadline`. category: `knowledge` for lasting
facts (the default), `timeline` for dated events (these expire after a while). importance: 0 to 1
(default 0.5).
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

APP_EDIT_DESC = """\
Replace the text of one of an app's memories by its id (from app_memories) when it has changed,
e.g. a preference the user revised. The memory keeps its id and creation date; the old text stays
in the user's History, where they can undo the change."""

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
The exact system prompt Memdesk composes for a session: profile, working memory, app memories,
the MEMORY.md of a project the user trusts, and recalled facts, with each section's source and
tokens, and why any section was left out. session: `<channel>:<id>`; app: app id; message: the
user's first message (drives recall); at: compose as of this time (ISO 8601 or Unix seconds);
project: the project folder's full path. Without project, when this server was started in a
project folder (a repository or a trusted project), the prompt is that project's: its app when
no app is given, and its MEMORY.md when the user trusts it; the result's `project` says which
folder, app and trust it was composed for."""

PROPOSE_DESC = """\
Compact a session's new messages: proposes a working-memory summary, timeline entry, new facts
and an app memory, writing nothing. Returns a proposal id and numbered changes to review."""

APPLY_DESC = """\
Write a proposal's changes as one step the user can undo. accept: the change ids to write;
by default every change not marked suspicious, ungrounded or doubted. A suspicious change
left out waits for the user's review."""

# Completions offer at most this many values, as the protocol allows.
MAX_COMPLETIONS = 100
# The levels of logging/setLevel, least severe first.
LOG_LEVELS: tuple[LoggingLevel, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, openWorldHint=False)
WRITES = ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)
DELETES = ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False)
# Replacing a text in place is a destructive update in the protocol's terms; doing it twice
# leaves the same text.
REPLACES = ToolAnnotations(readOnlyHint=False, destructiveHint=True, idempotentHint=True, openWorldHint=False)

PROMPT_TEMPLATE = "memdesk://prompt{?app,session,message}"
DOCUMENT_TEMPLATE = "memdesk://documents/{namespace}"
ENTRY_TEMPLATE = "memdesk://entries/{key}"


def client_actor(ctx: Context) -> str:
    """The calling client's actor name, from the name it gave in the MCP handshake."""
    try:
        params = ctx.session.client_params
    except (AttributeError, ValueError):
        params = None
    return actor_for_client(params.clientInfo.name if params is not None else "")


def prompt_reply(composed: ComposedPrompt) -> Reply:
    """A composed prompt as a reply: its text, and the items it holds for the read log."""
    from memdesk.servers.tools import Reply

    return Reply(composed.text, PromptBody(composed))


def to_result(reply: Reply) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=reply.text)], structuredContent=reply.data)


def error_result(text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], isError=True)


def error_text(error: MemdeskError) -> str:
    return f"{error.message}\n{error.hint}" if error.hint else error.message


class _Failed(Exception):
    """Carries a tool's error result past the SDK, which checks only successful ones."""

    def __init__(self, result: CallToolResult) -> None:
        super().__init__(result.content[0].text if result.content else "")
        self.result = result


class _Server(FastMCP):
    """FastMCP whose tool errors read as sentences: Memdesk's own, and arguments the schema
    refuses (the SDK would answer with a validation report and a link), which also go to the
    client's log through ``log_error``."""

    def __init__(self, log_error: Callable[[Context, str], Awaitable[None]], **settings: Any) -> None:
        super().__init__("memdesk", **settings)
        self._log_error = log_error

    async def call_tool(
        self, name: str, arguments: dict[str, Any]
    ) -> Sequence[ContentBlock] | dict[str, Any]:
        try:
            return await super().call_tool(name, arguments)
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, _Failed):
                return cause.result  # type: ignore[return-value]  # the low-level server sends it as is
            if isinstance(cause, ValidationError):
                text = f"{name}: {readable(cause)}"
                await self._log_error(self.get_context(), text)
                return error_result(text)  # type: ignore[return-value]
            raise


class PromptTemplate(ResourceTemplate):
    """``memdesk://prompt?app=…&session=…&message=…``: every query parameter optional."""

    def matches(self, uri: str) -> dict[str, Any] | None:
        parts = urlsplit(uri)
        if (parts.scheme, parts.netloc, parts.path.rstrip("/")) != ("memdesk", "prompt", ""):
            return None
        query = parse_qs(parts.query)
        return {name: values[-1] for name, values in query.items() if name in ("app", "session", "message")}


class RestOfUriTemplate(ResourceTemplate):
    """A template ending in its one parameter, which takes the rest of the URI, slashes
    included (``memdesk://documents/user/profile``) and percent-escapes decoded."""

    def matches(self, uri: str) -> dict[str, Any] | None:
        start, name = self.uri_template[:-1].split("{")
        rest = uri.removeprefix(start)
        return {name: unquote(rest)} if rest and rest != uri else None


class MemdeskMCP:
    """The server and what its calls run on, which may still be opening (see ``backend``)."""

    def __init__(
        self,
        backend: Future[Backend],
        host: str = "127.0.0.1",
        port: int = 8000,
        started_in: Path | None = None,
    ) -> None:
        self._backend = backend
        # Over stdio the client starts the server in its project's folder; the prompt tool
        # uses it when no project is given.
        self.started_in = started_in
        self.server = _Server(
            self.log_error, instructions=INSTRUCTIONS, host=host, port=port, log_level="WARNING"
        )
        # The level each client asked for with logging/setLevel; none asked: no log messages.
        self.log_levels: WeakKeyDictionary[Any, LoggingLevel] = WeakKeyDictionary()
        # FastMCP 1.x has no parameter for the version the handshake reports; its server has.
        self.server._mcp_server.version = __version__
        self._add_tools()
        self._add_resources()
        self._add_prompt()
        self._add_completions()
        self._add_logging()

    @property
    def backend(self) -> Backend:
        """The open store's tools, waiting for it when it is still opening; raises what kept
        it from opening."""
        backend = self._backend.result()
        backend.settings.refresh()
        return backend

    def finish(self) -> None:
        """Write the client log's counts (once the store has opened, if it opens)."""
        if self._backend.exception() is None:
            self._backend.result().clients.flush()

    async def call(self, ctx: Context, tool: str, *args: Any) -> CallToolResult:
        """Run the tool named ``tool`` as the calling client; expected failures become tool
        errors, and a held write a warning in the client's log (when it asked for one)."""
        try:
            reply = self._backend.result().run(client_actor(ctx), tool, *args)
        except MemdeskError as error:
            await self.log_error(ctx, error_text(error))
            raise _Failed(error_result(error_text(error))) from None
        if reply.data.get("held"):
            await self.log(ctx, "warning", reply.text)
        return to_result(reply)

    async def log_error(self, ctx: Context, message: str) -> None:
        await self.log(ctx, "error", message)

    async def log(self, ctx: Context, level: LoggingLevel, message: str) -> None:
        """A log notification to the calling client, at or above the level it set."""
        wanted = self.log_levels.get(ctx.session)
        if wanted is not None and LOG_LEVELS.index(level) >= LOG_LEVELS.index(wanted):
            await ctx.session.send_log_message(level, message, logger="memdesk")

    def read(self, what: str, fn: Callable[[Backend], Reply], content: bool = False) -> str:
        """A resource or prompt, read as the calling client, within what it may read: the
        reply's text (or its ``content``), logged as a read of what it holds."""
        backend = self.backend
        actor = client_actor(self.server.get_context())
        with backend.app.ctx.acting_as(actor):
            reply = fn(backend)
        record(backend.app, actor, what, reply.data)
        return str(reply.data.get("content", "")) if content else reply.text

    # --- tools ---------------------------------------------------------------------------

    def _add_tools(self) -> None:
        tool = self.server.tool

        @tool(description=STORE_DESC, annotations=WRITES)
        async def memory_store(
            key: Key,
            content: EntryText,
            ctx: Context,
            category: Category = KNOWLEDGE,
            importance: Importance = None,
        ) -> Annotated[CallToolResult, results.StoreResult]:
            return await self.call(ctx, "memory_store", key, content, category, importance)

        @tool(description=RECALL_DESC, annotations=READ_ONLY)
        async def memory_recall(
            query: Query,
            ctx: Context,
            category: Category | None = None,
            since: Moment = None,
            until: Moment = None,
            limit: RecallLimit = None,
        ) -> Annotated[CallToolResult, results.RecallResult]:
            return await self.call(ctx, "memory_recall", query, category, since, until, limit)

        @tool(description=FORGET_DESC, annotations=DELETES)
        async def memory_forget(key: Key, ctx: Context) -> Annotated[CallToolResult, results.ForgetResult]:
            return await self.call(ctx, "memory_forget", key)

        @tool(description=APP_MEMORIES_DESC, annotations=READ_ONLY)
        async def app_memories(
            app: AppId, ctx: Context
        ) -> Annotated[CallToolResult, results.AppMemoriesResult]:
            return await self.call(ctx, "app_memories", app)

        @tool(description=APP_ADD_DESC, annotations=WRITES)
        async def app_memory_add(
            app: AppId, content: MemoryText, ctx: Context
        ) -> Annotated[CallToolResult, results.AppMemoryAddResult]:
            return await self.call(ctx, "app_memory_add", app, content)

        @tool(description=APP_EDIT_DESC, annotations=REPLACES)
        async def app_memory_edit(
            app: AppId, id: MemoryId, content: MemoryText, ctx: Context
        ) -> Annotated[CallToolResult, results.AppMemoryEditResult]:
            return await self.call(ctx, "app_memory_edit", app, id, content)

        @tool(description=APP_DELETE_DESC, annotations=DELETES)
        async def app_memory_delete(
            app: AppId, id: MemoryId, ctx: Context
        ) -> Annotated[CallToolResult, results.AppMemoryDeleteResult]:
            return await self.call(ctx, "app_memory_delete", app, id)

        @tool(description=WORKING_DESC, annotations=READ_ONLY)
        async def working_memory(ctx: Context) -> Annotated[CallToolResult, results.WorkingResult]:
            return await self.call(ctx, "working_memory")

        @tool(description=WORKING_SET_DESC, annotations=WRITES)
        async def working_memory_set(
            content: DocumentText, ctx: Context
        ) -> Annotated[CallToolResult, results.WorkingSetResult]:
            return await self.call(ctx, "working_memory_set", content)

        @tool(description=DOC_READ_DESC, annotations=READ_ONLY)
        async def document_read(
            namespace: Namespace, ctx: Context
        ) -> Annotated[CallToolResult, results.DocumentResult]:
            return await self.call(ctx, "document_read", namespace)

        @tool(description=DOC_APPEND_DESC, annotations=WRITES)
        async def document_append(
            namespace: Namespace, text: DocumentText, ctx: Context
        ) -> Annotated[CallToolResult, results.AppendResult]:
            return await self.call(ctx, "document_append", namespace, text)

        @tool(description=SESSION_LOG_DESC, annotations=WRITES)
        async def session_log(
            session: SessionId,
            content: DocumentText,
            ctx: Context,
            role: Annotated[Role, Field(description="who said it")] = "user",
            app: Annotated[str | None, Field(description="app id")] = None,
        ) -> Annotated[CallToolResult, results.SessionLogResult]:
            return await self.call(ctx, "session_log", session, role, content, app)

        @tool(description=PROMPT_DESC, annotations=READ_ONLY)
        async def prompt(
            ctx: Context,
            session: SessionId | None = None,
            app: Annotated[str | None, Field(description="app id")] = None,
            message: Message | None = None,
            at: Moment = None,
            project: ProjectFolder | None = None,
        ) -> Annotated[CallToolResult, results.PromptResult]:
            return await self.call(ctx, "prompt", session, app, message, at, project, self.started_in)

        @tool(description=PROPOSE_DESC, annotations=READ_ONLY)
        async def compaction_propose(
            session: SessionId, ctx: Context
        ) -> Annotated[CallToolResult, results.ProposalResult]:
            return await self.call(ctx, "compaction_propose", session)

        @tool(description=APPLY_DESC, annotations=WRITES)
        async def compaction_apply(
            proposal_id: ProposalId,
            ctx: Context,
            accept: Annotated[list[int] | None, Field(description="change ids to write")] = None,
        ) -> Annotated[CallToolResult, results.ApplyResult]:
            return await self.call(ctx, "compaction_apply", proposal_id, accept)

    # --- resources and the prompt --------------------------------------------------------

    def _template(self, kind: type[ResourceTemplate], uri: str, fn: Callable[..., str], **about: str) -> None:
        # FastMCP 1.x matches only path parameters that hold no slash; these templates are
        # matched by their own class and go in beside the ones its decorator makes.
        self.server._resource_manager._templates[uri] = kind(uri_template=uri, fn=fn, parameters={}, **about)

    def _add_resources(self) -> None:
        resource = self.server.resource

        def composed(app: str | None = None, session: str | None = None, message: str | None = None) -> str:
            return self.read(
                "resource:prompt", lambda b: prompt_reply(b.tools.compose(session, app, message))
            )

        def document(namespace: str) -> str:
            return self.read("resource:document", lambda b: b.tools.document_read(namespace), content=True)

        def entry(key: str) -> str:
            return self.read("resource:entry", lambda b: b.tools.entry(key))

        self._template(
            PromptTemplate,
            PROMPT_TEMPLATE,
            composed,
            name="prompt",
            title="Composed system prompt",
            description="The exact system prompt for an app, session and first message (all optional).",
            mime_type="text/plain",
        )
        self._template(
            RestOfUriTemplate,
            DOCUMENT_TEMPLATE,
            document,
            name="document",
            title="Memory document",
            description="A memory document by namespace: user/profile, user/facts, global, sessions/<id>…",
            mime_type="text/markdown",
        )
        self._template(
            RestOfUriTemplate,
            ENTRY_TEMPLATE,
            entry,
            name="entry",
            title="Stored fact",
            description="A live knowledge or timeline entry by its key.",
            mime_type="text/plain",
        )

        @resource("memdesk://working", name="working-memory", mime_type="text/markdown")
        def working() -> str:
            """The user's working memory while it is live ("" once expired)."""
            return self.read("resource:working-memory", lambda b: b.tools.working_memory(), content=True)

        @resource("memdesk://documents/user/profile", name="profile", mime_type="text/markdown")
        def profile() -> str:
            """Who the user is: the profile document."""
            return self.read(
                "resource:profile", lambda b: b.tools.document_read(self._profile_namespace(b)), content=True
            )

        @resource("memdesk://apps/{app}/memories", name="app-memories", mime_type="text/plain")
        def app_memories(app: str) -> str:
            """An app's live memories, one per line, most recent first."""
            return self.read("resource:app-memories", lambda b: b.tools.app_memories(app))

    @staticmethod
    def _profile_namespace(backend: Backend) -> str:
        return f"{backend.app.settings.memory.user_namespace or 'user'}/profile"

    def _add_prompt(self) -> None:
        @self.server.prompt(
            name="session-start",
            description="The system prompt to start a session with: profile, working memory, app memories "
            "and what recall finds for the first message.",
        )
        def session_start(app: str | None = None, message: str | None = None) -> str:
            return self.read(
                "prompt:session-start", lambda b: prompt_reply(b.tools.compose(None, app, message))
            )

    # --- completions and logging ----------------------------------------------------------

    def _add_completions(self) -> None:
        # What each argument of the prompt and of the resource templates is filled with, read
        # from the store by prefix; other arguments (a message) are free text.
        sources: dict[str, Callable[[Backend], Callable[[str, int], list[str]]]] = {
            "app": lambda b: b.app.apps.ids_starting,
            "session": lambda b: b.app.sessions.ids_starting,
            "namespace": lambda b: b.app.documents.namespaces_starting,
            "key": lambda b: b.app.entries.keys_starting,
        }

        @self.server.completion()
        async def complete(
            ref: PromptReference | ResourceTemplateReference,
            argument: CompletionArgument,
            context: CompletionContext | None,
        ) -> Completion | None:
            source = sources.get(argument.name)
            if source is None:
                return None
            backend = self.backend
            with backend.app.ctx.acting_as(client_actor(self.server.get_context())):
                scope = backend.app.privacy.scope()
            hidden = _hidden_names(scope, argument.name)
            # Enough more to fill the list when every hidden name matches.
            found = source(backend)(argument.value, MAX_COMPLETIONS + 1 + len(hidden))
            found = [value for value in found if value not in hidden]
            if argument.name == "app" and scope.apps is not None:
                found = [value for value in found if value in scope.apps]
            more = len(found) > MAX_COMPLETIONS
            # The total is known only when every match fits; counting the rest would read them all.
            total = None if more else len(found)
            return Completion(values=found[:MAX_COMPLETIONS], total=total, hasMore=more)

    def _add_logging(self) -> None:
        lowlevel = self.server._mcp_server

        @lowlevel.set_logging_level()
        async def set_level(level: LoggingLevel) -> None:
            self.log_levels[lowlevel.request_context.session] = level


def _hidden_names(scope: ReadScope, argument: str) -> frozenset[str]:
    """The private names a completion of ``argument`` must not offer."""
    private = {"app": scope.private_apps, "namespace": scope.private_docs, "key": scope.private_entries}
    return private.get(argument, frozenset())


def build_server(app: Memdesk, host: str = "127.0.0.1", port: int = 8000) -> MemdeskMCP:
    """The server on a store that is open already."""
    return MemdeskMCP(ready(app), host, port)


def http_app(mcp: MemdeskMCP, wrap: AsgiWrapper | None = None) -> ASGIApp:
    """The streamable-HTTP app (endpoint ``/mcp``), wrapped by ``wrap`` when given.

    ``wrap`` is where request checks belong (bearer token, Host and Origin, body size); it
    must pass the ASGI lifespan through, which starts the MCP session manager.
    """
    asgi: ASGIApp = mcp.server.streamable_http_app()
    return wrap(asgi) if wrap is not None else asgi
