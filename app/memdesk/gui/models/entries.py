"""Knowledge or timeline entries, lazily: ids in SQL order, rows read a page at a time.

As in Anki's browser, the model holds the ids of every entry its query selects (a million
ids take ~8 MB in an ``array``) and reads rows only for the part of the table being
painted, keeping the latest few thousand. Sorting (``sort``) and filtering (``set_filter``)
run in SQL, words through the full-text index. A new query first reads its first
``HEAD_ROWS`` ids (milliseconds on an indexed order, whatever the size of the store) so rows
paint at once; the rest of the ids are read next and appended. A model may start from a
first page read before the store was open (``start_from``): those rows paint at once, and the
ids read later are appended after them.
"""

from __future__ import annotations

import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import replace

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, Qt, QTimer, Signal

from memdesk.core.entry_rows import EntryQuery, EntryRow, check_category
from memdesk.gui import theme
from memdesk.gui.models.common import NUMBER_ALIGNMENT, ExpiredRole, IdRole, Index
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.display import one_line, when
from memdesk.gui.widgets.private_toggle import PRIVATE_TIP, lock_icon

_ROW_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.EditRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.DecorationRole,
        ExpiredRole,
    }
)


class EntryTableModel(QAbstractTableModel):
    KEY, CONTENT, IMPORTANCE, SESSION, CREATED, UPDATED, EXPIRES = range(7)
    HEADERS = ("Key", "Content", "Importance", "Session", "Created", "Updated", "Expires")
    SORT_KEYS = ("key", "content", "importance", "session", "created", "updated", "expires")
    EDITABLE = frozenset({CONTENT, IMPORTANCE})
    DESCENDING_FIRST = frozenset({IMPORTANCE, CREATED, UPDATED})  # a first click shows the top ones
    PAGE_ROWS = 100
    HEAD_ROWS = 500
    CACHE_ROWS = 5000
    PAGES_PER_READ = 4  # when scrolling fast, pages scrolled past are not read

    ids_loaded = Signal()  # every id of the current query is known
    query_changed = Signal()  # another sort or filter: its rows replace the current ones
    edit_requested = Signal(object, int, object)  # EntryRow, column, new value

    def __init__(self, tasks: TaskRunner, category: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._query = EntryQuery(check_category(category))
        self._ids: array[int] = array("q")
        self._complete = False  # _ids holds every id of the query, not only its head
        self._resets = 0  # row numbers read before a reset no longer point at the same ids
        # id -> (row, epoch); None for an id gone from the database. Rows of an older epoch
        # are shown until their fresh copy arrives, so a refresh does not blank the table.
        self._cache: OrderedDict[int, tuple[EntryRow | None, int]] = OrderedDict()
        self._epoch = 0
        self._cancel = threading.Event()  # set when the query being read is replaced
        self._loading = False
        self._reload_again = False
        self._wanted: dict[int, None] = {}  # pages to read, most recently asked for last
        self._reading_rows = False
        self.rows_fetched = 0  # rows read from the store so far (the laziness, measurable)
        self.private_keys: frozenset[str] = frozenset()  # keys shown with a lock
        self._flush = QTimer(self, singleShot=True, interval=0)
        self._flush.timeout.connect(self._read_rows)
        self._refresh_timer = QTimer(self, singleShot=True, interval=0)
        self._refresh_timer.timeout.connect(self._refresh_now)

    # --- what the view calls -------------------------------------------------------------

    @property
    def query(self) -> EntryQuery:
        return self._query

    @property
    def complete(self) -> bool:
        """Every id of the current query is known (a refresh may be reading them again)."""
        return self._complete

    def refresh(self) -> None:
        """Read the ids again (the store changed); rows on screen are re-read as painted.

        Calls in one turn of the event loop (a view's own refresh after a write and the
        window's on ``store_changed``) make one read."""
        self._epoch += 1
        self._refresh_timer.start()

    def _refresh_now(self) -> None:
        if self._loading:
            self._reload_again = True
            return
        # Rows already on screen stay there: every id is read and appended after them.
        self._load(head=not self._complete and not self._ids)

    def start_from(self, rows: list[EntryRow], private_keys: frozenset[str]) -> None:
        """Show ``rows``, the first rows of this model's query read elsewhere, until its own
        reads arrive: they come back the same, so nothing on screen moves."""
        self.beginResetModel()
        self._ids = array("q", [row.id for row in rows])
        self._store(((row.id, row) for row in rows), self._epoch)
        self.private_keys = private_keys
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        if text.strip() != self._query.text:
            self._set_query(replace(self._query, text=text.strip()))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if 0 <= column < self.columnCount():
            descending = order == Qt.SortOrder.DescendingOrder
            query = replace(self._query, sort=self.SORT_KEYS[column], descending=descending)
            if query != self._query:
                self._set_query(query)

    def set_private(self, keys: frozenset[str]) -> None:
        """The keys of the private entries; their key cells show a lock."""
        if keys != self.private_keys:
            self.private_keys = keys
            if self._ids:
                last = self.index(len(self._ids) - 1, self.KEY)
                self.dataChanged.emit(self.index(0, self.KEY), last, [Qt.ItemDataRole.DecorationRole])

    def entry_at(self, number: int) -> EntryRow | None:
        """The row if it has been read (never starts a read)."""
        cached = self._cache.get(self._ids[number])
        return cached[0] if cached else None

    def id_at(self, number: int) -> int:
        return self._ids[number]

    def row_of(self, entry_id: int) -> int | None:
        try:
            return self._ids.index(entry_id)
        except ValueError:
            return None

    def rows_of(self, ids: Iterable[int]) -> dict[int, int]:
        wanted = set(ids)
        if len(wanted) <= 8:  # a C-speed search each beats one Python pass over a million ids
            found = {entry_id: self.row_of(entry_id) for entry_id in wanted}
            return {entry_id: number for entry_id, number in found.items() if number is not None}
        return {entry_id: number for number, entry_id in enumerate(self._ids) if entry_id in wanted}

    def put(self, row: EntryRow) -> None:
        """A row the store returned after an edit."""
        self._cache[row.id] = (row, self._epoch)
        number = self.row_of(row.id)
        if number is not None:
            self.dataChanged.emit(self.index(number, 0), self.index(number, self.columnCount() - 1))

    # --- loading ids -----------------------------------------------------------------------

    def _set_query(self, query: EntryQuery) -> None:
        self._query = query
        self._cancel.set()
        self._cancel = threading.Event()
        self._complete = self._reload_again = False
        self.query_changed.emit()
        self._load(head=True)

    def _load(self, head: bool) -> None:
        self._loading = True
        if not head:
            self._read_all_ids()
            return
        query, cancel, limit = self._query, self._cancel, self.HEAD_ROWS
        self._tasks.read(
            lambda app: None if cancel.is_set() else app.entries.ids(query, limit),
            on_done=lambda ids: self._head_arrived(cancel, ids),
            on_error=lambda exc: self._load_failed(cancel, exc),
        )

    def _read_all_ids(self) -> None:
        query, cancel = self._query, self._cancel
        self._tasks.read(
            lambda app: None if cancel.is_set() else app.entries.ids(query),
            on_done=lambda ids: self._ids_arrived(cancel, ids),
            on_error=lambda exc: self._load_failed(cancel, exc),
        )

    def _head_arrived(self, cancel: threading.Event, ids: array[int] | None) -> None:
        if ids is None or cancel.is_set():
            return
        self._reset(ids)
        if len(ids) < self.HEAD_ROWS:  # the head is the whole list
            self._ids_arrived(cancel, ids)
        else:
            self._read_all_ids()

    def _ids_arrived(self, cancel: threading.Event, ids: array[int] | None) -> None:
        if ids is None or cancel.is_set():
            return
        self._loading = False
        self._complete = True
        old = len(self._ids)
        if ids[:old] != self._ids:
            self._reset(ids)
        else:
            if len(ids) > old:  # the head grew into the whole list, or entries were added
                self.beginInsertRows(QModelIndex(), old, len(ids) - 1)
                self._ids = ids
                self.endInsertRows()
            if old:  # repaint the rows shown, so the stale ones among them are read again
                self.dataChanged.emit(self.index(0, 0), self.index(old - 1, self.columnCount() - 1))
        self.ids_loaded.emit()
        if self._reload_again:
            self._reload_again = False
            self._load(head=False)

    def _load_failed(self, cancel: threading.Event, exc: Exception) -> None:
        if not cancel.is_set():
            self._loading = self._reload_again = False
            self._tasks.error.emit(exc)

    def _reset(self, ids: array[int]) -> None:
        self.beginResetModel()
        self._ids = ids
        self._resets += 1
        self.endResetModel()

    # --- reading rows ----------------------------------------------------------------------

    def _entry(self, number: int) -> EntryRow | None:
        """The row to show, asking for a (fresh) read of its page when needed."""
        cached = self._cache.get(self._ids[number])
        if cached is None or cached[1] != self._epoch:
            page = number // self.PAGE_ROWS
            self._wanted.pop(page, None)
            self._wanted[page] = None
            if not self._reading_rows:
                self._flush.start()
        return cached[0] if cached else None

    def _read_rows(self) -> None:
        if self._reading_rows or not self._wanted:
            return
        pages = list(self._wanted)[-self.PAGES_PER_READ :]
        self._wanted.clear()
        ids = []
        for page in pages:
            for entry_id in self._ids[page * self.PAGE_ROWS : (page + 1) * self.PAGE_ROWS]:
                cached = self._cache.get(entry_id)
                if cached is None or cached[1] != self._epoch:
                    ids.append(entry_id)
        if not ids:
            return
        epoch, resets = self._epoch, self._resets
        self._reading_rows = True
        self._tasks.read(
            lambda app: app.entries.rows(ids),
            on_done=lambda rows: self._rows_arrived(epoch, resets, pages, ids, rows),
            on_error=lambda exc: self._rows_failed(epoch, ids, exc),
        )

    def _rows_arrived(
        self, epoch: int, resets: int, pages: list[int], ids: list[int], rows: list[EntryRow]
    ) -> None:
        self._reading_rows = False
        self.rows_fetched += len(rows)
        found = {row.id: row for row in rows}
        self._store(((entry_id, found.get(entry_id)) for entry_id in ids), epoch)
        if resets == self._resets:  # after a reset the view asks again anyway
            last_row = len(self._ids) - 1
            for page in pages:
                first = page * self.PAGE_ROWS
                if first <= last_row:
                    last = min(first + self.PAGE_ROWS - 1, last_row)
                    self.dataChanged.emit(self.index(first, 0), self.index(last, self.columnCount() - 1))
        if self._wanted:
            self._flush.start()

    def _rows_failed(self, epoch: int, ids: list[int], exc: Exception) -> None:
        self._reading_rows = False
        self._store(((entry_id, None) for entry_id in ids), epoch)  # blank until the next refresh
        self._tasks.error.emit(exc)

    def _store(self, items: Iterable[tuple[int, EntryRow | None]], epoch: int) -> None:
        for entry_id, row in items:
            self._cache[entry_id] = (row, epoch)
            self._cache.move_to_end(entry_id)
        while len(self._cache) > self.CACHE_ROWS:
            self._cache.popitem(last=False)

    # --- QAbstractTableModel -------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        if parent.isValid():
            return 0
        return len(self.HEADERS) if self._query.category == "timeline" else self.EXPIRES

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < self.columnCount():
            if role == Qt.ItemDataRole.DisplayRole:
                return self.HEADERS[section]
            if role == Qt.ItemDataRole.TextAlignmentRole and section == self.IMPORTANCE:
                return NUMBER_ALIGNMENT
            if role == Qt.ItemDataRole.InitialSortOrderRole and section in self.DESCENDING_FIRST:
                return Qt.SortOrder.DescendingOrder
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self._ids):
            return None
        if role == IdRole:
            return self._ids[index.row()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == self.IMPORTANCE:
            return NUMBER_ALIGNMENT
        if role not in _ROW_ROLES:
            return None
        row = self._entry(index.row())
        if row is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(row, column)
        if role == Qt.ItemDataRole.EditRole:
            return self._edit_value(row, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(row, column)
        if role == Qt.ItemDataRole.ForegroundRole:
            return theme.muted() if row.expired else None
        if role == Qt.ItemDataRole.DecorationRole:
            return lock_icon() if column == self.KEY and row.key in self.private_keys else None
        return row.expired  # ExpiredRole

    def flags(self, index: Index) -> Qt.ItemFlag:
        flags = super().flags(index)
        # Only a row that has been read can be edited: its editor must start from its text.
        if index.isValid() and index.column() in self.EDITABLE and self.entry_at(index.row()) is not None:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def setData(self, index: Index, value: object, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or index.column() not in self.EDITABLE:
            return False
        row = self.entry_at(index.row())
        if row is None or value == self._edit_value(row, index.column()):
            return False
        self.edit_requested.emit(row, index.column(), value)
        return True

    # --- how a row reads ---------------------------------------------------------------------

    def _display(self, row: EntryRow, column: int) -> str:
        if column == self.KEY:
            return row.key
        if column == self.CONTENT:
            return one_line(row.content, 300)
        if column == self.IMPORTANCE:
            return f"{row.importance:.2f}"
        if column == self.SESSION:
            return row.session_id or ""
        if column == self.CREATED:
            return when(row.created_at)
        if column == self.UPDATED:
            return when(row.updated_at)
        return when(row.expires_at) if row.expires_at else "pinned"

    def _edit_value(self, row: EntryRow, column: int) -> object:
        if column == self.IMPORTANCE:
            return row.importance
        if column == self.CONTENT:
            return row.content
        return self._display(row, column)

    def _tooltip(self, row: EntryRow, column: int) -> str | None:
        expired = f"Expired {when(row.expires_at)}: kept here, no longer recalled into the prompt"
        if column == self.CONTENT:  # the whole text, which the cell may cut
            text = row.content if len(row.content) <= 2000 else row.content[:2000] + "…"
            return text + (f"\n\n{expired}" if row.expired else "")
        if column == self.KEY and row.key in self.private_keys:
            return PRIVATE_TIP
        if row.expired:
            return expired
        if column == self.EXPIRES and row.expires_at is None:
            return "Pinned: never expires"
        return None
