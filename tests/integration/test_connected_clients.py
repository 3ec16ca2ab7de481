"""Real assistants from npm read what `memdesk connect` wrote into their own config files.

Codex CLI lists the server from ``config.toml`` (comments and other servers kept); Gemini CLI
starts ``memdesk mcp`` from ``settings.json`` and reports it connected. Each then loses it
again with `memdesk disconnect`.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand, out
from tests.support.npm import NpmTool, npm_tool

CODEX = "@openai/codex@0.169.0"  # as in test_codex_client.py
GEMINI = "@google/gemini-cli@0.61.0"
GEMINI_NODE = 20  # its package's "engines"
THEIRS = '# my Codex settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other-server"\n'


@pytest.fixture(scope="module")
def codex() -> NpmTool:
    return npm_tool(CODEX, "codex")


@pytest.fixture(scope="module")
def gemini() -> NpmTool:
    return npm_tool(GEMINI, "gemini", node_major=GEMINI_NODE)


def _run(tool: NpmTool, args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(
        [*tool.command, *args],
        cwd=cwd,
        env={"PATH": tool.env_path, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result


def test_codex_lists_the_server_connect_wrote(codex, isolated_data_dir, tmp_path):
    codex_home = tmp_path / "codex"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text(THEIRS)
    env = {"HOME": str(tmp_path), "CODEX_HOME": str(codex_home)}
    memdesk = MemdeskCommand(isolated_data_dir)
    assert "[mcp_servers.memdesk]" in out(memdesk("connect", "codex", env=env))
    assert (codex_home / "config.toml").read_text().startswith(THEIRS)

    listed = {
        server["name"]: server
        for server in json.loads(_run(codex, ["mcp", "list", "--json"], env, tmp_path).stdout)
    }
    assert set(listed) == {"memdesk", "other"}
    transport = listed["memdesk"]["transport"]
    assert listed["memdesk"]["enabled"] and transport["type"] == "stdio"
    assert transport["args"] == ["--data-dir", str(isolated_data_dir), "mcp"]
    assert Path(transport["command"]).name == "memdesk"

    out(memdesk("disconnect", "codex", env=env))
    assert "memdesk" not in _run(codex, ["mcp", "list"], env, tmp_path).stdout
    assert (codex_home / "config.toml").read_text() == THEIRS


@pytest.mark.slow
def test_gemini_starts_the_server_connect_wrote(gemini, isolated_data_dir, tmp_path):
    gemini_home, project = tmp_path / "gemini-home", tmp_path / "project"
    project.mkdir()
    (gemini_home / ".gemini").mkdir(parents=True)
    # The person trusts this folder; Gemini CLI starts no MCP server in an untrusted one.
    (gemini_home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(project): "TRUST_FOLDER"}))
    env = {"HOME": str(tmp_path), "GEMINI_CLI_HOME": str(gemini_home)}
    memdesk = MemdeskCommand(isolated_data_dir)
    out(memdesk("app", "add", "ledger", "Ledger exports use ISO 8601 dates."))  # a store to open
    assert "MCP server memdesk" in out(memdesk("connect", "gemini", env=env))

    listed = _run(gemini, ["mcp", "list"], env, project).stderr  # where Gemini CLI prints its list
    line = next(line for line in listed.splitlines() if "memdesk:" in line)
    assert (
        line.startswith("✓")
        and line.endswith("- Connected")
        and f"--data-dir {isolated_data_dir} mcp" in line
    )

    assert "removed MCP server memdesk" in out(memdesk("disconnect", "gemini", env=env))
    assert "memdesk" not in _run(gemini, ["mcp", "list"], env, project).stderr
