"""The look and behaviour every table in the window shares."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

STRETCH_MIN_CHARS = 28  # the text column keeps room for a few words in a narrow window


class StretchColumn(QObject):
    """Like QHeaderView's Stretch mode, but never narrower than ``minimum`` pixels.

    Stretch gives a column only what the others leave, which in a narrow window is
    nothing: the one column worth reading shrank to "…". This one keeps its minimum. When
    the window is too narrow for that, the ``droppable`` columns are hidden, first one
    first, and come back in reverse order as room returns; only past that does the table
    scroll sideways.
    """

    def __init__(self, view: QTableView, column: int, minimum: int, droppable: Sequence[int] = ()) -> None:
        super().__init__(view)
        self._view, self._column, self._minimum = view, column, minimum
        self._droppable = tuple(droppable)
        self._dropped: list[tuple[int, int]] = []  # (column, its width), hidden here
        self._fitting = False
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

    def _others(self) -> int:
        header = self._view.horizontalHeader()
        return sum(
            header.sectionSize(i)
            for i in range(header.count())
            if i != self._column and not header.isSectionHidden(i)
        )

    def fit(self) -> None:
        if self._fitting:  # hiding a column resizes it, which calls back here
            return
        self._fitting = True
        try:
            header = self._view.horizontalHeader()
            room = self._view.viewport().width() - self._minimum
            while self._dropped and self._others() + self._dropped[-1][1] <= room:
                header.setSectionHidden(self._dropped.pop()[0], False)
            for column in self._droppable:
                if self._others() <= room:
                    break
                if not header.isSectionHidden(column):
                    self._dropped.append((column, header.sectionSize(column)))
                    header.setSectionHidden(column, True)
            width = self._view.viewport().width() - self._others()
            header.resizeSection(self._column, max(self._minimum, width))
        finally:
            self._fitting = False


def setup_table(
    view: QTableView,
    stretch_column: int,
    widths: dict[int, int],
    multi_select: bool = False,
    stretch_min_chars: int = STRETCH_MIN_CHARS,
    droppable: Sequence[int] = (),
) -> None:
    """Columns sized in characters (``widths``), one stretching, and the ``droppable`` ones
    hidden in that order when the window is narrow (see StretchColumn); no per-row
    measuring, so big tables stay fast."""
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
    StretchColumn(view, stretch_column, stretch_min_chars * char, droppable)


def selected_rows(view: QAbstractItemView) -> list[int]:
    """Source-model rows of the selection, in display order."""
    model = view.model()
    rows = sorted({index.row() for index in view.selectionModel().selectedRows()})
    if hasattr(model, "mapToSource"):
        return [model.mapToSource(model.index(row, 0)).row() for row in rows]
    return rows
