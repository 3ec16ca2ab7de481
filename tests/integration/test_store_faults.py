"""Faults a desktop store meets, through the real `memdesk` command: a long writer,
a full disk, a damaged file, a folder where WAL cannot work."""

from __future__ import annotations

import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand, fails, out, store_of
from tests.support.damage import damage_table

# Holds the write lock of the store, with a large uncommitted write in it, until its
# standard input closes: what another program's long import looks like to a reader.
LONG_WRITER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'revision'")
conn.executemany(
    "INSERT INTO entries (key, content, category, importance, pinned, created_at, updated_at)"
    " VALUES (?, ?, 'knowledge', 0.5, 0, '2026-01-01 00:00:00', '2026-01-01 00:00:00')",
    ((f"bulk-{i}", "imported " * 50) for i in range(20000)),
)
print("holding", flush=True)
sys.stdin.read()
conn.rollback()
"""
# The same on PostgreSQL: the writers' lock (``engines.postgresql.WRITE_LOCK_KEY``) and rows.
LONG_WRITER_POSTGRESQL = """
import sys
from sqlalchemy import create_engine, text
from memdesk.store.engines.postgresql import WRITE_LOCK_KEY
with create_engine(sys.argv[1]).connect() as conn:
    conn.execute(text(f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})"))
    conn.execute(text("UPDATE meta SET value = 'held' WHERE key = 'revision'"))
    conn.execute(
        text(
            "INSERT INTO entries (key, content, category, importance, pinned, created_at, updated_at)"
            " VALUES (:key, :content, 'knowledge', 0.5, false, '2026-01-01', '2026-01-01')"
        ),
        [{"key": f"bulk-{i}", "content": "imported " * 50} for i in range(20000)],
    )
    print("holding", flush=True)
    sys.stdin.read()
    conn.rollback()
