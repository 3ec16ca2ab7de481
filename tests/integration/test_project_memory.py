"""A project's .pi/memory/MEMORY.md reaches the assistant working in it once the person trusts
the project: through Claude Code's SessionStart hook, pi's hook and the MCP server's prompt
tool, all as real processes; the preview (`memdesk prompt --project`) shows the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest
from tests.support.cli import MemdeskCommand, out, store_of
from tests.support.mcp_client import call_ok, connect, text_of

PROJECT_FACT = "- Ledger amounts are integer cents."
APP_MEMORY = "Ledger exports use ISO 8601 dates."

pytestmark = pytest.mark.engines("sqlite")


def make_project(root: Path) -> Path:
    """A repository with a folder inside it and a project MEMORY.md."""
    (root / ".git").mkdir(parents=True)
    (root / "src").mkdir()
    (root / ".pi" / "memory").mkdir(parents=True)
    (root / ".pi" / "memory" / "MEMORY.md").write_text(PROJECT_FACT + "\n", encoding="utf-8")
    return root


@pytest.fixture
def ledger(memdesk: MemdeskCommand, tmp_path: Path) -> Path:
    """The project `ledger`, with file scopes on and the app's memory stored."""
    memdesk.data_dir.mkdir(parents=True, exist_ok=True)
    (memdesk.data_dir / "config.toml").write_text("[files]\nenabled = true\n", encoding="utf-8")
    with store_of(memdesk) as app, app.ctx.change("Add the app's memory"):
        app.apps.add("ledger", APP_MEMORY)
    return make_project(tmp_path / "ledger")


def session_start(memdesk: MemdeskCommand, folder: Path) -> str:
    event = {"hook_event_name": "SessionStart", "session_id": "s1", "cwd": str(folder)}
    answer = json.loads(out(memdesk("hook", "claude-code", stdin=json.dumps(event).encode())))
    return answer["hookSpecificOutput"]["additionalContext"]


def tree(folder: Path) -> list[str]:
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


def test_the_hook_gives_a_trusted_projects_memory_and_the_preview_the_same_bytes(
    memdesk: MemdeskCommand, ledger: Path
):
    trusted = out(memdesk("files", "trust", cwd=ledger))
    assert trusted.startswith(f"Trusted {ledger}: ")
    context = session_start(memdesk, ledger / "src")  # a folder of the repository
    assert PROJECT_FACT in context
    assert f"### Project MEMORY.md  ({ledger / '.pi' / 'memory' / 'MEMORY.md'})" in context
    assert APP_MEMORY not in context  # the app is the working folder's: src
    preview = out(memdesk("prompt", "--project", ".", "--as", "claude-code", cwd=ledger / "src"))
    assert preview == context + "\n"
    at_root = session_start(memdesk, ledger)
    assert PROJECT_FACT in at_root and APP_MEMORY in at_root
    assert out(memdesk("prompt", "--project", str(ledger), "--as", "claude-code")) == at_root + "\n"


def test_an_untrusted_project_is_left_out_and_nothing_is_made_in_it(
    memdesk: MemdeskCommand, ledger: Path, tmp_path: Path
):
    before = tree(ledger)
    context = session_start(memdesk, ledger)
    assert APP_MEMORY in context  # the folder's app, as before
    assert PROJECT_FACT not in context and str(ledger / ".pi") not in context
    assert "## Persistent memory" in context  # the global scope still is there
    empty = tmp_path / "empty-project"
    empty.mkdir()
    session_start(memdesk, empty)
    assert tree(ledger) == before and list(empty.iterdir()) == []


def test_trust_and_untrust_round_trip(memdesk: MemdeskCommand, ledger: Path):
    status = out(memdesk("files", "status", "--project", str(ledger)))
    assert f"Project scope: {ledger}/.pi/memory (untrusted: not read" in status
    assert "Trusted projects: none yet" in status
    out(memdesk("files", "trust", str(ledger)))
    assert out(memdesk("files", "trust", str(ledger))) == f"{ledger} was trusted already; nothing changed.\n"
    status = out(memdesk("files", "status", "--project", str(ledger / "src")))
    assert f"Project scope: {ledger}/.pi/memory (trusted)" in status
    assert f"Trusted projects (files.trusted_projects):\n  {ledger}\n" in status
    assert 'trusted_projects = ["' + str(ledger) + '"]' in (memdesk.data_dir / "config.toml").read_text()
    untrusted = out(memdesk("files", "untrust", cwd=ledger))
    assert untrusted == f"No longer trusted: {ledger}; its memory folder is not read any more.\n"
    assert PROJECT_FACT not in session_start(memdesk, ledger)
    assert out(memdesk("files", "untrust", str(ledger))) == f"{ledger} was not trusted; nothing changed.\n"


def test_pi_gets_a_trusted_projects_memory(memdesk: MemdeskCommand, ledger: Path):
    assert PROJECT_FACT not in out(memdesk("hook", "pi", "prompt", str(ledger)))
    out(memdesk("files", "trust", str(ledger)))
    prompt = out(memdesk("hook", "pi", "prompt", str(ledger)))
    assert PROJECT_FACT in prompt and APP_MEMORY in prompt
    assert prompt == out(memdesk("prompt", "--project", str(ledger), "--as", "python:pi"))


def test_the_mcp_prompt_tool_composes_for_the_folder_the_client_started_it_in(
    memdesk: MemdeskCommand, ledger: Path, tmp_path: Path
):
    out(memdesk("files", "trust", str(ledger)))
    other = make_project(tmp_path / "atlas")
    replies = {}

    async def run() -> None:
        async with connect(memdesk.data_dir, "codex-mcp-client", cwd=ledger) as s:
            replies["own"] = await call_ok(s, "prompt")
            replies["named"] = await call_ok(s, "prompt", project=str(other))
            replies["relative"] = await s.call_tool("prompt", {"project": "atlas"})
        async with connect(memdesk.data_dir, "codex-mcp-client") as s:
            replies["none"] = await call_ok(s, "prompt")

    anyio.run(run)
    prompt = text_of(replies["own"])  # the prompt exactly, as the preview shows it
    assert APP_MEMORY in prompt and PROJECT_FACT in prompt
    assert prompt == replies["own"].structuredContent["text"]
    assert prompt + "\n" == out(memdesk("prompt", "--project", str(ledger), "--as", "codex"))
    assert replies["own"].structuredContent["project"] == {
        "folder": str(ledger),
        "app": "ledger",
        "trusted": True,
        "memory": str(ledger / ".pi" / "memory"),
    }
    named = text_of(replies["named"])
    assert replies["named"].structuredContent["project"] == {
        "folder": str(other),
        "app": "atlas",
        "trusted": False,
        "memory": None,
    }
    assert PROJECT_FACT not in named and str(other / ".pi") not in named
    assert replies["relative"].isError and "not a full path" in text_of(replies["relative"])
    # Started where there is no project: the prompt as before, for no app.
    assert "(memories for app" not in text_of(replies["none"])
    assert "project" not in replies["none"].structuredContent
