"""Call one tool of an installed `memdesk mcp` through the MCP SDK's stdio client.

    python packaging/linux/mcp_check.py /usr/bin/memdesk DATA_DIR

Exits 0 when memory_store then memory_recall answer as they should, and prints the time from
launching the server to its first answer.
"""

from __future__ import annotations

import sys
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation


async def check(command: str, data_dir: str) -> str:
    params = StdioServerParameters(command=command, args=["--data-dir", data_dir, "mcp"])
    started = time.perf_counter()
    async with stdio_client(params) as (read, write):
        info = Implementation(name="package-test", version="1")
        async with ClientSession(read, write, client_info=info) as session:
            await session.initialize()
            stored = await session.call_tool(
                "memory_store",
                {
                    "key": "package_check",
                    "content": "Installed Memdesk answers over MCP",
                    "category": "knowledge",
                },
            )
            first = time.perf_counter() - started
            if stored.isError:
                raise SystemExit(f"memory_store failed: {stored.content}")
            found = await session.call_tool("memory_recall", {"query": "installed"})
            keys = [m["key"] for m in (found.structuredContent or {}).get("memories", [])]
            if found.isError or keys != ["package_check"]:
                raise SystemExit(f"memory_recall returned {found.content}")
    return f"memory_store and memory_recall answered; first answer {first:.2f}s after launch"


def main() -> None:
    command, data_dir = sys.argv[1], sys.argv[2]
    print(anyio.run(check, command, data_dir))


if __name__ == "__main__":
    main()
