"""The real Claude Code, from npm, against a stand-in Anthropic server on 127.0.0.1.

``memdesk connect claude-code`` in a temporary home; then ``claude -p``: it connects to MCP
servers under the name the guide gives it, Memdesk's prompt reaches the model through the
SessionStart hook, the transcript Claude Code writes is read into a session by the Stop hook,
and offline compaction keeps the decision the user stated.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.anthropic_stream import StreamingAnthropic
from tests.support.cli import MemdeskCommand, out
from tests.support.mcp_recorder import RECORDER, recorded
from tests.support.npm import npm_tool

from memdesk.servers.actors import actor_for_client

CLAUDE_CODE = "@anthropic-ai/claude-code@2.1.331"
DECISION = "We decided that the ledger service stores every amount as integer cents."


@pytest.fixture(scope="module")
def claude() -> Path:
    tool = npm_tool(CLAUDE_CODE, "claude")
    return tool.prefix / "node_modules" / ".bin" / "claude"  # a native program, started directly


def test_claude_code_gets_the_prompt_and_its_transcript_is_compacted(claude, isolated_data_dir, tmp_path):
    home, project = tmp_path / "home", tmp_path / "ledger"
    home.mkdir()
    project.mkdir()
    env = {"HOME": str(home)}
    memdesk = MemdeskCommand(isolated_data_dir)
    out(memdesk("app", "add", "ledger", "Ledger exports use ISO 8601 dates."))
    connected = out(memdesk("connect", "claude-code", env=env))
    assert "hook SessionStart" in connected and "MCP server memdesk" in connected
    settings = json.loads((home / ".claude.json").read_text())
    assert settings["mcpServers"]["memdesk"]["args"][-1] == "mcp"
    connections = tmp_path / "connected.jsonl"
    recorder = {"command": sys.executable, "args": [str(RECORDER), str(connections)]}
    settings["mcpServers"]["recorder"] = recorder
    (home / ".claude.json").write_text(json.dumps(settings))

    with StreamingAnthropic("Noted: amounts are stored as integer cents.") as model:
        result = subprocess.run(
            [str(claude), "-p", DECISION],
            cwd=project,
            env={
                "PATH": os.environ["PATH"],
                "HOME": str(home),
                "ANTHROPIC_BASE_URL": model.url,
                "ANTHROPIC_API_KEY": "sk-ant-stand-in",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1",
                "DISABLE_TELEMETRY": "1",
                "DISABLE_ERROR_REPORTING": "1",
            },
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert "integer cents" in result.stdout
        sent = json.dumps(model.messages())
    assert "Ledger exports use ISO 8601 dates." in sent  # SessionStart's additionalContext
    # The name Claude Code gives itself to an MCP server, and so its name in Memdesk.
    assert [actor_for_client(client["name"]) for client in recorded(connections)] == ["mcp:claude-code"]

    sessions = out(memdesk("session", "list"))
    session_id = next(word for word in sessions.split() if word.startswith("claude-code:"))
    shown = out(memdesk("session", "show", session_id))
    assert DECISION in shown
    assert "Tool" not in shown  # nothing but the conversation: no hooks, attachments or requests
    out(memdesk("compact", session_id, "--backend", "offline", "--yes"))
    assert "integer cents" in out(memdesk("working", "show"))
    assert "ledger" in out(memdesk("session", "list"))  # the project folder's app


def test_claude_mcp_list_says_connected_as_the_connect_page_says(claude, isolated_data_dir, tmp_path):
    home, project = tmp_path / "home", tmp_path / "ledger"
    home.mkdir()
    project.mkdir()
    memdesk = MemdeskCommand(isolated_data_dir)
    out(memdesk("connect", "claude-code", env={"HOME": str(home)}))
    listed = subprocess.run(
        [str(claude), "mcp", "list"],
        cwd=project,
        env={"PATH": os.environ["PATH"], "HOME": str(home), "DISABLE_AUTOUPDATER": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert listed.returncode == 0, listed.stderr
    page = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "connect.md").read_text()
    said = re.search(r"`claude mcp list` says `memdesk: /usr/bin/memdesk mcp( - .+?)`", page)
    assert said, "the Connect page shows what `claude mcp list` says"
    server = json.loads((home / ".claude.json").read_text())["mcpServers"]["memdesk"]
    assert f"memdesk: {shlex.join([server['command'], *server['args']])}{said[1]}" in listed.stdout
