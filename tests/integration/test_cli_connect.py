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
def test_help_names_every_file_connect_writes_and_connect_writes_no_other(
    memdesk: MemdeskCommand, env, tmp_path
):
    # The store also in MEMDESK_DATA_DIR, where the help finds the settings file it names.
    store = memdesk.data_dir
    env = {**env, "MEMDESK_DATA_DIR": str(store)}
    home = Path(env["HOME"])
    shown = out(memdesk("connect", "--help", env=env))
    claude = shown[shown.index("  claude-code  ") : shown.index("  claude-desktop  ")]
    assert f"{home}/.claude.json" in claude and f"and its hooks: {home}/.claude/settings.json" in claude
    assert f"{home}/.pi/agent/extensions/memdesk.ts" in shown
    assert "claude-code, codex and pi also write Memdesk's own settings" in shown
    assert f"{store}/config.toml" in " ".join(shown.split())

    before = {path for path in tmp_path.rglob("*") if path.is_file()}
    out(memdesk("connect", "claude-code", env=env))
    written = {path for path in tmp_path.rglob("*") if path.is_file()} - before
    named = {path for path in written if str(path) in " ".join(shown.split())}
    # Everything else it left is the store itself, which help does not list.
    assert named == {home / ".claude.json", home / ".claude" / "settings.json", store / "config.toml"}


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


def _pi_extensions(env: dict[str, str]) -> Path:
    return Path(env["HOME"]) / ".pi" / "agent" / "extensions"


def _pi_source(memdesk: MemdeskCommand, env: dict[str, str]) -> str:
    """Whether the pi transcript source is on or off."""
    listed = out(memdesk("sources", "list", env=env)).splitlines()
    return next(line.split()[0] for line in listed if line.split()[1] == "pi")


@pytest.mark.engines("sqlite")
def test_connect_pi_dry_run_connect_again_and_remove(memdesk: MemdeskCommand, env):
    extensions = _pi_extensions(env)
    planned = out(memdesk("connect", "pi", "--dry-run", env=env))
    assert planned.startswith("Would change (--dry-run: nothing was written):")
    assert f"{extensions / 'memdesk.ts'}:" in planned and "Would turn on the pi source" in planned
    assert list(Path(env["HOME"]).iterdir()) == []
    assert _pi_source(memdesk, env) == "off"

    extensions.mkdir(parents=True)
    (extensions / "theirs.ts").write_text("export default function () {}\n")
    done = out(memdesk("connect", "pi", env=env))
    assert "Turned on the pi source (sources.pi = true)." in done and _pi_source(memdesk, env) == "on"
    written = (extensions / "memdesk.ts").read_text()
    # It runs this store's memdesk, with the options that open it.
    assert f'"--data-dir", "{memdesk.data_dir}"' in written and '"hook", "pi"' in written
    assert out(memdesk("connect", "pi", env=env)).strip() == "pi is already connected; nothing changed."

    assert "removed the pi extension" in out(memdesk("connect", "pi", "--remove", "--dry-run", env=env))
    assert (extensions / "memdesk.ts").read_text() == written
    removed = out(memdesk("connect", "pi", "--remove", env=env))
    assert "removed the pi extension" in removed and "`memdesk sources disable pi` turns it off" in removed
    assert [path.name for path in extensions.iterdir()] == ["theirs.ts"]
    assert out(memdesk("disconnect", "pi", env=env)).strip() == "pi was not connected; nothing changed."


@pytest.mark.engines("sqlite")
def test_connect_pi_leaves_a_file_of_the_persons_and_a_locked_folder(memdesk: MemdeskCommand, env):
    extensions = _pi_extensions(env)
    extensions.mkdir(parents=True)
    theirs = extensions / "memdesk.ts"
    theirs.write_text("// my own memdesk helper\n")
    fails(memdesk("connect", "pi", env=env), 1, f"{theirs} was not written by Memdesk; not changed")
    fails(memdesk("connect", "pi", "--remove", env=env), 1, "was not written by Memdesk")
    assert theirs.read_text() == "// my own memdesk helper\n"
    theirs.unlink()
    extensions.chmod(0o555)
    try:
        err = fails(memdesk("connect", "pi", env=env), 1, f"{extensions} is not writable; not changed")
    finally:
        extensions.chmod(0o755)
    assert len(err.strip().splitlines()) == 1 and list(extensions.iterdir()) == []
    assert _pi_source(memdesk, env) == "off"  # nothing was half done


@pytest.mark.engines("sqlite")
def test_dry_run_changes_no_config(memdesk: MemdeskCommand, env):
    config = Path(env["HOME"]) / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text('{"mcpServers": {}}')
    planned = out(memdesk("connect", "cursor", "--dry-run", env=env))
    assert "MCP server memdesk" in planned and "backed up" not in planned
    assert config.read_text() == '{"mcpServers": {}}' and list(config.parent.iterdir()) == [config]
