"""The real `memdesk` command, run as a process on a temporary store."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.cli import fails, out, store_of

from memdesk.store.models import HistoryStep


def test_documents_round_trip_including_stdin(memdesk):
    out(memdesk("doc", "set", "user/profile", "Name: Ada"))
    out(memdesk("doc", "append", "user/profile", "-", stdin="Lives in Zürich 🏔".encode()))
    assert out(memdesk("doc", "show", "user/profile")) == "Name: Ada\nLives in Zürich 🏔\n"
    assert out(memdesk("doc", "list")).startswith("user/profile\t")


@pytest.mark.engines("sqlite")  # wording; working memory's SQL runs on both engines in tests/unit
def test_working_show_prints_the_text_and_says_aside_when_it_expires(memdesk):
    out(memdesk("--now", "2026-05-01T00:00:00Z", "working", "set", "shipping v2", "--ttl-days", "3"))
    live = memdesk("--now", "2026-05-02", "working", "show")
    assert out(live) == "shipping v2\n"
    assert "live, expires 2026-05-04T00:00:00Z" in live.stderr.decode()
    expired_show = memdesk("--now", "2026-05-05", "working", "show")
    assert out(expired_show) == ""
    assert "expired at 2026-05-04T00:00:00Z" in expired_show.stderr.decode()
    expired = out(memdesk("--now", "2026-05-05", "working", "show", "--all"))
    assert "expired at 2026-05-04T00:00:00Z" in expired and "shipping v2" in expired
    assert out(memdesk("working", "show")) == ""


@pytest.mark.engines("sqlite")  # wording and settings, not storage
def test_working_set_help_names_the_setting_not_a_value_it_did_not_read(memdesk):
    memdesk.data_dir.mkdir(exist_ok=True)
    (memdesk.data_dir / "config.toml").write_text("[memory]\nworking_memory_ttl_days = 7\n", encoding="utf-8")
    helped = " ".join(out(memdesk("working", "set", "--help")).split())
    assert "memory.working_memory_ttl_days" in helped and "14" not in helped
    said = out(memdesk("--now", "2026-05-01T00:00:00Z", "working", "set", "seven days"))
    assert "expires 2026-05-08T00:00:00Z" in said


@pytest.mark.engines("sqlite")  # wording; expiry's SQL runs on both engines in tests/unit/test_expiry.py
def test_entry_list_marks_what_has_expired_as_recall_leaves_it_out(memdesk):
    out(memdesk("--now", "2026-06-01", "entry", "add", "trip", "Flew to Lisbon", "--category", "timeline"))
    out(memdesk("--now", "2026-12-01", "entry", "add", "train", "Lisbon train", "--category", "timeline"))
    listed = out(memdesk("--now", "2026-12-08", "entry", "list")).splitlines()
    assert listed == [
        "train [timeline] Lisbon train",
        "trip [timeline] (expired 2026-08-30T00:00:00Z) Flew to Lisbon",
    ]
    assert out(memdesk("--now", "2026-12-08", "recall", "Lisbon")) == "train: Lisbon train\n"


@pytest.mark.engines("sqlite")  # the command's wording; the cap runs on both engines in tests/unit
def test_app_cap_through_the_command(memdesk):
    for index in range(10):  # up to the cap, written in this process
        with store_of(memdesk, f"2026-05-01T00:{index:02d}:00Z") as store:
            store.apps.add("cal", f"memory {index}")
    added = out(memdesk("--now", "2026-05-01T00:10:00Z", "app", "add", "cal", "memory 10"))
    assert "moved 1 to Trash (oldest; the cap is 10)" in added
    lines = out(memdesk("app", "show", "cal")).splitlines()
    assert len(lines) == 10
    assert lines[0].endswith("[2026-05-01] memory 10")
    assert "memory 0" not in "\n".join(lines)
    assert out(memdesk("app", "list")) == "cal\t10/10\n"
    assert "memory:1\t" in out(memdesk("trash", "list"))
    out(memdesk("trash", "restore", "memory:1"))
    with store_of(memdesk) as store, store.ctx.store.write() as session:  # as an older store wrote it
        session.get(HistoryStep, store.history.list(limit=1)[0].id).label = "Restore memory:1"
    newest = out(memdesk("history", "--limit", "1"))
    assert newest.endswith("\tRestore app memory 1 from Trash\n"), newest
    assert out(memdesk("undo")) == "undid #12: Restore app memory 1 from Trash\n"


@pytest.mark.engines("sqlite")  # wording and settings, not storage
def test_prompt_text_and_json(memdesk):
    out(memdesk("doc", "set", "user/profile", "Name: Ada"))
    out(memdesk("entry", "add", "lang", "Ada writes Rust"))
    text = out(memdesk("prompt", "--message", "rust please"))
    assert (
        text == "--- Who you're talking to ---\nName: Ada\n\n## Memory Context\n\n- lang: Ada writes Rust\n"
    )
    data = json.loads(out(memdesk("--now", "2026-05-01T00:00:00Z", "prompt", "--json")))
    assert data["now"] == "2026-05-01T00:00:00Z"
    assert data["text"] == "--- Who you're talking to ---\nName: Ada"
    assert [s["name"] for s in data["sections"] if s["included"]] == ["profile"]
    assert {s["name"]: s["reason"] for s in data["sections"]}["recall"] == "no message"


def test_recall_entry_history_undo(memdesk):
    out(memdesk("entry", "add", "k1", "the cat is called Pixel"))
    out(memdesk("entry", "add", "k1", "the cat is called Mochi"))
    assert out(memdesk("recall", "cat")) == "k1: the cat is called Mochi\n"
    assert out(memdesk("undo")).startswith("undid #2")
    assert out(memdesk("recall", "cat")) == "k1: the cat is called Pixel\n"
    out(memdesk("redo"))
    assert "Save entry k1" in out(memdesk("history"))
    # Since and until as ISO 8601 or Unix seconds, as the HTTP API, MCP and Python take them.
    since_seconds = out(memdesk("recall", "cat", "--since", "946684800"))
    assert since_seconds == out(memdesk("recall", "cat", "--since", "2000-01-01"))
    assert "k1" in since_seconds
    assert "k1" not in out(memdesk("recall", "cat", "--until", "946684800"))


def test_sessions(memdesk):
    out(memdesk("session", "log", "telegram:7", "--role", "user", "hello", "--app", "cal"))
    out(memdesk("session", "log", "telegram:7", "--role", "assistant", "hi!"))
    assert "telegram:7\tcal\t2 messages\t2 new" in out(memdesk("session", "list"))
    assert out(memdesk("session", "show", "telegram:7")).count("\n") == 2


@pytest.mark.engines("sqlite")  # two data folders are two stores; MEMDESK_DB would make them one
def test_export_import_round_trip(memdesk, tmp_path):
    out(memdesk("doc", "set", "global", "shared"))
    out(memdesk("export", str(tmp_path / "all.json")))
    other = [sys.executable, "-m", "memdesk", "--data-dir", str(tmp_path / "b")]
    subprocess.run([*other, "import", str(tmp_path / "all.json")], check=True, capture_output=True)
    shown = subprocess.run([*other, "doc", "show", "global"], check=True, capture_output=True)
    assert shown.stdout == b"shared\n"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (("doc", "set", "team/notes", "x"), 2, "unknown namespace 'team/notes'"),
        (
            (
                "doc",
                "show",
            ),
            2,
            "bad usage",
        ),
        (("--now", "next tuesday", "prompt"), 2, "not an ISO 8601 date"),
        (("recall", "x", "--since", "soon"), 2, "neither ISO 8601 nor Unix seconds"),
        (("app", "rm", "999"), 1, "no app memory 999"),
        (("app", "purge", "cal"), 2, "purge needs --yes"),
        (("undo",), 1, "nothing to undo"),
        (("trash", "restore", "memory:5"), 1, "memory:5 is not in Trash"),
        (("session", "log", "no-colon", "--role", "user", "x"), 2, "not of the form CHANNEL:ID"),
        (("import", "/nonexistent/file.json"), 2, "no such file"),
        (("prompt", "--trusted"), 2, "--trusted needs --project"),
    ],
)
@pytest.mark.engines("sqlite")  # argument errors: their wording is the command's
def test_expected_errors_have_exit_codes_and_no_traceback(memdesk, args, code, message):
    fails(memdesk(*args), code, message)


@pytest.mark.engines("sqlite")  # argument errors: their wording is the command's
def test_a_command_given_without_its_action_or_client_lists_the_choices(memdesk):
    # `memdesk review` alone: the usage line says only ACTION; `memdesk connect`: only CLIENT.
    said = fails(memdesk("review"), 2, "the following arguments are required: ACTION")
    assert said.endswith(
        "  choose one of: list, approve, reject; `memdesk review --help` says what each does\n"
    )
    files = fails(memdesk("files"), 2, "required: COMMAND")
    assert "  choose one of: status, trust, untrust, archive, restore;" in files
    connect = fails(memdesk("connect"), 2, "required: CLIENT")
    assert "  choose one of: claude-code, claude-desktop, cursor, codex," in connect
    # A wrong one is listed by argparse itself, once.
    assert "choose one of" not in fails(memdesk("review", "frob"), 2, "invalid choice: 'frob'")


@pytest.mark.engines("sqlite")  # argument errors: their wording is the command's
def test_huge_content_and_invalid_utf8_lose_nothing(memdesk):
    out(memdesk("doc", "set", "user/facts", "keep"))
    huge = b"x" * (10 * 1024 * 1024)
    fails(memdesk("doc", "set", "user/facts", "-", stdin=huge), 2, "the limit is 1,000,000")
    fails(memdesk("doc", "set", "user/facts", "-", stdin=b"caf\xe9"), 2, "not valid UTF-8 (byte 3)")
    assert out(memdesk("doc", "show", "user/facts")) == "keep\n"


@pytest.mark.engines("sqlite")  # the SQLite file itself
def test_newer_database_is_refused(memdesk):
    out(memdesk("doc", "set", "global", "x"))
    db = Path(memdesk.data_dir) / "memdesk.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value='42' WHERE key='schema_version'")
    fails(memdesk("doc", "show", "global"), 1, "written by a newer Memdesk (schema 42")


@pytest.mark.engines("sqlite")  # the SQLite file itself
def test_locked_database_waits_then_fails_clearly(memdesk):
    out(memdesk("doc", "set", "global", "x"))
    db = Path(memdesk.data_dir) / "memdesk.sqlite3"
    blocker = sqlite3.connect(db, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        result = memdesk("doc", "set", "global", "y", env={"MEMDESK_BUSY_TIMEOUT_MS": "400"})
    finally:
        blocker.rollback()
        blocker.close()
    fails(result, 1, "is busy: another program is writing to it")
    assert out(memdesk("doc", "show", "global")) == "x\n"


@pytest.mark.engines("sqlite")  # wording and settings, not storage
def test_bad_settings_are_warnings_not_failures(memdesk):
    Path(memdesk.data_dir).mkdir(parents=True, exist_ok=True)
    (Path(memdesk.data_dir) / "config.toml").write_text("[memory]\nrecall_limit = 0\n")
    result = memdesk("prompt")
    assert result.returncode == 0
    assert "memory.recall_limit: 0 is not valid; expected a number from 1 to 50" in result.stderr.decode()


@pytest.mark.engines("sqlite")  # wording and settings, not storage
def test_version(memdesk):
    from memdesk import __version__

    assert out(memdesk("--version")) == f"memdesk {__version__}\n"
