"""The read log's service: reads queued off the reply path, written in batches, listed newest
first with deleted items marked, pruned by age, and kept while the store cannot be written."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import threading
import time
from datetime import timedelta

import pytest
from sqlalchemy import event

from memdesk.core.items import ItemKind, ItemRef
from memdesk.services.access_log import unlogged_reasons

ENTRY = ItemKind.ENTRY


def _ref(kind: ItemKind, ref: str) -> ItemRef:
    return ItemRef(kind, ref)


def test_a_read_is_listed_newest_first_with_what_it_returned(memdesk_app, clock):
    log = memdesk_app.access_log
    memory = memdesk_app.apps.add("health", "Sees a therapist on Thursdays").memory
    log.record("mcp:coder", "app_memories", [_ref(ItemKind.APP_MEMORY, str(memory.id))])
    clock.now += timedelta(minutes=1)
    log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "therapy"), _ref(ENTRY, "dentist")])
    log.record("api:picobot", "document_read", [_ref(ItemKind.DOCUMENT, "user/profile")])
    assert log.flush(10)

    reads = log.reads("mcp:coder")
    assert [(r.tool, r.at) for r in reads] == [
        ("memory_recall", clock.now),
        ("app_memories", clock.now - timedelta(minutes=1)),
    ]
    assert [(i.kind, i.ref) for i in reads[0].items] == [("entry", "therapy"), ("entry", "dentist")]
    assert [str(i) for i in reads[1].items] == [f"app_memory {memory.id}"]
    assert [r.actor for r in log.reads()] == ["api:picobot", "mcp:coder", "mcp:coder"]


def test_an_item_deleted_later_shows_as_deleted(memdesk_app):
    log = memdesk_app.access_log
    memdesk_app.entries.upsert("therapy", "Therapy with Dr. Lind on Thursdays")
    memdesk_app.entries.upsert("dentist", "Dentist in March")
    log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "therapy"), _ref(ENTRY, "dentist")])
    assert log.flush(10)
    memdesk_app.entries.delete_key("dentist")

    (read,) = log.reads("mcp:coder")
    assert [(i.ref, i.deleted) for i in read.items] == [("therapy", False), ("dentist", True)]
    assert str(read.items[1]) == "entry dentist (deleted)"


def test_reads_filter_by_item_and_page_by_time(memdesk_app, clock):
    log = memdesk_app.access_log
    for number in range(5):
        clock.now += timedelta(seconds=1)
        log.record("mcp:coder", "memory_recall", [_ref(ENTRY, f"note_{number}")])
    log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "therapy")])
    assert log.flush(10)

    assert [r.items[0].ref for r in log.reads("mcp:coder", item="therapy")] == ["therapy"]
    first = log.reads("mcp:coder", item="note_", limit=2)
    assert [r.items[0].ref for r in first] == ["note_4", "note_3"]
    rest = log.reads("mcp:coder", item="note_", before=(first[-1].at, first[-1].id))
    assert [r.items[0].ref for r in rest] == ["note_2", "note_1", "note_0"]
    assert [r.items[0].ref for r in log.reads(since=clock.now)] == ["therapy", "note_4"]


def test_last_read_names_the_assistant_and_the_time(memdesk_app, clock):
    log = memdesk_app.access_log
    log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "therapy")])
    clock.now += timedelta(hours=1)
    log.record("api:picobot", "recall", [_ref(ENTRY, "therapy")])
    assert log.flush(10)

    last = log.last_read(_ref(ENTRY, "therapy"))
    assert last is not None and (last.actor, last.at, last.tool) == ("api:picobot", clock.now, "recall")
    assert log.last_read(_ref(ENTRY, "never-read")) is None


def test_reads_older_than_the_retention_setting_are_pruned(memdesk_app, clock):
    log = memdesk_app.access_log
    log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "old")])
    assert log.flush(10)
    clock.now += timedelta(days=91)
    log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "new")])
    assert log.flush(10)

    assert log.prune() == 1
    assert [r.items[0].ref for r in log.reads()] == ["new"]
    memdesk_app.ctx.settings = memdesk_app.settings.with_values({"agents.read_log_retention_days": 1})
    clock.now += timedelta(days=2)
    assert log.prune() == 1 and log.count() == 0


def test_concurrent_reads_are_all_written(memdesk_app):
    log = memdesk_app.access_log

    def client(number: int) -> None:
        for call in range(500):
            log.record(f"mcp:client-{number}", "memory_recall", [_ref(ENTRY, f"k{call}")])

    threads = [threading.Thread(target=client, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert log.flush(30)
    assert log.count() == 4000 and log.count("mcp:client-3") == 500


def test_reads_made_close_together_are_written_in_one_transaction(memdesk_app, monkeypatch):
    """On SQLite a commit makes every reading connection drop its page cache: an assistant's
    recalls in a row must not each be followed by a write. A flush does not wait for them."""
    monkeypatch.setattr("memdesk.services.access_log.GATHER_SECONDS", 60.0)
    log = memdesk_app.access_log
    log.record("mcp:coder", "working_memory", [])
    assert log.flush(10)  # the writer's first round also prunes, in a transaction of its own
    commits: list[int] = []
    event.listen(memdesk_app.store.write_engine, "commit", lambda _conn: commits.append(1))
    for call in range(5):
        log.record("mcp:coder", "memory_recall", [_ref(ENTRY, f"k{call}")])
    assert log.flush(10)
    assert log.count("mcp:coder") == 6 and len(commits) == 1


@pytest.mark.engines("sqlite")
def test_a_locked_store_keeps_the_reads_and_says_so_until_it_can_write(memdesk_app, monkeypatch):
    monkeypatch.setenv("MEMDESK_BUSY_TIMEOUT_MS", "100")
    monkeypatch.setattr("memdesk.services.access_log.RETRY_SECONDS", 0.1)
    memdesk_app.store.write_engine.dispose()  # connections made from now on wait 0.1 s
    log = memdesk_app.access_log
    status_dir = memdesk_app.paths.log_dir
    locker = sqlite3.connect(memdesk_app.paths.db_file, timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "therapy")])
        assert not log.flush(10)
        assert log.problem is not None and "busy" in log.problem
        monkeypatch.setattr("memdesk.services.access_log.MAX_PENDING", 1)  # the oldest goes
        log.record("mcp:coder", "memory_recall", [_ref(ENTRY, "dentist")])
        assert not log.flush(10)
        assert log.problem.endswith("reads given up so far: 1")
        monkeypatch.setattr("memdesk.services.access_log.MAX_PENDING", 100_000)
        (reason,) = unlogged_reasons(status_dir, memdesk_app.store.where)
        assert "busy" in reason
        assert unlogged_reasons(status_dir, "another store") == []
    finally:
        locker.rollback()
        locker.close()
    log.record("mcp:coder", "document_read", [_ref(ItemKind.DOCUMENT, "user/profile")])
    assert log.flush(10)
    assert [(r.tool, r.items[0].ref) for r in log.reads()] == [
        ("document_read", "user/profile"),
        ("memory_recall", "dentist"),
    ]
    assert log.problem is None and unlogged_reasons(status_dir, memdesk_app.store.where) == []


def test_a_status_file_of_a_process_that_has_gone_is_ignored(tmp_path):
    stale = tmp_path / "reads-not-logged-999999.json"
    stale.write_text(json.dumps({"store": "/x.sqlite3", "problem": "the disk is full"}))
    assert unlogged_reasons(tmp_path, "/x.sqlite3") == ["the disk is full"]
    import os

    os.utime(stale, (0, 0))
    assert unlogged_reasons(tmp_path, "/x.sqlite3") == []


def test_the_retention_setting_is_declared_once_with_its_range():
    from memdesk.config import SPEC_BY_KEY, Settings

    spec = SPEC_BY_KEY["agents.read_log_retention_days"]
    assert (spec.default, spec.minimum, spec.maximum) == (90, 1, 3650)
    assert dataclasses.asdict(Settings())["agents"]["read_log_retention_days"] == 90


@pytest.mark.engines("sqlite")
def test_closing_on_a_store_that_stays_locked_waits_no_longer_than_asked(memdesk_app, monkeypatch):
    monkeypatch.setenv("MEMDESK_BUSY_TIMEOUT_MS", "100")
    monkeypatch.setattr("memdesk.services.access_log.RETRY_SECONDS", 0.1)
    memdesk_app.store.write_engine.dispose()  # connections made from now on wait 0.1 s
    log = memdesk_app.access_log
    locker = sqlite3.connect(memdesk_app.paths.db_file, timeout=0)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        log.record("mcp:claude-code", "SessionStart hook", [_ref(ItemKind.DOCUMENT, "user/profile")])
        started = time.monotonic()
        log.close(patience=0.5)  # as the hook ends
        assert time.monotonic() - started < 2
    finally:
        locker.rollback()
        locker.close()
    assert log.count() == 0
