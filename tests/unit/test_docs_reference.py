"""The guide's reference pages against the code: every command and option, MCP tool, resource,
prompt, setting, admin API operation and table appears, as the code defines it."""

from __future__ import annotations

import argparse
import dataclasses
import re
from functools import cached_property
from pathlib import Path

import pytest

from memdesk import docs_reference
from memdesk.assistant import Assistant
from memdesk.cli.main import COMMANDS, build_parser
from memdesk.config import SPECS
from memdesk.servers.admin_api import OPERATIONS
from memdesk.servers.tools import MemoryTools
from memdesk.services.memdesk import Memdesk
from memdesk.store.models import Base


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return docs_reference.pages()


def section(page: str, heading: str) -> str:
    """The text under ``heading`` up to the next heading of any level."""
    start = page.index(f"{heading}\n")
    following = re.search(r"^#{1,4} ", page[start + len(heading) + 1 :], re.M)
    return page[start : start + len(heading) + 1 + (following.start() if following else len(page))]


def subcommands(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*words, name), sub
                yield from subcommands(sub, (*words, name))


def test_every_command_and_sub_command_has_its_section_with_every_option(pages):
    cli = pages[docs_reference.CLI_PAGE]
    found = list(subcommands(build_parser()))
    top = {words[0] for words, _ in found}
    assert top == {name for names in COMMANDS.values() for name in names}
    assert ("db", "copy") in [words for words, _ in found]
    for words, parser in found:
        heading = f"{'#' * min(len(words) + 1, 4)} `memdesk {' '.join(words)}`"
        text = section(cli, heading)
        for action in parser._actions:
            for option in action.option_strings:
                if option not in ("-h", "--help"):
                    assert f"`{option}" in text, f"{option} of memdesk {' '.join(words)}"
            for choice in action.choices or ():
                if not isinstance(action, argparse._SubParsersAction):
                    assert f"`{choice}`" in text, f"{choice} of memdesk {' '.join(words)}"


def test_the_global_options_are_listed(pages):
    cli = pages[docs_reference.CLI_PAGE]
    for option in ("--db PATH", "--data-dir DIR", "--config FILE", "--now ISO", "--version"):
        assert f"| `{option}` |" in cli


def test_every_mcp_tool_has_its_arguments_and_schema(pages):
    mcp = pages[docs_reference.MCP_PAGE]
    tools = docs_reference.mcp_lists()["tools"]
    assert {"memory_store", "memory_recall", "compaction_apply", "prompt"} <= {tool.name for tool in tools}
    for tool in tools:
        text = section(mcp, f"### `{tool.name}`")
        for name, prop in tool.inputSchema.get("properties", {}).items():
            assert f"| `{name}` | {'yes' if name in tool.inputSchema.get('required', []) else 'no'} |" in text
            for bound in ("maxLength", "maximum", "enum"):
                if bound in prop:
                    assert f'"{bound}"' in text, f"{tool.name}.{name} {bound}"


def test_every_resource_template_and_prompt_is_listed(pages):
    mcp = pages[docs_reference.MCP_PAGE]
    listed = docs_reference.mcp_lists()
    uris = [str(r.uri) for r in listed["resources"]] + [t.uriTemplate for t in listed["templates"]]
    assert "memdesk://working" in uris and "memdesk://apps/{app}/memories" in uris
    for uri in uris:
        assert f"| `{uri}` |" in mcp
    for prompt in listed["prompts"]:
        assert f"### `{prompt.name}`" in mcp


def test_every_setting_has_its_type_range_and_default(pages):
    settings = pages[docs_reference.SETTINGS_PAGE]
    for spec in SPECS:
        [row] = [line for line in settings.splitlines() if line.startswith(f"| `{spec.key}` |")]
        assert spec.kind in row and spec.describe_range() in row
        if spec.kind == "int":
            assert row.endswith(f"| `{spec.default}` |")
    assert "| `memory.working_memory_ttl_days` | Working memory lifetime (days) |" in settings
    assert settings.count("\n| `") == len(SPECS)


def test_every_admin_api_operation_is_described(pages):
    api = pages[docs_reference.ADMIN_API_PAGE]
    for op in OPERATIONS:
        text = section(api, f"## `{op.method} {op.path}`")
        assert op.summary in text
        for param in (*op.path_params, *op.query, *(op.body or ())):
            assert f"| `{param.name}` |" in text
    assert "## `GET /openapi.json`" in api


def test_every_table_and_upgrade_of_the_store_is_listed(pages):
    schema = pages[docs_reference.SCHEMA_PAGE]
    for table in Base.metadata.tables.values():
        text = section(schema, f"### `{table.name}`")
        for column in table.columns:
            assert f"| `{column.name}` |" in text
    assert "| `0001_first` |" in schema and "| `0011_memory_health` |" in schema


