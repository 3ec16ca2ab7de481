"""The real Codex CLI, from npm, against a stand-in Responses server on 127.0.0.1.

``codex exec`` writes its rollout file; ``memdesk sources sync`` reads it into
``codex:<session id>`` with the project folder's app, and offline compaction keeps the
decision the user stated.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from tests.support.cli import MemdeskCommand, out
from tests.support.npm import npm_tool
from tests.support.responses_stream import StreamingResponses

CODEX = "@openai/codex@0.169.0"
DECISION = "We decided that the ledger service stores every amount as integer cents."


@pytest.fixture(scope="module")
def codex() -> tuple[str, ...]:
    return npm_tool(CODEX, "codex").command


def test_a_codex_session_is_read_and_compacted(codex, isolated_data_dir, tmp_path):
    codex_home, project = tmp_path / "codex", tmp_path / "ledger"
    codex_home.mkdir()
    project.mkdir()
    with StreamingResponses("Noted: amounts are stored as integer cents.") as model:
        (codex_home / "config.toml").write_text(
            'model = "gpt-stand-in"\nmodel_provider = "stand_in"\n\n[model_providers.stand_in]\n'
            f'name = "Stand-in"\nbase_url = "{model.url}"\nwire_api = "responses"\nenv_key = "STAND_IN_KEY"\n'
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
