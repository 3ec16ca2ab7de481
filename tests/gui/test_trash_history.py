"""Trash (restore, empty with the count) and History (steps, changes, undo/redo, compaction runs)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from memdesk.gui.views.history import ChangesModel, HistoryView, RunsModel, StepsModel
from memdesk.gui.views.history_changes import describe_change
from memdesk.gui.views.trash import TrashModel, TrashView
from memdesk.services.compaction import CancelToken, CompactionCancelled
from memdesk.services.history import ITEM_NAMES
from memdesk.services.privacy import parse_target
from memdesk.services.review import Write
from memdesk.store.models import TRACKED_MODELS


def trash_view(qtbot, memdesk_app, tasks, settle) -> TrashView:
    view = TrashView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.show()
    view.refresh()
    settle()
    return view


def test_trash_lists_deleted_items_with_their_purge_date(qtbot, memdesk_app, tasks, settle):
    memory = memdesk_app.apps.add("calendar", "Meetings after 2pm").memory
    memdesk_app.apps.delete([memory.id])
    memdesk_app.entries.upsert("gym", "Opens at 7", "knowledge")
    memdesk_app.entries.delete_key("gym")
    view = trash_view(qtbot, memdesk_app, tasks, settle)
    rows = [[view.proxy.index(r, c).data() for c in range(5)] for r in range(view.proxy.rowCount())]
    kinds = sorted(row[0] for row in rows)
    assert kinds == ["App memory", "Entry"]
    memory_row = next(row for row in rows if row[0] == "App memory")
    assert memory_row[1] == "app calendar" and memory_row[2] == "Meetings after 2pm"
    assert memory_row[4] == "2026-03-31"  # 30 days after deletion
    assert view.header.subtitle.text().startswith("2 items")


def test_delete_then_restore_from_trash(qtbot, memdesk_app, tasks, settle):
    memdesk_app.documents.set("global", "Shared notes")
    memdesk_app.documents.delete("global")
    assert memdesk_app.documents.get("global") is None
    view = trash_view(qtbot, memdesk_app, tasks, settle)
    view.table.selectRow(0)
    assert view.restore_button.isEnabled()
    qtbot.mouseClick(view.restore_button, Qt.MouseButton.LeftButton)
    settle()
    assert memdesk_app.documents.text("global") == "Shared notes"
    assert view.proxy.rowCount() == 0
    assert view.empty_label.isVisible()


def test_enter_restores_the_selected_item(qtbot, memdesk_app, tasks, settle):
    memdesk_app.entries.upsert("gym", "Opens at 7", "knowledge")
    memdesk_app.entries.delete_key("gym")
    view = trash_view(qtbot, memdesk_app, tasks, settle)
    view.table.selectRow(0)
    view.table.setFocus()
    view.activateWindow()
    qtbot.waitUntil(view.table.hasFocus)
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    settle()
    assert memdesk_app.entries.get("gym").content == "Opens at 7"


def test_empty_trash_asks_naming_the_count(qtbot, memdesk_app, tasks, settle, answer, dialog_log):
    for n in range(3):
        memdesk_app.entries.upsert(f"k{n}", "x", "knowledge")
        memdesk_app.entries.delete_key(f"k{n}")
    view = trash_view(qtbot, memdesk_app, tasks, settle)
    answer("confirm", False)
    qtbot.mouseClick(view.empty_button, Qt.MouseButton.LeftButton)
    settle()
    (question,) = dialog_log.texts("confirm")
    assert "Remove 3 items from Trash for good?" in question
    assert len(memdesk_app.trash.list()) == 3  # said no: nothing removed
    answer("confirm", True)
    view.empty()
    settle()
    assert memdesk_app.trash.list() == []
    assert view.proxy.rowCount() == 0


def test_trash_model_passes_the_model_tester(memdesk_app, qtmodeltester):
    memdesk_app.entries.upsert("a", "x", "knowledge")
    memdesk_app.entries.delete_key("a")
    model = TrashModel()
    qtmodeltester.check(model)
    model.set_items(memdesk_app.trash.list())
    qtmodeltester.check(model)


def history_view(qtbot, memdesk_app, tasks, settle) -> HistoryView:
    view = HistoryView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.show()
    view.refresh()
    settle()
    return view


def test_history_lists_steps_newest_first_with_actor_and_state(qtbot, memdesk_app, tasks, settle):
    memdesk_app.documents.set("user/profile", "one")
    memdesk_app.apps.add("calendar", "Meetings after 2pm")
    memdesk_app.history.undo()
    view = history_view(qtbot, memdesk_app, tasks, settle)
    rows = [[view.steps.index(r, c).data() for c in range(5)] for r in range(view.steps.rowCount())]
    assert [row[2] for row in rows] == ["Add memory to calendar", "Edit user/profile"]
    assert rows[0][1] == "test" and rows[0][3] == "Undone"
    assert rows[1][3] == "Done"
    assert view.undo_button.isEnabled() and view.redo_button.isEnabled()


def test_selecting_a_step_shows_its_changes_before_and_after(qtbot, memdesk_app, tasks, settle):
    memdesk_app.documents.set("user/profile", "before text")
    memdesk_app.documents.set("user/profile", "after text")
    view = history_view(qtbot, memdesk_app, tasks, settle)
    assert view.changes.rowCount() == 1
    assert view.changes.index(0, ChangesModel.WHAT).data() == "changed text"
    assert view.before.toPlainText() == "before text"
    assert view.after.toPlainText() == "after text"
    view.steps_table.selectRow(1)
    settle()
    assert view.changes.index(0, ChangesModel.WHAT).data() == "added"
    assert view.before.toPlainText() == "(did not exist)"


def test_undo_and_redo_buttons(qtbot, memdesk_app, tasks, settle):
    memdesk_app.documents.set("global", "v1")
    memdesk_app.documents.set("global", "v2")
    view = history_view(qtbot, memdesk_app, tasks, settle)
    messages = []
    view.status_message.connect(messages.append)
    qtbot.mouseClick(view.undo_button, Qt.MouseButton.LeftButton)
    settle()
    assert memdesk_app.documents.text("global") == "v1"
    assert messages == ["Undid: Edit global"]
    assert view.steps.index(0, StepsModel.STATE).data() == "Undone"
    qtbot.mouseClick(view.redo_button, Qt.MouseButton.LeftButton)
    settle()
    assert memdesk_app.documents.text("global") == "v2"
    assert not view.redo_button.isEnabled()


def test_a_trash_move_reads_as_words(memdesk_app):
    memory = memdesk_app.apps.add("calendar", "x").memory
    memdesk_app.apps.delete([memory.id])
    step = memdesk_app.history.list(limit=1)[0]
    (change,) = memdesk_app.history.changes(step.id)
    row = describe_change(change, memdesk_app)
    assert row.item == f"App memory {memory.id}"
    assert row.what == "moved to Trash"
    assert row.before == "not in Trash" and row.after.startswith("in Trash since 2026-03-01")


def test_history_lists_a_compaction_applied_in_the_window(main_window, memdesk_app, qtbot, settle):
    memdesk_app.sessions.log(
        "telegram:1", "user", "We decided on Porto. I prefer window seats.", app_id="travel"
    )
    main_window.show_page("compaction")
    compaction = main_window.views["compaction"]
    compaction.select_session("telegram:1")
    settle()
    assert compaction.backend_box.currentData() == "offline"
    qtbot.mouseClick(compaction.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: compaction.proposal is not None, timeout=10000)
    qtbot.mouseClick(compaction.apply_button, Qt.MouseButton.LeftButton)
    settle()

    main_window.show_page("history")
    settle()
    view = main_window.views["history"]
    assert view.tabs.tabText(1) == "Compaction runs (1)"
    run = {name: view.runs.index(0, column).data() for column, name in enumerate(RunsModel.HEADERS)}
    assert (run["Session"], run["Backend"], run["Calls"], run["Outcome"]) == (
        "telegram:1",
        "offline",
        "0",
        "Applied",
    )
    offline_estimates = run["Tokens in"][0], run["Tokens out"][0]
    assert offline_estimates == ("≈", "≈")
    assert run["Message"] == "5 of 5 changes applied"
    assert view.runs.index(0, RunsModel.OUTCOME).data(Qt.ItemDataRole.ForegroundRole) is not None

    view.show_runs()
    view.runs_table.setFocus()
    main_window.activateWindow()
    qtbot.waitUntil(view.runs_table.hasFocus)
    qtbot.keyClick(view.runs_table, Qt.Key.Key_Return)  # the step the run left, with its changes
    settle()
    assert view.tabs.currentIndex() == 0
    step = view.steps.steps[view.steps_table.currentIndex().row()]
    assert step.id == memdesk_app.compaction.runs(1)[0].history_step_id
    assert view.changes.rowCount() > 0


def test_a_cancelled_run_is_listed_with_what_it_said(qtbot, memdesk_app, tasks, settle):
    memdesk_app.sessions.log("telegram:1", "user", "Hello")
    token = CancelToken()
    token.cancel()
    with pytest.raises(CompactionCancelled):
        memdesk_app.compaction.propose("telegram:1", cancel=token)
    view = history_view(qtbot, memdesk_app, tasks, settle)
    assert view.runs.index(0, RunsModel.OUTCOME).data() == "Cancelled"
    assert view.runs.index(0, RunsModel.TOKENS_IN).data() == "0"
    assert view.run_detail.text().startswith("Run 1 of telegram:1: Compaction was cancelled")


def test_history_models_pass_the_model_tester(memdesk_app, qtmodeltester):
    memdesk_app.documents.set("global", "v1")
    steps = StepsModel()
    qtmodeltester.check(steps)
    steps.set_steps(memdesk_app.history.list())
    qtmodeltester.check(steps)
    changes = ChangesModel()
    changes.set_rows(
        [describe_change(c, memdesk_app) for c in memdesk_app.history.changes(steps.steps[0].id)]
    )
    qtmodeltester.check(changes)
    runs = RunsModel()
    qtmodeltester.check(runs)
    memdesk_app.sessions.log("telegram:1", "user", "We decided on Porto.")
    memdesk_app.compaction.compact("telegram:1")
    runs.set_runs(memdesk_app.compaction.runs())
    qtmodeltester.check(runs)


def test_history_names_an_edited_entry_by_key_and_fits_who_made_it(main_window, memdesk_app, settle):
    row = memdesk_app.entries.add("editor", "Ada edits in Helix", "knowledge")
    memdesk_app.entries.edit(row.id, None, content="Ada edits in Zed")
    with memdesk_app.ctx.acting_as("mcp:codex-mcp-client"):
        memdesk_app.entries.add("home_city", "Lives in Bergen", "knowledge")
    main_window.show_page("history")
    settle()
    view = main_window.views["history"]
    steps = view.steps
    labels = [steps.index(r, StepsModel.ACTION).data() for r in range(steps.rowCount())]
    assert "Edit entry editor" in labels and f"Edit entry {row.id}" not in labels
    metrics = view.steps_table.fontMetrics()
    for column in (StepsModel.WHEN, StepsModel.ACTOR):
        for r in range(steps.rowCount()):
            text = steps.index(r, column).data()
            assert metrics.horizontalAdvance(text) + 8 <= view.steps_table.columnWidth(column), text


def test_held_writes_and_private_marks_are_named_in_words(qtbot, memdesk_app, tasks, settle):
    memdesk_app.apps.add("coder", "Uses ruff")
    memdesk_app.privacy.set_private(parse_target("app:coder"), True)
    with memdesk_app.ctx.acting_as("api:picobot"):
        held = memdesk_app.review.submit(Write.append_document("user/profile", "- Runs on Saturdays.")).held
    assert held is not None  # a write to the profile waits at every level but trusted
    view = history_view(qtbot, memdesk_app, tasks, settle)
    assert view.changes.index(0, ChangesModel.ITEM).data() == f"Held write {held.id}"
    view.steps_table.selectRow(1)
    settle()
    assert view.changes.index(0, ChangesModel.ITEM).data() == "Private app:coder"


def test_every_table_history_records_has_a_name():
    assert set(ITEM_NAMES) == {model.__tablename__ for model in TRACKED_MODELS}
