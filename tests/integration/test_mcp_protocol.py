"""What a client learns before and around its first call: instructions, schemas with choices,
defaults and bounds, an output schema for every tool, completions, and log messages at the
level it asks for. The official SDK client against the real `memdesk mcp` process."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import stdio_client
from mcp.types import (
    Implementation,
    LoggingMessageNotificationParams,
    PromptReference,
    ResourceTemplateReference,
)
from tests.support.cli import MemdeskCommand, out
from tests.support.mcp_client import call_ok, server_params, text_of

from memdesk.core.records import MAX_DOCUMENT_CHARS, MAX_ENTRY_CHARS, MAX_NAME_CHARS, ROLES

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


@pytest.mark.engines("sqlite")  # the MCP protocol's shapes, not storage
def test_a_first_call_with_only_key_and_content_stores_knowledge(memdesk: MemdeskCommand):
    async def run() -> None:
        params = server_params(memdesk.data_dir)
        async with stdio_client(params) as (read, write):
            session = ClientSession(read, write, client_info=Implementation(name="newcomer", version="1"))
            async with session:
                started = await session.initialize()
                assert "memory_recall" in started.instructions and "held: true" in started.instructions
                capabilities = started.capabilities
                assert capabilities.completions is not None and capabilities.logging is not None
                result = await call_ok(session, "memory_store", key="home_city", content="Lives in Bergen")
                assert result.structuredContent == {
                    "key": "home_city",
                    "category": "knowledge",
                    "importance": 0.5,
                    "held": False,
                }

    anyio.run(run)
    assert out(memdesk("recall", "Bergen")) == "home_city: Lives in Bergen\n"


@pytest.mark.engines("sqlite")  # the MCP protocol's shapes, not storage
def test_schemas_offer_choices_defaults_bounds_and_an_output_schema(memdesk: MemdeskCommand):
    async def run() -> None:
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        store = tools["memory_store"].inputSchema["properties"]
        assert store["category"]["enum"] == ["knowledge", "timeline"]
        assert store["category"]["default"] == "knowledge"
        assert tools["memory_store"].inputSchema["required"] == ["key", "content"]
        importance = next(option for option in store["importance"]["anyOf"] if option.get("type") == "number")
        assert (importance["minimum"], importance["maximum"]) == (0, 1)
        # Text is bounded as the store bounds it.
        assert (store["key"]["maxLength"], store["content"]["maxLength"]) == (MAX_NAME_CHARS, MAX_ENTRY_CHARS)
        log = tools["session_log"].inputSchema["properties"]
        assert log["role"]["enum"] == list(ROLES) and log["role"]["default"] == "user"
        assert log["content"]["maxLength"] == MAX_DOCUMENT_CHARS
        assert [name for name, tool in tools.items() if tool.outputSchema is None] == []
        held = tools["memory_store"].outputSchema
        assert {"held", "review_id", "reasons", "target"} <= held["properties"].keys()

    anyio.run(run)


def _seed(memdesk: MemdeskCommand, write: Callable[[Memdesk], object]) -> None:
    """Many rows at once, written in this process to the store the command uses."""
    from memdesk.services.memdesk import Memdesk

    app = Memdesk.open(data_dir=str(memdesk.data_dir))
    try:
        write(app)
    finally:
        app.close()


def test_completions_offer_apps_sessions_namespaces_and_keys_by_prefix(memdesk: MemdeskCommand):
    def write(app: Memdesk) -> None:
        for app_id in ("calendar", "calculator", "mail"):
            app.apps.add(app_id, f"A note for {app_id}")
        app.sessions.log("telegram:42", "user", "hello")
        app.documents.append("user/facts", "- Has a cat")
        app.documents.append("user/profile", "Name: Ada")
        for key in ("home_city", "home_country", "homeXtown", "work_city"):
            app.entries.upsert(key, f"About {key}")
        app.entries.upsert("home_old", "Gone")
        app.entries.delete_key("home_old")

    _seed(memdesk, write)

    async def run() -> None:
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()

            async def complete(ref: PromptReference | ResourceTemplateReference, name: str, value: str):
                return (await session.complete(ref, {"name": name, "value": value})).completion

            prompt = PromptReference(type="ref/prompt", name="session-start")
            apps = await complete(prompt, "app", "cal")
            assert (apps.values, apps.total, apps.hasMore) == (["calculator", "calendar"], 2, False)
            assert (await complete(prompt, "app", "Cal")).values == []  # as typed: case matters
            assert (await complete(prompt, "message", "he")).values == []  # free text

            def template(uri: str) -> ResourceTemplateReference:
                return ResourceTemplateReference(type="ref/resource", uri=uri)

            sessions = await complete(template("memdesk://prompt{?app,session,message}"), "session", "tele")
            assert sessions.values == ["telegram:42"]
            documents = template("memdesk://documents/{namespace}")
            assert (await complete(documents, "namespace", "user/")).values == ["user/facts", "user/profile"]
            keys = template("memdesk://entries/{key}")
            # "_" is a letter here, not LIKE's any-character; a key in Trash is not offered.
            assert (await complete(keys, "key", "home_")).values == ["home_city", "home_country"]
            assert (await complete(keys, "key", "")).total == 4

    anyio.run(run)


def test_a_completion_offers_a_hundred_values_and_says_there_are_more(memdesk: MemdeskCommand):
    _seed(memdesk, lambda app: [app.apps.add(f"app{n:03d}", "A note") for n in range(120)])

    async def run() -> None:
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            prompt = PromptReference(type="ref/prompt", name="session-start")
            every = (await session.complete(prompt, {"name": "app", "value": "app"})).completion
            assert every.values == [f"app{n:03d}" for n in range(100)]
            assert (every.total, every.hasMore) == (None, True)
            some = (await session.complete(prompt, {"name": "app", "value": "app11"})).completion
            assert (len(some.values), some.total, some.hasMore) == (10, 10, False)

    anyio.run(run)


@pytest.mark.engines("sqlite")  # the MCP protocol's shapes, not storage
def test_log_messages_follow_the_level_the_client_sets(memdesk: MemdeskCommand):
    received: list[LoggingMessageNotificationParams] = []

    async def note(params: LoggingMessageNotificationParams) -> None:
        received.append(params)

    async def run() -> None:
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write, logging_callback=note) as session,
        ):
            await session.initialize()
            bad = await session.call_tool("memory_forget", {"key": "never-stored"})
            assert bad.isError
            await session.set_logging_level("error")
            bad = await session.call_tool("memory_forget", {"key": "never-stored"})
            assert bad.isError and "never-stored" in text_of(bad)
            refused = await session.call_tool(
                "memory_store", {"key": "k", "content": "x", "category": "gossip"}
            )
            assert refused.isError
            await session.set_logging_level("critical")
            await session.call_tool("memory_forget", {"key": "never-stored"})
            await session.send_ping()  # the notifications before it have arrived

    anyio.run(run)
    assert [(params.level, params.logger) for params in received] == [("error", "memdesk")] * 2
    assert "never-stored" in str(received[0].data)
    assert received[1].data == "memory_store: category must be knowledge or timeline."


# Arguments the input schemas refuse, and the sentence the assistant gets back instead.
REFUSED = [
    (
        "memory_store",
        {"key": "k", "content": "x", "category": "gossip"},
        "category must be knowledge or timeline",
    ),
    ("memory_store", {"key": "k", "content": "x", "importance": 2}, "importance must be at most 1"),
    ("memory_store", {"key": "k" * 301, "content": "x"}, "key is longer than 300 characters"),
    ("memory_store", {"content": "x"}, "key is required"),
    ("memory_store", {"key": "", "content": "x"}, "key is empty"),
    (
        "memory_store",
        {"key": 7, "content": "x", "importance": "high"},
        "key must be text; importance must be a number",
    ),
    (
        "session_log",
        {"session": "web:1", "content": "x", "role": "bot"},
        "role must be user, assistant or system",
    ),
    ("memory_recall", {"query": "x", "limit": "many"}, "limit must be a whole number"),
    ("memory_recall", {"query": "x", "since": [2026]}, "since must be text or a whole number"),
    ("compaction_apply", {"proposal_id": "p", "accept": ["one"]}, "accept item 1 must be a whole number"),
]


@pytest.mark.engines("sqlite")  # the MCP protocol's shapes, not storage
def test_arguments_that_do_not_fit_are_answered_in_a_plain_sentence(memdesk: MemdeskCommand):
    async def run() -> list[tuple[bool, str]]:
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            results = [await session.call_tool(tool, arguments) for tool, arguments, _ in REFUSED]
            return [(result.isError, text_of(result)) for result in results]

    assert anyio.run(run) == [(True, f"{tool}: {sentence}.") for tool, _, sentence in REFUSED]


@pytest.mark.engines("sqlite")  # the MCP protocol's shapes, not storage
def test_a_held_write_is_a_warning_in_the_clients_log(memdesk: MemdeskCommand):
    received: list[LoggingMessageNotificationParams] = []

    async def note(params: LoggingMessageNotificationParams) -> None:
        received.append(params)

    async def run() -> None:
        info = Implementation(name="watched", version="1")
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write, logging_callback=note, client_info=info) as session,
        ):
            await session.initialize()
            await session.set_logging_level("warning")
            await call_ok(session, "memory_store", key="home_city", content="Lives in Bergen")
            out(memdesk("assistant", "trust", "watched", "review-everything"))
            held = await call_ok(session, "memory_store", key="pet", content="Has a cat")
            assert held.structuredContent["held"] is True
            await session.send_ping()

    anyio.run(run)
    assert [(params.level, params.logger) for params in received] == [("warning", "memdesk")]
    assert "waits until the person approves it" in str(received[0].data)


@pytest.mark.engines("sqlite")  # the SQLite file itself
def test_a_store_that_cannot_open_is_said_by_each_call_after_a_normal_handshake(memdesk: MemdeskCommand):
    out(memdesk("doc", "set", "global", "x"))
    with sqlite3.connect(memdesk.data_dir / "memdesk.sqlite3") as conn:
        conn.execute("UPDATE meta SET value='42' WHERE key='schema_version'")

    async def run() -> list[str]:
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            assert len((await session.list_tools()).tools) > 10
            answers = [await session.call_tool("memory_recall", {"query": "x"}) for _ in range(2)]
            assert all(answer.isError for answer in answers)
            return [text_of(answer) for answer in answers]

    for text in anyio.run(run):
        assert "written by a newer Memdesk (schema 42" in text and "Traceback" not in text
