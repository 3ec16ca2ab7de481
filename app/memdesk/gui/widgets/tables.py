"""The look and behaviour every table in the window shares."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView


def setup_table(
    view: QTableView, stretch_column: int, widths: dict[int, int], multi_select: bool = False
) -> None:
    """Columns sized in characters (``widths``), one stretching; no per-row measuring, so
    big tables stay fast."""
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(
        QAbstractItemView.SelectionMode.ExtendedSelection
        if multi_select
        else QAbstractItemView.SelectionMode.SingleSelection
    )
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideRight)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 10)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    header = view.horizontalHeader()
    header.setHighlightSections(False)
    header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(False)
    char = view.fontMetrics().averageCharWidth()
    for column, chars in widths.items():
        view.setColumnWidth(column, chars * char + 16)
    header.setSectionResizeMode(stretch_column, QHeaderView.ResizeMode.Stretch)


def selected_rows(view: QAbstractItemView) -> list[int]:
    """Source-model rows of the selection, in display order."""
    model = view.model()
    rows = sorted({index.row() for index in view.selectionModel().selectedRows()})
    if hasattr(model, "mapToSource"):
        return [model.mapToSource(model.index(row, 0)).row() for row in rows]
    return rows
