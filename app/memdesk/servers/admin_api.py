"""The local HTTP admin API: app memories (the Memory Feature spec's admin endpoints), working
memory, the composed prompt, recall, session logging and entries.

Every operation calls the same services as the ``memdesk`` command, on a worker thread,
with the calling token's name as the actor in history (``api:NAME``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from memdesk.core.namespaces import SESSION_ID_FORM
from memdesk.core.privacy import OUTSIDE_LIMIT
from memdesk.core.timefmt import format_iso
from memdesk.core.trust import API_PREFIX
from memdesk.errors import (
    BadInputError,
    ConflictError,
    MemdeskError,
    NotAllowedError,
    NotFoundError,
    StoreError,
)
from memdesk.servers.operations import Operation, Param, parse_json_body, parse_text_params
from memdesk.servers.permissions import (
    check_may_add_app_memory,
    check_may_edit_app_memory,
    check_may_forget,
    check_may_write,
)
from memdesk.servers.reads import PromptBody, record
from memdesk.services.apps import MemoryRow, check_app_id
from memdesk.services.entries import check_key
from memdesk.services.projects import check_project_folder, project_for
from memdesk.services.prompt import PromptSpec
from memdesk.services.recall import SCORE_MEANING
from memdesk.services.review import Outcome, Write

if TYPE_CHECKING:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response

    from memdesk.servers.clients import ClientLog
    from memdesk.services.memdesk import Memdesk
    from memdesk.services.working import WorkingState

log = logging.getLogger(__name__)

ACTOR_PREFIX = API_PREFIX
TITLE = "Memdesk local admin API"

# --- the operations -----------------------------------------------------------------------


def _memory_json(memory: MemoryRow) -> dict[str, Any]:
    return {
        "id": memory.id,
        "content": memory.content,
        "createdAt": format_iso(memory.created_at),
        "updatedAt": format_iso(memory.updated_at),
    }


class Held(dict):
    """The body of a write held for review; served with status 202."""


def _held(app: Memdesk, outcome: Outcome) -> Held:
    held = outcome.held
    assert held is not None
    target = app.review.where(held.write)
    # review_id: the first releases' name, kept one more release beside reviewId (deprecated).
    return Held(held=True, reviewId=held.id, review_id=held.id, reasons=list(held.reasons), target=target)


def list_app_memories(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    app_id = check_app_id(args["appId"])
    scope = app.privacy.scope()
    if not scope.may_read_app(app_id):
        raise NotAllowedError(OUTSIDE_LIMIT)
    if scope.hides_app(app_id):  # answered as an app with no memories
        return {"memories": []}
    return {"memories": [_memory_json(m) for m in app.apps.memories(app_id, include_expired=False)]}


def add_app_memory(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    app_id = check_app_id(args["appId"])
    write = Write.add_app_memory(app_id, args["content"], app.settings.memory.app_memory_max_chars)
    check_may_add_app_memory(app, app_id)
    outcome = app.review.submit(write)
    if outcome.held:
        return _held(app, outcome)
    added = outcome.result
    return {
        **_memory_json(app.apps.get(added.memory_id)),
        "merged": added.merged,
        "removed": added.removed,
    }


def _working_json(state: WorkingState) -> dict[str, Any]:
    return {
        "namespace": state.namespace,
        "content": state.content if state.live else "",
        "live": state.live,
        "updatedAt": format_iso(state.updated_at),
        "expiresAt": format_iso(state.expires_at) if state.expires_at else None,
    }


def read_working_memory(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    # A private working memory answers as an empty one, as the prompt leaves it out.
    hidden = app.privacy.scope().hides_doc(app.working.namespace())
    state = None if hidden else app.working.state()
    if state is None:
        return {"content": "", "live": False}
    return {**_working_json(state), **({} if state.live else {"reason": state.reason})}


def set_working_memory(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    check_may_write(app.settings)
    outcome = app.review.submit(Write.set_working(app.working.namespace(), args["content"]))
    return _held(app, outcome) if outcome.held else _working_json(outcome.result)


def purge_app_memories(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    app_id = check_app_id(args["appId"])
    if app.apps.app(app_id) is None:
        raise NotFoundError(f"no app {app_id!r}")
    check_may_forget(app.settings)
    outcome = app.review.submit(Write.purge_app(app_id))
    return _held(app, outcome) if outcome.held else {"success": True, "deletedCount": outcome.result}


def delete_app_memory(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    app_id, memory_id = check_app_id(args["appId"]), args["memoryId"]
    if app.apps.get(memory_id).app_id != app_id:
        raise NotFoundError(f"no memory {memory_id} in app {app_id!r}")
    check_may_forget(app.settings)
    outcome = app.review.submit(Write.delete_app_memory(app_id, memory_id))
    return _held(app, outcome) if outcome.held else {"success": True}


def edit_app_memory(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    app_id, memory_id = check_app_id(args["appId"]), args["memoryId"]
    write = Write.edit_app_memory(
        app_id, memory_id, args["content"], app.settings.memory.app_memory_max_chars
    )
    check_may_edit_app_memory(app, app_id, memory_id)
    outcome = app.review.submit(write)
    return _held(app, outcome) if outcome.held else _memory_json(outcome.result)


def compose_prompt(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    spec = PromptSpec(
        base_file=app.prompt.configured_base_file(),
        session=args.get("session"),
        app=args.get("app"),
        message=args.get("message"),
        now=args.get("at"),
    )
    if args.get("project"):
        folder = check_project_folder(args["project"])
        spec = spec.in_project(project_for(folder, app.settings.files.trusted_projects))
    return PromptBody(app.prompt.compose(spec))


def recall_entries(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    hits = app.recall.entries(
        args.get("query", ""),
        args.get("limit", 5),
        args.get("category"),
        args.get("since"),
        args.get("until"),
    )
    return {
        "results": [
            {"key": hit.ref, "content": hit.text, "category": hit.kind, "score": hit.score} for hit in hits
        ]
    }


def log_message(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    check_may_write(app.settings)
    outcome = app.review.submit(Write.log_message(args["id"], args["role"], args["content"], args.get("app")))
    if outcome.held:
        return _held(app, outcome)
    message = outcome.result
    return {
        "id": message.id,
        "sessionId": message.session_id,
        "role": message.role,
        "createdAt": format_iso(message.created_at),
    }


def save_entry(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    category = args.get("category", "knowledge")
    write = Write.save_entry(args["key"], args["content"], category, args.get("importance"))
    check_may_write(app.settings)
    outcome = app.review.submit(write)
    if outcome.held:
        return _held(app, outcome)
    entry = outcome.result
    return {
        "key": entry.key,
        "content": entry.content,
        "category": entry.category,
        "importance": entry.importance,
        "createdAt": format_iso(entry.created_at),
        "updatedAt": format_iso(entry.updated_at),
    }


def forget_entry(app: Memdesk, args: dict[str, Any]) -> dict[str, Any]:
    key = check_key(args["key"])
    # A private entry answers as one that is not there.
    if app.privacy.scope().hides_entry(key):
        raise NotFoundError(f"no entry {key!r}")
    app.entries.get(key)
    check_may_forget(app.settings)
    outcome = app.review.submit(Write.forget_entry(key))
    return _held(app, outcome) if outcome.held else {"success": True, "key": key}


# --- the route table ----------------------------------------------------------------------

_APP_ID = Param("appId", required=True, description="the app's id, e.g. calendar")
_TIME = {"type": "string", "format": "date-time", "examples": ["2025-10-10T14:30:00Z"]}
_MEMORY = {
    "type": "object",
    "required": ["id", "content", "createdAt", "updatedAt"],
    "properties": {
        "id": {"type": "integer"},
        "content": {"type": "string"},
        "createdAt": _TIME,
        "updatedAt": _TIME,
    },
}
_WORKING = {
    "type": "object",
    "required": ["content", "live"],
    "properties": {
        "namespace": {"type": "string"},
        "content": {"type": "string", "description": "empty when it is not in the prompt"},
        "live": {"type": "boolean", "description": "in the prompt now (false: empty, expired or private)"},
        "updatedAt": _TIME,
        "expiresAt": {**_TIME, "type": ["string", "null"], "description": "null when pinned"},
        "reason": {"type": "string", "description": "why it is not in the prompt"},
    },
}
_SECTION = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "source": {"type": "string"},
        "text": {"type": "string"},
        "tokens": {"type": "integer"},
        "included": {"type": "boolean"},
        "reason": {"type": "string"},
    },
}
_CATEGORY = ("knowledge", "timeline")


def _object(required: list[str], **properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": required, "properties": properties}


OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "GET",
        "/apps/{appId}/memories",
        "List an app's live memories, most recently updated first",
        list_app_memories,
        _object(["memories"], memories={"type": "array", "items": _MEMORY}),
        path_params=(_APP_ID,),
        description="An app with no memories (or none known, or private) gives an empty list; "
        "an app outside the token's read limit is refused (403).",
    ),
    Operation(
        "POST",
        "/apps/{appId}/memories",
        "Add a memory to an app (at the app's cap, one other memory goes or absorbs it)",
        add_app_memory,
        {
            **_MEMORY,
            "required": [*_MEMORY["required"], "merged", "removed"],
            "properties": {
                **_MEMORY["properties"],
                "merged": {"type": "boolean", "description": "an existing memory absorbed the new one"},
                "removed": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "memories moved to Trash, as the app keeps at most memory.app_memory_cap",
                },
            },
        },
        path_params=(_APP_ID,),
        body=(Param("content", required=True, description="the memory, one short note"),),
        status=201,
        errors=(401, 403, 413, 422),
        may_hold=True,
    ),
    Operation(
        "DELETE",
        "/apps/{appId}/memories",
        "Purge all memories of an app (to Trash; `memdesk undo` brings them back)",
        purge_app_memories,
        _object(["success", "deletedCount"], success={"const": True}, deletedCount={"type": "integer"}),
        path_params=(_APP_ID,),
        errors=(401, 403, 404, 422),
        may_hold=True,
    ),
    Operation(
        "DELETE",
        "/apps/{appId}/memories/{memoryId}",
        "Delete one memory of an app (to Trash)",
        delete_app_memory,
        _object(["success"], success={"const": True}),
        path_params=(_APP_ID, Param("memoryId", "integer", required=True)),
        errors=(401, 403, 404, 422),
        may_hold=True,
    ),
    Operation(
        "PUT",
        "/apps/{appId}/memories/{memoryId}",
        "Change the text of one memory of an app (its id and createdAt stay; updatedAt is now)",
        edit_app_memory,
        _MEMORY,
        path_params=(_APP_ID, Param("memoryId", "integer", required=True)),
        body=(Param("content", required=True, description="the memory's whole new text"),),
        errors=(401, 403, 404, 413, 422),
        may_hold=True,
        description="404 for a memory that is not this app's, is in Trash or has expired; "
        "422 for empty text or text over the setting memory.app_memory_max_chars.",
    ),
    Operation(
        "GET",
        "/working",
        "Working memory (recent context that expires) as the prompt carries it",
        read_working_memory,
        _WORKING,
    ),
    Operation(
        "PUT",
        "/working",
        "Replace working memory; it expires after the setting memory.working_memory_ttl_days",
        set_working_memory,
        _WORKING,
        body=(Param("content", required=True, description="the whole new text"),),
        errors=(401, 403, 413, 422),
        may_hold=True,
    ),
    Operation(
        "GET",
        "/prompt",
        "The exact system prompt a session would receive, with its sections (as `memdesk prompt --json`)",
        compose_prompt,
        _object(
            ["now", "text", "tokens", "sections"],
            now=_TIME,
            text={"type": "string"},
            tokens={"type": "integer"},
            sections={"type": "array", "items": _SECTION},
        ),
        query=(
            Param("session", description=f"session id, {SESSION_ID_FORM}"),
            Param("app", description="app id whose memories to include"),
            Param("message", description="the user's first message (drives recall)"),
            Param("at", "date-time", description="compose as of this time (default: now)"),
            Param(
                "project",
                description="the session's working folder: its app unless app is given, and its "
                "MEMORY.md when the project is trusted",
            ),
        ),
    ),
    Operation(
        "GET",
        "/recall",
        "Full-text search of live knowledge and timeline entries, best first",
        recall_entries,
        _object(
            ["results"],
            results={
                "type": "array",
                "items": _object(
                    ["key", "content", "category", "score"],
                    key={"type": "string"},
                    content={"type": "string"},
                    category={"type": "string", "enum": list(_CATEGORY)},
                    score={"type": "number", "description": SCORE_MEANING},
                ),
            },
        ),
        query=(
            Param("query", required=True),
            Param("category", enum=_CATEGORY),
            Param("since", "date-time"),
            Param("until", "date-time"),
            Param("limit", "integer", description="1 to 1000; default 5"),
        ),
    ),
    Operation(
        "POST",
        "/sessions/{id}/messages",
        "Append a message to a session's conversation log",
        log_message,
        _object(
            ["id", "sessionId", "role", "createdAt"],
            id={"type": "integer"},
            sessionId={"type": "string"},
            role={"type": "string"},
            createdAt=_TIME,
        ),
        path_params=(Param("id", required=True, description=f"session id, {SESSION_ID_FORM}"),),
        body=(
            Param("role", required=True, enum=("user", "assistant", "system")),
            Param("content", required=True),
            Param("app", description="the app this session belongs to"),
        ),
        status=201,
        errors=(401, 403, 413, 422),
        may_hold=True,
    ),
    Operation(
        "POST",
        "/entries",
        "Add a knowledge or timeline entry, or update the one with this key",
        save_entry,
        _object(
            ["key", "content", "category", "importance", "createdAt", "updatedAt"],
            key={"type": "string"},
            content={"type": "string"},
            category={"type": "string", "enum": list(_CATEGORY)},
            importance={"type": "number"},
            createdAt=_TIME,
            updatedAt=_TIME,
        ),
        body=(
            Param("key", required=True),
            Param("content", required=True),
            Param("category", enum=_CATEGORY, description="default knowledge"),
            Param("importance", "number", description="0 to 1"),
        ),
        errors=(401, 403, 413, 422),
        may_hold=True,
    ),
    Operation(
        "DELETE",
        "/entries/{key}",
        "Forget an entry (to Trash; `memdesk undo` or a restore from Trash brings it back)",
        forget_entry,
        _object(["success", "key"], success={"const": True}, key={"type": "string"}),
        path_params=(Param("key", required=True, description="the entry's key, e.g. home_city"),),
        errors=(401, 403, 404, 422),
        may_hold=True,
    ),
)

# --- serving ------------------------------------------------------------------------------

_STATUS = (
    (BadInputError, 422),
    (NotFoundError, 404),
    (NotAllowedError, 403),
    (ConflictError, 409),
    (StoreError, 503),
)


def status_of(error: MemdeskError) -> int:
    return next((status for kind, status in _STATUS if isinstance(error, kind)), 500)


def _error(status: int, message: str) -> Response:
    from starlette.responses import JSONResponse

    return JSONResponse({"error": message}, status_code=status)


def _run(app: Memdesk, actor: str, op: Operation, args: dict[str, Any]) -> Any:
    with app.ctx.acting_as(actor):
        return op.handler(app, args)


def _endpoint(app: Memdesk, op: Operation, clients: ClientLog) -> Any:
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import JSONResponse

    from memdesk.servers.security import token_name

    async def endpoint(request: Request) -> Response:
        actor = ACTOR_PREFIX + token_name(request.scope)
        clients.call(actor)  # counted like an MCP client's calls, refused ones too
        try:
            args = parse_text_params(op.path_params, request.path_params, "path")
            args.update(parse_text_params(op.query, request.query_params, "query"))
            if op.body is not None:
                args.update(parse_json_body(op.body, await request.body()))
            if op.method == "GET":
                # Reads take about a millisecond and never wait for a lock (WAL): answering on
                # the event loop saves a thread switch per request.
                result = _run(app, actor, op, args)
                record(app, actor, f"{op.method} {op.path}", result)
            else:
                # A write may wait for another process's write to finish (the busy timeout).
                result = await run_in_threadpool(_run, app, actor, op, args)
        except MemdeskError as error:
            return _error(status_of(error), error.message)
        except Exception:
            log.exception("%s %s failed", op.method, op.path)
            return _error(500, "internal error; see the server's log")
        return JSONResponse(result, status_code=202 if isinstance(result, Held) else op.status)

    endpoint.__name__ = op.operation_id
    return endpoint


def build_app(app: Memdesk, clients: ClientLog, base_url: str = "http://127.0.0.1:8765") -> Starlette:
    """The API as an ASGI application, without the guard (see ``memdesk.servers.security``);
    ``clients`` counts each token's requests."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from memdesk import __version__
    from memdesk.servers.openapi import document

    spec = document(OPERATIONS, TITLE, __version__, base_url)

    async def openapi(_request: Request) -> Response:
        return JSONResponse(spec)

    async def http_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        return _error(exc.status_code, str(exc.detail))

    routes = [Route(op.path, _endpoint(app, op, clients), methods=[op.method]) for op in OPERATIONS]
    routes.append(Route("/openapi.json", openapi, methods=["GET"]))
    return Starlette(routes=routes, exception_handlers={HTTPException: http_error})
