"""Whole-store JSON export/import and the Flynn folder."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from memdesk.errors import BadInputError
from memdesk.services.memdesk import Memdesk


def fill(app, clock):
    app.documents.set("user/profile", "Name: Zoë 漢字 🦀")
    app.documents.set("sessions/telegram:1", "session note")
    app.working.write("working on exports")
    app.apps.add("cal", "prefers mornings", importance=7, tags=["time", "pref"])
    gone = app.apps.add("cal", "to trash").memory
    app.apps.delete([gone.id])
    app.entries.upsert("k1", "knowledge one", importance=0.9)
    app.entries.upsert("t1", "[2026-03-01 12:00] timeline one", category="timeline")
    clock.now += timedelta(minutes=1)
    app.sessions.log("telegram:1", "user", "hello", app_id="cal")
    app.sessions.log("telegram:1", "assistant", "hi there")


def rows_without_ids(data):
    return {
        section: sorted(
            json.dumps({k: v for k, v in row.items() if k != "id"}, sort_keys=True) for row in data[section]
        )
        for section in ("documents", "apps", "app_memories", "entries", "sessions", "messages")
    }


def test_round_trip_is_lossless(memdesk_app, clock, tmp_path):
    fill(memdesk_app, clock)
    first = tmp_path / "one.json"
    memdesk_app.transfer.export_file(first)
    other = Memdesk.open(data_dir=str(tmp_path / "other"), clock=clock)
    try:
        counts = other.transfer.import_file(first)
        assert counts["skipped"] == 0 and counts["added"] > 8
        second = tmp_path / "two.json"
        other.transfer.export_file(second)
    finally:
        other.close()
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    assert {k: v for k, v in a.items() if k != "exported_at"} == {
        k: v for k, v in b.items() if k != "exported_at"
    }


def test_import_is_one_undoable_step(memdesk_app, clock, tmp_path):
    fill(memdesk_app, clock)
    path = tmp_path / "x.json"
    memdesk_app.transfer.export_file(path)
    fresh = Memdesk.open(data_dir=str(tmp_path / "fresh"), clock=clock)
    try:
        fresh.transfer.import_file(path)
        assert fresh.documents.text("user/profile") == "Name: Zoë 漢字 🦀"
        assert len(fresh.history.list()) == 1
        fresh.history.undo()
        assert fresh.documents.list() == []
        assert fresh.recall.entries("knowledge") == []
    finally:
        fresh.close()


def test_skip_and_overwrite_modes(memdesk_app, clock, tmp_path):
    fill(memdesk_app, clock)
    path = tmp_path / "x.json"
    memdesk_app.transfer.export_file(path)
    memdesk_app.documents.set("user/profile", "changed")
    assert memdesk_app.transfer.import_file(path, "skip")["added"] == 0
    assert memdesk_app.documents.text("user/profile") == "changed"
    memdesk_app.transfer.import_file(path, "overwrite")
    assert memdesk_app.documents.text("user/profile") == "Name: Zoë 漢字 🦀"
    assert (
        rows_without_ids(memdesk_app.transfer.export_data())["app_memories"]
        == rows_without_ids(json.loads(path.read_text()))["app_memories"]
    )


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"\xff\xfe not utf8", "not valid UTF-8"),
        (b"{not json", "not valid JSON"),
        (b"[1, 2, 3]", "not a Memdesk export"),
        (b'{"format": "memdesk", "version": 7}', "newer Memdesk"),
        (b'{"format": "memdesk", "version": 1, "entries": {}}', '"entries" must be a list'),
        (
            b'{"format": "memdesk", "version": 1, "entries": [{"key": 5}]}',
            r"entries\[0\]\.key: wrong type int",
        ),
        (
            b'{"format": "memdesk", "version": 1, "entries": [{"key": "k", "content": "c", "category": '
            b'"knowledge", "created_at": "yesterday", "updated_at": "2026-01-01T00:00:00"}]}',
            "is not a date and time",
        ),
    ],
)
def test_bad_files_are_refused_and_nothing_is_written(memdesk_app, tmp_path, payload, message):
    memdesk_app.documents.set("global", "keep me")
    path = tmp_path / "bad.json"
    path.write_bytes(payload)
    with pytest.raises(BadInputError, match=message):
        memdesk_app.transfer.import_file(path)
    assert [d.namespace for d in memdesk_app.documents.list()] == ["global"]
    assert len(memdesk_app.history.list()) == 1


def test_flynn_folder_round_trip(memdesk_app, clock, tmp_path):
    fill(memdesk_app, clock)
    folder = tmp_path / "flynn"
    report = memdesk_app.flynn.export(folder)
    assert sorted(report.written) == [
        "sessions/telegram:1.md",
        "user/profile.md",
        "user/working.md",
    ]
    assert (folder / "user" / "working.md").read_text().startswith("# Working Memory\nUpdated: ")
    fresh = Memdesk.open(data_dir=str(tmp_path / "fresh"), clock=clock)
    try:
        imported = fresh.flynn.import_(folder)
        assert imported.skipped == [] and len(imported.written) == 3
        assert fresh.documents.text("user/profile") == "Name: Zoë 漢字 🦀"
        assert fresh.working.state().content == "working on exports"
        assert len(fresh.history.list()) == 1
    finally:
        fresh.close()


def test_flynn_import_reports_bad_files(memdesk_app, tmp_path):
    folder = tmp_path / "flynn"
    (folder / "user").mkdir(parents=True)
    (folder / "user" / "facts.md").write_bytes(b"caf\xe9")
    (folder / "notes.md").write_text("unknown namespace")
    (folder / "global.md").write_text("fine")
    report = memdesk_app.flynn.import_(folder)
    assert report.written == ["global.md"]
    assert sorted(s.split(":")[0] for s in report.skipped) == ["notes.md", "user/facts.md"]
