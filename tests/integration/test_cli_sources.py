"""`memdesk sources`, `memdesk hook claude-code` and `memdesk connect`/`disconnect`, as a person runs them."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.cli import fails, out

SESSION = "5d0c7b1e-8f6a-4f0e-b7a1-2c9e4d3f6a01"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    (folder / ".claude" / "projects" / "-work-atlas").mkdir(parents=True)
    return folder


def _env(home: Path) -> dict[str, str]:
    return {"HOME": str(home), "CLAUDE_CONFIG_DIR": "", "CODEX_HOME": "", "PI_CODING_AGENT_DIR": ""}


def _transcript(home: Path) -> Path:
    path = home / ".claude" / "projects" / "-work-atlas" / f"{SESSION}.jsonl"
    records = [
        {
            "type": "user",
            "cwd": "/work/atlas",
            "timestamp": "2026-05-01T09:00:00Z",
            "message": {"role": "user", "content": "We chose Berlin for the offsite in June."},
        },
        {
            "type": "assistant",
            "cwd": "/work/atlas",
            "timestamp": "2026-05-01T09:01:00Z",
            "message": {
                "role": "assistant",
                "content": [
                    {
                        "type": "tool_use",
                        "id": "t1",
                        "name": "Write",
                        "input": {"file_path": "plan.md", "content": "x"},
                    }
                ],
            },
        },
        {
            "type": "user",
            "cwd": "/work/atlas",
            "timestamp": "2026-05-01T09:01:05Z",
            "message": {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}],
            },
        },
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_sources_list_enable_and_sync(memdesk, home):
    env = _env(home)
    _transcript(home)
    listed = out(memdesk("sources", "list", env=env))
    assert "off claude-code  1 transcript in" in listed and "codex" in listed and "not found" in listed
    assert "Read 0 new messages" in out(memdesk("sources", "sync", env=env))
    assert "on" in out(memdesk("sources", "enable", "claude-code", env=env))
    synced = out(memdesk("sources", "sync", env=env))
    assert f"claude-code:{SESSION}: 2 new messages" in synced
    shown = out(memdesk("session", "show", f"claude-code:{SESSION}"))
    assert "Berlin" in shown and "Tool Write: plan.md" in shown
    assert "unchanged" in out(memdesk("sources", "sync", env=env))
    assert "(1 unchanged)" in out(memdesk("sources", "sync", env=env))
    fails(memdesk("sources", "sync", "claude", env=env), 2, "unknown source 'claude'")


@pytest.mark.engines("sqlite")  # reading a transcript file, not storage
def test_compact_transcript_reads_a_claude_code_file_with_tool_blocks(memdesk, home):
    printed = out(memdesk("compact", "--transcript", str(_transcript(home)), "--dry-run"))
    assert "Berlin" in printed


@pytest.mark.engines("sqlite")
def test_the_hook_answers_session_start_with_the_projects_prompt(memdesk, home):
    out(memdesk("app", "add", "atlas", "Offsites are booked through Anna."))
    event = {
        "hook_event_name": "SessionStart",
        "cwd": "/work/atlas",
        "session_id": SESSION,
        "source": "startup",
    }
    answer = json.loads(out(memdesk("hook", "claude-code", stdin=json.dumps(event).encode(), env=_env(home))))
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Offsites are booked through Anna." in answer["hookSpecificOutput"]["additionalContext"]


@pytest.mark.engines("sqlite")
def test_the_stop_hook_reads_the_transcript_when_the_source_is_on(memdesk, home):
    env = _env(home)
    event = {"hook_event_name": "Stop", "transcript_path": str(_transcript(home)), "cwd": "/work/atlas"}
    out(memdesk("sources", "enable", "claude-code", env=env))
    done = memdesk("hook", "claude-code", stdin=json.dumps(event).encode(), env=env)
    assert done.returncode == 0 and done.stdout == b""
    assert "Berlin" in out(memdesk("session", "show", f"claude-code:{SESSION}"))


@pytest.mark.engines("sqlite")
@pytest.mark.parametrize(
    "stdin", [b"not json", b"[1, 2]", b'{"hook_event_name": "Stop", "transcript_path": 7}']
)
def test_a_hook_never_fails_claude_code(memdesk, home, stdin):
    done = memdesk("hook", "claude-code", stdin=stdin, env=_env(home))
    assert done.returncode == 0 and done.stdout == b"" and b"Traceback" not in done.stderr


@pytest.mark.engines("sqlite")
def test_the_hook_run_by_hand_in_a_terminal_says_what_it_is_for(memdesk, home):
    # Claude Code hands it the event on a pipe; typed in a terminal it would wait on nothing.
    terminal, its_end = pty.openpty()
    command = [sys.executable, "-m", "memdesk", "--data-dir", str(memdesk.data_dir), "hook", "claude-code"]
    env = {**os.environ, **_env(home)}
    try:
        done = subprocess.run(command, stdin=its_end, capture_output=True, timeout=30, env=env)
    finally:
        os.close(its_end)
        os.close(terminal)
    assert done.returncode == 2 and done.stdout == b""
    said = done.stderr.decode()
    assert said.startswith("memdesk: Claude Code runs this at its hook events") and said.count("\n") == 1
    assert "`memdesk connect claude-code` sets it up" in said


@pytest.mark.engines("sqlite")
def test_a_hook_that_fails_leaves_a_line_in_the_log(memdesk, home):
    (memdesk.data_dir / "memdesk.sqlite3").parent.mkdir(parents=True, exist_ok=True)
    (memdesk.data_dir / "memdesk.sqlite3").write_bytes(b"this is not a database" * 100)
    event = {"hook_event_name": "SessionStart", "cwd": "/work/atlas"}
    done = memdesk("hook", "claude-code", stdin=json.dumps(event).encode(), env=_env(home))
    assert done.returncode == 0 and done.stdout == b""
    log = (memdesk.data_dir / "logs" / "hooks.log").read_text()
    assert log.count("\n") == 1 and "hook claude-code SessionStart:" in log


@pytest.mark.engines("sqlite")
def test_connect_merges_backs_up_is_idempotent_and_disconnect_takes_it_out(memdesk, home):
    env = _env(home)
    settings = home / ".claude" / "settings.json"
    theirs = {
        "model": "opus",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]},
    }
    settings.write_text(json.dumps(theirs))
    (home / ".claude.json").write_text(
        json.dumps({"numStartups": 3, "mcpServers": {"other": {"command": "x"}}})
    )
    first = out(memdesk("connect", "claude-code", env=env))
    assert "hook SessionStart" in first and "backed up" in first and "sources.claude_code = true" in first
    merged = json.loads(settings.read_text())
    assert merged["model"] == "opus" and len(merged["hooks"]["Stop"]) == 2
    command = merged["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert command.endswith(f"--data-dir {memdesk.data_dir} hook claude-code")
    servers = json.loads((home / ".claude.json").read_text())
    assert servers["numStartups"] == 3 and set(servers["mcpServers"]) == {"other", "memdesk"}
    assert "nothing changed" in out(memdesk("connect", "claude-code", env=env))
    assert "removed hook Stop" in out(memdesk("disconnect", "claude-code", env=env))
    assert json.loads(settings.read_text()) == theirs
    assert json.loads((home / ".claude.json").read_text())["mcpServers"] == {"other": {"command": "x"}}
    assert "nothing changed" in out(memdesk("disconnect", "claude-code", env=env))


@pytest.mark.engines("sqlite")
def test_connect_refuses_a_settings_file_it_cannot_read_and_changes_nothing(memdesk, home):
    settings = home / ".claude" / "settings.json"
    settings.write_text("{ not json")
    fails(memdesk("connect", "claude-code", env=_env(home)), 2, "is not valid JSON")
    assert settings.read_text() == "{ not json" and not (home / ".claude.json").exists()


@pytest.mark.engines("sqlite")
@pytest.mark.parametrize(
    ("client", "text"),
    [
        ("claude-desktop", '"mcpServers"'),
        ("claude-code", "claude mcp add"),
        ("cursor", '"mcpServers"'),
        ("stdio", " mcp"),
    ],
)
def test_connect_print_shows_the_snippet(memdesk, client, text):
    assert text in out(memdesk("connect", client, "--print"))


@pytest.mark.engines("sqlite")
def test_connect_print_names_the_store_in_use(memdesk, tmp_path):
    other = tmp_path / "work.sqlite3"
    printed = out(memdesk("--db", str(other), "connect", "claude-desktop", "--print"))
    config = json.loads(printed.split("\n# ")[0])
    args = config["mcpServers"]["memdesk"]["args"]
    assert args == ["--data-dir", str(memdesk.data_dir), "--db", str(other), "mcp"]
    url = "postgresql+psycopg://ada:s3cret@127.0.0.1:1/memdesk"
    line = out(memdesk("connect", "stdio", "--print", env={"MEMDESK_DB": url}))
    assert "--db postgresql+psycopg://ada@127.0.0.1:1/memdesk mcp" in line and "s3cret" not in line


def test_two_sync_processes_at_once_log_each_message_once(memdesk, home):
    env = _env(home)
    path = home / ".claude" / "projects" / "-work-atlas" / f"{SESSION}.jsonl"
    records = [
        {
            "type": "user",
            "cwd": "/work/atlas",
            "timestamp": "2026-05-01T09:00:00Z",
            "message": {"role": "user", "content": f"Message number {n}."},
        }
        for n in range(2000)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    out(memdesk("sources", "enable", "claude-code", env=env))
    argv = [sys.executable, "-m", "memdesk", "--data-dir", str(memdesk.data_dir), "sources", "sync"]
    running = [
        subprocess.Popen(argv, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    for process in running:
        assert process.wait(timeout=120) == 0
    shown = out(memdesk("session", "show", f"claude-code:{SESSION}"))
    assert all(shown.count(f"Message number {n}.") == 1 for n in range(2000))


@pytest.mark.engines("sqlite")
def test_sync_of_one_missing_file_says_so_and_fails(memdesk, home, tmp_path):
    missing = tmp_path / f"{SESSION}.jsonl"
    done = memdesk("sources", "sync", "claude-code", "--file", str(missing), env=_env(home))
    assert done.returncode == 1 and b"is not there (removed?); skipped" in done.stderr
    assert b"Traceback" not in done.stderr


@pytest.mark.engines("sqlite")
def test_a_stop_hook_whose_transcript_is_gone_leaves_a_line_in_the_log(memdesk, home):
    env = _env(home)
    out(memdesk("sources", "enable", "claude-code", env=env))
    gone = home / ".claude" / "projects" / "-work-atlas" / f"{SESSION}.jsonl"
    event = {"hook_event_name": "Stop", "transcript_path": str(gone), "cwd": "/work/atlas"}
    done = memdesk("hook", "claude-code", stdin=json.dumps(event).encode(), env=env)
    assert done.returncode == 0 and done.stdout == b"" and done.stderr == b""
    log = (memdesk.data_dir / "logs" / "hooks.log").read_text()
    assert log.count("\n") == 1 and f"hook claude-code Stop: TranscriptNotRead: {gone} is not there" in log


@pytest.mark.engines("sqlite")
def test_connect_codex_turns_its_transcript_source_on_and_disconnect_says_how_to_turn_it_off(memdesk, home):
    env = _env(home)
    said = out(memdesk("connect", "codex", env=env))
    assert "[mcp_servers.memdesk]" in said and "Turned on the codex source (sources.codex = true)." in said
    assert "on  codex" in out(memdesk("sources", "list", env=env))
    assert "nothing changed" in out(memdesk("connect", "codex", env=env))
    gone = out(memdesk("disconnect", "codex", env=env))
    assert "`memdesk sources disable codex` turns it off" in gone


PERSONS_SETTINGS = """\
# my Memdesk
[memory]
recall_limit = 8  # a few more than the default

[llm]
backend = "offline"
"""


@pytest.mark.engines("sqlite")
def test_connect_writes_one_key_and_a_pasted_table_does_not_turn_the_source_back_off(memdesk, home):
    env = _env(home)
    config = memdesk.data_dir / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(PERSONS_SETTINGS)
    out(memdesk("connect", "claude-code", env=env))
    assert config.read_text() == PERSONS_SETTINGS + "\n[sources]\nclaude_code = true\n"
    # The block the local-models guide shows, pasted below rather than merged by hand.
    config.write_text(config.read_text() + '\n[llm]\nbackend = "openai"\nmodel = "qwen2.5:7b-instruct"\n')
    listed = memdesk("sources", "list", env=env)
    assert "on  claude-code" in out(listed)
    warned = listed.stderr.decode()
    assert "Cannot declare ('llm',) twice" in warned
    assert 'in effect: memory.recall_limit = 8, llm.backend = "openai"' in warned
    assert "sources.claude_code = true" in warned
    before = config.read_text()
    fails(memdesk("sources", "enable", "pi", env=env), 2, f"{config} is not valid TOML")
    assert config.read_text() == before
