"""Global search: one box, results grouped by kind with snippets; arrows and Enter open one.

The box lives in the toolbar; while it has focus, Up/Down move through the results and
Enter opens the current one, so the hands never leave the keyboard.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import QPainter, QPalette, QTextDocument
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

from memdesk.core.items import ItemKind
from memdesk.core.namespaces import is_working
from memdesk.gui import theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.widgets.display import document_title
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk
from memdesk.services.search import GROUP_ORDER, SearchResult

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
SNIPPET_ROLE = Qt.ItemDataRole.UserRole + 1
GROUP_NAMES = {
    ItemKind.DOCUMENT: "Documents",
    "knowledge": "Knowledge",
    "timeline": "Timeline",
    ItemKind.APP_MEMORY: "App memories",
}


@dataclass(eq=False)
class Group:
    name: str  # one of GROUP_ORDER
    hits: list[Hit] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{GROUP_NAMES.get(self.name, self.name)}  ({len(self.hits)})"


@dataclass(eq=False)
class Hit:
    group: Group
    result: SearchResult


class SearchModel(QAbstractItemModel):
    """Groups at the top level, results under them."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.groups: list[Group] = []

    def set_results(self, grouped: dict[str, list[SearchResult]]) -> None:
        self.beginResetModel()
        self.groups = []
        for name in GROUP_ORDER:
            results = grouped.get(name, [])
            if results:
                group = Group(name)
                group.hits = [Hit(group, result) for result in results]
                self.groups.append(group)
        self.endResetModel()

    def result_count(self) -> int:
        return sum(len(group.hits) for group in self.groups)

    def result_at(self, index: Index) -> SearchResult | None:
        item = index.internalPointer() if index.isValid() else None
        return item.result if isinstance(item, Hit) else None

    def index(self, row: int, column: int, parent: Index = ROOT) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, self.groups[row])
        return self.createIndex(row, column, parent.internalPointer().hits[row])

    def parent(self, index: Index = ROOT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        item = index.internalPointer()
        if isinstance(item, Group):
            return QModelIndex()
        return self.createIndex(self.groups.index(item.group), 0, item.group)

    def rowCount(self, parent: Index = ROOT) -> int:
        if not parent.isValid():
            return len(self.groups)
        item = parent.internalPointer()
        return len(item.hits) if isinstance(item, Group) and parent.column() == 0 else 0

    def columnCount(self, parent: Index = ROOT) -> int:
        return 1

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if isinstance(index.internalPointer(), Group):
            return Qt.ItemFlag.ItemIsEnabled
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        item = index.internalPointer()
        if isinstance(item, Group):
            return item.label if role == Qt.ItemDataRole.DisplayRole else None
        result = item.result
        if role == Qt.ItemDataRole.DisplayRole:
            return result_title(result)
        if role == SNIPPET_ROLE:
            return result.snippet
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            return f"{result.title}: {result.snippet.replace('[', '').replace(']', '')}"
        return None


def result_title(result: SearchResult) -> str:
    """What a result is called on screen: documents by name, entries by key, memories by app."""
    if result.item.kind == ItemKind.DOCUMENT:
        name = "Working memory" if is_working(result.ref) else document_title(result.ref)
        return f"{name}  ·  {result.ref}"
    if result.item.kind == ItemKind.APP_MEMORY:
        return f"{result.title}  ·  memory {result.ref}"
    return result.title


def snippet_html(snippet: str) -> str:
    """The search service marks matches with [ ]; show them bold, everything else as text."""
    return html.escape(snippet).replace("[", "<b>").replace("]", "</b>")


class ResultDelegate(QStyledItemDelegate):
    """Two lines per result (title, then the snippet with matches in bold); groups as headings."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        snippet = index.data(SNIPPET_ROLE)
        if snippet is None:  # a group heading
            heading = QStyleOptionViewItem(option)
            self.initStyleOption(heading, index)
            heading.font = theme.scaled_font(option.font, 0.92, bold=True)
            heading.palette.setColor(QPalette.ColorRole.Text, theme.muted(option.palette))
            super().paint(painter, heading, index)
            return
        style = option.widget.style() if option.widget else None
        background = QStyleOptionViewItem(option)
        self.initStyleOption(background, index)
        background.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, background, painter, option.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        text_color = option.palette.color(
            QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        )
        rect = option.rect.adjusted(6, 3, -6, -3)
        line = option.fontMetrics.height()
        painter.save()
        painter.setPen(text_color)
        painter.setFont(theme.scaled_font(option.font, 1.0, bold=True))
        title = option.fontMetrics.elidedText(index.data(), Qt.TextElideMode.ElideRight, rect.width())
        painter.drawText(QRect(rect.left(), rect.top(), rect.width(), line), 0, title)
        doc = QTextDocument()
        doc.setDefaultFont(option.font)
        doc.setDocumentMargin(0)
        color = text_color if selected else theme.muted(option.palette)
        doc.setHtml(f'<span style="color:{color.name()}">{snippet_html(snippet)}</span>')
        doc.setTextWidth(rect.width())
        painter.translate(rect.left(), rect.top() + line + 2)
        painter.setClipRect(QRect(0, 0, rect.width(), line * 2 + 2))
        doc.drawContents(painter)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        line = option.fontMetrics.height()
        if index.data(SNIPPET_ROLE) is None:
            return QSize(200, line + 14)
        return QSize(200, line * 3 + 12)


class SearchPanel(Page):
    """The results page: shown in the view area while a search is active."""

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.query = ""
        self._open_when_ready = False
        self._searching = 0
        self.header = ViewHeader("Search")
        self.model = SearchModel(self)
        self.results = QTreeView()
        self.results.setModel(self.model)
        self.results.setHeaderHidden(True)
        self.results.setRootIsDecorated(False)
        self.results.setItemsExpandable(False)
        self.results.setItemDelegate(ResultDelegate(self.results))
        self.results.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.results.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.results.setIndentation(0)
        self.results.setAccessibleName("Search results")
        self.results.activated.connect(self._open_index)
        self.results.installEventFilter(self)
        self.empty = QLabel()
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        theme.follow(self.empty, lambda: theme.set_text_color(self.empty, theme.muted()))
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.results, 1)
        layout.addWidget(self.empty, 1)
        self._show_counts()

    def search(self, query: str) -> None:
        self.query = query
        if not query:
            self.model.set_results({})
            self._show_counts()
            return
        self._searching += 1
        self.tasks.read(
            lambda app: app.search.search(query),
            on_done=lambda grouped: self._show(query, grouped),
            on_error=self._failed,
        )

    def _failed(self, exc: Exception) -> None:
        self._searching -= 1
        self._open_when_ready = False
        self.tasks.error.emit(exc)

    def refresh(self) -> None:
        self.search(self.query)

    def step(self, delta: int) -> None:
        """Move the current result up or down (from the search box), skipping group headings."""
        rows = self._result_indexes()
        if not rows:
            return
        current = self.results.currentIndex()
        position = next((i for i, index in enumerate(rows) if index == current), -1)
        position = max(0, min(len(rows) - 1, position + delta)) if position >= 0 else 0
        self.results.setCurrentIndex(rows[position])
        self.results.scrollTo(rows[position])

    def open_current(self) -> None:
        """Open the current result, or the first; if results are still coming, open when they do."""
        if self._searching:
            self._open_when_ready = True
            return
        index = self.results.currentIndex()
        if self.model.result_at(index) is None:
            rows = self._result_indexes()
            index = rows[0] if rows else QModelIndex()
        self._open_index(index)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        enter = (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if watched is self.results and event.type() == QEvent.Type.KeyPress and event.key() in enter:
            self._open_index(self.results.currentIndex())
            return True
        return False

    def _result_indexes(self) -> list[QModelIndex]:
        out = []
        for row in range(self.model.rowCount()):
            group = self.model.index(row, 0)
            out.extend(self.model.index(child, 0, group) for child in range(self.model.rowCount(group)))
        return out

    def _show(self, query: str, grouped: dict[str, list[SearchResult]]) -> None:
        self._searching -= 1
        if query != self.query:
            return  # an older search finished after a newer one started
        self.model.set_results(grouped)
        self.results.expandAll()
        rows = self._result_indexes()
        if rows:
            self.results.setCurrentIndex(rows[0])
        self._show_counts()
        if self._open_when_ready:
            self._open_when_ready = False
            self._open_index(self.results.currentIndex())

    def _show_counts(self) -> None:
        count = self.model.result_count()
        if not self.query:
            subtitle = "Type in the search box to look through every kind of memory."
        elif count:
            subtitle = (
                f"{count} result{'s' if count != 1 else ''} for “{self.query}”. Enter opens the selected one."
            )
        else:
            subtitle = f"Nothing matches “{self.query}”."
        self.header.set_text("Search", subtitle)
        self.empty.setText("" if count else subtitle)
        self.results.setVisible(bool(count))
        self.empty.setVisible(not count)

    def _open_index(self, index: QModelIndex) -> None:
        result = self.model.result_at(index)
        if result is not None:
            self.open_requested.emit(result.item)
