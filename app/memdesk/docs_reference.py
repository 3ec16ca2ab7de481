"""The user guide's reference pages, written from the code itself so they cannot drift from it.

Every ``memdesk`` command and option comes from the argument parser, every MCP tool, resource
and prompt from the server's own lists, every setting from ``config.SPECS``, the admin API
from its OpenAPI document and the Python reference from the classes' signatures and
docstrings. ``pages()`` returns the Markdown; ``on_files`` is the MkDocs hook (``hooks:`` in
mkdocs.yml) that adds them to the site at build time, so no generated page is
kept in the repository: docs/reference/ holds only a stub at each one's path, which says where
the page is, for Markdown read where the guide is not built (on GitHub). The Python page's stub
is its written introduction (installing, who acts), and the generated reference follows it.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import dataclasses
import html
import importlib
import inspect
import json
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from memdesk import __version__
from memdesk.cli.main import build_parser
from memdesk.config import SPECS, SettingSpec

CLI_PAGE = "reference/cli.md"
MCP_PAGE = "reference/mcp.md"
SETTINGS_PAGE = "reference/settings.md"
ADMIN_API_PAGE = "reference/admin-api.md"
SCHEMA_PAGE = "reference/schema.md"
PYTHON_PAGE = "reference/python.md"
# Pages whose stub is their written introduction: the generated part follows it.
INTRODUCED_PAGES = frozenset({PYTHON_PAGE})
GENERATED_NOTE = "*This page is generated from Memdesk's code when the guide is built.*"


def _cell(text: object) -> str:
    """Text safe inside a Markdown table cell. Outside `code spans` a ``<`` or ``&`` is escaped,
    or Markdown would pass "<data dir>" through as an HTML tag the browser hides."""
    parts = str(text).replace("|", "\\|").replace("\n", " ").split("`")
    # Even parts are prose, odd ones the insides of code spans, which Markdown shows as written.
    return "`".join(
        html.escape(part, quote=False) if index % 2 == 0 else part for index, part in enumerate(parts)
    )


def _code_cell(text: object) -> str:
    """Text for inside a `code span` in a table cell: shown as written, only ``|`` escaped."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _code(text: object) -> str:
    return f"`{text}`" if str(text) else ""


# --- the command line -------------------------------------------------------------------------


