"""The MCP SDK's own client, launching the real ``memdesk mcp`` as a process over stdio."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, Implementation


def server_params(
    data_dir: Path, command: str | None = None, cwd: Path | None = None
) -> StdioServerParameters:
    """``memdesk --data-dir DIR mcp``; by default this Python's ``-m memdesk``, started in the
    folder above the data folder: no project, as the server's own folder would make its prompt
    tool compose for one (``cwd`` starts it in a project's folder, as a client does)."""
    args = ["--data-dir", str(data_dir), "mcp"]
    folder = cwd or data_dir.parent
    if command is None:
        return StdioServerParameters(
            command=sys.executable, args=["-m", "memdesk", *args], env=dict(os.environ), cwd=folder
        )
    return StdioServerParameters(command=command, args=args, env=dict(os.environ), cwd=folder)


@asynccontextmanager
async def connect(
    data_dir: Path, client_name: str = "test-client", command: str | None = None, cwd: Path | None = None
) -> AsyncIterator[ClientSession]:
    params = server_params(data_dir, command, cwd)
    async with stdio_client(params) as (read, write):
        info = Implementation(name=client_name, version="1.0")
        async with ClientSession(read, write, client_info=info) as session:
            await session.initialize()
            yield session


def text_of(result: CallToolResult) -> str:
    return "".join(getattr(block, "text", "") for block in result.content)


async def call_ok(client: ClientSession, tool: str, /, **arguments: Any) -> CallToolResult:
    result = await client.call_tool(tool, arguments)
    assert not result.isError, f"{tool}: {text_of(result)}"
    return result
