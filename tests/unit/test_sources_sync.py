"""Reading the assistants' transcript folders into sessions: only new lines, never twice."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from memdesk.services.memdesk import Memdesk
from memdesk.services.sources import lines

SESSION = "0b5c1c4e-2f0e-4a57-9a38-1f4d7c2e9b10"


@pytest.fixture
def claude_dir(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "claude"
    (root / "projects" / "-home-ada-src-ledger").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi"))
    return root


@pytest.fixture
def transcript(claude_dir) -> Path:
    return claude_dir / "projects" / "-home-ada-src-ledger" / f"{SESSION}.jsonl"


def line(kind: str, content, minute: int = 0, **extra) -> bytes:
    record = {
        "type": kind,
        "timestamp": f"2026-05-01T09:{minute:02d}:00Z",
        "cwd": "/home/ada/src/ledger",
        "sessionId": SESSION,
        "message": {"role": kind, "content": content},
        **extra,
    }
    return (json.dumps(record) + "\n").encode()


def append(path: Path, *chunks: bytes) -> None:
    with path.open("ab") as handle:
        for chunk in chunks:
            handle.write(chunk)


def contents(app: Memdesk) -> list[str]:
    if not any(item.id == f"claude-code:{SESSION}" for item in app.sessions.list()):
        return []
    return [m.content for m in app.sessions.messages(f"claude-code:{SESSION}")]


def test_a_transcript_becomes_a_session_of_its_project_with_the_messages_times(memdesk_app, transcript):
    append(
        transcript,
        b'{"type":"queue-operation","operation":"enqueue"}\n',
        line("user", "Amounts are integer cents.", 1),
        line("assistant", "Understood.", 2),
    )
    result = memdesk_app.sources.sync(["claude-code"])
    assert result.messages == 2 and result.lines()[0].startswith(f"claude-code:{SESSION}: 2 new messages")
    state = memdesk_app.sessions.get(f"claude-code:{SESSION}")
    assert state.app_id == "ledger"
    rows = memdesk_app.sessions.messages(state.id)
    assert [(m.role, m.content, m.created_at.minute) for m in rows] == [
        ("user", "Amounts are integer cents.", 1),
        ("assistant", "Understood.", 2),
    ]


def test_only_new_lines_are_read_and_an_unchanged_file_is_not_opened(memdesk_app, transcript):
    append(transcript, line("user", "first"))
    memdesk_app.sources.sync(["claude-code"])
    again = memdesk_app.sources.sync(["claude-code"])
    assert again.files == () and again.unchanged == 1
    append(transcript, line("user", "second"))
    assert memdesk_app.sources.sync(["claude-code"]).messages == 1
    assert contents(memdesk_app) == ["first", "second"]


def test_a_line_still_being_written_waits_for_its_newline(memdesk_app, transcript):
    append(transcript, line("user", "whole"), line("user", "half written")[:-12])
    memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == ["whole"]
    append(transcript, line("user", "half written")[-12:])
    memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == ["whole", "half written"]


def test_a_tool_call_and_its_result_in_two_reads_are_one_note(memdesk_app, transcript):
    use = {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "make test"}}
    append(transcript, line("assistant", [use]))
    memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == []
    append(
        transcript, line("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "ok: 40 tests"}])
    )
    memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == ["Tool Bash: make test — ok: 40 tests"]


def test_a_rewritten_or_truncated_file_is_read_again_without_duplicates(memdesk_app, transcript):
    append(transcript, line("user", "one"), line("user", "two"))
    memdesk_app.sources.sync(["claude-code"])
    transcript.write_bytes(line("user", "one", 5) + line("user", "two"))  # rewritten: first line differs
    memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == ["one", "two"]
    transcript.write_bytes(line("user", "three", 7))  # shrank
    memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == ["one", "two", "three"]


def test_bad_lines_are_skipped_and_reported_and_the_rest_is_read(memdesk_app, transcript, monkeypatch):
    monkeypatch.setattr(lines, "MAX_LINE_BYTES", 1000)
    append(
        transcript,
        line("user", "before"),
        line("user", "x" * 5000),
        b'{"type": "user", "bad": "\xff\xfe"}\n',
        b"{not json\n",
        line("user", "after"),
    )
    result = memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == ["before", "after"]
    skipped = result.files[0].skipped
    assert len(skipped) == 3
    assert "over" in skipped[0] and "not valid UTF-8" in skipped[1] and "not valid JSON" in skipped[2]


def test_a_missing_unreadable_or_foreign_file_is_one_line_and_the_others_go_on(memdesk_app, transcript):
    append(transcript, line("user", "kept"))
    folder = transcript.parent
    (folder / "notes.jsonl").write_text("just some notes\n")
    (folder / "dir.jsonl").mkdir()
    result = memdesk_app.sources.sync(["claude-code"])
    problems = sorted(item.problem or "" for item in result.files if item.problem)
    assert (
        len(problems) == 2
        and "cannot be read" in problems[0]
        and "not a Claude Code transcript" in problems[1]
    )
    assert contents(memdesk_app) == ["kept"]
    gone = memdesk_app.sources.sync_file(
        folder / "gone-0b5c1c4e-2f0e-4a57-9a38-1f4d7c2e9b11.jsonl", "claude-code"
    )
    assert gone.problem == "is not there (removed?); skipped"


def test_two_readers_at_once_log_each_message_once(memdesk_app, transcript, isolated_data_dir, store_url):
    append(transcript, *(line("user", f"message {n}") for n in range(300)))
    apps = [Memdesk.open(data_dir=str(isolated_data_dir), db=store_url) for _ in range(2)]
    try:
        threads = [threading.Thread(target=app.sources.sync, args=(["claude-code"],)) for app in apps]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for app in apps:
            app.close()
    assert contents(memdesk_app) == [f"message {n}" for n in range(300)]


def test_only_enabled_sources_are_read_and_the_setting_is_kept(memdesk_app, transcript):
    append(transcript, line("user", "hello"))
    assert memdesk_app.sources.sync().files == ()
    info = memdesk_app.sources.set_enabled("claude-code", True)
    assert info.enabled and info.transcripts == 1 and info.found
    assert memdesk_app.settings.sources.claude_code
    assert memdesk_app.sources.sync().messages == 1
    listed = {item.name: item for item in memdesk_app.sources.list()}
    assert not listed["codex"].found and not listed["pi"].enabled


def test_a_sync_writes_one_history_step_per_batch_that_undo_reverts(memdesk_app, transcript):
    append(transcript, line("user", "undo me"))
    memdesk_app.sources.sync(["claude-code"])
    memdesk_app.history.undo()
    assert contents(memdesk_app) == []
    memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == []  # an undone read is not read again


@pytest.mark.engines("sqlite")
def test_a_fifty_megabyte_line_is_skipped_without_stopping_the_file(memdesk_app, transcript):
    huge = line("user", "x" * (50 * 1024 * 1024))
    append(transcript, line("user", "before"), huge, line("user", "after"))
    result = memdesk_app.sources.sync(["claude-code"])
    assert contents(memdesk_app) == ["before", "after"]
    assert result.files[0].skipped == (
        f"the line at byte {len(line('user', 'before')):,} is over 16 MB; skipped",
    )
