"""The app memories view: cap, add, edit in place, delete, purge, filter, refresh, conflicts."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from PySide6.QtCore import QItemSelection, QItemSelectionModel, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from tests.gui.tables_fixtures import settle

from memdesk.core.items import ItemKind, ItemRef
from memdesk.errors import BadInputError
from memdesk.gui import theme
from memdesk.gui.models.apps import AppMemoryModel as M
from memdesk.gui.views.apps import AppMemoriesView


@pytest.fixture
def view(memdesk_app, tasks, qtbot):
    widget = AppMemoriesView(memdesk_app, tasks)
    qtbot.addWidget(widget)
    widget.resize(1000, 500)
    widget.show()
    return widget


def add_memories(app, clock, count, app_id="calendar", text="memory {i}", **options):
    ids = []
    for i in range(count):
        clock.now += timedelta(minutes=1)
        ids.append(app.apps.add(app_id, text.format(i=i), **options).memory.id)
    return ids


def show(view, qtbot, app_id="calendar"):
    view.show_app(app_id)
    qtbot.waitUntil(lambda: view.page is not None and view.page.app_id == app_id)


def shown_texts(view):
    return [view.proxy.index(row, M.CONTENT).data() for row in range(view.proxy.rowCount())]


def row_of(view, memory_id):
    return view.proxy.mapFromSource(view.model.index(view.model.rows_of([memory_id])[memory_id], M.CONTENT))


def select(view, *memory_ids):
    selection = QItemSelection()
    for memory_id in memory_ids:
        index = row_of(view, memory_id)
        selection.select(index, index)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    view.table.selectionModel().select(selection, flags)
    view.table.selectionModel().setCurrentIndex(
        row_of(view, memory_ids[0]), QItemSelectionModel.SelectionFlag.NoUpdate
    )
    view.table.setFocus()


def open_editor(view, qtbot, memory_id) -> QPlainTextEdit:
    center = view.table.visualRect(row_of(view, memory_id)).center()
    qtbot.mouseClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=center)  # a double-click starts
    qtbot.mouseDClick(view.table.viewport(), Qt.MouseButton.LeftButton, pos=center)  # with a click
    editor = QApplication.focusWidget()
    assert isinstance(editor, QPlainTextEdit)
    return editor


def test_header_names_the_app_and_shows_the_cap(view, qtbot, memdesk_app, clock):
    add_memories(memdesk_app, clock, 7)
    memdesk_app.apps.set_name("calendar", "Calendar helper")
    show(view, qtbot)
    assert view.header.title.text() == "Calendar helper"
    assert view.header.subtitle.text() == "calendar · 7 memories"
    assert view.cap_label.text() == "7/10"
    assert view.proxy.rowCount() == 7
    assert shown_texts(view)[0] == "memory 6"  # most recently updated first


def test_cap_at_the_limit_is_plain_and_over_it_red(view, qtbot, memdesk_app, clock):
    add_memories(memdesk_app, clock, 10)
    show(view, qtbot)
    assert view.cap_label.text() == "10/10"
    assert view.cap_label.palette().color(QPalette.ColorRole.WindowText) != theme.danger()
    settings = memdesk_app.settings
    memdesk_app.update_settings(
        dataclasses.replace(settings, memory=dataclasses.replace(settings.memory, app_memory_cap=5))
    )
    view.refresh()
    qtbot.waitUntil(lambda: view.cap_label.text() == "10/5")
    assert view.cap_label.palette().color(QPalette.ColorRole.WindowText) == theme.danger()


def test_expired_memories_are_greyed_and_not_counted(view, qtbot, memdesk_app, clock):
    add_memories(memdesk_app, clock, 2)
    add_memories(memdesk_app, clock, 1, text="old plan", expires_at=clock.now)
    show(view, qtbot)
    assert view.cap_label.text() == "2/10"
    assert "1 expired" in view.header.subtitle.text()
    old = view.proxy.index(shown_texts(view).index("old plan"), M.CONTENT)
    assert old.data(Qt.ItemDataRole.ForegroundRole) == theme.muted()


def test_add_box_adds_and_selects_the_memory(view, qtbot, memdesk_app):
    show(view, qtbot)
    qtbot.mouseClick(view.add_box, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(view.add_box, "Prefers meetings after 2pm")
    qtbot.keyClick(view.add_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: view.proxy.rowCount() == 1)
    settle(view, qtbot)
    assert [m.content for m in memdesk_app.apps.memories("calendar")] == ["Prefers meetings after 2pm"]
    assert view.add_box.text() == ""
    assert view.table.currentIndex().data() == "Prefers meetings after 2pm"
    assert view.cap_label.text() == "1/10"


def test_adding_over_the_cap_says_the_oldest_went_to_trash(view, qtbot, memdesk_app, clock):
    add_memories(memdesk_app, clock, 10)
    show(view, qtbot)
    view.add_box.setText("one more")
    view.add_memory()
    settle(view, qtbot)
    assert view.notice.isVisible()
    assert "Moved 1 older memory to Trash" in view.notice.label.text()
    assert "memory 0" not in shown_texts(view)


def test_double_click_edits_in_place_and_saves(view, qtbot, memdesk_app, clock):
    (memory_id,) = add_memories(memdesk_app, clock, 1, text="likes tea")
    show(view, qtbot)
    editor = open_editor(view, qtbot, memory_id)
    assert editor.toPlainText() == "likes tea"
    editor.setPlainText("likes green tea")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    settle(view, qtbot)
    assert memdesk_app.apps.get(memory_id).content == "likes green tea"
    assert shown_texts(view) == ["likes green tea"]


def test_enter_on_a_row_edits_its_text_and_escape_cancels(view, qtbot, memdesk_app, clock):
    (memory_id,) = add_memories(memdesk_app, clock, 1, text="likes tea")
    show(view, qtbot)
    select(view, memory_id)
    view.table.setCurrentIndex(row_of(view, memory_id).siblingAtColumn(M.CREATED))
    qtbot.keyClick(view.table, Qt.Key.Key_Return)
    editor = QApplication.focusWidget()
    assert isinstance(editor, QPlainTextEdit)
    editor.setPlainText("something else")
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    settle(view, qtbot)
    assert memdesk_app.apps.get(memory_id).content == "likes tea"
    assert shown_texts(view) == ["likes tea"]


def test_refused_edit_goes_to_the_error_path_and_keeps_the_old_text(view, qtbot, memdesk_app, clock):
    (memory_id,) = add_memories(memdesk_app, clock, 1, text="likes tea")
    show(view, qtbot)
    editor = open_editor(view, qtbot, memory_id)
    editor.setPlainText("x" * 250)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    settle(view, qtbot)
    (error,) = view.tasks.errors
    assert isinstance(error, BadInputError) and "limit is 200" in str(error)
    view.tasks.errors.clear()
    assert memdesk_app.apps.get(memory_id).content == "likes tea"
    assert shown_texts(view) == ["likes tea"]


def test_importance_and_tags_edit_in_place(view, qtbot, memdesk_app, clock):
    (memory_id,) = add_memories(memdesk_app, clock, 1)
    show(view, qtbot)
    assert view.proxy.setData(row_of(view, memory_id).siblingAtColumn(M.IMPORTANCE), 7)
    assert view.proxy.setData(row_of(view, memory_id).siblingAtColumn(M.TAGS), "work, travel")
    settle(view, qtbot)
    stored = memdesk_app.apps.get(memory_id)
    assert (stored.importance, stored.tags) == (7, "work travel")
    assert row_of(view, memory_id).siblingAtColumn(M.TAGS).data() == "work travel"


def test_delete_key_moves_the_selected_memory_to_trash(view, qtbot, memdesk_app, clock):
    ids = add_memories(memdesk_app, clock, 3)
    show(view, qtbot)
    select(view, ids[1])
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)
    settle(view, qtbot)
    assert f"memory:{ids[1]}" in [item.id for item in memdesk_app.trash.list()]
    assert shown_texts(view) == ["memory 2", "memory 0"]
    assert view.table.selectionModel().selectedRows(M.CONTENT)[0].data() == "memory 0"  # next, ready for Del


def test_multi_select_delete_is_one_step(view, qtbot, memdesk_app, clock):
    ids = add_memories(memdesk_app, clock, 5)
    show(view, qtbot)
    select(view, ids[0], ids[2], ids[4])
    view.delete_button.click()
    settle(view, qtbot)
    assert shown_texts(view) == ["memory 3", "memory 1"]
    assert sorted(item.id for item in memdesk_app.trash.list()) == sorted(f"memory:{i}" for i in ids[::2])
    memdesk_app.history.undo()
    assert len(memdesk_app.apps.memories("calendar")) == 5


def test_purge_asks_with_the_count_first(view, qtbot, memdesk_app, clock, answers):
    add_memories(memdesk_app, clock, 7)
    show(view, qtbot)
    answers.confirm = False
    view.purge_button.click()
    settle(view, qtbot)
    assert answers.asked == [("confirm", "Purge app", "Move all 7 memories of calendar to Trash?")]
    assert len(memdesk_app.apps.memories("calendar")) == 7
    answers.confirm = True
    view.purge_button.click()
    settle(view, qtbot)
    assert memdesk_app.apps.memories("calendar") == []
    assert shown_texts(view) == []
    assert "Moved 7 memories to Trash" in view.notice.label.text()
    assert not view.purge_button.isEnabled()


def test_filter_box_filters_rows(view, qtbot, memdesk_app, clock):
    add_memories(memdesk_app, clock, 3, text="memory {i} about work")
    add_memories(memdesk_app, clock, 1, text="likes tea")
    show(view, qtbot)
    qtbot.keyClicks(view.filter_box, "TEA")
    assert shown_texts(view) == ["likes tea"]
    view.filter_box.clear()
    assert view.proxy.rowCount() == 4


def test_select_memory_clears_a_filter_that_hides_it(view, qtbot, memdesk_app, clock):
    ids = add_memories(memdesk_app, clock, 3)
    show(view, qtbot)
    view.filter_box.setText("memory 2")
    view.select_memory(ids[0])
    assert view.filter_box.text() == ""
    assert view.table.currentIndex().data() == "memory 0"


def test_refresh_keeps_the_selection_and_waits_for_an_edit(view, qtbot, memdesk_app, clock):
    ids = add_memories(memdesk_app, clock, 3)
    show(view, qtbot)
    select(view, ids[0])
    add_memories(memdesk_app, clock, 1, text="from another program")
    view.refresh()
    settle(view, qtbot)
    assert view.proxy.rowCount() == 4
    assert [index.data() for index in view.table.selectionModel().selectedRows(M.CONTENT)] == ["memory 0"]
    editor = open_editor(view, qtbot, ids[1])
    memdesk_app.apps.add("calendar", "while editing")
    view.refresh()
    settle(view, qtbot)
    assert view.proxy.rowCount() == 4 and editor.isVisible()  # nothing moved under the editor
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    settle(view, qtbot)
    assert view.proxy.rowCount() == 5


def test_edit_over_a_change_made_elsewhere_asks(view, qtbot, memdesk_app, clock, answers):
    (memory_id,) = add_memories(memdesk_app, clock, 1, text="likes tea")
    show(view, qtbot)
    editor = open_editor(view, qtbot, memory_id)
    clock.now += timedelta(minutes=5)
    memdesk_app.apps.edit(memory_id, "likes coffee")  # another program, meanwhile
    editor.setPlainText("likes green tea")
    answers.confirm = False
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    settle(view, qtbot)
    assert answers.asked[0][:2] == ("confirm", "Changed elsewhere")
    assert "changed by another program" in answers.asked[0][2]
    assert memdesk_app.apps.get(memory_id).content == "likes coffee"
    assert shown_texts(view) == ["likes coffee"]
    clock.now += timedelta(minutes=5)
    memdesk_app.apps.edit(memory_id, "likes cocoa")
    answers.confirm = True
    editor = open_editor(view, qtbot, memory_id)
    editor.setPlainText("likes green tea")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    settle(view, qtbot)
    assert memdesk_app.apps.get(memory_id).content == "likes green tea"


def test_compact_and_source_session_are_requested(view, qtbot, memdesk_app, clock):
    (memory_id,) = add_memories(memdesk_app, clock, 1, source_session="telegram:42")
    show(view, qtbot)
    with qtbot.waitSignal(view.compact_requested) as compact:
        view.compact_button.click()
    assert compact.args == [ItemRef(ItemKind.APP, "calendar")]
    select(view, memory_id)
    assert view.open_source_action.isEnabled()
    with qtbot.waitSignal(view.open_requested) as opened:
        view.open_source_action.trigger()
    assert opened.args == [ItemRef(ItemKind.SESSION, "telegram:42")]


def test_switching_apps_shows_only_that_app(view, qtbot, memdesk_app, clock):
    add_memories(memdesk_app, clock, 2)
    add_memories(memdesk_app, clock, 1, app_id="mail", text="signs with Best")
    show(view, qtbot)
    view.filter_box.setText("memory")
    show(view, qtbot, "mail")
    assert shown_texts(view) == ["signs with Best"]
    assert view.filter_box.text() == ""
    assert view.cap_label.text() == "1/10"


def test_a_narrow_window_hides_minor_columns_before_squeezing_the_text(view, memdesk_app, clock, qtbot):
    # Every column has something in it: an empty one steps aside in any window.
    add_memories(
        memdesk_app, clock, 3, tags=["work"], importance=5, expires_at=clock.now + timedelta(days=30)
    )
    show(view, qtbot)
    header = view.table.horizontalHeader()

    def hidden() -> list[int]:
        return [column for column in range(header.count()) if header.isSectionHidden(column)]

    view.resize(1000, 500)
    qtbot.waitUntil(lambda: hidden() == [])
    view.resize(520, 400)
    qtbot.waitUntil(lambda: hidden() != [])
    assert M.CREATED in hidden() and M.CONTENT not in hidden() and M.UPDATED not in hidden()
    view.resize(400, 400)  # narrower still: a number under a wide title goes before the text shrinks
    qtbot.waitUntil(lambda: M.IMPORTANCE in hidden())
    assert M.CONTENT not in hidden() and M.UPDATED not in hidden()
    visible_width = sum(header.sectionSize(c) for c in range(header.count()) if c not in hidden())
    assert visible_width <= view.table.viewport().width()  # no sideways scrolling
    assert header.sectionSize(M.CONTENT) >= 28 * view.table.fontMetrics().averageCharWidth()
    view.resize(1000, 500)
    qtbot.waitUntil(lambda: hidden() == [])
