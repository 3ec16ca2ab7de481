"""The text column of the memory tables: it takes the free width, empty minor columns step
aside, the text wraps to two lines on a selected row or in a wide window, and the whole
text is the tooltip."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QStyleOptionViewItem
from tests.gui.tables_fixtures import bulk_entries, settle

from memdesk.gui.models.apps import AppMemoryModel as M
from memdesk.gui.models.entries import EntryTableModel as E
from memdesk.gui.views.apps import AppMemoriesView
from memdesk.gui.views.entries import EntriesView
from memdesk.gui.widgets.tables import STRETCH_MIN_CHARS

SMALL, WIDE = 560, 1400
LONG = "Prefers meetings after 13:00 on weekdays; mornings are for deep work and the gym, never calls."


@pytest.fixture
def apps_view(memdesk_app, tasks, qtbot):
    view = AppMemoriesView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.resize(SMALL, 400)
    view.show()
    return view


def show_app(view, qtbot, app_id="calendar"):
    view.show_app(app_id)
    qtbot.waitUntil(lambda: view.page is not None and view.page.app_id == app_id)
    settle(view, qtbot)


def resize(view, qtbot, width):
    view.resize(width, 400)
    qtbot.waitUntil(lambda: view.table.viewport().width() > width - 80)
    settle(view, qtbot)


def shown_columns(table):
    return [c for c in range(table.model().columnCount()) if not table.isColumnHidden(c)]


def free_width(table, text_column):
    others = sum(table.columnWidth(c) for c in shown_columns(table) if c != text_column)
    return table.viewport().width() - others


def takes_free_width(table, text_column):
    """The text column fills what the others leave, or keeps its minimum when that is less."""
    minimum = STRETCH_MIN_CHARS * table.fontMetrics().averageCharWidth()
    return table.columnWidth(text_column) == max(free_width(table, text_column), minimum)


def add(app, clock, count, **options):
    for i in range(count):
        clock.now += timedelta(minutes=1)
        app.apps.add("calendar", f"{LONG} ({i})", **options)


def test_an_empty_expires_column_gives_its_width_to_the_text(apps_view, memdesk_app, clock, qtbot):
    add(memdesk_app, clock, 3)
    show_app(apps_view, qtbot)
    table = apps_view.table
    assert table.isColumnHidden(M.EXPIRES)
    assert table.columnWidth(M.CONTENT) == free_width(table, M.CONTENT)

    resize(apps_view, qtbot, WIDE)
    assert table.isColumnHidden(M.EXPIRES)  # empty: no room is kept for it in a wide window either
    assert table.columnWidth(M.CONTENT) == free_width(table, M.CONTENT)
    assert table.columnWidth(M.CONTENT) > WIDE // 2

    memdesk_app.apps.add("calendar", "leaves soon", expires_at=clock.now + timedelta(days=3))
    apps_view.refresh()
    settle(apps_view, qtbot)
    qtbot.waitUntil(lambda: not table.isColumnHidden(M.EXPIRES))
    assert table.columnWidth(M.EXPIRES) > table.fontMetrics().horizontalAdvance("2026-12-31")
    assert table.columnWidth(M.CONTENT) == free_width(table, M.CONTENT)


def test_rows_are_two_lines_when_selected_or_in_a_wide_window(apps_view, memdesk_app, clock, qtbot):
    add(memdesk_app, clock, 3)
    show_app(apps_view, qtbot)
    table = apps_view.table
    one, two = table.rowHeight(0), table.rowHeight(0) + table.fontMetrics().lineSpacing()
    assert [table.rowHeight(row) for row in range(3)] == [one] * 3

    table.selectRow(1)
    assert [table.rowHeight(row) for row in range(3)] == [one, two, one]
    table.selectRow(2)
    assert [table.rowHeight(row) for row in range(3)] == [one, one, two]
    table.clearSelection()
    assert [table.rowHeight(row) for row in range(3)] == [one] * 3

    resize(apps_view, qtbot, WIDE)
    assert [table.rowHeight(row) for row in range(3)] == [two] * 3
    resize(apps_view, qtbot, SMALL)
    assert [table.rowHeight(row) for row in range(3)] == [one] * 3


def test_only_the_text_column_wraps_and_only_on_a_tall_row(apps_view, memdesk_app, clock, qtbot):
    add(memdesk_app, clock, 2)
    show_app(apps_view, qtbot)
    delegate, model = apps_view.table.itemDelegate(), apps_view.table.model()
    line = apps_view.table.fontMetrics().height()

    def wraps(column: int, height: int) -> bool:
        option = QStyleOptionViewItem()
        option.initFrom(apps_view.table)
        option.rect = QRect(0, 0, 300, height)
        delegate.initStyleOption(option, model.index(0, column))
        return bool(option.features & QStyleOptionViewItem.ViewItemFeature.WrapText)

    assert wraps(M.CONTENT, 2 * line + 10)
    assert not wraps(M.CONTENT, line + 10)
    assert not wraps(M.UPDATED, 2 * line + 10)  # a date is never broken over two lines


def test_the_tooltip_is_the_whole_text_even_when_expired(apps_view, memdesk_app, clock, qtbot):
    memdesk_app.apps.add("calendar", LONG, expires_at=clock.now + timedelta(hours=1))
    clock.now += timedelta(hours=2)
    show_app(apps_view, qtbot)
    tooltip = apps_view.table.model().index(0, M.CONTENT).data(Qt.ItemDataRole.ToolTipRole)
    assert tooltip.startswith(LONG) and "no longer in the prompt" in tooltip


def entries_view(qtbot, app, tasks, category):
    view = EntriesView(tasks, category)
    qtbot.addWidget(view)
    view.resize(SMALL, 400)
    view.show()
    qtbot.waitUntil(lambda: view.model.complete)
    qtbot.waitUntil(lambda: view.model.entry_at(0) is not None)
    settle(view, qtbot)
    return view


@pytest.mark.parametrize("category", ["knowledge", "timeline"])
def test_entries_text_takes_the_free_width(memdesk_app, tasks, clock, qtbot, category):
    for i in range(4):
        clock.now += timedelta(minutes=1)
        memdesk_app.entries.upsert(f"entry-{i}", f"{LONG} ({i})", category=category)
    view = entries_view(qtbot, memdesk_app, tasks, category)
    table = view.table
    assert table.isColumnHidden(E.SESSION)  # no entry has one
    assert takes_free_width(table, E.CONTENT)
    tooltip = view.model.index(0, E.CONTENT).data(Qt.ItemDataRole.ToolTipRole)
    assert tooltip.startswith(LONG)

    resize(view, qtbot, WIDE)
    assert table.columnWidth(E.CONTENT) == free_width(table, E.CONTENT)
    assert table.rowHeight(0) == table.fontMetrics().height() + table.fontMetrics().lineSpacing() + 10


def test_a_session_column_with_something_in_it_stays(memdesk_app, tasks, clock, qtbot):
    memdesk_app.entries.upsert("from-chat", LONG, session_id="telegram:1")
    view = entries_view(qtbot, memdesk_app, tasks, "knowledge")
    resize(view, qtbot, WIDE)
    assert not view.table.isColumnHidden(E.SESSION)


def test_a_big_selection_stays_one_line_per_row(memdesk_app, tasks, qtbot):
    bulk_entries(memdesk_app, 300)
    view = entries_view(qtbot, memdesk_app, tasks, "knowledge")
    table = view.table
    one = table.rowHeight(0)
    table.selectRow(0)
    assert table.rowHeight(0) > one
    table.selectAll()  # more rows than are made tall one by one
    assert table.rowHeight(0) == one
