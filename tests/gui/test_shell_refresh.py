"""Changes made by another program while the window is open: shown, never silently lost."""

from __future__ import annotations

import subprocess
import sys
import threading
from datetime import timedelta

import pytest
from PySide6.QtCore import Qt

from memdesk.gui.refresh import StoreWatcher


def cli(memdesk_app, *args: str) -> None:
    """The real ``memdesk`` command, as an assistant would run it, on the test's store."""
    done = subprocess.run(
        [sys.executable, "-m", "memdesk", "--data-dir", str(memdesk_app.paths.data_dir), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_a_cli_write_shows_up_in_the_open_view(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/profile", "Before")
    main_window.show_page("doc:profile")
    settle()
    editor = main_window.views["documents"].editor
    assert editor.text() == "Before"
    cli(memdesk_app, "doc", "set", "user/profile", "Written by the assistant")
    qtbot.waitUntil(lambda: editor.text() == "Written by the assistant", timeout=5000)
    assert not main_window.views["documents"].bar.isVisible()


def test_a_cli_write_updates_the_sidebar_counts(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/profile", "x")
    settle()
    cli(memdesk_app, "app", "add", "notes", "Buy oat milk")
    model = main_window.sidebar.sidebar_model
    qtbot.waitUntil(lambda: model.find("app:notes") is not None, timeout=5000)


def test_a_cli_write_updates_the_knowledge_and_timeline_counts(main_window, memdesk_app, clock, qtbot):
    memdesk_app.entries.upsert("oat-milk", "Buys oat milk")
    memdesk_app.entries.upsert(  # past retention: not counted
        "lisbon", "[2025-01-01 09:00] Lisbon", category="timeline", created_at=clock.now - timedelta(days=200)
    )
    model = main_window.sidebar.sidebar_model

    def badges() -> tuple[str, str]:
        return model.find("knowledge").badge, model.find("timeline").badge

    main_window.refresh_all()
    qtbot.waitUntil(lambda: badges() == ("1", ""), timeout=5000)

    now = clock.now.isoformat()
    cli(
        memdesk_app,
        "--now",
        now,
        "entry",
        "add",
        "--category",
        "timeline",
        "porto",
        "[2026-03-01 12:00] Porto",
    )
    qtbot.waitUntil(lambda: badges() == ("1", "1"), timeout=5000)
    cli(memdesk_app, "--now", now, "entry", "rm", "oat-milk")
    qtbot.waitUntil(lambda: badges() == ("", "1"), timeout=5000)


def test_an_edit_in_progress_is_not_overwritten(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/profile", "Original")
    main_window.show_page("doc:profile")
    settle()
    view = main_window.views["documents"]
    view.autosave._timer.setInterval(60_000)  # the person is still typing: no autosave yet
    view.editor.editor.moveCursor(view.editor.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(view.editor.editor, " plus mine")
    cli(memdesk_app, "doc", "set", "user/profile", "Theirs")
    qtbot.waitUntil(lambda: view.bar.isVisible(), timeout=5000)
    assert "Changed by another program" in view.bar.label.text()
    assert view.editor.text() == "Original plus mine"
    view.flush()  # saving is held back while the person has not chosen
    settle()
    assert memdesk_app.documents.text("user/profile") == "Theirs"
    qtbot.mouseClick(view.bar.button("Keep mine"), Qt.MouseButton.LeftButton)
    settle()
    assert memdesk_app.documents.text("user/profile") == "Original plus mine"
    assert not view.bar.isVisible()


def test_reload_takes_the_other_version(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/facts", "Original")
    main_window.show_page("doc:facts")
    settle()
    view = main_window.views["documents"]
    view.autosave._timer.setInterval(60_000)
    qtbot.keyClicks(view.editor.editor, "draft ")
    cli(memdesk_app, "doc", "set", "user/facts", "Theirs")
    qtbot.waitUntil(lambda: view.bar.isVisible(), timeout=5000)
    qtbot.mouseClick(view.bar.button("Reload"), Qt.MouseButton.LeftButton)
    settle()
    assert view.editor.text() == "Theirs"
    assert memdesk_app.documents.text("user/facts") == "Theirs"
    assert not view.has_unsaved_changes()


def test_a_save_that_finds_a_newer_version_asks_instead_of_writing(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/patterns", "Original")
    main_window.show_page("doc:patterns")
    settle()
    view = main_window.views["documents"]
    main_window.watcher.stop()  # the save itself must notice, not the watcher
    qtbot.keyClicks(view.editor.editor, "mine ")
    memdesk_app.documents.set("user/patterns", "Theirs")
    view.flush()
    settle()
    assert view.bar.isVisible()
    assert memdesk_app.documents.text("user/patterns") == "Theirs"


@pytest.fixture
def make_watcher(tasks):
    """``make_watcher(interval_ms=…)``: a watcher on ``tasks``, stopped even if the test fails
    (a stray one would keep polling a runner already shut down)."""
    made = []

    def make(interval_ms: int) -> StoreWatcher:
        made.append(StoreWatcher(tasks, interval_ms=interval_ms))
        return made[-1]

    yield make
    for watcher in made:
        watcher.stop()


def test_our_own_writes_are_not_reported_as_external(tasks, make_watcher, memdesk_app, qtbot, settle):
    watcher = make_watcher(interval_ms=20)
    external = []
    watcher.external_change.connect(lambda: external.append(1))
    watcher.start()
    settle()
    tasks.write(lambda app: app.documents.set("global", "ours"))
    settle()
    qtbot.wait(100)
    assert external == []
    memdesk_app.documents.set("global", "someone else")  # not through this runner
    qtbot.waitUntil(lambda: external == [1], timeout=2000)


def test_a_compaction_run_in_the_window_is_not_reported_as_external(
    tasks, make_watcher, memdesk_app, qtbot, settle
):
    from memdesk.gui.views.compaction import CompactionView

    memdesk_app.sessions.log("telegram:1", "user", "We decided on Porto.")
    view = CompactionView(memdesk_app, tasks)
    qtbot.addWidget(view)
    watcher = make_watcher(interval_ms=20)
    external = []
    watcher.external_change.connect(lambda: external.append(1))
    watcher.start()
    settle()
    view.run()  # the run records itself from a read task, outside tasks.write
    qtbot.waitUntil(lambda: view.proposal is not None, timeout=5000)
    settle()
    qtbot.wait(100)
    assert memdesk_app.compaction.runs(1)[0].outcome == "proposed"
    assert external == []


def test_a_poll_between_our_commit_and_its_count_is_not_external(
    tasks, make_watcher, memdesk_app, qtbot, settle
):
    watcher = make_watcher(interval_ms=60_000)  # polled by hand below
    external = []
    watcher.external_change.connect(lambda: external.append(1))
    watcher.start()
    settle()
    committed = threading.Event()
    counted = threading.Event()

    def write_then_pause(app):
        app.documents.set("global", "ours")
        committed.set()
        counted.wait(5)  # the runner counts the write as ours only after this returns

    tasks.write(write_then_pause)
    committed.wait(5)
    watcher.check()  # reads the new revision before the runner counts it as ours
    assert not tasks.wait_idle(300)  # that read is delivered; the write is still held
    counted.set()
    settle()
    watcher.check()
    settle()
    assert external == []