"""


def db_file(memdesk: MemdeskCommand) -> Path:
    return Path(memdesk.data_dir) / "memdesk.sqlite3"


def test_reads_never_wait_for_a_long_writer(memdesk):
    with store_of(memdesk) as store:
        store.entries.upsert("coffee", "Ada drinks her coffee black", "knowledge")
        store.apps.add("cal", "Prefers meetings after 2pm")
        store.documents.set("global", "Be brief.")
    shared = os.environ.get("MEMDESK_DB")
    script, where = (LONG_WRITER_POSTGRESQL, shared) if shared else (LONG_WRITER, str(db_file(memdesk)))
    writer = subprocess.Popen(
        [sys.executable, "-c", script, where],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "holding\n"
        # With a 1 s busy timeout, a command that had to wait for the writer fails
        # (exit 1, "busy"); answering proves it waited less than that.
        quick = {"MEMDESK_BUSY_TIMEOUT_MS": "1000"}
        answers = {
            ("recall", "coffee"): "coffee: Ada drinks her coffee black\n",
            ("entry", "list"): "coffee [knowledge] Ada drinks her coffee black\n",
            ("doc", "show", "global"): "Be brief.\n",
        }
        for args, expected in answers.items():
            assert out(memdesk(*args, env=quick)) == expected, args
        assert "Prefers meetings after 2pm" in out(memdesk("app", "show", "cal", env=quick))
        assert "Prefers meetings after 2pm" in out(memdesk("prompt", "--app", "cal", env=quick))
        assert "Save entry coffee" in out(memdesk("history", env=quick))
        # A writer still waits its turn, then says why it gave up.
        fails(memdesk("entry", "add", "tea", "green", env={"MEMDESK_BUSY_TIMEOUT_MS": "300"}), 1, "busy")
    finally:
        writer.communicate("", timeout=60)
    assert "bulk-1 " not in out(memdesk("entry", "list"))


def store_size(memdesk: MemdeskCommand) -> int:
    return sum(
        Path(f"{db_file(memdesk)}{side}").stat().st_size
        for side in ("", "-wal")
        if Path(f"{db_file(memdesk)}{side}").exists()
    )


def on_a_small_disk(memdesk: MemdeskCommand, limit: int, *args: str) -> subprocess.CompletedProcess:
    """Run ``memdesk ARGS`` where no file may grow past ``limit`` bytes: writes beyond it
    fail with EFBIG, as on a full disk."""

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "memdesk", "--data-dir", str(memdesk.data_dir), *args],
        input=("much more text " * 40000).encode(),
        capture_output=True,
        preexec_fn=small_disk,
        timeout=60,
    )


@pytest.mark.engines("sqlite")
def test_a_full_disk_fails_the_write_cleanly_and_keeps_earlier_writes(memdesk):
    with store_of(memdesk) as store:
        for index in range(3):
            store.entries.upsert(f"k{index}", f"saved before {index}", "knowledge")
        store.documents.set("global", "Be brief.")
    result = on_a_small_disk(memdesk, store_size(memdesk) + 30000, "doc", "set", "global", "-")
    fails(result, 1, "the disk is full")
    assert out(memdesk("doc", "show", "global")) == "Be brief.\n"
    assert out(memdesk("entry", "list")).count("saved before") == 3
    assert out(memdesk("db", "check")).endswith(": ok\n")


@pytest.mark.engines("sqlite")
def test_a_damaged_file_is_reported_kept_and_restored_from_the_newest_backup(memdesk):
    with store_of(memdesk) as store:
        for index in range(3):
            store.entries.upsert(f"k{index}", f"in the backup {index}", "knowledge")
        store.documents.set("global", "paragraph\n\n" * 2000)
    backup = Path(out(memdesk("db", "backup")).strip())
    assert backup.parent == Path(memdesk.data_dir) / "backups" and backup.is_file()
    with store_of(memdesk) as store:
        store.entries.upsert("late", "written after the backup", "knowledge")
    file = db_file(memdesk)
    damage_table(file, "entries")
    damaged = file.read_bytes()

    err = fails(memdesk("entry", "list"), 1, f"the database file {file} is damaged")
    assert "Tree" in err or "malformed" in err  # integrity_check's own words
    assert f"memdesk db restore {backup}" in err
    fails(memdesk("db", "check"), 1, "is damaged")
    assert file.read_bytes() == damaged  # never written to, never replaced

    restored = out(memdesk("db", "restore", str(backup)))
    kept = Path(restored.splitlines()[0].removeprefix("kept the old file as "))
    assert kept.name.startswith("memdesk.sqlite3.damaged-") and kept.read_bytes() == damaged
    assert "integrity check: ok" in restored
    assert out(memdesk("entry", "list")).count("in the backup") == 3
    assert out(memdesk("db", "check")).endswith(": ok\n")


@pytest.mark.engines("sqlite")
def test_restore_refuses_a_missing_or_damaged_backup_and_changes_nothing(memdesk, tmp_path):
    with store_of(memdesk) as store:
        store.entries.upsert("k", "v", "knowledge")
    before = db_file(memdesk).read_bytes()
    fails(memdesk("db", "restore", str(tmp_path / "nope.sqlite3")), 2, "no backup file at")
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database" * 500)
    fails(memdesk("db", "restore", str(junk)), 2, "is damaged too")
    assert db_file(memdesk).read_bytes() == before
    backup = Path(out(memdesk("db", "backup")).strip())
    reader = sqlite3.connect(db_file(memdesk))  # another program, with the store open
    reader.execute("SELECT count(*) FROM meta").fetchone()
    try:
        fails(memdesk("db", "restore", str(backup)), 1, "is open in another program")
    finally:
        reader.close()
    assert db_file(memdesk).read_bytes() == before
    assert [p.name for p in Path(memdesk.data_dir).iterdir() if "damaged" in p.name] == []


def test_a_folder_without_shared_memory_is_refused_at_open(tmp_path):
    # Network and synced folders often lack the shared memory WAL needs. SQLite's
    # "unix-dotfile" file system layer has none either, so it stands in for them here.
    file = tmp_path / "memdesk.sqlite3"
    memdesk = MemdeskCommand(tmp_path, ("--db", f"sqlite:///file:{file}?vfs=unix-dotfile&uri=true"))
    fails(memdesk("entry", "list"), 1, "does not support the shared memory SQLite needs")
    out(MemdeskCommand(tmp_path)("entry", "add", "k", "v"))  # now a WAL database, on a local disk
    fails(memdesk("entry", "list"), 1, "does not support the shared memory SQLite needs")


@pytest.mark.engines("sqlite")
def test_a_backup_cut_short_by_a_full_disk_leaves_no_file(memdesk):
    with store_of(memdesk) as store:
        store.documents.set("global", "paragraph\n\n" * 2000)
    fails(
        on_a_small_disk(memdesk, db_file(memdesk).stat().st_size // 2, "db", "backup"), 1, "the disk is full"
    )
    assert list((Path(memdesk.data_dir) / "backups").iterdir()) == []
    assert out(memdesk("db", "check")).endswith(": ok\n")
