"""The look and behaviour every table in the window shares."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

STRETCH_MIN_CHARS = 28  # the text column keeps room for a few words in a narrow window
WIDE_TEXT_CHARS = 60  # from this width on, every row shows two lines of the text column
ROW_PADDING = 10
MAX_TALL_SELECTED = 200  # past this many selected rows, they stay one line (no stall)


class CutAtEnd(QStyledItemDelegate):
    """For a column whose start says the most (a verb, a mark): a long cell is cut at its
    end, whatever the table does with the others."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


class StretchColumn(QObject):
    """Like QHeaderView's Stretch mode, but never narrower than ``minimum`` pixels.

    Stretch gives a column only what the others leave, which in a narrow window is
    nothing: the one column worth reading shrank to "…". This one keeps its minimum. A
    ``droppable`` column with nothing in it on the rows in view steps aside, so its width
    goes to the text. When the window is still too narrow, the other droppable columns are
    hidden, first one first, and come back in reverse order as room returns; only past that
    does the table scroll sideways.
    """

    def __init__(self, view: QTableView, column: int, minimum: int, droppable: Sequence[int] = ()) -> None:
        super().__init__(view)
        self._view, self._column, self._minimum = view, column, minimum
        self._droppable = tuple(droppable)
        self._dropped: list[tuple[int, int]] = []  # (column, its width), hidden for room
        self._empty: dict[int, int] = {}  # column → its width, hidden for having nothing to show
        self._fitting = False
        header = view.horizontalHeader()
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.sectionResized.connect(self._resized)
        view.viewport().installEventFilter(self)
        # Rows come and go in batches: look at them once the batch is in.
        self._recheck = QTimer(self, singleShot=True, interval=0)
        self._recheck.timeout.connect(self.fit)
        model = view.model()
        for signal in (model.modelReset, model.layoutChanged, model.rowsInserted, model.rowsRemoved):
            signal.connect(self._recheck.start)
        model.dataChanged.connect(self._recheck.start)
        view.verticalScrollBar().valueChanged.connect(self._recheck.start)
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

    def _blank_columns(self) -> set[int] | None:
        """Droppable columns with no text on the rows in view; None until those rows are read."""
        view, model = self._view, self._view.model()
        if model.rowCount() == 0:
            return set()
        top = max(view.rowAt(0), 0)
        bottom = view.rowAt(view.viewport().height() - 1)
        last = model.rowCount() - 1 if bottom < 0 else bottom
        blank = set(self._droppable)
        for row in range(top, last + 1):
            for column in list(blank):
                text = model.index(row, column).data(Qt.ItemDataRole.DisplayRole)
                if text is None:  # a row not read yet: decide once it is
                    return None
                if str(text).strip():
                    blank.discard(column)
            if not blank:
                break
        return blank

    def _hide_blank(self) -> None:
        blank = self._blank_columns()
        if blank is None:
            return
        header = self._view.horizontalHeader()
        for column, width in list(self._empty.items()):
            if column not in blank:
                del self._empty[column]
                header.setSectionHidden(column, False)
                header.resizeSection(column, width)
        dropped = dict(self._dropped)
        for column in sorted(blank - set(self._empty)):
            if column in dropped:  # hidden for room already: keep it hidden for being empty
                self._dropped = [(c, width) for c, width in self._dropped if c != column]
                self._empty[column] = dropped[column]
                continue
            self._empty[column] = header.sectionSize(column)
            header.setSectionHidden(column, True)

    def fit(self) -> None:
        if self._fitting:  # hiding a column resizes it, which calls back here
            return
        self._fitting = True
        try:
            self._hide_blank()
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


class WrappingDelegate(QStyledItemDelegate):
    """Wraps the text of ``wrap_columns`` on rows tall enough for two lines; every other cell
    stays one line, elided (a view-wide word wrap would break keys and dates at hyphens)."""

    def __init__(self, parent: QObject, wrap_columns: Iterable[int] = ()) -> None:
        super().__init__(parent)
        self.wrap_columns = frozenset(wrap_columns)

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        if index.column() in self.wrap_columns and option.rect.height() >= 2 * option.fontMetrics.height():
            option.features |= QStyleOptionViewItem.ViewItemFeature.WrapText


class TwoLineRows(QObject):
    """Rows one line tall, two (the text wraps) for selected rows, and for every row once the
    text column is ``wide`` pixels wide. Heights are set per row only for the selection, so a
    table of a million rows keeps its uniform, cheap layout."""

    def __init__(self, view: QTableView, column: int, wide: int) -> None:
        super().__init__(view)
        self._view, self._column, self._wide = view, column, wide
        metrics = view.fontMetrics()
        self.one_line = metrics.height() + ROW_PADDING
        self.two_lines = metrics.lineSpacing() + metrics.height() + ROW_PADDING
        self._tall: set[int] = set()  # rows made two lines tall for being selected
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        view.verticalHeader().setDefaultSectionSize(self.one_line)
        view.horizontalHeader().sectionResized.connect(self._column_resized)
        view.selectionModel().selectionChanged.connect(self.update)
        model = view.model()
        for signal in (model.modelReset, model.layoutChanged):
            signal.connect(self._rows_reset)

    @property
    def wide(self) -> bool:
        return self._view.columnWidth(self._column) >= self._wide

    def _column_resized(self, logical: int, _old: int, _new: int) -> None:
        if logical == self._column:
            self.update()

    def _rows_reset(self) -> None:
        self._tall.clear()  # the header forgot its sizes, or they belong to other rows now
        self.update()

    def update(self) -> None:
        header = self._view.verticalHeader()
        default = self.two_lines if self.wide else self.one_line
        if header.defaultSectionSize() != default:
            header.setDefaultSectionSize(default)
        wanted: set[int] = set()
        # Counted from the ranges: listing a select-all of a million rows would stall.
        spans = self._view.selectionModel().selection()
        if not self.wide and sum(span.height() for span in spans) <= MAX_TALL_SELECTED:
            wanted = {row for span in spans for row in range(span.top(), span.bottom() + 1)}
        for row in self._tall - wanted:
            header.resizeSection(row, default)
        for row in wanted - self._tall:
            header.resizeSection(row, self.two_lines)
        self._tall = wanted


def setup_table(
    view: QTableView,
    stretch_column: int,
    widths: dict[int, int],
    multi_select: bool = False,
    stretch_min_chars: int = STRETCH_MIN_CHARS,
    droppable: Sequence[int] = (),
    two_lines: bool = False,
) -> None:
    """Columns sized in characters (``widths``), one stretching, and the ``droppable`` ones
    hidden when empty or, in that order, when the window is narrow (see StretchColumn); with
    ``two_lines``, the stretching column's text wraps to two lines on selected rows, or on
    every row in a wide window (see TwoLineRows; a delegate set later must be a
    WrappingDelegate). No per-row measuring, so big tables stay fast."""
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
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + ROW_PADDING)
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
    if two_lines:
        view.setItemDelegate(WrappingDelegate(view, {stretch_column}))
        TwoLineRows(view, stretch_column, WIDE_TEXT_CHARS * char)


def selected_rows(view: QAbstractItemView) -> list[int]:
    """Source-model rows of the selection, in display order."""
    model = view.model()
    rows = sorted({index.row() for index in view.selectionModel().selectedRows()})
    if hasattr(model, "mapToSource"):
        return [model.mapToSource(model.index(row, 0)).row() for row in rows]
    return rows
