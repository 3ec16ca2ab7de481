"""The expiry timeline view: every item that expires on a time axis, and what expires next."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from memdesk.gui import dialogs, theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.timeline.canvas import TimelineCanvas
from memdesk.gui.timeline.describe import tooltip_html
from memdesk.gui.timeline.geometry import ZOOMS
from memdesk.gui.timeline.rows import Filters, Row, build_rows
from memdesk.gui.views.base import Page
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.expiry import (
    DELETE,
    EXPIRE,
    EXTEND,
    KIND_LABELS,
    KINDS,
    PIN,
    RESTORE,
    ExpiringItem,
    describe_upcoming,
)
from memdesk.services.memdesk import Memdesk

UPCOMING_LIMIT = 30
EMPTY_STORE = (
    "Nothing here expires yet. Working memory, timeline entries, app memories with an "
    "expiry and items in Trash will show on this timeline."
)
EMPTY_FILTERED = "Nothing matches the filters."
ACTION_TEXT = {
    EXTEND: "Extend by…",
    PIN: "Pin (never expires)",
    EXPIRE: "Expire now",
    DELETE: "Delete (to Trash)",
    RESTORE: "Restore from Trash",
}


@dataclass(frozen=True)
class TimelineData:
    items: list[ExpiringItem]
    upcoming: list[ExpiringItem]
    now: datetime
    app_labels: dict[str, str]
    apps: list[tuple[str, str]]  # (app id, label) of the apps with items, by label
    filters: Filters
    rows: list[Row]  # the items laid out for ``filters``


EVERYTHING = Filters()


def read_timeline(app: Memdesk, filters: Filters = EVERYTHING) -> TimelineData:
    """Runs on a worker thread: the items, and their rows, so the GUI thread only paints."""
    expiry = app.expiry
    now = app.now()
    items = expiry.items(now)
    labels = expiry.app_labels()
    apps = sorted(
        ((app_id, labels.get(app_id, app_id)) for app_id in {item.app_id for item in items if item.app_id}),
        key=lambda pair: pair[1].casefold(),
    )
    rows = build_rows(items, labels, filters)
    return TimelineData(items, expiry.upcoming(now, UPCOMING_LIMIT), now, labels, apps, filters, rows)


def apply_action(item: ExpiringItem, action: str, days: int = 0) -> Callable[[Memdesk], None]:
    """The write to run on a worker thread for one menu action."""

    def run(app: Memdesk) -> None:
        expiry = app.expiry
        if action == EXTEND:
            expiry.extend(item.kind, item.ref, days)
        else:
            getattr(expiry, action)(item.kind, item.ref)

    return run


class ExpiryTimelineView(Page):
    preview_at_requested = Signal(object)  # datetime
    loaded = Signal()  # new data is on screen

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.data = TimelineData([], [], app.now(), {}, [], EVERYTHING, [])
        self._loading = False
        self._reload = False
        self._sized = False
        self._requested = False

        self.header = ViewHeader(
            "Expiry timeline",
            "When each memory leaves the prompt. Drag or scroll to move, Ctrl+wheel to zoom, "
            "click a date on the axis to preview the prompt then.",
        )
        self.canvas = TimelineCanvas()
        self.canvas.empty_text = EMPTY_STORE
        self.canvas.item_activated.connect(self._open)
        self.canvas.menu_requested.connect(self._show_menu)
        self.canvas.date_clicked.connect(self.preview_at_requested)
        self.canvas.zoom_changed.connect(self._sync_zoom_buttons)

        self.zoom_buttons: dict[str, QToolButton] = {}
        self.kind_actions: dict[str, QAction] = {}
        self.kinds_button = QToolButton()
        self.app_filter = QComboBox()
        self.app_filter.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.app_filter.addItem("All apps", None)
        self.app_filter.currentIndexChanged.connect(self._apply_filters)

        self.upcoming = QListWidget()
        # Two lines per item (when, what), each cut with "…" in the middle, so both the kind and
        # the name's end show (the tooltip has it all): wrapped rows were measured at one width
        # and drawn at another, leaving gaps and cut-off lines in a narrow list.
        self.upcoming.setWordWrap(False)
        self.upcoming.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.upcoming.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.upcoming.setSpacing(2)
        self.upcoming.setAlternatingRowColors(True)
        self.upcoming.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.upcoming.itemActivated.connect(lambda row: self._open(row.data(Qt.ItemDataRole.UserRole)))
        self.upcoming.currentItemChanged.connect(self._reveal)
        self.upcoming.customContextMenuRequested.connect(self._upcoming_menu)

        self._build()
        self._sync_zoom_buttons(self.canvas.zoom)

    def _build(self) -> None:
        tools = QHBoxLayout()
        tools.setSpacing(4)
        for name in ZOOMS:
            button = QToolButton()
            button.setText(name.capitalize())
            button.setToolTip(f"Show a {name} across the width")
            button.setCheckable(True)
            button.clicked.connect(lambda _=False, name=name: self.canvas.set_zoom(name))
            self.zoom_buttons[name] = button
            tools.addWidget(button)
        now = QToolButton()
        now.setText("Now")
        now.setToolTip("Scroll to today (Home)")
        now.clicked.connect(lambda: self.canvas.center_on(self.canvas.now))
        tools.addWidget(now)
        tools.addSpacing(16)
        self.kinds_button.setText("Show: everything")
        self.kinds_button.setToolTip("Which kinds of item the timeline shows")
        self.kinds_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        kinds_menu = QMenu(self.kinds_button)
        for kind in KINDS:
            action = kinds_menu.addAction(KIND_LABELS[kind])
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(self._apply_filters)
            self.kind_actions[kind] = action
        self.kinds_button.setMenu(kinds_menu)
        tools.addWidget(self.kinds_button)
        tools.addWidget(self.app_filter)
        tools.addStretch(1)

        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        title = QLabel("Expires next")
        title.setFont(theme.scaled_font(self.font(), 1.0, bold=True))
        side_layout.addWidget(title)
        side_layout.addWidget(self.upcoming)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.canvas)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 0)
        # Room for a typical entry's name ("timeline 2026-02-03-team-offsite") beside the bars.
        side.setMinimumWidth(self.fontMetrics().horizontalAdvance("timeline 2026-02-03-team-offsite") + 40)
        self.splitter = splitter
        splitter.setChildrenCollapsible(False)

        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addLayout(tools)
        layout.addWidget(splitter, 1)

    def showEvent(self, event: QShowEvent) -> None:
        if not self._sized:  # the side list gets a quarter of the first width, within bounds
            self._sized = True
            total = max(self.splitter.width(), 400)
            side = min(max(total // 4, 150), 300)
            self.splitter.setSizes([total - side, side])
            if not self._requested:  # shown before anyone asked for a refresh
                self.refresh()
        super().showEvent(event)

    # -- data ----------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload from the store; a refresh asked for during a load runs once it is done."""
        self._requested = True
        if self._loading:
            self._reload = True
            return
        self._loading = True
        filters = self.filters()
        self.tasks.read(
            lambda app: read_timeline(app, filters), on_done=self._loaded, on_error=self._load_failed
        )

    def _loaded(self, data: TimelineData) -> None:
        self._loading = False
        self.data = data
        self._fill_app_filter()
        filters = self.filters()
        self._show_rows(
            data.rows if data.filters == filters else build_rows(data.items, data.app_labels, filters)
        )
        self._fill_upcoming()
        self.loaded.emit()
        if self._reload:
            self._reload = False
            self.refresh()

    def _load_failed(self, exc: Exception) -> None:
        self._loading = False
        self._reload = False
        self.tasks.error.emit(exc)

    def filters(self) -> Filters:
        kinds = frozenset(kind for kind, action in self.kind_actions.items() if action.isChecked())
        return Filters(kinds, self.app_filter.currentData())

    def _apply_filters(self) -> None:
        self._show_rows(build_rows(self.data.items, self.data.app_labels, self.filters()))

    def _show_rows(self, rows: list[Row]) -> None:
        kinds = self.filters().kinds
        shown = [KIND_LABELS[kind] for kind in KINDS if kind in kinds]
        everything = len(shown) == len(KINDS)
        self.kinds_button.setText(
            "Show: everything" if everything else f"Show: {', '.join(shown) or 'nothing'}"
        )
        self.canvas.empty_text = EMPTY_FILTERED if self.data.items else EMPTY_STORE
        self.canvas.set_rows(rows, self.data.now)

    def _fill_app_filter(self) -> None:
        chosen = self.app_filter.currentData()
        self.app_filter.blockSignals(True)
        self.app_filter.clear()
        self.app_filter.addItem("All apps", None)
        for app_id, label in self.data.apps:
            self.app_filter.addItem(label, app_id)
        self.app_filter.setCurrentIndex(max(self.app_filter.findData(chosen), 0))
        self.app_filter.blockSignals(False)

    def _fill_upcoming(self) -> None:
        self.upcoming.blockSignals(True)
        self.upcoming.clear()
        for item in self.data.upcoming:
            when, what = describe_upcoming(item, self.data.now).split(": ", 1)
            row = QListWidgetItem(f"{when}\n{what}")
            row.setData(Qt.ItemDataRole.UserRole, item)
            row.setToolTip(tooltip_html(item, self.data.now))
            self.upcoming.addItem(row)
        if not self.data.upcoming:
            placeholder = QListWidgetItem("Nothing expires.")
            placeholder.setFlags(Qt.ItemFlag.NoItemFlags)
            self.upcoming.addItem(placeholder)
        self.upcoming.blockSignals(False)

    def _sync_zoom_buttons(self, name: str) -> None:
        for zoom, button in self.zoom_buttons.items():
            button.setChecked(zoom == name)

    # -- actions -------------------------------------------------------------------------

    def _open(self, item: ExpiringItem | None) -> None:
        if item is not None:
            self.open_requested.emit(item.item)

    def _reveal(self, row: QListWidgetItem | None) -> None:
        item = row.data(Qt.ItemDataRole.UserRole) if row is not None else None
        if item is not None:
            self.canvas.scroll_to_item(item)

    def menu_for(self, item: ExpiringItem) -> QMenu:
        """The context menu of an item: open it, then whatever its kind allows."""
        menu = QMenu(self)
        opener = menu.addAction("Open")
        opener.setObjectName("open")
        opener.triggered.connect(lambda: self._open(item))
        menu.addSeparator()
        for action in item.actions():
            entry: QAction = menu.addAction(ACTION_TEXT[action])
            entry.setObjectName(action)
            entry.triggered.connect(lambda _=False, action=action: self.act(item, action))
        return menu

    def _show_menu(self, item: ExpiringItem, at: QPoint) -> None:
        menu = self.menu_for(item)
        menu.exec(at)
        menu.deleteLater()

    def _upcoming_menu(self, pos: QPoint) -> None:
        row = self.upcoming.itemAt(pos)
        item = row.data(Qt.ItemDataRole.UserRole) if row is not None else None
        if item is not None:
            self._show_menu(item, self.upcoming.viewport().mapToGlobal(pos))

    def act(self, item: ExpiringItem, action: str) -> None:
        """Run one action on the item as a background write; each is one undoable step."""
        days = 0
        if action == EXTEND:
            asked = dialogs.ask_int(
                self, "Extend", f"Keep “{item.label}” for how many more days?", 7, 1, 3650
            )
            if asked is None:
                return
            days = asked
        self.tasks.write(
            apply_action(item, action, days),
            on_done=lambda _: self.refresh(),
            on_error=lambda exc: dialogs.show_error(self, exc, "Expiry timeline"),
        )
