"""A client's short name from `memdesk connect` (codex) names the assistant it connects as
(mcp:codex-mcp-client, the name Codex CLI gives itself), and the command says so."""

from __future__ import annotations

import anyio
import pytest
from tests.support.cli import MemdeskCommand, fails, out
from tests.support.mcp_client import call_ok, connect


@pytest.mark.engines("sqlite")  # the name a client connects as, not storage
def test_codex_names_the_assistant_codex_cli_connects_as(memdesk: MemdeskCommand):
    err = fails(memdesk("assistant", "trust", "codex", "trusted"), 1, "Codex CLI has not connected")
    assert "mcp:codex-mcp-client" in err  # the name to give before it has connected

    async def run() -> None:
        async with connect(memdesk.data_dir, "codex-mcp-client") as session:
            await call_ok(session, "prompt")

    anyio.run(run)
    said = out(memdesk("assistant", "trust", "codex", "read-only"))
    assert said == (
        "codex is Codex CLI, which connects as mcp:codex-mcp-client.\nmcp:codex-mcp-client is now read-only\n"
    )
    listed = out(memdesk("assistant", "list"))
    assert listed.startswith("mcp:codex-mcp-client\tread-only\t")
    assert "mcp:codex\t" not in listed  # no new assistant made up
    # A name the client's own already matches needs no word about it.
    assert out(memdesk("assistant", "trust", "codex-mcp-client", "trusted")) == (
        "mcp:codex-mcp-client is now trusted\n"
    )
    fails(memdesk("assistant", "trust", "cursor", "trusted"), 1, "no assistant called 'cursor'")
