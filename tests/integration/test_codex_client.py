"""The real Codex CLI, from npm, against a stand-in Responses server on 127.0.0.1.

``codex exec`` connects to MCP servers under the name the guide gives it and writes its
rollout file; ``memdesk sources sync`` reads that into ``codex:<session id>`` with the
project folder's app, and offline compaction keeps the decision the user stated.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tests.support.cli import MemdeskCommand, out
from tests.support.mcp_recorder import RECORDER, recorded
from tests.support.npm import npm_tool
from tests.support.responses_stream import StreamingResponses

from memdesk.servers.actors import actor_for_client

CODEX = "@openai/codex@0.169.0"
DECISION = "We decided that the ledger service stores every amount as integer cents."


@pytest.fixture(scope="module")
def codex() -> tuple[str, ...]:
    return npm_tool(CODEX, "codex").command


def test_a_codex_session_is_read_and_compacted(codex, isolated_data_dir, tmp_path):
    codex_home, project, connected = tmp_path / "codex", tmp_path / "ledger", tmp_path / "connected.jsonl"
    codex_home.mkdir()
    project.mkdir()
    with StreamingResponses("Noted: amounts are stored as integer cents.") as model:
        (codex_home / "config.toml").write_text(
            'model = "gpt-stand-in"\nmodel_provider = "stand_in"\n\n[model_providers.stand_in]\n'
            f'name = "Stand-in"\nbase_url = "{model.url}"\nwire_api = "responses"\nenv_key = "STAND_IN_KEY"\n'
            f"\n[mcp_servers.recorder]\ncommand = {json.dumps(sys.executable)}\n"
            f"args = {json.dumps([str(RECORDER), str(connected)])}\n"
        )
        result = subprocess.run(
            [*codex, "exec", "--skip-git-repo-check", DECISION],
            cwd=project,
            env={
                "PATH": os.environ["PATH"],
                "HOME": str(tmp_path),
                "CODEX_HOME": str(codex_home),
                "STAND_IN_KEY": "sk-stand-in",
            },
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert any(path.startswith("/v1/responses") for _method, path, _body in model.requests)
    # The name Codex CLI gives itself to an MCP server, and so its name in Memdesk (the guide's
    # Connect page says which to look for).
    assert [actor_for_client(client["name"]) for client in recorded(connected)] == ["mcp:codex-mcp-client"]
    memdesk = MemdeskCommand(isolated_data_dir)
    env = {"CODEX_HOME": str(codex_home)}
    out(memdesk("sources", "enable", "codex", env=env))
    assert "2 new messages" in out(memdesk("sources", "sync", env=env))
    listed = out(memdesk("session", "list"))
    session_id = next(word for word in listed.split() if word.startswith("codex:"))
    assert "ledger" in listed
    shown = out(memdesk("session", "show", session_id))
    assert DECISION in shown and "environment_context" not in shown
    out(memdesk("compact", session_id, "--backend", "offline", "--yes"))
    assert "integer cents" in out(memdesk("working", "show"))
