"""What the assistant tools accept, declared once: the argument types their input schemas are
made from (choices, defaults' types, bounds), the bounds the checks in ``tools`` share, and
how a refusal of arguments reads to a person.

Light on purpose: the server lists its tools before the store layer has loaded.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from memdesk.config import SPEC_BY_KEY
from memdesk.core.namespaces import SESSION_ID_FORM
from memdesk.core.records import CATEGORIES, MAX_DOCUMENT_CHARS, MAX_ENTRY_CHARS, MAX_NAME_CHARS, ROLES
from memdesk.core.timefmt import MOMENT_FORMS

# One recall returns at most what the prompt may be set to recall.
MAX_RECALL_LIMIT = int(SPEC_BY_KEY["memory.recall_limit"].maximum)  # type: ignore[arg-type]
MAX_QUERY_CHARS = 1000
MAX_PROPOSAL_ID_CHARS = 100
MAX_PATH_CHARS = 4096


def _text(description: str | None, max_chars: int) -> Any:
    return Field(description=description, min_length=1, max_length=max_chars)


Key = Annotated[str, _text("stable snake_case name, e.g. user_language_pref", MAX_NAME_CHARS)]
EntryText = Annotated[str, _text("the fact, in a sentence or two", MAX_ENTRY_CHARS)]
Category = Literal[CATEGORIES]
Importance = Annotated[float | None, Field(description="0 to 1 (default 0.5, or as it was)", ge=0, le=1)]
Query = Annotated[str, _text("words to look for", MAX_QUERY_CHARS)]
RecallLimit = Annotated[
    int | None,
    Field(description="how many at most (default: as many as the prompt recalls)", ge=1, le=MAX_RECALL_LIMIT),
]
Moment = Annotated[str | int | None, Field(description=MOMENT_FORMS)]
AppId = Annotated[str, Field(description="app id, e.g. calendar", min_length=1)]
MemoryText = Annotated[str, Field(min_length=1)]  # bounded by the setting memory.app_memory_max_chars
MemoryId = Annotated[int, Field(description="memory id from app_memories", ge=1)]
Namespace = Annotated[str, _text("e.g. user/facts", MAX_NAME_CHARS)]
DocumentText = Annotated[str, _text(None, MAX_DOCUMENT_CHARS)]
SessionId = Annotated[str, _text(SESSION_ID_FORM, MAX_NAME_CHARS)]
Role = Literal[ROLES]
Message = Annotated[str, _text("the user's first message", MAX_ENTRY_CHARS)]
ProposalId = Annotated[str, _text(None, MAX_PROPOSAL_ID_CHARS)]
ProjectFolder = Annotated[
    str,
    _text(
        "the project folder's full path (default: the folder this server was started in, when "
        "that is a project)",
        MAX_PATH_CHARS,
    ),
]

# What a value of the wrong type should have been, by the validator's name for the problem.
_WANTED = {
    "string_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "list_type": "a list",
    "dict_type": "an object",
}


def _name(location: tuple[int | str, ...]) -> str:
    """``("accept", 0)`` reads "accept item 1"; a union's member names are left out."""
    name = str(location[0]) if location else "the arguments"
    items = [f" item {part + 1}" for part in location[1:] if isinstance(part, int)]
    return name + "".join(items)


def _number(value: Any) -> str:
    return f"{value:,g}" if isinstance(value, int | float) else str(value)


def _sentence(name: str, problems: list[dict[str, Any]]) -> str:
    wanted = [_WANTED.get(problem["type"]) for problem in problems]
    if all(wanted):  # a value of the wrong type, for each type the argument may have
        return f"{name} must be {' or '.join(dict.fromkeys(w for w in wanted if w))}"
    problem = next(p for p, w in zip(problems, wanted, strict=True) if not w)
    context = problem.get("ctx") or {}
    match problem["type"]:
        case "missing":
            return f"{name} is required"
        case "literal_error":
            return f"{name} must be {str(context.get('expected', '')).replace(chr(39), '')}"
        case "string_too_short":
            return f"{name} is empty"
        case "string_too_long":
            return f"{name} is longer than {_number(context.get('max_length'))} characters"
        case "greater_than_equal":
            return f"{name} must be at least {_number(context.get('ge'))}"
        case "less_than_equal":
            return f"{name} must be at most {_number(context.get('le'))}"
        case _:
            return f"{name} is not valid"


def readable(error: ValidationError) -> str:
    """Arguments that do not fit a tool's schema, a sentence each and no library's wording:
    "category must be knowledge or timeline"."""
    by_argument: dict[str, list[dict[str, Any]]] = {}
    for problem in error.errors(include_url=False):
        by_argument.setdefault(_name(problem["loc"]), []).append(dict(problem))
    return "; ".join(_sentence(name, problems) for name, problems in by_argument.items()) + "."
