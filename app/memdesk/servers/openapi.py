"""An OpenAPI 3.1 document built from a route table, so it describes exactly what is served."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from memdesk.servers.operations import Operation, Param

ERROR_MEANINGS = {
    401: "No token, or a token that is unknown or revoked",
    403: "The Host or Origin header is not this machine's, this token may only read, the settings "
    "do not let assistants write (or delete), or the app is outside what it may read",
    404: "No such item",
    405: "The route exists, but not with this method",
    409: "The store changed in a way that makes the operation unsafe",
    413: "The request body is too large",
    422: "A parameter or field is missing, of the wrong type or out of range",
    503: "The database is busy or cannot be used",
}
_ERROR_REF = {"$ref": "#/components/schemas/Error"}
HELD_SCHEMA = {
    "type": "object",
    "required": ["held", "reviewId", "review_id", "reasons", "target"],
    "properties": {
        "held": {"const": True},
        "reviewId": {"type": "integer", "description": "its number in the person's Review list"},
        "review_id": {
            "type": "integer",
            "deprecated": True,
            "description": "the same number under its first name: read reviewId, this one goes "
            "in a later release",
        },
        "reasons": {"type": "array", "items": {"type": "string"}},
        "target": {"type": "string", "description": "where the write would go"},
    },
}


def _parameter(param: Param, where: str) -> dict[str, Any]:
    found: dict[str, Any] = {"name": param.name, "in": where, "required": param.required or where == "path"}
    if param.description:
        found["description"] = param.description
    found["schema"] = param.schema()
    return found


def _body(fields: tuple[Param, ...]) -> dict[str, Any]:
    properties = {}
    for f in fields:
        properties[f.name] = {**f.schema(), **({"description": f.description} if f.description else {})}
    schema = {
        "type": "object",
        "required": [f.name for f in fields if f.required],
        "properties": properties,
        "additionalProperties": False,
    }
    return {"required": True, "content": {"application/json": {"schema": schema}}}


def _json(description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _operation(op: Operation) -> dict[str, Any]:
    found: dict[str, Any] = {"operationId": op.operation_id, "summary": op.summary}
    if op.description:
        found["description"] = op.description
    parameters = [_parameter(p, "path") for p in op.path_params] + [_parameter(p, "query") for p in op.query]
    if parameters:
        found["parameters"] = parameters
    if op.body is not None:
        found["requestBody"] = _body(op.body)
    responses = {str(op.status): _json("Success", op.response)}
    if op.may_hold:
        responses["202"] = _json(
            "Held: the write waits for the person's review and is not in memory yet; do not retry",
            HELD_SCHEMA,
        )
    for status in sorted({*op.errors, 401, 403, 503}):
        responses[str(status)] = _json(ERROR_MEANINGS[status], _ERROR_REF)
    found["responses"] = responses
    return found


def document(operations: Iterable[Operation], title: str, version: str, server_url: str) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for op in operations:
        paths.setdefault(op.path, {})[op.method.lower()] = _operation(op)
    paths["/openapi.json"] = {
        "get": {
            "operationId": "openapi",
            "summary": "This document",
            "responses": {
                "200": {"description": "The OpenAPI document", "content": {"application/json": {}}},
                "401": _json(ERROR_MEANINGS[401], _ERROR_REF),
                "403": _json(ERROR_MEANINGS[403], _ERROR_REF),
            },
        }
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": title,
            "version": version,
            "description": "Served on this machine only by `memdesk serve`; every request needs a token "
            "from `memdesk token create NAME`.",
        },
        "servers": [{"url": server_url}],
        "security": [{"bearer": []}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {"error": {"type": "string"}},
                }
            },
        },
        "paths": paths,
    }