def test_setting_labels_and_ranges_read_as_written(pages):
    settings = pages[docs_reference.SETTINGS_PAGE]
    # "<data dir>" would pass through Markdown as an HTML tag the browser hides.
    assert "(empty: &lt;data dir&gt;/memory)" in settings and "<data dir>" not in settings
    # Whole numbers as config.toml takes them, never 2e+06.
    assert "a number from 1000 to 2000000" in settings and "a number from 256 to 1048576" in settings
    assert "e+" not in settings
    # Inside code spans nothing is escaped: Markdown shows those as written.
    assert docs_reference._cell("`<name>` or <name>") == "`<name>` or &lt;name&gt;"


def test_each_generated_page_has_a_stub_where_links_read_on_github_find_it(pages):
    docs = Path(__file__).resolve().parents[2] / "docs"
    for path, text in pages.items():
        stub = (docs / path).read_text()
        assert stub.splitlines()[0] == text.splitlines()[0], path  # the same title
        assert "written from Memdesk's code when the guide is built" in stub
        assert f"site/{path.replace('.md', '.html')}" in stub, path


def test_the_python_reference_gives_each_documented_method_its_signature(pages):
    python = pages[docs_reference.PYTHON_PAGE]
    for reached, path, listed in docs_reference.PYTHON_API:
        cls = docs_reference.python_class(path)
        assert f"### `{reached}`" in python
        if reached.startswith("app."):  # reached as the attribute Memdesk names it
            assert isinstance(getattr(Memdesk, reached.removeprefix("app.")), cached_property), reached
        if dataclasses.is_dataclass(cls) and not listed:
            for field in dataclasses.fields(cls):
                assert f"| `{field.name}` |" in section(python, f"### `{reached}`")
            continue
        for method in docs_reference.public_methods(cls, listed):
            assert docs_reference.signature(method, getattr(cls, method)) in python, (path, method)
    assert "write(content: str, ttl_days: int | None = None" in python
    assert "undo(step_id: int | None = None) -> StepInfo" in python
    assert "actor: str = 'user'" in python and "= utcnow" in python  # no address of a function


def test_the_python_assistant_offers_every_mcp_tool(pages):
    tools = {tool.name for tool in docs_reference.mcp_lists()["tools"]}
    offered = set(docs_reference.public_methods(Assistant, ())) - {"open", "close"}
    assert tools <= offered and offered <= set(dir(MemoryTools))


def test_a_documented_method_without_a_docstring_fails_the_build():
    class Bare:
        def method(self) -> None:
            pass

    with pytest.raises(ValueError, match=r"Bare\.method has no docstring"):
        docs_reference._docstring("Bare.method", Bare.method)


def test_the_python_page_is_its_written_introduction_then_the_reference():
    stub = "# Python\n\nInstall it.\n\n## Reference\n\nRead on GitHub, this page ends here.\n"
    page = "# Python\n\n## Reference\n\n### `Assistant`\n"
    assert (
        docs_reference.with_introduction(stub, page)
        == "# Python\n\nInstall it.\n\n## Reference\n\n### `Assistant`\n"
    )


def test_the_python_page_names_each_method_that_is_no_mcp_tool(pages):
    tools = {tool.name for tool in docs_reference.mcp_lists()["tools"]}
    extra = set(docs_reference.public_methods(Assistant, ())) - {"open", "close"} - tools
    introduction = (Path(__file__).resolve().parents[2] / "docs" / docs_reference.PYTHON_PAGE).read_text()
    said = re.search(r"`Assistant` offers every tool `memdesk mcp` offers.*?\n\n", introduction, re.S)
    assert said is not None
    named = set(re.findall(r"`(\w+)\(", said.group()))
    assert named == extra == {"entry"}


def test_the_python_page_lists_every_error_with_what_it_extends(pages):
    import memdesk.errors
    from memdesk.errors import MemdeskError

    errors = section(pages[docs_reference.PYTHON_PAGE], "## Errors")
    classes = [
        c for c in vars(memdesk.errors).values() if isinstance(c, type) and issubclass(c, MemdeskError)
    ]
    assert {"ModelUnreachableError", "NotAllowedError", "ArgumentError", "ChangedSinceHeldError"} <= {
        c.__name__ for c in classes
    }
    for cls in classes:
        assert f"| `{cls.__name__}` | `{cls.__mro__[1].__name__}` | {cls.exit_code} |" in errors
    assert "### `UnseenChange`" in pages[docs_reference.PYTHON_PAGE]


def test_every_success_answer_of_the_admin_api_lists_its_fields(pages):
    api = pages[docs_reference.ADMIN_API_PAGE]
    for op in OPERATIONS:
        text = api[api.index(f"## `{op.method} {op.path}`") :]
        text = text[: text.find("\n## ", 1) if "\n## " in text[1:] else len(text)]
        assert f"Answer {op.status} (JSON)" in text, op.path
        for name in op.response.get("properties", {}):
            assert f"| `{name}` |" in text, (op.path, name)
        if op.may_hold:
            assert "Answer 202 (JSON)" in text and "| `reviewId` | yes |" in text
    recall = api[api.index("## `GET /recall`") :]
    assert "| `results[].score` | yes | number | how well it matches the query: higher is better" in recall
    errors = section(api, "## Errors")
    assert '"error"' in errors and "| 405 |" in errors
