"""The look and behaviour every table in the window shares."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

STRETCH_MIN_CHARS = 28  # the text column keeps room for a few words in a narrow window


class StretchColumn(QObject):
    """Like QHeaderView's Stretch mode, but never narrower than ``minimum`` pixels.

    Stretch gives a column only what the others leave, which in a narrow window is
    nothing: the one column worth reading shrank to "…". This one keeps its minimum and
    the table scrolls sideways instead.
    """

    def __init__(self, view: QTableView, column: int, minimum: int) -> None:
        super().__init__(view)
        self._view, self._column, self._minimum = view, column, minimum
        header = view.horizontalHeader()
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.sectionResized.connect(self._resized)
        view.viewport().installEventFilter(self)
        self.fit()

    def _resized(self, logical: int, _old: int, _new: int) -> None:
        if logical != self._column:  # another column was sized: take up the difference
            self.fit()

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return False

    def fit(self) -> None:
        header = self._view.horizontalHeader()
        others = sum(
            header.sectionSize(i)
            for i in range(header.count())
            if i != self._column and not header.isSectionHidden(i)
        )
        header.resizeSection(self._column, max(self._minimum, self._view.viewport().width() - others))


def setup_table(
    view: QTableView,
    stretch_column: int,
    widths: dict[int, int],
    multi_select: bool = False,
    stretch_min_chars: int = STRETCH_MIN_CHARS,
) -> None:
    """Columns sized in characters (``widths``), one stretching (see StretchColumn); no
    per-row measuring, so big tables stay fast."""
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
    StretchColumn(view, stretch_column, stretch_min_chars * char)


def selected_rows(view: QAbstractItemView) -> list[int]:
    """Source-model rows of the selection, in display order."""
    model = view.model()
    rows = sorted({index.row() for index in view.selectionModel().selectedRows()})
    if hasattr(model, "mapToSource"):
        return [model.mapToSource(model.index(row, 0)).row() for row in rows]
    return rows
