"""What the table models share: custom roles, a base for tables over a list of rows, and on
it a base for small tables of frozen rows.

Small tables (an app's memories, sessions, messages) hold their rows and sort and filter
through ``QSortFilterProxyModel`` on ``SortRole``; the entries table is lazy (see entries.py).
Expired rows are greyed with the palette-derived muted colour the rest of the window uses,
so they stay readable in light and dark.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    Signal,
)

from memdesk.gui import theme

IdRole = Qt.ItemDataRole.UserRole + 1  # the row's id in the store
ExpiredRole = Qt.ItemDataRole.UserRole + 2  # True when the item no longer reaches the prompt
SortRole = Qt.ItemDataRole.UserRole + 3  # a value of one type per column, for sorting

Index = QModelIndex | QPersistentModelIndex
NUMBER_ALIGNMENT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def time_sort_value(value: datetime | None) -> str:
    """Times sort as ISO text, missing ones first; one type per column keeps Qt's comparison sane."""
    return value.isoformat() if value else ""


class TableModel(QAbstractTableModel):
    """A flat table over a list of rows with named columns; subclasses say how cells read."""

    HEADERS: tuple[str, ...] = ()
    NUMERIC: frozenset[int] = frozenset()  # number columns: their headers align right, like the numbers
    DESCENDING_FIRST: frozenset[int] = frozenset()  # a first click on these shows the top (newest) first

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[Any] = []

    def _reset_rows(self, rows: list[Any]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        return self.cell(self._rows[index.row()], index.column(), role)

    def cell(self, row: Any, column: int, role: int) -> Any:
        """What a cell of ``row`` shows for ``role`` (None: nothing)."""
        raise NotImplementedError(f"{type(self).__name__} does not say how its cells read")

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.HEADERS[section]
            if role == Qt.ItemDataRole.TextAlignmentRole and section in self.NUMERIC:
                return NUMBER_ALIGNMENT
            if role == Qt.ItemDataRole.InitialSortOrderRole and section in self.DESCENDING_FIRST:
                return Qt.SortOrder.DescendingOrder
        return None


class RowsModel(TableModel):
    """A table of frozen dataclass rows with an ``id`` field; subclasses say how cells read.

    ``setData`` does not change the row: it hands the value to ``edit_requested`` and the
    row changes when the store has accepted it (``replace_row`` or ``set_rows``), so a
    refused edit leaves the old text in place.
    """

    EDITABLE: frozenset[int] = frozenset()

    edit_requested = Signal(object, int, object)  # row, column, new value

    # --- what subclasses define ---------------------------------------------------------

    def display(self, row: Any, column: int) -> str:
        raise NotImplementedError

    def sort_value(self, row: Any, column: int) -> object:
        return self.display(row, column).casefold()

    def edit_value(self, row: Any, column: int) -> object:
        return self.display(row, column)

    def tooltip(self, row: Any, column: int) -> str | None:
        return None

    def is_expired(self, row: Any) -> bool:
        return bool(getattr(row, "expired", False))

    # --- rows ------------------------------------------------------------------------------

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show ``rows``; when the same ids come back in the same order only changed rows
        are repainted, so selection, scrolling and open editors are left alone."""
        rows = list(rows)
        if [row.id for row in rows] != [row.id for row in self._rows]:
            self._reset_rows(rows)
            return
        for number, (old, new) in enumerate(zip(self._rows, rows, strict=True)):
            if old != new:
                self._rows[number] = new
                self.dataChanged.emit(self.index(number, 0), self.index(number, self.columnCount() - 1))

    def replace_row(self, row: Any) -> None:
        """Put a row the store returned after an edit in place of the one with its id."""
        number = self.rows_of([row.id]).get(row.id)
        if number is not None and self._rows[number] != row:
            self._rows[number] = row
            self.dataChanged.emit(self.index(number, 0), self.index(number, self.columnCount() - 1))

    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, number: int) -> Any:
        return self._rows[number]

    def id_at(self, number: int) -> Any:
        return self._rows[number].id

    def rows_of(self, ids: Iterable[Any]) -> dict[Any, int]:
        wanted = set(ids)
        return {row.id: number for number, row in enumerate(self._rows) if row.id in wanted}

    # --- QAbstractTableModel -------------------------------------------------------------------

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row, column = self._rows[index.row()], index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(row, column)
        if role == Qt.ItemDataRole.EditRole:
            return self.edit_value(row, column) if column in self.EDITABLE else self.display(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(row, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            return theme.muted() if self.is_expired(row) else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column in self.NUMERIC:
            return NUMBER_ALIGNMENT
        if role == IdRole:
            return row.id
        if role == ExpiredRole:
            return self.is_expired(row)
        if role == SortRole:
            return self.sort_value(row, column)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        if index.isValid() and index.column() in self.EDITABLE:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: Index, value: object, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or index.column() not in self.EDITABLE:
            return False
        row = self._rows[index.row()]
        if value == self.edit_value(row, index.column()):
            return False
        self.edit_requested.emit(row, index.column(), value)
        return True


def sort_filter_proxy(model: RowsModel, parent: QObject | None = None) -> QSortFilterProxyModel:
    """A proxy sorting on ``SortRole`` and filtering every column, ignoring case."""
    proxy = QSortFilterProxyModel(parent)
    proxy.setSourceModel(model)
    proxy.setSortRole(SortRole)
    proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    proxy.setFilterKeyColumn(-1)
    return proxy
