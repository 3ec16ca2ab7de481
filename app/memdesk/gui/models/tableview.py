"""Glue between the table models and their views: selection kept by id, keyboard actions.

``SelectionKeeper`` remembers rows by id across model resets, so a refresh that inserts,
removes or reorders rows (another program wrote to the store, the sort changed) leaves the
person looking at the same items, with the same ones selected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from PySide6.QtCore import QAbstractItemModel, QItemSelection, QItemSelectionModel, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QTableView

MAX_KEPT = 10_000  # a larger selection is let go: mapping it back would stall the window


class IdRows(Protocol):
    """What a model offers so that its rows can be found again by id."""

    def id_at(self, number: int) -> Any: ...

    def rows_of(self, ids: list[Any]) -> dict[Any, int]: ...


class SelectionKeeper(QObject):
    def __init__(self, view: QTableView, source: QAbstractItemModel) -> None:
        super().__init__(view)
        self._view = view
        self._source = source
        self._ids = cast(IdRows, source)
        self._selected: list[Any] = []
        self._first_row: int | None = None  # view row of the first selected item
        self._current: Any = None
        self._current_column = 0
        self._top: Any = None  # the item at the top of the visible part
        self._scroll = (0, 0)
        self._removal_expected = False
        self._new_order = False
        source.modelAboutToBeReset.connect(self._save)
        source.modelReset.connect(self._restore)

    def expect_new_order(self) -> None:
        """The next reset shows another sort or filter: keep the selection, but show the current
        item (or the top of the list) rather than the item that was at the top."""
        self._new_order = True

    def expect_removal(self) -> None:
        """The selected rows are being deleted: afterwards select the row that takes their place."""
        self._removal_expected = True

    def selected_ids(self) -> list[Any]:
        """Ids of every selected row, in display order."""
        return [self._ids.id_at(self._to_source(row)) for row in self._selected_view_rows()]

    def _selected_view_rows(self, limit: int | None = None) -> list[int]:
        """Selected rows in display order; past ``limit`` rows, ``limit + 1`` of them."""
        rows: set[int] = set()
        for span in self._view.selectionModel().selection():
            bottom = span.bottom() + 1 if limit is None else min(span.bottom() + 1, span.top() + limit + 1)
            rows.update(range(span.top(), bottom))
            if limit is not None and len(rows) > limit:
                break
        return sorted(rows)

    def _to_source(self, view_row: int) -> int:
        model = self._view.model()
        if model is self._source:
            return view_row
        return model.mapToSource(model.index(view_row, 0)).row()

    def _to_view(self, source_row: int) -> int:
        model = self._view.model()
        if model is self._source:
            return source_row
        return model.mapFromSource(self._source.index(source_row, 0)).row()

    def _id_at_view_row(self, row: int) -> Any:
        return self._ids.id_at(self._to_source(row)) if row >= 0 else None

    def _save(self) -> None:
        rows = self._selected_view_rows(MAX_KEPT)
        self._first_row = rows[0] if rows else None
        self._selected = [] if len(rows) > MAX_KEPT else [self._id_at_view_row(row) for row in rows]
        current = self._view.currentIndex()
        self._current = self._id_at_view_row(current.row()) if current.isValid() else None
        self._current_column = max(current.column(), 0)
        self._top = self._id_at_view_row(self._view.rowAt(0))
        self._scroll = (self._view.verticalScrollBar().value(), self._view.horizontalScrollBar().value())

    def _restore(self) -> None:
        view, shown = self._view, self._view.model()
        removal, self._removal_expected = self._removal_expected, False
        new_order, self._new_order = self._new_order, False
        items = [*self._selected, *(item for item in (self._current, self._top) if item is not None)]
        found = {item: self._to_view(row) for item, row in self._ids.rows_of(items).items()}
        rows = sorted(found[item] for item in self._selected if item in found)
        current = found.get(self._current)
        if not rows and removal and self._first_row is not None and shown.rowCount():
            rows = [min(self._first_row, shown.rowCount() - 1)]
            current = rows[0]
        view.updateGeometries()  # scroll ranges must follow the new row count before scrolling
        self._select(rows)
        if current is not None:
            index = shown.index(current, self._current_column)
            view.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)
        if new_order:
            if current is not None:
                view.scrollTo(shown.index(current, 0), QAbstractItemView.ScrollHint.PositionAtCenter)
            else:
                view.scrollToTop()
        elif self._top in found:
            view.scrollTo(shown.index(found[self._top], 0), QAbstractItemView.ScrollHint.PositionAtTop)
        else:
            view.verticalScrollBar().setValue(self._scroll[0])
        view.horizontalScrollBar().setValue(self._scroll[1])

    def _select(self, rows: list[int]) -> None:
        """Select whole rows, as few ranges as possible."""
        shown, last_column = self._view.model(), self._view.model().columnCount() - 1
        selection = QItemSelection()
        start = previous = None
        for row in [*rows, None]:
            if row is not None and previous is not None and row == previous + 1:
                previous = row
                continue
            if start is not None:
                selection.select(shown.index(start, 0), shown.index(previous, last_column))
            start = previous = row
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self._view.selectionModel().select(selection, flags)


def table_action(
    table: QTableView, text: str, slot: Callable[[], object], *keys: QKeySequence | QKeySequence.StandardKey
) -> QAction:
    """An action in the table's context menu; its keys work while the table has focus (not
    while a cell is being edited, so Del in an editor deletes a character)."""
    action = QAction(text, table)
    action.setShortcuts([QKeySequence(key) for key in keys])
    action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
    action.triggered.connect(slot)
    table.addAction(action)
    return action


ENTER_KEYS = (QKeySequence(Qt.Key.Key_Return), QKeySequence(Qt.Key.Key_Enter))
DATE = "2026-12-31 23:59"  # the widest time a table shows (see widgets.display.when)
ACTOR_SAMPLE = "mcp:codex-mcp-client"  # a long assistant name (Codex CLI's), as History and Review show it


def size_columns(table: QTableView, samples: dict[int, str]) -> None:
    """Give columns the width of a typical value or of their title (with room for the sort
    arrow), whichever is wider, measured in the table's font so dates are never cut."""
    model = table.model()
    cell = table.fontMetrics()
    title = table.horizontalHeader().fontMetrics()
    for column, sample in samples.items():
        if column < model.columnCount():
            name = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
            table.setColumnWidth(
                column, max(cell.horizontalAdvance(sample) + 18, title.horizontalAdvance(name) + 32)
            )
