"""The sidebar: a tree of places (User documents, each app, entries, files, tools) with counts.

Apps can number in the thousands, so the tree is one item model that hands app rows to
the view in batches as it scrolls (``fetchMore``), and a count is painted by a delegate
instead of being a widget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QItemSelection,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

from memdesk.gui import theme
from memdesk.gui.places import APP_PREFIX, PLACES
from memdesk.gui.widgets.private_toggle import PRIVATE_TIP, lock_icon

if TYPE_CHECKING:
    from memdesk.services.apps import AppSummary

Index = QModelIndex | QPersistentModelIndex
ROOT = QModelIndex()
KEY_ROLE = Qt.ItemDataRole.UserRole + 1
BADGE_ROLE = Qt.ItemDataRole.UserRole + 2
WARN_ROLE = Qt.ItemDataRole.UserRole + 3
APP_BATCH = 200
EXPAND_APPS_UP_TO = 20


@dataclass(eq=False)
class Node:
    key: str
    label: str
    parent: Node | None = None
    children: list[Node] = field(default_factory=list)
    badge: str = ""
    warn: bool = False
    tooltip: str = ""
    position: int | None = None  # an app's row, known without searching thousands of siblings
    private: bool = False  # an app no assistant reads: shown with a lock

    def add(self, key: str, label: str, tooltip: str = "") -> Node:
        child = Node(key, label, self, tooltip=tooltip)
        self.children.append(child)
        return child

    def row(self) -> int:
        if self.position is not None:
            return self.position
        return self.parent.children.index(self) if self.parent else 0


def _app_node(summary: AppSummary, parent: Node, position: int) -> Node:
    node = Node(f"{APP_PREFIX}{summary.app_id}", summary.label, parent, position=position)
    _describe_app(node, summary)
    return node


def _describe_app(node: Node, summary: AppSummary) -> None:
    node.label = summary.label
    node.private = summary.private
    private = f"\n{PRIVATE_TIP}" if summary.private else ""
    if summary.live is None or summary.total is None:  # counted once its row is shown
        node.badge, node.warn, node.tooltip = "", False, summary.app_id + private
        return
    node.badge = f"{summary.live}/{summary.cap}"
    node.warn = summary.over_cap
    expired = summary.total - summary.live
    node.tooltip = (
        f"{summary.app_id}: {summary.live} live memories; at most {summary.cap} are kept"
        + (f"; {expired} expired" if expired else "")
        + (" — over the cap: the oldest go to Trash on the next write" if summary.over_cap else "")
        + private
    )


class SidebarModel(QAbstractItemModel):
    """The places, and every app; an app's row is made when the view shows it, and asks for
    its memory counts then (``counts_wanted``), so 10,000 apps cost a read of their names."""

    counts_wanted = Signal(list)  # app ids whose rows are made and not yet counted

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.root = Node("", "")
        nodes = {"": self.root}
        for place in PLACES:
            if place.in_sidebar:
                nodes[place.key] = nodes[place.parent].add(place.key, place.sidebar_label, place.tooltip)
        self.apps = nodes["apps"]
        # Every app; nodes (self.apps.children) are made only for the rows handed to the view.
        self._summaries: list[AppSummary] = []
        self._rows: dict[str, int] = {}  # "app:<id>" -> row
        self._changing = False  # no fetching from inside our own row-change signals

    # --- updates -------------------------------------------------------------------------

    def set_apps(self, summaries: list[AppSummary]) -> None:
        parent = self.index_for(self.apps)
        same = [s.app_id for s in self._summaries] == [s.app_id for s in summaries]
        self._summaries = summaries
        if same:
            for node, summary in zip(self.apps.children, summaries, strict=False):
                if summary.counted or not node.badge:  # keep the last counts until new ones come
                    _describe_app(node, summary)
            if self.apps.children:
                first = self.index(0, 0, parent)
                last = self.index(len(self.apps.children) - 1, 0, parent)
                self.dataChanged.emit(first, last)
            self._want_counts(summaries[: len(self.apps.children)])
        else:
            shown = len(self.apps.children)
            self._changing = True
            try:
                if shown:
                    self.beginRemoveRows(parent, 0, shown - 1)
                    self.apps.children = []
                    self.endRemoveRows()
                self._rows = {f"{APP_PREFIX}{s.app_id}": row for row, s in enumerate(summaries)}
                batch = self._make_nodes(0, max(shown, APP_BATCH))
                if batch:
                    self.beginInsertRows(parent, 0, len(batch) - 1)
                    self.apps.children = batch
                    self.endInsertRows()
            finally:
                self._changing = False
        self._set_badge(self.apps, str(len(summaries)) if summaries else "")

    def set_app_counts(self, counted: list[AppSummary]) -> None:
        """Counts read for apps whose rows were made (``counts_wanted``)."""
        parent = self.index_for(self.apps)
        for summary in counted:
            row = self._rows.get(f"{APP_PREFIX}{summary.app_id}")
            if row is None:
                continue
            self._summaries[row] = summary
            if row < len(self.apps.children):
                _describe_app(self.apps.children[row], summary)
                index = self.index(row, 0, parent)
                self.dataChanged.emit(index, index)

    def _want_counts(self, summaries: list[AppSummary]) -> None:
        wanted = [summary.app_id for summary in summaries if not summary.counted]
        if wanted:
            self.counts_wanted.emit(wanted)

    def set_count(self, key: str, count: int | None) -> None:
        node = self.find(key)
        if node is not None:
            self._set_badge(node, f"{count:,}" if count else "")

    def _set_badge(self, node: Node, badge: str) -> None:
        if node.badge != badge:
            node.badge = badge
            index = self.index_for(node)
            self.dataChanged.emit(index, index)

    # --- lookup --------------------------------------------------------------------------

    def find(self, key: str) -> Node | None:
        if key.startswith(APP_PREFIX):
            row = self._rows.get(key)
            if row is None:
                return None
            while row >= len(self.apps.children):  # make sure the view can show it
                self.fetchMore(self.index_for(self.apps))
            return self.apps.children[row]
        stack = list(self.root.children)
        while stack:
            node = stack.pop()
            if node.key == key:
                return node
            stack.extend(node.children)
        return None

    def index_for(self, node: Node) -> QModelIndex:
        if node is self.root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row(), 0, node)

    def app_count(self) -> int:
        return len(self._summaries)

    def _make_nodes(self, start: int, count: int) -> list[Node]:
        summaries = self._summaries[start : start + count]
        self._want_counts(summaries)
        return [_app_node(summary, self.apps, start + i) for i, summary in enumerate(summaries)]

    # --- QAbstractItemModel -------------------------------------------------------------------

    def _node(self, index: Index) -> Node:
        return index.internalPointer() if index.isValid() else self.root

    def index(self, row: int, column: int, parent: Index = ROOT) -> QModelIndex:
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        return self.createIndex(row, column, self._node(parent).children[row])

    def parent(self, index: Index = ROOT) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = self._node(index).parent
        if parent is None or parent is self.root:
            return QModelIndex()
        return self.createIndex(parent.row(), 0, parent)

    def rowCount(self, parent: Index = ROOT) -> int:
        if parent.column() > 0:
            return 0
        return len(self._node(parent).children)

    def columnCount(self, parent: Index = ROOT) -> int:
        return 1

    def hasChildren(self, parent: Index = ROOT) -> bool:
        node = self._node(parent)
        if node is self.apps:
            return bool(self._summaries)
        return bool(node.children)

    def canFetchMore(self, parent: Index) -> bool:
        return (
            not self._changing
            and self._node(parent) is self.apps
            and len(self.apps.children) < len(self._summaries)
        )

    def fetchMore(self, parent: Index) -> None:
        if not self.canFetchMore(parent):
            return
        start = len(self.apps.children)
        batch = self._make_nodes(start, APP_BATCH)
        self._changing = True
        try:
            self.beginInsertRows(self.index_for(self.apps), start, start + len(batch) - 1)
            self.apps.children.extend(batch)
            self.endInsertRows()
        finally:
            self._changing = False

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node = self._node(index)
        if role == Qt.ItemDataRole.DisplayRole:
            return node.label
        if role == KEY_ROLE:
            return node.key
        if role == BADGE_ROLE:
            return node.badge
        if role == WARN_ROLE:
            return node.warn
        if role == Qt.ItemDataRole.ToolTipRole:
            return node.tooltip or None
        if role == Qt.ItemDataRole.ForegroundRole and node.warn:
            return theme.danger()
        if role == Qt.ItemDataRole.DecorationRole and node.private:
            return lock_icon()
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{node.label}, {node.badge}" if node.badge else node.label
        return None


class BadgeDelegate(QStyledItemDelegate):
    """Paints a row's count (``7/10``, ``12``) right-aligned; red when over the cap."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        badge = index.data(BADGE_ROLE)
        if not badge:
            super().paint(painter, option, index)
            return
        width = option.fontMetrics.horizontalAdvance(badge) + 12
        item = QStyleOptionViewItem(option)
        self.initStyleOption(item, index)
        # The row keeps its full width (selection, hover); only the label makes room.
        item.text = option.fontMetrics.elidedText(
            item.text, Qt.TextElideMode.ElideRight, max(0, option.rect.width() - width - 8)
        )
        style = option.widget.style() if option.widget else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, item, painter, option.widget)
        painter.save()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if index.data(WARN_ROLE):
            color = theme.danger(option.palette)
        elif selected:
            color = option.palette.highlightedText().color()
        else:
            color = theme.muted(option.palette)
        painter.setPen(color)
        badge_rect = QRect(option.rect.right() - width, option.rect.top(), width - 6, option.rect.height())
        painter.drawText(badge_rect, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), badge)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:
        hint = super().sizeHint(option, index)
        return QSize(hint.width() + 40, max(hint.height(), option.fontMetrics.height() + 10))


