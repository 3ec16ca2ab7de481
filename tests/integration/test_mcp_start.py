"""``memdesk mcp`` answers a client's handshake before the store layer has loaded: loading
SQLAlchemy and the services takes as long as loading the MCP SDK, so the store opens on a
thread of its own meanwhile, and the first call that needs it waits for it."""

from __future__ import annotations

import subprocess
import sys

import anyio
from tests.support.cli import MemdeskCommand, out
from tests.support.mcp_client import call_ok, connect

# What opens the store; it loads on its own thread.
STORE_LAYER = ("sqlalchemy", "memdesk.store", "memdesk.services.")


def test_what_answers_the_handshake_loads_no_store_layer():
    check = (
        "import sys\n"
        "from concurrent.futures import Future\n"
        "from memdesk.cli.main import build_parser\n"
        "from memdesk.servers.mcp_server import MemdeskMCP\n"
        "build_parser('cmd_mcp')\n"
        "MemdeskMCP(Future())\n"
        f"print(sorted(m for m in sys.modules if m.startswith({STORE_LAYER!r})))"
    )
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_calls_made_while_the_store_opens_wait_for_it(memdesk: MemdeskCommand):
    out(memdesk("entry", "add", "home_city", "Lives in Bergen"))

    async def run() -> list[str]:
        async with connect(memdesk.data_dir) as session, anyio.create_task_group() as group:
            found: list[str] = []

            async def recall() -> None:
                result = await call_ok(session, "memory_recall", query="Bergen")
                found.extend(memory["key"] for memory in result.structuredContent["memories"])

            for _ in range(3):  # at once, right after the handshake
                group.start_soon(recall)
        return found

    assert anyio.run(run) == ["home_city"] * 3
