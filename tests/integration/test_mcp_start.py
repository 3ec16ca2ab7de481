"""``memdesk mcp`` answers a client's handshake before the store layer has loaded: loading
SQLAlchemy and the services takes as long as loading the MCP SDK, so the store opens on a
thread of its own meanwhile, and the first call that needs it waits for it."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys

import anyio
import pytest
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


@pytest.mark.engines("sqlite")  # stdio framing, not storage
def test_typed_in_a_terminal_it_says_what_it_is_and_ctrl_d_ends_it(memdesk: MemdeskCommand):
    # A person who types `memdesk mcp` would otherwise see nothing happen.
    command = [sys.executable, "-m", "memdesk", "--data-dir", str(memdesk.data_dir), "mcp"]
    terminal, its_end = pty.openpty()
    server = subprocess.Popen(command, stdin=its_end, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(its_end)
    try:
        os.write(terminal, b"\x04")  # Ctrl+D: the end of input, whenever the server reads it
        _, said_bytes = server.communicate(timeout=30)
    finally:
        server.kill()
        os.close(terminal)
    assert server.returncode == 0
    said = said_bytes.decode()
    assert said.startswith("memdesk: serving MCP on standard input and output")
    assert "`memdesk connect --help`" in said and said.endswith("Ctrl+D stops.\n")
    # A client starts it on pipes: nothing but the protocol, and nothing on standard error.
    piped = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, b"", b"")


@pytest.mark.engines("sqlite")  # stdio framing, not storage
def test_requests_written_before_the_input_ends_are_all_answered(memdesk: MemdeskCommand):
    # A script pipes its requests in and closes its end at once: the last ones are still being
    # handled (the recall waits for the store to open) when the server reads the end of input.
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "script", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "memory_recall", "arguments": {"query": "Bergen"}},
        },
        {"jsonrpc": "2.0", "id": 4, "method": "resources/list"},
    ]
    piped = memdesk("mcp", stdin="".join(json.dumps(request) + "\n" for request in requests).encode())
    assert piped.returncode == 0, piped.stderr.decode()
    answers = {answer["id"]: answer for answer in map(json.loads, piped.stdout.decode().splitlines())}
    assert sorted(answers) == [1, 2, 3, 4]
    assert "memory_store" in {tool["name"] for tool in answers[2]["result"]["tools"]}
    assert answers[3]["result"]["isError"] is False
