"""A route table for an HTTP API: each operation declares its inputs once.

The same declaration parses a request (path and query parameters, JSON body fields) and
describes the operation in the OpenAPI document, so the two cannot disagree. Parsing
checks presence and JSON types only; what a value means is checked by the services.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memdesk.core.timefmt import MOMENT_FORMS, parse_moment
from memdesk.errors import BadInputError

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

# kind -> (JSON schema, Python types accepted in a JSON body)
KINDS: dict[str, tuple[dict[str, Any], tuple[type, ...]]] = {
    "string": ({"type": "string"}, (str,)),
    "integer": ({"type": "integer"}, (int,)),
    "number": ({"type": "number"}, (int, float)),
    "date-time": (
        {
            "oneOf": [{"type": "string", "format": "date-time"}, {"type": "number"}],
            "description": MOMENT_FORMS,
        },
        (str, int, float),
    ),
}


@dataclass(frozen=True)
class Param:
    """A path or query parameter, or a field of the JSON body."""

    name: str
    kind: str = "string"
    required: bool = False
    description: str = ""
    enum: tuple[str, ...] = ()

    def schema(self) -> dict[str, Any]:
        schema = dict(KINDS[self.kind][0])
        if self.enum:
            schema["enum"] = list(self.enum)
        return schema


@dataclass(frozen=True)
class Operation:
    method: str
    path: str  # OpenAPI and Starlette both write parameters as {name}
    summary: str
    handler: Callable[[Memdesk, dict[str, Any]], Any]
    response: dict[str, Any]  # JSON schema of the success body
    path_params: tuple[Param, ...] = ()
    query: tuple[Param, ...] = ()
    body: tuple[Param, ...] | None = None  # None: no request body
    status: int = 200
    errors: tuple[int, ...] = (401, 403, 422)
    description: str = ""
    may_hold: bool = False  # an assistant's write that its trust level holds is answered 202

    @property
    def operation_id(self) -> str:
        return self.handler.__name__.strip("_")


def _from_text(param: Param, raw: str) -> Any:
    if param.kind == "integer":
        if not raw.lstrip("-").isdigit():
            raise BadInputError(f"{param.name} must be a whole number, not {raw!r}")
        return int(raw)
    if param.kind == "date-time":
        return parse_moment(raw, param.name)
    return raw


def parse_text_params(params: tuple[Param, ...], given: Mapping[str, str], where: str) -> dict[str, Any]:
    unknown = sorted(set(given) - {param.name for param in params})
    if unknown:
        raise BadInputError(f"unknown {where} parameter {unknown[0]!r}")
    values: dict[str, Any] = {}
    for param in params:
        # An empty value (``?at=``, as a form or a URL template leaves it) means not given.
        if given.get(param.name, ""):
            values[param.name] = _from_text(param, given[param.name])
        elif param.required:
            raise BadInputError(f"{where} parameter {param.name!r} is required")
    return values


def parse_json_body(fields: tuple[Param, ...], raw: bytes) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"the request body is not valid UTF-8 (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise BadInputError("the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadInputError("the request body must be a JSON object")
    unknown = sorted(set(data) - {f.name for f in fields})
    if unknown:
        raise BadInputError(f"unknown field {unknown[0]!r}")
    values: dict[str, Any] = {}
    for f in fields:
        value = data.get(f.name)
        if value is None:
            if f.required:
                raise BadInputError(f"field {f.name!r} is required")
            continue
        accepted = KINDS[f.kind][1]
        if isinstance(value, bool) or not isinstance(value, accepted):
            raise BadInputError(f"field {f.name!r} must be {f.kind}, not {type(value).__name__}")
        values[f.name] = parse_moment(value, f.name) if f.kind == "date-time" else value
    return values
