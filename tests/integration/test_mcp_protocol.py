"""What a client learns before and around its first call: instructions, schemas with choices,
defaults and bounds, an output schema for every tool, completions, and log messages at the
level it asks for. The official SDK client against the real `memdesk mcp` process."""

from __future__ import annotations

import anyio
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
        log_role = tools["session_log"].inputSchema["properties"]["role"]
        assert log_role["enum"] == ["user", "assistant", "system"] and log_role["default"] == "user"
        assert [name for name, tool in tools.items() if tool.outputSchema is None] == []
        held = tools["memory_store"].outputSchema
        assert {"held", "review_id", "reasons", "target"} <= held["properties"].keys()

    anyio.run(run)


def test_completions_offer_apps_and_sessions_by_prefix(memdesk: MemdeskCommand):
    for app_id in ("calendar", "calculator", "mail"):
        out(memdesk("app", "add", app_id, f"A note for {app_id}"))
    out(memdesk("session", "log", "telegram:42", "hello", "--role", "user"))

    async def run() -> None:
        async with (
            stdio_client(server_params(memdesk.data_dir)) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            prompt = PromptReference(type="ref/prompt", name="session-start")
            apps = await session.complete(prompt, {"name": "app", "value": "cal"})
            assert apps.completion.values == ["calculator", "calendar"]
            assert apps.completion.hasMore is False
            template = ResourceTemplateReference(
                type="ref/resource", uri="memdesk://prompt{?app,session,message}"
            )
            sessions = await session.complete(template, {"name": "session", "value": "tele"})
            assert sessions.completion.values == ["telegram:42"]
            message = await session.complete(prompt, {"name": "message", "value": "he"})
            assert message.completion.values == []

    anyio.run(run)


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
            await session.set_logging_level("critical")
            await session.call_tool("memory_forget", {"key": "never-stored"})
            await session.send_ping()  # the notifications before it have arrived

    anyio.run(run)
    assert [(params.level, params.logger) for params in received] == [("error", "memdesk")]
    assert "never-stored" in str(received[0].data)
