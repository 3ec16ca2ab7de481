"""The real pi coding agent, from npm, against a stand-in Anthropic server on 127.0.0.1.

The guide's pi lines, run as written (with ``-p`` and a message, so pi answers once and
ends): Memdesk's prompt reaches the model through ``--append-system-prompt``, given as text
and as a file's path; ``memdesk sources sync`` reads the transcript pi wrote into a session
of the project folder's app. Then the extension ``memdesk connect pi`` writes: the prompt in
pi's system prompt, its ``remember`` tool called by the model, and both gone after
``--remove``.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.anthropic_stream import StreamingAnthropic
from tests.support.cli import MemdeskCommand, out
from tests.support.npm import NpmTool, npm_tool

PI = "@mariozechner/pi-coding-agent@0.73.1"
DECISION = "We decided that the ledger service stores every amount as integer cents."
MEMORY = "Ledger exports use ISO 8601 dates."
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "claude-code-pi-codex.md"


@pytest.fixture(scope="module")
def pi() -> NpmTool:
    return npm_tool(PI, "pi", node_major=20)


def guide_lines() -> list[str]:
    """The commands of the first ```sh block of the guide's pi section without the extension,
    comments left out."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text[text.index("### Without the extension") :]
    start = section.index("```sh\n") + len("```sh\n")
    block = section[start : section.index("```", start)]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


def test_pi_gets_the_prompt_the_guide_gives_it_and_its_transcript_is_read(pi, isolated_data_dir, tmp_path):
    home, project = tmp_path / "home", tmp_path / "ledger"
    (home / ".pi" / "agent").mkdir(parents=True)
    project.mkdir()
    memdesk = MemdeskCommand(isolated_data_dir)
    out(memdesk("app", "add", "ledger", MEMORY))
    path = os.pathsep.join([str(pi.prefix / "node_modules" / ".bin"), str(Path(sys.executable).parent)])
    env = {"PATH": f"{path}{os.pathsep}{os.environ['PATH']}", "HOME": str(home), "PI_OFFLINE": "1"}
    lines = guide_lines()
    assert [line.split()[0] for line in lines] == ["pi", "memdesk", "pi"]

    with StreamingAnthropic("Noted: amounts are stored as integer cents.") as model:
        _pi_with_stand_in(home, model)
        for line in lines:
            asked = f"{line} -p {shlex.quote(DECISION)}" if line.startswith("pi ") else line
            ran = subprocess.run(
                ["bash", "-c", asked],
                cwd=project,
                env={**os.environ, **env},
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert ran.returncode == 0, (line, ran.stderr)
        systems = [json.dumps(body.get("system")) for body in model.messages()]
    assert len(systems) == 2 and all(MEMORY in system for system in systems)

    assert out(memdesk("sources", "enable", "pi", env={"HOME": str(home)})).startswith("pi: on")
    assert "Read 4 new messages from 2 transcripts" in out(
        memdesk("sources", "sync", env={"HOME": str(home)})
    )
    sessions = out(memdesk("session", "list")).splitlines()
    assert len(sessions) == 2 and all(row.startswith("pi:") and "\tledger\t" in row for row in sessions)
    session_id = sessions[0].split("\t")[0]
    assert DECISION in out(memdesk("session", "show", session_id))
    assert "No session is due" in out(memdesk("compact", "--due", "--yes"))


def _pi_with_stand_in(home: Path, model: StreamingAnthropic) -> None:
    """pi's own settings in ``home``: the stand-in as its only model."""
    agent = home / ".pi" / "agent"
    agent.mkdir(parents=True, exist_ok=True)
    provider = {
        "baseUrl": model.url,
        "api": "anthropic-messages",
        "apiKey": "sk-stand-in",
        "models": [{"id": "stand-in"}],
    }
    (agent / "models.json").write_text(json.dumps({"providers": {"stand-in": provider}}))
    (agent / "settings.json").write_text(
        json.dumps({"defaultProvider": "stand-in", "defaultModel": "stand-in"})
    )


def _ask_pi(pi: NpmTool, home: Path, project: Path, message: str) -> None:
    path = os.pathsep.join([str(pi.prefix / "node_modules" / ".bin"), str(Path(sys.executable).parent)])
    env = {
        **os.environ,
        "PATH": f"{path}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(home),
        "PI_OFFLINE": "1",
    }
    ran = subprocess.run(
        ["pi", "-p", message], cwd=project, env=env, capture_output=True, text=True, timeout=120
    )
    assert ran.returncode == 0, ran.stderr


def test_connect_pi_gives_it_the_prompt_and_a_remember_tool_and_remove_takes_them_out(
    pi, isolated_data_dir, tmp_path
):
    home, project = tmp_path / "home", tmp_path / "ledger"
    project.mkdir()
    memdesk = MemdeskCommand(isolated_data_dir)
    at_home = {"HOME": str(home)}
    out(memdesk("app", "add", "ledger", MEMORY))
    own = home / ".pi" / "agent" / "extensions" / "timer.ts"  # another extension of the person's
    own.parent.mkdir(parents=True)
    own.write_text("export default function (pi) {}\n")

    said = out(memdesk("connect", "pi", env=at_home))
    assert "extensions/memdesk.ts" in said and "Turned on the pi source" in said
    assert out(memdesk("connect", "pi", env=at_home)) == "pi is already connected; nothing changed.\n"
    note = "Ledger invoices are numbered per calendar year."
    with StreamingAnthropic("Saved.", tool_call=("remember", {"text": note})) as model:
        _pi_with_stand_in(home, model)
        _ask_pi(pi, home, project, "Remember that invoices are numbered per calendar year.")
        asked = model.messages()
    assert MEMORY in json.dumps(asked[0]["system"])
    assert "remember" in [tool["name"] for tool in asked[0]["tools"]]
    # The tool's answer, as the model got it with its second request.
    assert "Added memory" in json.dumps(asked[1]["messages"][-1])
    assert note in out(memdesk("app", "show", "ledger"))
    assert "\tpython:pi\tdone\tAdd memory to ledger" in out(memdesk("history", "--actor", "python:pi"))
    assert out(memdesk("assistant", "list")).startswith("python:pi\t")
    assert "  python:pi  prompt  app_memory 1" in out(memdesk("access", "log"))

    said = out(memdesk("connect", "pi", "--remove", env=at_home))
    assert "removed the pi extension" in said
    with StreamingAnthropic("Hello.") as model:
        _pi_with_stand_in(home, model)
        _ask_pi(pi, home, project, "Hello again.")
        asked = model.messages()
    assert MEMORY not in json.dumps(asked[0]["system"]) and note not in json.dumps(asked[0]["system"])
    assert "remember" not in [tool["name"] for tool in asked[0].get("tools", [])]
    assert own.read_text() == "export default function (pi) {}\n"  # the person's own, untouched
    assert sorted(path.name for path in own.parent.iterdir()) == ["timer.ts"]
