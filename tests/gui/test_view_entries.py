"""The knowledge / timeline view: lazy reading, SQL sort and filter, edit, delete, add, open."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt
from PySide6.QtWidgets import QApplication, QPlainTextEdit
from tests.gui.tables_fixtures import START, bulk_entries, settle

from memdesk.core.items import ItemKind, ItemRef
from memdesk.errors import BadInputError
from memdesk.gui.models.entries import EntryTableModel as E
from memdesk.gui.views.entries import CONFIRM_DELETE_FROM, EntriesView
from memdesk.services.entries import EntryQuery
from memdesk.store.models import HistoryStep


def make_view(qtbot, app, tasks, category="knowledge"):
    view = EntriesView(tasks, category)
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    qtbot.waitUntil(lambda: view.model.complete)
    return view


def keys_shown(view, count):
    for row in range(count):
        view.model.index(row, E.KEY).data()  # asks for the pages
    qtbot_wait_until(view, lambda: all(view.model.entry_at(row) for row in range(count)))
    return [view.model.index(row, E.KEY).data() for row in range(count)]


def qtbot_wait_until(view, condition):
    for _ in range(200):
        if condition():
            return
        view.tasks.wait_idle()
        QApplication.processEvents()
    raise AssertionError("condition not met")


def select_rows(view, *rows):
    selection = QItemSelection()
    for row in rows:
        selection.select(view.model.index(row, 0), view.model.index(row, E.KEY))
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    view.table.selectionModel().select(selection, flags)
    view.table.selectionModel().setCurrentIndex(
        view.model.index(rows[0], E.KEY), QItemSelectionModel.SelectionFlag.NoUpdate
    )
    view.table.setFocus()


def test_shows_the_count_and_reads_only_what_is_painted(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 5000)
    view = make_view(qtbot, memdesk_app, tasks)
    qtbot.waitUntil(lambda: view.model.entry_at(0) is not None)
    assert view.header.subtitle.text() == "5,000 entries"
    assert view.model.rowCount() == 5000
    assert view.model.rows_fetched < 500  # far below 5,000: the rows on screen, a page at a time
    view.table.scrollToBottom()
    qtbot.waitUntil(lambda: view.model.entry_at(4999) is not None)
    assert view.model.rows_fetched < 500


def test_header_click_sorts_in_sql(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 30)
    view = make_view(qtbot, memdesk_app, tasks)
    assert keys_shown(view, 2) == ["k0000029", "k0000028"]  # newest first
    header = view.table.horizontalHeader()
    on_importance = QPoint(header.sectionViewportPosition(E.IMPORTANCE) + 5, 5)
    with qtbot.waitSignal(view.model.ids_loaded):
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=on_importance)
    assert view.model.query.sort == "importance" and view.model.query.descending  # most important first
    expected = memdesk_app.entries.ids(EntryQuery("knowledge", "importance", True))
    assert [view.model.id_at(row) for row in range(30)] == list(expected)
    with qtbot.waitSignal(view.model.ids_loaded):
        qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=on_importance)
    assert [view.model.id_at(row) for row in range(30)] == list(reversed(expected))


def test_filter_box_filters_in_sql_after_a_pause(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 40)
    bulk_entries(memdesk_app, 3, first=40, content="green tea {i}")
    view = make_view(qtbot, memdesk_app, tasks)
    qtbot.keyClicks(view.filter_box, "tea gre")
    qtbot.waitUntil(lambda: view.model.query.text == "tea gre" and view.model.complete)
    settle(view, qtbot)
    assert view.model.rowCount() == 3
    assert view.header.subtitle.text() == "3 entries matching “tea gre”"
    assert keys_shown(view, 3) == ["k0000042", "k0000041", "k0000040"]


def test_edit_content_in_place(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 3)
    view = make_view(qtbot, memdesk_app, tasks)
    keys_shown(view, 1)
    view.table.setCurrentIndex(view.model.index(0, E.SESSION))
    view.table.setFocus()
    qtbot.keyClick(view.table, Qt.Key.Key_Return)  # Enter edits the text, whatever the column
    editor = QApplication.focusWidget()
    assert isinstance(editor, QPlainTextEdit) and editor.toPlainText() == "note 2 about coffee"
    editor.setPlainText("note 2 about tea\nwith a second line")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    settle(view, qtbot)
    assert memdesk_app.entries.get("k0000002").content == "note 2 about tea\nwith a second line"
    assert view.model.index(0, E.CONTENT).data() == "note 2 about tea with a second line"


def test_importance_edit_and_a_refused_one(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 1)
    view = make_view(qtbot, memdesk_app, tasks)
    keys_shown(view, 1)
    assert view.model.setData(view.model.index(0, E.IMPORTANCE), 0.75)
    settle(view, qtbot)
    assert memdesk_app.entries.get("k0000000").importance == 0.75
    assert view.model.index(0, E.IMPORTANCE).data() == "0.75"
    view.model.setData(view.model.index(0, E.CONTENT), "x" * 100_001)
    settle(view, qtbot)
    (error,) = view.tasks.errors
    assert isinstance(error, BadInputError)
    view.tasks.errors.clear()
    assert view.model.index(0, E.CONTENT).data() == "note 0 about coffee"


def test_delete_key_and_multi_select_delete(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 6)
    view = make_view(qtbot, memdesk_app, tasks)
    keys_shown(view, 6)
    newest = view.model.id_at(0)
    select_rows(view, 0)
    qtbot.keyClick(view.table, Qt.Key.Key_Delete)
    qtbot.waitUntil(lambda: view.model.rowCount() == 5)
    assert [item.id for item in memdesk_app.trash.list()] == [f"entry:{newest}"]
    select_rows(view, 0, 2, 4)
    view.delete_button.click()
    qtbot.waitUntil(lambda: view.model.rowCount() == 2)
    settle(view, qtbot)
    assert keys_shown(view, 2) == ["k0000003", "k0000001"]
    with memdesk_app.store.read() as session:
        assert session.query(HistoryStep).order_by(HistoryStep.id.desc()).first().label == "Delete 3 entries"


def test_deleting_many_asks_first(qtbot, memdesk_app, tasks, answers):
    bulk_entries(memdesk_app, CONFIRM_DELETE_FROM)
    view = make_view(qtbot, memdesk_app, tasks)
    view.table.selectAll()
    answers.confirm = False
    view.delete_selected()
    assert answers.asked == [("confirm", "Delete entries", f"Move {CONFIRM_DELETE_FROM} entries to Trash?")]
    settle(view, qtbot)
    assert view.model.rowCount() == CONFIRM_DELETE_FROM


def test_add_entry_asks_for_key_and_text_then_selects_it(qtbot, memdesk_app, tasks, answers):
    bulk_entries(memdesk_app, 300)
    view = make_view(qtbot, memdesk_app, tasks)
    answers.texts = ["tea-order", "Ana takes her tea with milk"]
    view.add_button.click()
    qtbot.waitUntil(lambda: view.model.rowCount() == 301)
    settle(view, qtbot)
    assert [asked[0] for asked in answers.asked] == ["ask_text", "ask_text"]
    current = view.table.currentIndex()
    assert view.model.id_at(current.row()) == memdesk_app.entries.get("tea-order").id


def test_adding_an_existing_key_is_reported(qtbot, memdesk_app, tasks, answers):
    bulk_entries(memdesk_app, 1)
    view = make_view(qtbot, memdesk_app, tasks)
    answers.texts = ["k0000000", "another text"]
    view.add_entry()
    settle(view, qtbot)
    assert "exists already" in str(view.tasks.errors.pop())
    assert memdesk_app.entries.get("k0000000").content == "note 0 about coffee"


def test_open_entry_clears_a_filter_that_hides_it(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 400)
    view = make_view(qtbot, memdesk_app, tasks)
    view.filter_box.setText("note 399")
    qtbot.waitUntil(lambda: view.model.query.text == "note 399" and view.model.complete)
    wanted = memdesk_app.entries.get("k0000002").id
    view.open_entry(wanted)
    qtbot.waitUntil(lambda: view.table.currentIndex().isValid())
    assert view.filter_box.text() == ""
    assert view.model.id_at(view.table.currentIndex().row()) == wanted
    assert view.model.rowCount() == 400


def test_refresh_keeps_selection_and_scroll_when_rows_move(qtbot, memdesk_app, tasks, clock):
    bulk_entries(memdesk_app, 500)
    view = make_view(qtbot, memdesk_app, tasks)
    view.open_entry(memdesk_app.entries.get("k0000100").id)
    top_before = view.model.id_at(view.table.rowAt(0))
    clock.now = START + timedelta(days=5)
    for key in ("new-1", "new-2"):  # newer: they go on top and push every row down
        memdesk_app.entries.upsert(key, "from another program")
    view.refresh()
    qtbot.waitUntil(lambda: view.model.rowCount() == 502)
    settle(view, qtbot)
    current = view.table.currentIndex()
    assert view.model.id_at(current.row()) == memdesk_app.entries.get("k0000100").id
    assert view.model.id_at(view.table.rowAt(0)) == top_before


def test_timeline_shows_expiry_and_greys_expired(qtbot, memdesk_app, tasks, clock):
    bulk_entries(memdesk_app, 3, "timeline")
    clock.now = START + timedelta(days=90, seconds=90)  # k0 and k1 expired, k2 not yet
    view = make_view(qtbot, memdesk_app, tasks, "timeline")
    assert view.model.columnCount() == 7
    assert "kept 90 days" in view.header.subtitle.text()
    keys_shown(view, 3)
    expired = [
        view.model.index(row, E.CONTENT).data(Qt.ItemDataRole.ForegroundRole) is not None for row in range(3)
    ]
    assert expired == [False, True, True]


def test_session_can_be_opened(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 1)
    view = make_view(qtbot, memdesk_app, tasks)
    keys_shown(view, 1)
    select_rows(view, 0)
    assert view.open_session_action.isEnabled()
    with qtbot.waitSignal(view.open_requested) as opened:
        view.open_session_action.trigger()
    assert opened.args == [ItemRef(ItemKind.SESSION, "telegram:0")]
