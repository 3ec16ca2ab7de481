"""`memdesk connect CLIENT` and `memdesk disconnect CLIENT` as a person runs them, on a
temporary home: what they print, what they change, and what they refuse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand, fails, out

from memdesk.services.clients.known import CLIENTS, LOCATION_ENV


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    return {"HOME": str(home), **dict.fromkeys(LOCATION_ENV, "")}


@pytest.mark.engines("sqlite")
def test_help_lists_every_client_and_its_file(memdesk: MemdeskCommand, env):
    shown = out(memdesk("connect", "--help", env=env))
    for client in CLIENTS:
        assert f"{client.name}  " in shown and client.title in shown
    assert f"{env['HOME']}/.cursor/mcp.json" in shown and f"{env['HOME']}/.codex/config.toml" in shown


@pytest.mark.engines("sqlite")
def test_connect_twice_then_disconnect_twice(memdesk: MemdeskCommand, env):
    config = Path(env["HOME"]) / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text('{"mcpServers": {"other": {"command": "x"}}}')
    first = out(memdesk("connect", "cursor", env=env))
    assert f"{config}:" in first and "MCP server memdesk" in first and "backed up as" in first
    servers = json.loads(config.read_text())["mcpServers"]
    assert servers["memdesk"]["args"] == ["--data-dir", str(memdesk.data_dir), "mcp"]
    assert (
        out(memdesk("connect", "cursor", env=env)).strip() == "Cursor is already connected; nothing changed."
    )
    assert "removed MCP server memdesk" in out(memdesk("disconnect", "cursor", env=env))
    assert json.loads(config.read_text()) == {"mcpServers": {"other": {"command": "x"}}}
    assert (
        out(memdesk("disconnect", "cursor", env=env)).strip() == "Cursor was not connected; nothing changed."
    )
    assert len(list(config.parent.glob("mcp.json.memdesk-backup-*"))) == 2


@pytest.mark.engines("sqlite")
def test_a_bad_config_gets_one_line_and_is_not_changed(memdesk: MemdeskCommand, env, tmp_path):
    config = Path(env["HOME"]) / ".codex" / "config.toml"
    config.parent.mkdir()
    config.write_text('model = "o3"\nmodel = "o4"\n')
    err = fails(memdesk("connect", "codex", env=env), 2, f"{config} is not valid TOML")
    assert "line 2" in err and len(err.strip().splitlines()) == 1
    target = tmp_path / "dotfiles.toml"
    target.write_text("")
    config.unlink()
    config.symlink_to(target)
    err = fails(memdesk("connect", "codex", env=env), 1, f"{config} is a symlink to {target}; not changed")
    assert len(err.strip().splitlines()) == 1 and config.is_symlink() and target.read_text() == ""
    assert list(config.parent.iterdir()) == [config]  # no backup, no temporary file


@pytest.mark.engines("sqlite")
def test_print_changes_nothing(memdesk: MemdeskCommand, env):
    printed = out(memdesk("connect", "vscode", "--print", env=env))
    assert json.loads(printed)["servers"]["memdesk"]["type"] == "stdio"
    assert list(Path(env["HOME"]).iterdir()) == []
    fails(memdesk("connect", "stdio", env=env), 2, "add --print")


@pytest.mark.engines("sqlite")
def test_disconnecting_claude_code_says_its_transcript_source_stays_on(memdesk: MemdeskCommand, env):
    assert "Turned on the claude-code source" in out(memdesk("connect", "claude-code", env=env))
    said = out(memdesk("disconnect", "claude-code", env=env))
    assert "removed MCP server memdesk" in said
    assert "`memdesk sources disable claude-code` turns it off" in said
    assert "sources.claude_code = false" in out(memdesk("sources", "disable", "claude-code", env=env))
    again = out(memdesk("disconnect", "claude-code", env=env))
    assert again.strip() == "Claude Code was not connected; nothing changed."


@pytest.mark.engines("sqlite")
def test_the_entry_connect_writes_starts_a_server_an_mcp_client_can_use(memdesk: MemdeskCommand, env):
    # What an assistant does next: read its own config and start the command there, with none
    # of Memdesk's environment variables, then store something through it.
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.types import Implementation

    out(memdesk("connect", "cursor", env=env))
    entry = json.loads((Path(env["HOME"]) / ".cursor" / "mcp.json").read_text())["mcpServers"]["memdesk"]
    params = StdioServerParameters(
        command=entry["command"], args=entry["args"], env={"HOME": env["HOME"], "PATH": "/usr/bin:/bin"}
    )

    async def first_session() -> tuple[list[str], str]:
        async with stdio_client(params) as (read, write):
            info = Implementation(name="cursor", version="1.0")
            async with ClientSession(read, write, client_info=info) as session:
                await session.initialize()
                tools = [tool.name for tool in (await session.list_tools()).tools]
                stored = await session.call_tool("memory_store", {"key": "tea", "content": "Likes tea."})
                return tools, "".join(getattr(block, "text", "") for block in stored.content)

    tools, stored = anyio.run(first_session)
    assert {"memory_store", "memory_recall", "prompt"} <= set(tools)
    assert stored == "Stored tea (knowledge)."
    assert "\tmcp:cursor\tdone\tSave entry tea" in out(memdesk("history"))