class Sidebar(QTreeView):
    page_selected = Signal(str)
    place_activated = Signal()  # Enter on a place: the window moves the focus into its view

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sidebar_model = SidebarModel(self)
        self.setModel(self.sidebar_model)
        self.setItemDelegate(BadgeDelegate(self))
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAccessibleName("Places")
        self.setIndentation(14)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self._announce = True
        for key in ("user", "files"):
            self.expand_key(key)
        # Selection, not the current row: Qt makes a row current on focus without the
        # person choosing it, but only a click or an arrow key selects.
        self.selectionModel().selectionChanged.connect(self._selection_changed)
        self.activated.connect(lambda _index: self.place_activated.emit())

    def first_app_key(self) -> str:
        """The first app's place, or "" when there is no app."""
        children = self.sidebar_model.apps.children
        return children[0].key if children else ""

    def expand_key(self, key: str) -> None:
        node = self.sidebar_model.find(key)
        if node is not None:
            self.expand(self.sidebar_model.index_for(node))

    def set_apps(self, summaries: list[AppSummary]) -> None:
        first_fill = self.sidebar_model.app_count() == 0
        self.sidebar_model.set_apps(summaries)
        if first_fill and 0 < len(summaries) <= EXPAND_APPS_UP_TO:
            self.expand(self.sidebar_model.index_for(self.sidebar_model.apps))

    def select_key(self, key: str) -> None:
        """Make ``key`` current without announcing it again (navigation already happened)."""
        node = self.sidebar_model.find(key)
        if node is None:
            self.clearSelection()
            return
        index = self.sidebar_model.index_for(node)
        if index == self.currentIndex():
            return
        self._announce = False
        try:
            self.setCurrentIndex(index)
        finally:
            self._announce = True
        self.scrollTo(index)

    def current_key(self) -> str:
        return self.currentIndex().data(KEY_ROLE) or ""

    def _selection_changed(self, selected: QItemSelection, _deselected: QItemSelection) -> None:
        indexes = selected.indexes()
        key = indexes[0].data(KEY_ROLE) if indexes else None
        if key and self._announce:
            self.page_selected.emit(key)
