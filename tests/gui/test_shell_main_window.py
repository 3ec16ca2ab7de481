"""The main window: first start, places, navigation, counts, undo/redo, geometry, errors."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import Qt

from memdesk.core.items import ItemKind, ItemRef
from memdesk.errors import ConflictError
from memdesk.gui.sidebar import APP_BATCH, BADGE_ROLE, KEY_ROLE, WARN_ROLE, SidebarModel
from memdesk.gui.welcome import WelcomeView
from memdesk.services.apps import AppSummary
from memdesk.services.examples import load_example


def test_empty_store_opens_on_the_welcome_page(main_window, settle):
    settle()
    assert isinstance(main_window.stack.currentWidget(), WelcomeView)
    assert main_window.current_page == "welcome"


def test_loading_the_example_from_the_welcome_page(main_window, memdesk_app, qtbot, settle):
    settle()
    welcome = main_window.stack.currentWidget()
    qtbot.mouseClick(welcome.example_button, Qt.MouseButton.LeftButton)
    settle()
    assert main_window.current_page == "doc:profile"
    assert "Maya Lindqvist" in main_window.views["documents"].editor.text()
    apps = {summary.app_id: summary for summary in memdesk_app.apps.list_apps()}
    assert apps["calendar"].live == apps["calendar"].cap == 10
    assert len(apps) == 4
    assert memdesk_app.working.state().live  # dates moved to "now": working memory is in the prompt
    assert len(memdesk_app.sessions.list()) == 2
    assert memdesk_app.entries.list("knowledge") and memdesk_app.entries.list("timeline")
    model = main_window.sidebar.sidebar_model
    calendar = model.index_for(model.find("app:calendar"))
    assert calendar.data(BADGE_ROLE) == "10/10"
    assert main_window.windowTitle().startswith("Profile")


def test_a_store_with_memories_opens_on_the_profile(memdesk_app, make_window, settle):
    memdesk_app.documents.set("user/profile", "Ada, a mathematician.")
    window = make_window()
    settle()
    assert window.current_page == "doc:profile"
    assert window.views["documents"].editor.text() == "Ada, a mathematician."


# The window works the same on a shared PostgreSQL store.
@pytest.mark.parametrize("store_engine", ["sqlite", "postgresql"], indirect=True)
def test_every_place_in_the_sidebar_opens_a_view(main_window, memdesk_app, settle, qtbot):
    load_example(memdesk_app)
    main_window.refresh_all()
    settle()
    model = main_window.sidebar.sidebar_model
    keys = []
    stack = [model.index(row, 0) for row in range(model.rowCount())]
    while stack:
        index = stack.pop(0)
        keys.append(index.data(KEY_ROLE))
        stack.extend(model.index(row, 0, index) for row in range(model.rowCount(index)))
    assert {"doc:profile", "working", "app:calendar", "knowledge", "timeline", "sessions"} <= set(keys)
    assert {"files:global", "files:project", "expiry", "preview", "compaction", "trash", "history"} <= set(
        keys
    )
    for key in keys:
        main_window.sidebar.setCurrentIndex(model.index_for(model.find(key)))
        settle()
        assert main_window.stack.currentWidget() is not None
        expected = {"user": "doc:profile", "files": "files:global", "apps": "app:calendar"}.get(key, key)
        assert main_window.current_page == expected


def test_over_the_cap_an_app_is_counted_in_red(main_window, memdesk_app, settle):
    load_example(memdesk_app)
    memdesk_app.update_settings(memdesk_app.settings.with_values({"memory.app_memory_cap": 5}))
    main_window.refresh_all()
    settle()
    model = main_window.sidebar.sidebar_model
    calendar = model.index_for(model.find("app:calendar"))
    fitness = model.index_for(model.find("app:fitness"))
    assert calendar.data(BADGE_ROLE) == "10/5" and calendar.data(WARN_ROLE)
    assert fitness.data(BADGE_ROLE) == "3/5" and not fitness.data(WARN_ROLE)
    assert calendar.data(Qt.ItemDataRole.ForegroundRole) is not None


def test_sidebar_model_passes_the_model_tester(qtmodeltester, qapp):
    model = SidebarModel()
    qtmodeltester.check(model)
    summaries = [AppSummary(f"app{n:05d}", None, n % 12, n % 12, 10) for n in range(APP_BATCH * 2 + 7)]
    model.set_apps(summaries)
    qtmodeltester.check(model)  # the tester fetches every batch itself
    assert model.rowCount(model.index_for(model.apps)) == len(summaries)
    model.set_apps(summaries[:3])
    qtmodeltester.check(model)
    assert model.rowCount(model.index_for(model.apps)) == 3


def test_app_rows_are_handed_out_in_batches(qapp):
    model = SidebarModel()
    summaries = [AppSummary(f"app{n:05d}", None, 1, 1, 10) for n in range(APP_BATCH * 2 + 7)]
    model.set_apps(summaries)
    apps = model.index_for(model.apps)
    assert model.rowCount(apps) == APP_BATCH  # the rest come as the view scrolls
    fetched = 0
    while model.canFetchMore(apps):
        model.fetchMore(apps)
        fetched += 1
    assert fetched == 2
    assert model.rowCount(apps) == len(summaries)


def test_ten_thousand_apps_in_the_sidebar_stay_a_model(main_window, qtbot):
    summaries = [AppSummary(f"app{n:05d}", f"App {n}", 3, 3, 10) for n in range(10_000)]
    main_window.sidebar.set_apps(summaries)
    model = main_window.sidebar.sidebar_model
    assert model.app_count() == 10_000
    assert model.rowCount(model.index_for(model.apps)) <= APP_BATCH * 2
    main_window.sidebar.select_key("app:app09999")  # far down: fetched on demand
    assert main_window.sidebar.current_key() == "app:app09999"


def test_status_bar_says_where_the_store_is_counts_and_backend(main_window, memdesk_app, settle):
    load_example(memdesk_app)
    main_window.refresh_all()
    settle()
    assert str(memdesk_app.store.where) in main_window.store_label.text()
    assert "4 apps" in main_window.counts_label.text()
    assert "2 sessions" in main_window.counts_label.text()
    assert main_window.llm_label.text() == "LLM: offline"


def test_undo_and_redo_with_the_keyboard_from_another_view(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/profile", "first")
    memdesk_app.documents.set("user/profile", "second")
    main_window.show_page("trash")
    settle()
    main_window.stack.currentWidget().setFocus()
    qtbot.keyClick(main_window.stack.currentWidget(), Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    settle()
    assert memdesk_app.documents.text("user/profile") == "first"
    assert "Undid: Edit user/profile" in main_window.statusBar().currentMessage()
    modifiers = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    qtbot.keyClick(main_window.stack.currentWidget(), Qt.Key.Key_Z, modifiers)
    settle()
    assert memdesk_app.documents.text("user/profile") == "second"


def test_nothing_to_undo_is_said_in_the_status_bar_not_a_dialog(main_window, settle, dialog_log):
    main_window.undo_action.trigger()
    settle()
    assert main_window.statusBar().currentMessage() == "Nothing to undo"
    assert not dialog_log.calls


def test_a_failed_task_shows_one_error_dialog_with_message_and_hint(main_window, answer, dialog_log, settle):
    answer("error", None)

    def fail(_app):
        raise ConflictError("user/profile changed since", "look at History to see the newer change")

    main_window.tasks.write(fail)
    settle()
    (text,) = dialog_log.texts("error")
    assert "User/profile changed since." in text
    assert "Look at History to see the newer change." in text
    assert [error.message for error in main_window.tasks.errors] == ["user/profile changed since"]
    main_window.tasks.errors.clear()  # expected: the dialog above is how it was handled


def test_window_geometry_and_place_are_remembered(memdesk_app, make_window, settle):
    memdesk_app.documents.set("user/profile", "x")
    first = make_window()
    settle()
    first.resize(700, 500)  # within the offscreen screen (800 x 600)
    first.show_page("trash")
    settle()
    first.close()
    second = make_window()
    settle()
    assert (second.width(), second.height()) == (700, 500)
    assert second.current_page == "trash"


def test_closing_saves_the_edit_in_progress(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/facts", "old")
    main_window.show_page("doc:facts")
    settle()
    editor = main_window.views["documents"].editor
    editor.editor.selectAll()
    qtbot.keyClicks(editor.editor, "typed just before closing")
    main_window.close()
    assert memdesk_app.documents.text("user/facts") == "typed just before closing"


def test_working_memory_opens_from_an_expiry_item(main_window, memdesk_app, clock, settle):
    memdesk_app.working.write("recent", ttl_days=2)
    clock.now += timedelta(days=1)
    main_window.navigate(ItemRef(ItemKind.WORKING, "user/working"))
    settle()
    assert main_window.current_page == "working"
    assert main_window.views["working"].editor.text() == "recent"


def test_places_are_reachable_from_the_keyboard(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/profile", "x")
    main_window.activateWindow()
    settle()
    qtbot.keyClick(main_window, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)
    settle()
    assert main_window.current_page == "trash"
    qtbot.keyClick(main_window, Qt.Key.Key_F6)
    assert main_window.sidebar.hasFocus()
    qtbot.keyClick(main_window.sidebar, Qt.Key.Key_Down)  # Trash -> History
    settle()
    assert main_window.current_page == "history"
    qtbot.keyClick(main_window.sidebar, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: main_window.views["history"].steps_table.hasFocus())