def commands(
    parser: argparse.ArgumentParser | None = None, words: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    """Every command and sub-command: its words after ``memdesk``, its parser and its one-line help."""
    parser = parser or build_parser()
    for group in parser._actions:
        if not isinstance(group, argparse._SubParsersAction):
            continue
        helps = {action.dest: action.help or "" for action in group._choices_actions}
        for name, sub in group.choices.items():
            path = (*words, name)
            yield path, sub, helps.get(name, "")
            yield from commands(sub, path)


def _option_rows(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction | argparse._VersionAction):
            continue
        if action.option_strings:
            name = ", ".join(action.option_strings)
            if action.nargs != 0:
                name += f" {action.metavar or action.dest.upper()}"
        else:
            name = action.metavar or action.dest.upper()
        what = action.help or ""
        if not action.option_strings and not what:
            what = "optional" if action.nargs in ("?", "*") else "required"
        if action.choices:
            what += ("; " if what else "") + "one of " + ", ".join(f"`{c}`" for c in action.choices)
        if action.default not in (None, False, [], argparse.SUPPRESS) and action.nargs != 0:
            what += f" (default `{action.default}`)"
        rows.append(f"| `{_code_cell(name)}` | {_cell(what)} |")
    return rows


def cli_page() -> str:
    parser = build_parser()
    lines = [
        "# The `memdesk` command",
        "",
        GENERATED_NOTE,
        "",
        "`memdesk` with no command opens the window. Global options come before the command. "
        "Exit codes: 0 success; 1 the operation failed (the message says why, and nothing was "
        "half written); 2 bad usage or bad input.",
        "",
        "```text",
        parser.format_usage().strip(),
        "```",
        "",
        "| global option | what it does |",
        "| --- | --- |",
        *_option_rows(parser),
        "| `--version` | print the version |",
        "",
    ]
    for words, sub, summary in commands(parser):
        lines += [f"{'#' * min(len(words) + 1, 4)} `memdesk {' '.join(words)}`", ""]
        description = sub.description or summary
        if description:
            lines += [description, ""]
        lines += ["```text", sub.format_usage().strip().removeprefix("usage: "), "```", ""]
        rows = _option_rows(sub)
        if rows:
            lines += ["| argument | what it does |", "| --- | --- |", *rows, ""]
    return "\n".join(lines)


# --- MCP ----------------------------------------------------------------------------------------


def mcp_lists() -> dict[str, list[Any]]:
    """The server's tools, resources, resource templates and prompts, as it lists them to a
    client. Listing needs no store, so the server is built on one that never opens."""
    from memdesk.servers.mcp_server import MemdeskMCP

    server = MemdeskMCP(Future()).server

    async def lists() -> dict[str, list[Any]]:
        return {
            "tools": await server.list_tools(),
            "resources": await server.list_resources(),
            "templates": await server.list_resource_templates(),
            "prompts": await server.list_prompts(),
        }

    return asyncio.run(lists())


def _schema_rows(schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema.get("properties", {}).items():
        shown = {k: v for k, v in prop.items() if k not in ("title", "description")}
        rows.append(
            f"| `{name}` | {'yes' if name in required else 'no'} | `{_code_cell(json.dumps(shown))}` "
            f"| {_cell(prop.get('description', ''))} |"
        )
    return rows


def mcp_page() -> str:
    found = mcp_lists()
    lines = [
        "# MCP tools, resources and prompts",
        "",
        GENERATED_NOTE,
        "",
        "What `memdesk mcp` offers an assistant, as the server lists it. Each tool's input "
        "schema is the JSON Schema the server sends; an argument that does not fit it is "
        "answered with a tool error in a sentence, and nothing is written.",
        "",
        "## Tools",
        "",
    ]
    for tool in found["tools"]:
        lines += [f"### `{tool.name}`", "", tool.description or "", ""]
        hints = tool.annotations
        if hints is not None:
            kind = "reads only" if hints.readOnlyHint else "deletes" if hints.destructiveHint else "writes"
            lines += [f"It {kind}.", ""]
        rows = _schema_rows(tool.inputSchema)
        if rows:
            lines += ["| argument | required | schema | about |", "| --- | --- | --- | --- |", *rows, ""]
        else:
            lines += ["It takes no arguments.", ""]
        lines += [
            '<details markdown="1"><summary>Input schema</summary>',
            "",
            "```json",
            json.dumps(tool.inputSchema, indent=2),
            "```",
            "",
            "</details>",
            "",
        ]
    lines += ["## Resources", "", "| URI | name | type | what |", "| --- | --- | --- | --- |"]
    for resource in [*found["resources"], *found["templates"]]:
        uri = getattr(resource, "uriTemplate", None) or resource.uri
        lines.append(
            f"| `{uri}` | {resource.name} | {resource.mimeType or ''} | {_cell(resource.description or '')} |"
        )
    lines += ["", "## Prompts", ""]
    for prompt in found["prompts"]:
        arguments = ", ".join(
            f"`{a.name}`" + ("" if a.required else " (optional)") for a in prompt.arguments or []
        )
        lines += [f"### `{prompt.name}`", "", prompt.description or "", "", f"Arguments: {arguments}.", ""]
    return "\n".join(lines)


# --- settings -----------------------------------------------------------------------------------


def _default(spec: SettingSpec) -> str:
    if spec.kind == "bool":
        return _code(str(spec.default).lower())
    if isinstance(spec.default, list):
        return _code(", ".join(spec.default)) if spec.default else "(none)"
    return _code(spec.default) if spec.default != "" else "(empty)"


def settings_page() -> str:
    lines = [
        "# Settings",
        "",
        GENERATED_NOTE,
        "",
        "Settings live in `config.toml` (on Linux `~/.config/memdesk/config.toml`; on other systems "
        "see [Settings](../index.md#settings); `--config FILE` for another). **File → Settings…** "
        "in the window edits the same file, a tab per section. Each key is `section.name`: "
        "`memory.recall_limit` is `recall_limit` under `[memory]`. A value out of range or of the "
        "wrong type is reported with its key and the allowed range, and the default is used.",
        "",
        "| key | what | type and range | default |",
        "| --- | --- | --- | --- |",
    ]
    for spec in SPECS:
        lines.append(
            f"| `{spec.key}` | {_cell(spec.label)} | {spec.kind}: {_cell(spec.describe_range())} "
            f"| {_default(spec)} |"
        )
    return "\n".join([*lines, ""])


# --- the admin API ------------------------------------------------------------------------------


def openapi_document() -> dict[str, Any]:
    from memdesk.servers.admin_api import OPERATIONS, TITLE
    from memdesk.servers.openapi import document

    return document(OPERATIONS, TITLE, __version__, "http://127.0.0.1:8765")


def _kind(prop: dict[str, Any]) -> str:
    """A JSON schema's type in words: "string (date-time)", "array of integer", "`true`"."""
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    if "oneOf" in prop:
        return " or ".join(_kind(choice) for choice in prop["oneOf"])
    kind = prop.get("type", "any")
    if kind == "array":
        return f"array of {_kind(prop.get('items', {}))}"
    text = " or ".join(kind) if isinstance(kind, list) else str(kind)
    if "format" in prop:
        text += f" ({prop['format']})"
    if "enum" in prop:
        text += ": " + ", ".join(f"`{value}`" for value in prop["enum"])
    return text


def _answer_rows(schema: dict[str, Any], prefix: str = "") -> list[str]:
    """A field table's rows for an answer's schema, nested fields as ``memories[].id``."""
    required = set(schema.get("required", []))
    rows = []
    for name, prop in schema.get("properties", {}).items():
        path = f"{prefix}{name}"
        rows.append(
            f"| `{path}` | {'yes' if name in required else 'no'} | {_cell(_kind(prop))} "
            f"| {_cell(prop.get('description', ''))} |"
        )
        if prop.get("type") == "object":
            rows += _answer_rows(prop, f"{path}.")
        elif prop.get("type") == "array":
            rows += _answer_rows(prop.get("items", {}), f"{path}[].")
    return rows


def _answer(status: str, answer: dict[str, Any], components: dict[str, Any]) -> list[str]:
    """A success answer: its fields, then its whole schema."""
    schema = answer.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return []
    if "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[1]]
    lines = [
        f"Answer {status} (JSON): {_cell(answer['description'])}.",
        "",
        "| field | always | type | about |",
        "| --- | --- | --- | --- |",
        *_answer_rows(schema),
        "",
        f'<details markdown="1"><summary>Schema of the {status} answer</summary>',
        "",
        "```json",
        json.dumps(schema, indent=2),
        "```",
        "",
        "</details>",
        "",
    ]
    return lines


def admin_api_page() -> str:
    from memdesk.servers.openapi import ERROR_MEANINGS

    spec = openapi_document()
    components = spec["components"]["schemas"]
    lines = [
        "# The admin API (`memdesk serve`)",
        "",
        GENERATED_NOTE,
        "",
        spec["info"]["description"],
        "",
        f"The server listens on `{spec['servers'][0]['url']}` by default. Every request carries "
        "`Authorization: Bearer TOKEN`. `GET /openapi.json` returns the whole OpenAPI "
        f"{spec['openapi']} document this page is made from. Each operation below lists its "
        "parameters, the statuses it answers with, and the fields of each success answer.",
        "",
        "## Errors",
        "",
        "Every answer that is not a success has the same body, a sentence that says what was wrong "
        "and that nothing was written:",
        "",
        "```json",
        json.dumps(components["Error"], indent=2),
        "```",
        "",
        "| status | meaning |",
        "| --- | --- |",
        *(f"| {status} | {_cell(meaning)} |" for status, meaning in sorted(ERROR_MEANINGS.items())),
        "",
    ]
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            lines += [f"## `{method.upper()} {path}`", "", op["summary"], ""]
            if op.get("description"):
                lines += [op["description"], ""]
            params = op.get("parameters", [])
            if params:
                lines += ["| parameter | in | required | schema | about |", "| --- | --- | --- | --- | --- |"]
                lines += [
                    f"| `{p['name']}` | {p['in']} | {'yes' if p['required'] else 'no'} "
                    f"| `{_code_cell(json.dumps(p['schema']))}` | {_cell(p.get('description', ''))} |"
                    for p in params
                ]
                lines.append("")
            body = op.get("requestBody")
            if body:
                schema = body["content"]["application/json"]["schema"]
                lines += [
                    "Request body (JSON):",
                    "",
                    "| field | required | schema | about |",
                    "| --- | --- | --- | --- |",
                    *_schema_rows(schema),
                    "",
                ]
            lines += ["| status | meaning |", "| --- | --- |"]
            lines += [
                f"| {status} | {_cell(answer['description'])} |" for status, answer in op["responses"].items()
            ]
            lines.append("")
            for status, answer in op["responses"].items():
                if status.startswith("2"):
                    lines += _answer(status, answer, components)
    return "\n".join(lines)


# --- the store's schema -----------------------------------------------------------------------


def migrations() -> list[tuple[str, str]]:
    """Each schema upgrade's file name and the first line of its docstring, oldest first."""
    versions = Path(__file__).resolve().parent / "store" / "migrations" / "versions"
    found = []
    for script in sorted(versions.glob("[0-9]*.py")):
        doc = ast.get_docstring(ast.parse(script.read_text(encoding="utf-8"))) or ""
        found.append((script.stem, " ".join(doc.split("\n\n")[0].split()).replace("``", "`")))
    return found


def schema_page() -> str:
    from memdesk.store.models import Base

    lines = [
        "# The store's schema",
        "",
        GENERATED_NOTE,
        "",
        "The tables of a Memdesk store, from its SQLAlchemy models, and the upgrades that made the "
        "schema what it is. See [The store and its migrations](../how/store.md) for how upgrades run.",
        "",
        "## Upgrades",
        "",
        "| revision | what it changes |",
        "| --- | --- |",
        *(f"| `{name}` | {_cell(about)} |" for name, about in migrations()),
        "",
        "## Tables",
        "",
    ]
    for table in Base.metadata.sorted_tables:
        lines += [f"### `{table.name}`", "", "| column | type | null | key |", "| --- | --- | --- | --- |"]
        for column in table.columns:
            key = (
                "primary"
                if column.primary_key
                else ", ".join(f"→ `{fk.column.table.name}.{fk.column.name}`" for fk in column.foreign_keys)
            )
            null = "yes" if column.nullable else "no"
            lines.append(f"| `{column.name}` | {column.type} | {null} | {key} |")
        indexes = sorted(index.name for index in table.indexes if index.name)
        if indexes:
            lines += ["", "Indexes: " + ", ".join(f"`{name}`" for name in indexes) + "."]
        lines.append("")
    return "\n".join(lines)


# --- Python ------------------------------------------------------------------------------------

# What the Python reference documents, in this order: how the reader reaches it, the class as
# ``module:Class``, and its methods (none: the fields of a dataclass, or every public method).
# The person's services are reached as attributes of ``Memdesk`` (``app.entries``).
PYTHON_API: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Assistant", "memdesk.assistant:Assistant", ()),
    ("Reply", "memdesk.servers.tools:Reply", ()),
    ("Memdesk", "memdesk.services.memdesk:Memdesk", ("open", "close", "now", "is_empty")),
    ("app.entries", "memdesk.services.entries:Entries", ("upsert", "add", "get", "list", "delete_key")),
    ("app.working", "memdesk.services.working:WorkingMemory", ("state", "write", "extend", "pin", "expire")),
    ("app.apps", "memdesk.services.apps:AppMemories", ("add", "memories", "get", "edit", "delete", "purge")),
    ("app.recall", "memdesk.services.recall:Recall", ("entries",)),
    ("app.prompt", "memdesk.services.prompt:Composer", ("compose",)),
    ("PromptSpec", "memdesk.services.prompt:PromptSpec", ()),
    (
        "app.expiry",
        "memdesk.services.expiry:Expiry",
        ("items", "upcoming", "extend", "pin", "expire", "delete", "restore"),
    ),
    ("app.history", "memdesk.services.history:History", ("list", "changes", "undo", "redo")),
    ("app.review", "memdesk.services.review:Review", ("list", "approve", "reject")),
    # What the methods above return.
    ("EntryRow", "memdesk.core.entry_rows:EntryRow", ()),
    ("WorkingState", "memdesk.services.working:WorkingState", ()),
    ("MemoryRow", "memdesk.services.apps:MemoryRow", ()),
    ("AddResult", "memdesk.services.apps:AddResult", ()),
    ("Hit", "memdesk.services.recall:Hit", ()),
    ("ComposedPrompt", "memdesk.services.prompt:ComposedPrompt", ()),
    ("StepInfo", "memdesk.services.history:StepInfo", ()),
)


def python_class(path: str) -> type:
    module, _, name = path.partition(":")
    found: type = getattr(importlib.import_module(module), name)
    return found


def _docstring(owner: str, thing: object) -> str:
    """The docstring, which the reference needs: a method without one fails the build."""
    doc = thing.__doc__  # not getdoc's: a class would show its base class's
    # A dataclass without a docstring is given its signature as one, which says nothing.
    if not doc or doc.startswith(f"{getattr(thing, '__name__', '')}("):
        raise ValueError(f"{owner} has no docstring to say what it does")
    return inspect.cleandoc(doc)


def _default_text(value: object) -> str:
    # A function's repr holds its address, which changes from build to build.
    name = getattr(value, "__name__", None) if callable(value) else None
    return name or repr(value)


def _field_default(field: dataclasses.Field[Any]) -> str:
    if field.default is not dataclasses.MISSING:
        return _code(repr(field.default))
    if field.default_factory is not dataclasses.MISSING:
        return _code(repr(field.default_factory()))
    return "required"


def signature(name: str, function: Any) -> str:
    """``name(argument: type = default, …) -> type`` as the code declares it."""
    declared = inspect.signature(function)
    parts = []
    for parameter in declared.parameters.values():
        if parameter.name in ("self", "cls"):
            continue
        text = parameter.name
        if parameter.annotation is not inspect.Parameter.empty:
            text += f": {parameter.annotation}"
        if parameter.default is not inspect.Parameter.empty:
            text += f" = {_default_text(parameter.default)}"
        parts.append(text)
    returned = declared.return_annotation
    tail = "" if returned is inspect.Signature.empty else f" -> {returned}"
    return f"{name}({', '.join(parts)}){tail}"


def public_methods(cls: type, listed: tuple[str, ...]) -> list[str]:
    """The methods named, or every public one the class defines itself."""
    if listed:
        return list(listed)
    return [
        name
        for name, value in vars(cls).items()
        if not name.startswith("_")
        and callable(value.__func__ if isinstance(value, classmethod | staticmethod) else value)
    ]


def error_classes() -> list[type]:
    """``memdesk.errors``' exceptions and the records they carry, in the order the module
    defines them (each after the class it extends)."""
    from memdesk import errors

    return [
        value
        for value in vars(errors).values()
        if isinstance(value, type)
        and value.__module__ == errors.__name__
        and (issubclass(value, errors.MemdeskError) or dataclasses.is_dataclass(value))
    ]


def errors_section() -> list[str]:
    from memdesk.errors import MemdeskError

    lines = [
        "## Errors",
        "",
        "Every failure Memdesk expects raises one of these classes from `memdesk.errors`, and "
        "nothing was written when one is raised. Each has `message` (what happened) and `hint` "
        "(what to do about it, or `None`); `str(error)` is both. A call may raise a subclass of "
        "one listed here; catch the class listed (`MemdeskError` catches them all). The exit "
        "code is what the `memdesk` command exits with.",
        "",
        "| class | extends | exit code | raised when |",
        "| --- | --- | --- | --- |",
    ]
    records = []
    for cls in error_classes():
        if not issubclass(cls, MemdeskError):
            records.append(cls)
            continue
        parent = cls.__mro__[1].__name__
        about = " ".join(_docstring(f"memdesk.errors:{cls.__name__}", cls).split())
        lines.append(f"| `{cls.__name__}` | `{parent}` | {cls.exit_code} | {_cell(about)} |")
    lines.append("")
    for cls in records:
        lines += [f"### `{cls.__name__}`", "", _docstring(f"memdesk.errors:{cls.__name__}", cls), ""]
        lines += ["| field | type | default |", "| --- | --- | --- |"]
        lines += [
            f"| `{field.name}` | `{_code_cell(field.type)}` | {_field_default(field)} |"
            for field in dataclasses.fields(cls)
        ]
        lines.append("")
    return lines


def python_page() -> str:
    lines = [
        "# Using Memdesk from Python",
        "",
        "## Reference",
        "",
        "*This reference is generated from Memdesk's code when the guide is built.*",
        "",
    ]
    for reached, path, listed in PYTHON_API:
        cls = python_class(path)
        module, _, name = path.partition(":")
        lines += [f"### `{reached}`", "", f"`{name}` from `{module}`.", "", _docstring(path, cls), ""]
        if dataclasses.is_dataclass(cls) and not listed:
            lines += ["| field | type | default |", "| --- | --- | --- |"]
            for field in dataclasses.fields(cls):
                lines.append(f"| `{field.name}` | `{_code_cell(field.type)}` | {_field_default(field)} |")
            lines.append("")
            continue
        for method in public_methods(cls, listed):
            function = getattr(cls, method)
            lines += [
                f"#### `{reached}.{method}`",
                "",
                "```python",
                signature(method, function),
                "```",
                "",
                _docstring(f"{path}.{method}", function),
                "",
            ]
    return "\n".join([*lines, *errors_section()])


# --- the site -----------------------------------------------------------------------------------


def pages() -> dict[str, str]:
    """Each generated page's path under docs/, and its Markdown."""
    return {
        CLI_PAGE: cli_page(),
        MCP_PAGE: mcp_page(),
        SETTINGS_PAGE: settings_page(),
        ADMIN_API_PAGE: admin_api_page(),
        SCHEMA_PAGE: schema_page(),
        PYTHON_PAGE: python_page(),
    }


def with_introduction(stub: str, page: str) -> str:
    """The stub's written introduction, then the generated page below its title. The stub's
    own section under the generated page's first heading (which, read on GitHub, says where
    the reference is) gives way to the generated one."""
    body = page.split("\n", 1)[1].lstrip()
    heading = body.split("\n", 1)[0]
    introduction = stub.split(f"\n{heading}\n", 1)[0]
    return introduction.rstrip() + "\n\n" + body


def on_files(files: Any, config: Any) -> Any:
    """MkDocs hook: put the generated pages in the site being built, each in place of the stub
    kept at its path (a link to it from Markdown read on GitHub finds the stub)."""
    from mkdocs.structure.files import File

    for path, text in pages().items():
        stub = files.get_file_from_path(path)
        content = text
        if stub is not None:
            if path in INTRODUCED_PAGES:
                content = with_introduction(stub.content_string, text)
            files.remove(stub)
        files.append(File.generated(config, path, content=content))
    return files
