"""``memdesk mcp --http``: streamable HTTP on 127.0.0.1, and the hook for request checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import Implementation
from tests.support.cli import MemdeskCommand, out
from tests.support.mcp_client import call_ok
from tests.support.ports import free_port, mcp_http_server, wait_for_port


@pytest.fixture
def token(memdesk: MemdeskCommand) -> str:
    return out(memdesk("token", "create", "web")).strip().splitlines()[-1].strip()


@pytest.fixture
def http_server(memdesk: MemdeskCommand, token: str):
    with mcp_http_server(memdesk.data_dir) as (port, process):
        yield f"http://127.0.0.1:{port}/mcp", process


@pytest.mark.engines("sqlite")  # HTTP transport and its checks, not storage
def test_two_clients_over_http_are_each_named_in_history(memdesk: MemdeskCommand, http_server, token):
    import httpx

    url, _process = http_server

    async def client(name: str) -> None:
        auth = httpx.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with auth, streamable_http_client(url, http_client=auth) as (read, write, _session_id):
            info = Implementation(name=name, version="1")
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                for index in range(5):
                    await call_ok(
                        session, "memory_store", key=f"{name}_{index}", content="x", category="knowledge"
                    )

    async def run() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(client, "web-one")
            group.start_soon(client, "web-two")

    anyio.run(run)
    for name in ("web-one", "web-two"):
        lines = out(memdesk("history", "--actor", f"mcp:{name}")).splitlines()
        assert sorted(line.split("\t")[4] for line in lines) == [f"Save entry {name}_{i}" for i in range(5)]


@pytest.mark.engines("sqlite")  # HTTP transport and its checks, not storage
def test_without_a_token_a_foreign_host_or_origin_the_server_refuses(http_server, token):
    import httpx

    url, _process = http_server
    json_body = {"Content-Type": "application/json"}
    bearer = {"Authorization": f"Bearer {token}", **json_body}
    assert httpx.post(url, headers=json_body, content=b"{}").status_code == 401
    wrong = {**json_body, "Authorization": "Bearer nope"}
    assert httpx.post(url, headers=wrong, content=b"{}").status_code == 401
    assert httpx.post(url, headers={**bearer, "Host": "evil.example"}, content=b"{}").status_code == 403
    foreign = httpx.post(url, headers={**bearer, "Origin": "https://evil.example"}, content=b"{}")
    assert foreign.status_code == 403 and "token" not in foreign.text


@pytest.mark.engines("sqlite")  # HTTP transport and its checks, not storage
def test_http_app_is_wrapped_by_the_given_middleware(memdesk_app):
    from memdesk.servers.mcp_server import build_server, http_app

    seen: list[str] = []

    def wrap(inner):
        async def checked(scope, receive, send):
            seen.append(scope["type"])
            await inner(scope, receive, send)

        return checked

    asgi = http_app(build_server(memdesk_app), wrap)
    events = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
    sent: list[str] = []

    async def receive() -> dict:
        return next(events)

    async def send(message: dict) -> None:
        sent.append(message["type"])

    anyio.run(asgi, {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}, receive, send)
    assert seen == ["lifespan"]
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


@pytest.mark.engines("sqlite")  # HTTP transport and its checks, not storage
def test_a_bad_address_is_refused(memdesk: MemdeskCommand, tmp_path: Path):
    bad = memdesk("mcp", "--http", "0.0.0.0:notaport")
    assert bad.returncode == 2 and b"port 'notaport' is not valid" in bad.stderr


@pytest.mark.engines("sqlite")  # HTTP transport and its checks, not storage
def test_another_host_is_served_with_a_warning(memdesk: MemdeskCommand):
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "memdesk",
            "--data-dir",
            str(memdesk.data_dir),
            "mcp",
            "--http",
            f"0.0.0.0:{port}",
        ],
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )
    try:
        wait_for_port(port, process)
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=10)
    assert b"warning: listening on 0.0.0.0" in err
