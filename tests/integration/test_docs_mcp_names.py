"""The MCP tools, arguments and resources the guide names are the ones the server lists.

The reference page is written from the code; the guides name tools by hand ("`memory_store`
with a `key` and its `content`", "`compaction_apply accept=[1, 2, 4]`"), and those names are
checked here against `tools/list`, as a client sees it.
"""

from __future__ import annotations

import re
from pathlib import Path

import anyio
import pytest
from tests.support.mcp_client import connect

from memdesk.config import SPECS

DOCS = Path(__file__).resolve().parents[2] / "docs"
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# A tool called in a span: `memory_recall(since=…, until=…)` or `compaction_apply accept=[1, 2, 4]`.
CALL = re.compile(r"^(?P<tool>[a-z_]+)(?:\((?P<parens>[^)]*)\)| (?P<spaced>\w+=.*))$")
ARGUMENT = re.compile(r"(\w+)=")
# A tool's arguments named in prose: "`memory_store` with a `key` and its `content`".
WITH = re.compile(r"`(?P<tool>[a-z_]+)` with (?P<clause>[^.;:()]*)")
IDENTIFIER = re.compile(r"[a-z_]+")
NAME = re.compile(r"[a-z]+(?:_[a-z]+)+")  # snake_case, as every tool's name is
# Names in the guide that look like tools and are not: a conflict's kind, a Codex record.
NOT_TOOLS = {"app_memory", "session_meta"}


@pytest.fixture(scope="module")
def listed(tmp_path_factory) -> tuple[dict[str, set[str]], set[str]]:
    """Each tool with its arguments, and each resource's address or template."""

    async def lists() -> tuple[dict[str, set[str]], set[str]]:
        async with connect(tmp_path_factory.mktemp("data")) as session:
            tools = (await session.list_tools()).tools
            resources = (await session.list_resources()).resources
            templates = (await session.list_resource_templates()).resourceTemplates
        return (
            {tool.name: set(tool.inputSchema.get("properties", {})) for tool in tools},
            {str(r.uri) for r in resources} | {t.uriTemplate for t in templates},
        )

    return anyio.run(lists)


@pytest.fixture(scope="module")
def tools(listed) -> dict[str, set[str]]:
    return listed[0]


def guide_pages() -> list[Path]:
    # The reference pages are written from the code when the guide is built.
    return [page for page in sorted(DOCS.rglob("*.md")) if page.parent.name != "reference"]


def where(page: Path, text: str, at: int) -> str:
    return f"{page.relative_to(DOCS)}:{text.count(chr(10), 0, at) + 1}"


def test_every_tool_the_guide_calls_takes_the_arguments_it_names(tools):
    wrong = []
    for page in guide_pages():
        text = page.read_text(encoding="utf-8")
        for span in CODE_SPAN.finditer(text):
            call = CALL.match(span.group(1))
            if call is None or call["tool"] not in tools:
                continue
            named = set(ARGUMENT.findall(call["parens"] or call["spaced"] or ""))
            wrong += [
                f"{where(page, text, span.start())}: {call['tool']} has no {a}"
                for a in named - tools[call["tool"]]
            ]
        for clause in WITH.finditer(text):
            if clause["tool"] not in tools:
                continue
            named = {word for word in CODE_SPAN.findall(clause["clause"]) if IDENTIFIER.fullmatch(word)}
            wrong += [
                f"{where(page, text, clause.start())}: {clause['tool']} has no {a}"
                for a in named - tools[clause["tool"]]
            ]
    assert wrong == []


def test_every_tool_name_in_the_guide_is_one_the_server_lists(tools):
    # Names that start like a tool's (memory_…, app_memor…, document_…) and are not one.
    families = {name.split("_")[0] for name in tools}
    settings = {spec.key.split(".")[-1] for spec in SPECS}
    unknown = []
    for page in guide_pages():
        text = page.read_text(encoding="utf-8")
        for span in CODE_SPAN.finditer(text):
            name = re.split(r"[ (]", span.group(1), maxsplit=1)[0]
            if not NAME.fullmatch(name) or name.split("_")[0] not in families:
                continue
            if name not in tools and name not in settings and name not in NOT_TOOLS:
                unknown.append(f"{where(page, text, span.start())}: {name}")
    assert unknown == []


def test_every_resource_the_guide_names_is_one_the_server_lists(listed):
    _tools, resources = listed
    unknown = []
    for page in guide_pages():
        text = page.read_text(encoding="utf-8")
        unknown += [
            f"{where(page, text, span.start())}: {span.group(1)}"
            for span in CODE_SPAN.finditer(text)
            if span.group(1).startswith("memdesk://") and span.group(1) not in resources
        ]
    assert unknown == []
