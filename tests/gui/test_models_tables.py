"""The table models: Qt's model checks, roles, edits handed on, and the lazy entries model."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QTableView
from tests.gui.tables_fixtures import bulk_entries

from memdesk.gui import theme
from memdesk.gui.models.apps import AppMemoryModel
from memdesk.gui.models.common import ExpiredRole, IdRole, SortRole, sort_filter_proxy
from memdesk.gui.models.entries import EntryTableModel
from memdesk.gui.models.sessions import MessageModel, SessionModel
from memdesk.gui.widgets.display import when
from memdesk.services.apps import MemoryRow
from memdesk.services.entries import EntryQuery

D = Qt.ItemDataRole.DisplayRole


def memory(id_: int, content: str = "likes tea", expired: bool = False, **changes) -> MemoryRow:
    at = datetime(2026, 2, 1, 9, 30)
    values = dict(
        id=id_,
        app_id="calendar",
        content=content,
        created_at=at,
        updated_at=at + timedelta(days=id_),
        importance=None,
        tags="",
        expires_at=at if expired else None,
        pinned=False,
        source_session=None,
        expired=expired,
    )
    return MemoryRow(**(values | changes))


def app_rows(memdesk_app, clock):
    memdesk_app.apps.add("calendar", "likes tea", importance=3, tags=["drinks"])
    memdesk_app.apps.add("calendar", "old plan", expires_at=clock.now - timedelta(days=1))
    memdesk_app.apps.add("calendar", "meets at noon", source_session="telegram:1")
    return memdesk_app.apps.page("calendar").rows


def test_app_memory_model_passes_qt_checks(qtmodeltester, memdesk_app, clock):
    model = AppMemoryModel()
    qtmodeltester.check(model)
    model.set_rows(app_rows(memdesk_app, clock))
    qtmodeltester.check(model)
    qtmodeltester.check(sort_filter_proxy(model))


def test_session_and_message_models_pass_qt_checks(qtmodeltester, memdesk_app):
    sessions, messages = SessionModel(), MessageModel()
    qtmodeltester.check(sessions)
    qtmodeltester.check(messages)
    memdesk_app.sessions.log("telegram:1", "user", "hello", app_id="calendar")
    memdesk_app.sessions.log("telegram:1", "assistant", "hi there")
    memdesk_app.sessions.log("discord:2", "user", "yo")
    sessions.set_rows(memdesk_app.sessions.list())
    messages.set_rows(memdesk_app.sessions.messages("telegram:1"))
    qtmodeltester.check(sessions)
    qtmodeltester.check(messages)
    qtmodeltester.check(sort_filter_proxy(sessions))


def test_app_memory_roles(memdesk_app, clock):
    model = AppMemoryModel()
    model.set_rows(app_rows(memdesk_app, clock))
    texts = {model.index(row, model.CONTENT).data(): row for row in range(model.rowCount())}
    tea, old = texts["likes tea"], texts["old plan"]
    assert model.index(tea, model.IMPORTANCE).data() == "3"
    assert model.index(tea, model.TAGS).data() == "drinks"
    assert model.index(tea, model.CREATED).data() == when(clock.now)
    assert model.index(tea, model.ID).data(IdRole) == model.row_at(tea).id
    assert model.index(tea, model.ID).data(SortRole) == model.row_at(tea).id
    assert model.index(tea, model.CREATED).data(SortRole) == clock.now.isoformat()
    assert model.index(old, model.CONTENT).data(ExpiredRole) is True
    assert model.index(old, model.CONTENT).data(Qt.ItemDataRole.ForegroundRole) == theme.muted()
    assert "no longer in the prompt" in model.index(old, model.CONTENT).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(tea, model.CONTENT).data(Qt.ItemDataRole.ForegroundRole) is None
    assert model.headerData(model.CONTENT, Qt.Orientation.Horizontal) == "Content"
    editable = [
        c for c in range(model.columnCount()) if model.index(0, c).flags() & Qt.ItemFlag.ItemIsEditable
    ]
    assert editable == [model.CONTENT, model.IMPORTANCE, model.TAGS]


def test_set_data_asks_for_the_edit_and_keeps_the_row(qtbot):
    model = AppMemoryModel()
    model.set_rows([memory(1)])
    index = model.index(0, model.CONTENT)
    with qtbot.waitSignal(model.edit_requested) as request:
        assert model.setData(index, "likes coffee")
    assert request.args == [memory(1), model.CONTENT, "likes coffee"]
    assert index.data() == "likes tea"  # until the store has it
    assert not model.setData(index, "likes tea")  # unchanged: nothing to write
    assert not model.setData(model.index(0, model.ID), 5)


def test_set_rows_with_the_same_ids_repaints_only_changed_rows(qtbot):
    model = AppMemoryModel()
    model.set_rows([memory(1), memory(2)])
    resets, changes = [], []
    model.modelReset.connect(lambda: resets.append(1))
    model.dataChanged.connect(lambda first, last: changes.append((first.row(), last.row())))
    model.set_rows([memory(1), memory(2, "likes coffee")])
    assert (resets, changes) == ([], [(1, 1)])
    model.replace_row(memory(1, "likes water"))
    assert model.index(0, model.CONTENT).data() == "likes water"
    model.set_rows([memory(2)])
    assert resets == [1]


def test_proxy_sorts_on_sort_role_and_filters_every_column():
    model = AppMemoryModel()
    model.set_rows(
        [memory(1, importance=None), memory(2, importance=10), memory(3, importance=9, tags="work")]
    )
    proxy = sort_filter_proxy(model)
    proxy.sort(model.IMPORTANCE, Qt.SortOrder.DescendingOrder)
    assert [proxy.index(row, model.ID).data() for row in range(3)] == ["2", "3", "1"]  # 10 above 9
    proxy.setFilterFixedString("WORK")
    assert proxy.rowCount() == 1


def test_session_model_shows_counts(memdesk_app):
    memdesk_app.sessions.log("telegram:1", "user", "hello", app_id="calendar")
    memdesk_app.sessions.log("telegram:1", "assistant", "hi there")
    model = SessionModel()
    model.set_rows(memdesk_app.sessions.list())
    row = [model.index(0, column).data() for column in range(model.columnCount())]
    assert row[: model.LAST_MESSAGE] == ["telegram:1", "telegram", "calendar", "2", "2"]
    assert row[model.LAST_CONSOLIDATED] == "never"
    assert model.index(0, model.MESSAGES).data(SortRole) == 2


# --- the lazy entries model ------------------------------------------------------------------


def loaded_model(qtbot, tasks, category="knowledge"):
    model = EntryTableModel(tasks, category)
    model.refresh()
    qtbot.waitUntil(lambda: model.complete)
    return model


def wait_for_row(qtbot, model, row):
    model.index(row, 0).data()  # asks for its page
    qtbot.waitUntil(lambda: model.entry_at(row) is not None)


@pytest.mark.parametrize("category", ["knowledge", "timeline"])
def test_entry_model_passes_qt_checks_empty_and_populated(
    qtmodeltester, qtbot, memdesk_app, tasks, category
):
    qtmodeltester.check(loaded_model(qtbot, tasks, category))
    bulk_entries(memdesk_app, 300, category)
    model = loaded_model(qtbot, tasks, category)
    wait_for_row(qtbot, model, 0)
    qtmodeltester.check(model)
    assert model.columnCount() == (7 if category == "timeline" else 6)


def test_entry_model_reads_only_the_rows_painted(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 5000)
    model = loaded_model(qtbot, tasks)
    view = QTableView()
    qtbot.addWidget(view)
    view.resize(800, 400)
    view.setModel(model)
    view.show()
    qtbot.waitUntil(lambda: model.entry_at(0) is not None)
    assert model.rowCount() == 5000
    assert model.rows_fetched <= 2 * EntryTableModel.PAGE_ROWS
    view.scrollToBottom()
    qtbot.waitUntil(lambda: model.entry_at(4999) is not None)
    assert model.index(4999, model.KEY).data() == "k0000000"  # newest first: the oldest is last
    assert model.rows_fetched <= 4 * EntryTableModel.PAGE_ROWS


def test_entry_model_sorts_and_filters_in_sql(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 50)
    bulk_entries(memdesk_app, 5, first=50, content="tea number {i}")
    model = loaded_model(qtbot, tasks)
    with qtbot.waitSignal(model.ids_loaded):
        model.sort(model.IMPORTANCE, Qt.SortOrder.AscendingOrder)
    expected = memdesk_app.entries.ids(EntryQuery("knowledge", "importance", False))
    assert [model.id_at(row) for row in range(model.rowCount())] == list(expected)
    with qtbot.waitSignal(model.ids_loaded):
        model.set_filter("tea")
    assert model.rowCount() == 5
    wait_for_row(qtbot, model, 0)
    assert model.index(0, model.CONTENT).data().startswith("tea number")
    with qtbot.waitSignal(model.ids_loaded):
        model.set_filter("")
    assert model.rowCount() == 55


def test_new_query_shows_its_head_first_then_appends_the_rest(qtbot, memdesk_app, tasks, monkeypatch):
    monkeypatch.setattr(EntryTableModel, "HEAD_ROWS", 10)
    bulk_entries(memdesk_app, 120)
    model = loaded_model(qtbot, tasks)
    counts = []
    model.modelReset.connect(lambda: counts.append(("reset", model.rowCount())))
    model.rowsInserted.connect(lambda _parent, first, last: counts.append(("inserted", first, last)))
    with qtbot.waitSignal(model.ids_loaded):
        model.sort(model.KEY, Qt.SortOrder.AscendingOrder)
    assert counts == [("reset", 10), ("inserted", 10, 119)]


def test_refresh_keeps_rows_unless_the_ids_changed(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 30)
    model = loaded_model(qtbot, tasks)
    wait_for_row(qtbot, model, 0)
    resets = []
    model.modelReset.connect(lambda: resets.append(1))
    memdesk_app.entries.upsert("k0000029", "changed elsewhere")
    with qtbot.waitSignal(model.ids_loaded):
        model.refresh()
    assert resets == []
    assert model.index(0, model.CONTENT).data() == "note 29 about coffee"  # stale until re-read
    qtbot.waitUntil(lambda: model.index(0, model.CONTENT).data() == "changed elsewhere")
    memdesk_app.entries.delete_key("k0000029")
    with qtbot.waitSignal(model.ids_loaded):
        model.refresh()
    assert resets == [1] and model.rowCount() == 29


def test_entry_model_edits_only_rows_it_has_read(qtbot, memdesk_app, tasks):
    bulk_entries(memdesk_app, 400)
    model = loaded_model(qtbot, tasks)
    unread = model.index(399, model.CONTENT)
    assert not unread.flags() & Qt.ItemFlag.ItemIsEditable
    assert not model.setData(unread, "blind edit")
    wait_for_row(qtbot, model, 0)
    index = model.index(0, model.CONTENT)
    assert index.flags() & Qt.ItemFlag.ItemIsEditable
    assert index.data(Qt.ItemDataRole.EditRole) == "note 399 about coffee"
    with qtbot.waitSignal(model.edit_requested) as request:
        model.setData(model.index(0, model.IMPORTANCE), 0.25)
    assert request.args[1:] == [model.IMPORTANCE, 0.25]
    row = memdesk_app.entries.edit(model.id_at(0), None, content="edited")
    model.put(row)
    assert index.data() == "edited"


def test_expired_timeline_entries_are_greyed(qtbot, memdesk_app, tasks, clock):
    bulk_entries(memdesk_app, 2, "timeline")
    clock.now = datetime(2026, 1, 1, 9, 0) + timedelta(days=90, seconds=30)  # k0 expired, k1 not yet
    model = loaded_model(qtbot, tasks, "timeline")
    wait_for_row(qtbot, model, 1)
    newest, oldest = model.index(0, model.CONTENT), model.index(1, model.CONTENT)
    assert (newest.data(ExpiredRole), oldest.data(ExpiredRole)) == (False, True)
    assert oldest.data(Qt.ItemDataRole.ForegroundRole) == theme.muted()
    assert newest.data(Qt.ItemDataRole.ForegroundRole) is None
    assert model.index(1, model.EXPIRES).data() == when(datetime(2026, 4, 1, 9, 0))
    assert model.index(0, model.KEY).data(IdRole) == model.id_at(0)
    assert model.data(QModelIndex()) is None
