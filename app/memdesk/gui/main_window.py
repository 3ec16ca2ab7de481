"""The main window: sidebar of places, the view area, search, menus, status bar.

It is built in two steps so that it is on screen before the store layer has loaded: the
constructor makes the chrome from the data folder alone (and ``show_first_page`` the
Knowledge table's first rows, when it reopens there), and ``attach`` connects the opened
store. That is why the services are imported where they are used, not above.
The places it can show are declared in ``places``; views are created the first time they
are shown. They ask to navigate by emitting ``open_requested(ItemRef)``; the window owns
navigation, undo/redo, import/export, settings and the one error dialog. A write says what
it changed (``Changes``), and only the view and counts that show that are read again.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QByteArray, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QLabel,
    QMainWindow,
    QProgressBar,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QToolBar,
    QWidget,
)

from memdesk import APP_NAME, __version__
from memdesk.core.backends import BACKEND_LABELS
from memdesk.core.items import EVERYTHING, Changes, ItemKind, ItemRef
from memdesk.core.namespaces import is_working
from memdesk.core.records import KNOWLEDGE
from memdesk.gui import dialogs, help_menu, theme
from memdesk.gui.counts import CountReader
from memdesk.gui.places import APP_PREFIX, PLACES, Place, document_place, place_for
from memdesk.gui.read_log_notice import ReadLogNotice
from memdesk.gui.refresh import StoreWatcher
from memdesk.gui.review_notice import ReviewNotice
from memdesk.gui.sidebar import Sidebar
from memdesk.gui.source_reader import SourceReader
from memdesk.gui.views.base import Page
from memdesk.gui.widgets.display import document_title, plural
from memdesk.gui.widgets.search_box import SearchBox

if TYPE_CHECKING:
    from memdesk.core.entry_rows import EntryRow
    from memdesk.gui.search_panel import SearchPanel
    from memdesk.gui.settings_dialog import SettingsDialog
    from memdesk.gui.tasks import TaskRunner
    from memdesk.services.memdesk import Memdesk

STATE_FILE = "window-state.json"
OLD_TRUST_KEY = "project_trusted"  # where versions before the setting kept a project's trust
BUSY_DELAY_MS = 400
COUNTS_DELAY_MS = 250
JSON_FILTER = "Memdesk export (*.json);;All files (*)"
V = TypeVar("V", bound=Page)


class WindowState:
    """Geometry, splitter, last place and the chosen project: a small JSON file in the data folder.

    Kept out of QSettings so that every store (``--data-dir``) remembers its own window and
    tests never touch the person's real settings.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            loaded = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            loaded = {}
        self.values: dict[str, Any] = loaded if isinstance(loaded, dict) else {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)

    def set(self, key: str, value: Any) -> None:
        self.values[key] = value

    def take(self, key: str) -> Any:
        """The value, forgotten (saved as gone at the next ``save``)."""
        return self.values.pop(key, None)

    def save(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.values, indent=1), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass  # losing the window size is not worth an error dialog


class MainWindow(QMainWindow):
    app: Memdesk
    tasks: TaskRunner
    watcher: StoreWatcher

    def __init__(self, data_dir: Path, parent: QWidget | None = None) -> None:
        """The chrome only: menus, toolbar, sidebar, status bar and the remembered geometry."""
        super().__init__(parent)
        self.data_dir = data_dir
        self.state = WindowState(data_dir / STATE_FILE)
        self.views: dict[str, Page] = {}  # by Place.view
        self.current_page = ""
        self._page_before_search = ""
        self.attached = False
        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(theme.app_icon())
        self.sidebar = Sidebar()
        self.sidebar.page_selected.connect(self.show_page)
        self.sidebar.place_activated.connect(lambda: self.stack.currentWidget().setFocus())
        self.stack = QStackedWidget()
        # Shown while the store opens; the first page replaces it.
        self.opening_label: QLabel | None = QLabel("Opening the store…")
        self.opening_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.opening_label.setEnabled(False)  # the muted text colour
        self.stack.addWidget(self.opening_label)
        self.splitter = QSplitter()
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(self.stack)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        self.search_box = SearchBox()
        self.search_box.query_changed.connect(self._search)
        self.search_box.step.connect(lambda delta: self._search_panel().step(delta))
        self.search_box.activated.connect(lambda: self._search_panel().open_current())
        self.search_box.cancelled.connect(self._cancel_search)
        self._build_actions()
        self._build_status_bar()
        self._restore_geometry()
        self.counts: dict[str, Any] = {}  # the last counts read, by name (see gui.counts)
        # Counting every app can take a second on a big store: the first page reads first.
        self._counts_timer = QTimer(self, singleShot=True, interval=COUNTS_DELAY_MS)

    def show_first_page(self, tasks: TaskRunner, db_file: Path | None, now: datetime) -> bool:
        """Reopening on Knowledge, show its first page before the store layer has loaded.

        The rows are read with plain sqlite3 (``services.first_page``) and shown in the usual
        table, whose model reads the rest once ``tasks`` starts: the store attached, its
        reads come back the same and no row moves. False where there is no such page to show
        (another page was open last, or the store is not a current SQLite file with
        Knowledge entries): the window then opens as usual once the store is attached."""
        if self.state.get("page") != KNOWLEDGE:
            return False
        from memdesk.gui.models.entries import EntryTableModel
        from memdesk.gui.views.entries import EntriesView
        from memdesk.services.first_page import read_first_page

        page = read_first_page(db_file, now, EntryTableModel.PAGE_ROWS)
        if page is None:
            return False
        self.tasks = tasks
        place = place_for(KNOWLEDGE)
        assert place is not None
        view = self._add_view(place, EntriesView(tasks, KNOWLEDGE, first_page=page))
        self._switch(KNOWLEDGE, view, place.title, refresh=False)  # the view reads by itself
        return True

    @classmethod
    def for_store(cls, app: Memdesk, tasks: TaskRunner) -> MainWindow:
        window = cls(app.paths.data_dir)
        window.attach(app, tasks)
        return window

    def attach(self, app: Memdesk, tasks: TaskRunner) -> None:
        """Connect the opened store: status, change watching, and the first page."""
        self.app = app
        self.tasks = tasks
        self.store_label.setText(f"Store: {app.store.where}")
        self.store_label.setToolTip(str(app.paths.data_dir))
        tasks.error.connect(lambda exc: dialogs.show_error(self, exc))
        tasks.store_changed.connect(self._store_changed)
        tasks.saved.connect(self._saved)
        self.count_reader = CountReader(tasks, parent=self)
        self.count_reader.counted.connect(self._show_counts)
        self.sidebar.sidebar_model.counts_wanted.connect(self._count_apps)
        self.review_notice = ReviewNotice(self.show_status, parent=self)
        self.review_notice.open_review.connect(self._open_review)
        self.read_log_notice = ReadLogNotice(app.paths.log_dir, app.store.where, parent=self)
        self.statusBar().insertPermanentWidget(1, self.read_log_notice)  # after the store
        self.read_log_notice.check()
        self.count_reader.failed.connect(lambda exc: self.show_status(f"Could not count memories: {exc}"))
        self._counts_timer.timeout.connect(self.count_reader.refresh)
        tasks.busy_changed.connect(self._busy_changed)
        tasks.progress.connect(lambda message, _done, _total: self.statusBar().showMessage(message, 3000))
        self.source_reader = SourceReader(tasks, parent=self)
        self.source_reader.said.connect(self.show_status)
        self.watcher = StoreWatcher(tasks, parent=self)
        self.watcher.external_change.connect(self._external_change)
        self.watcher.unreadable.connect(lambda message: self.statusBar().showMessage(message, 5000))
        self._update_llm_label()
        self.attached = True
        if not self.current_page:  # no first page was shown before the store opened
            self.tasks.read(lambda app: app.is_empty(), on_done=self._first_page)
        self._counts_timer.start()
        self.watcher.start()
        self.source_reader.start()

    # --- building -------------------------------------------------------------------------

    def _action(
        self, text: str, slot: Callable[[], Any], shortcuts: list[Any] | None = None, tip: str = ""
    ) -> QAction:
        action = QAction(text, self)
        action.triggered.connect(lambda _checked=False: slot())
        if shortcuts:
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        self.addAction(action)  # shortcuts work even while the menu bar is hidden
        return action

    def _build_actions(self) -> None:
        self.import_action = self._action(
            "&Import…",
            self.import_,
            [QKeySequence.StandardKey.Open],
            "Import a Memdesk export or a Flynn folder",
        )
        self.export_action = self._action(
            "&Export…", self.export, ["Ctrl+Shift+E"], "Export every memory to a file or a Flynn folder"
        )
        self.example_action = self._action(
            "Load &example memories", self.load_example, tip="Add a small example store to look around"
        )
        self.settings_action = self._action(
            "&Settings…", self.open_settings, [QKeySequence.StandardKey.Preferences, "Ctrl+,"]
        )
        self.settings_action.setMenuRole(QAction.MenuRole.PreferencesRole)
        self.quit_action = self._action("&Quit", self.close, [QKeySequence.StandardKey.Quit, "Ctrl+Q"])
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.undo_action = self._action(
            "&Undo", lambda: self.undo("undo"), ["Ctrl+Z"], "Undo the last change"
        )
        self.redo_action = self._action(
            "&Redo", lambda: self.undo("redo"), ["Ctrl+Shift+Z", "Ctrl+Y"], "Redo the change undone last"
        )
        self.find_action = self._action(
            "&Find…", self.focus_search, ["Ctrl+F", "Ctrl+K"], "Search every memory"
        )
        self.refresh_action = self._action(
            "&Refresh", self.refresh_all, [QKeySequence.StandardKey.Refresh, "F5"]
        )
        self.sidebar_action = self._action("Go to &sidebar", self.sidebar.setFocus, ["F6", "Ctrl+L"])
        self.guide_action = self._action(
            "&User Guide",
            lambda: help_menu.open_guide(self),
            ["F1"],
            "Open Memdesk's user guide in the web browser",
        )
        self.shortcuts_action = self._action(
            "&Keyboard Shortcuts", self.show_shortcuts, ["Ctrl+/"], "List the keys of every action"
        )
        self.data_folder_action = self._action(
            "Open &Data Folder",
            lambda: help_menu.open_path(self, self.data_dir, "Data folder"),
            tip="Show the folder that holds this store's database, settings and backups",
        )
        self.about_action = self._action("&About Memdesk", self.about)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        menus = self.menuBar()
        file_menu = menus.addMenu("&File")
        for action in (self.import_action, self.export_action, self.example_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.settings_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)
        edit_menu = menus.addMenu("&Edit")
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        edit_menu.addAction(self.find_action)
        go_menu = menus.addMenu("&Go")
        go_menu.addAction(self.sidebar_action)
        go_menu.addAction(self.refresh_action)
        go_menu.addSeparator()
        for place in PLACES:
            if place.shortcut:
                go_menu.addAction(
                    self._action(place.title, lambda key=place.key: self.show_page(key), [place.shortcut])
                )
        help_items = menus.addMenu("&Help")
        for action in (self.guide_action, self.shortcuts_action, self.data_folder_action):
            help_items.addAction(action)
        help_items.addSeparator()
        help_items.addAction(self.about_action)
        toolbar = QToolBar("Main")
        toolbar.setObjectName("main-toolbar")
        toolbar.setMovable(False)
        toolbar.setFloatable(False)
        toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for action in (self.undo_action, self.redo_action):
            toolbar.addAction(action)
        toolbar.addSeparator()
        for action in (self.import_action, self.export_action):
            toolbar.addAction(action)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        toolbar.addWidget(spacer)
        self.search_box.setMinimumWidth(240)
        self.search_box.setMaximumWidth(360)
        toolbar.addWidget(self.search_box)
        self.addToolBar(toolbar)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.store_label = QLabel()
        self.store_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.store_label.setMinimumWidth(80)
        self.store_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.counts_label = QLabel()
        self.llm_label = QLabel()
        self.saved_label = QLabel()
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(90)
        self.busy.setMaximumHeight(14)
        self.busy.setTextVisible(False)
        self.busy.hide()
        bar.addWidget(self.store_label, 1)
        for widget in (self.busy, self.counts_label, self.llm_label, self.saved_label):
            widget.setContentsMargins(8, 0, 8, 0)
            bar.addPermanentWidget(widget)
        self._busy_timer = QTimer(self, singleShot=True, interval=BUSY_DELAY_MS)
        self._busy_timer.timeout.connect(self.busy.show)

    # --- navigation -----------------------------------------------------------------------

    def _view(self, place: Place) -> Page:
        """The view that shows ``place``, created on first use."""
        view = self.views.get(place.view)
        if view is None:
            if place.build is None:
                raise KeyError(f"{place.key!r} is a group, not a page")
            view = self._add_view(place, place.build(self))
        return view

    def _add_view(self, place: Place, view: Page) -> Page:
        self.views[place.view] = view
        self.stack.addWidget(view)
        view.open_requested.connect(self.navigate)
        return view

    def view_as(self, key: str, cls: type[V]) -> V:
        """The view of place ``key``, which is a ``cls``."""
        place = place_for(key)
        if place is None:
            raise KeyError(f"no place called {key!r}")
        view = self._view(place)
        assert isinstance(view, cls), f"{key!r} is shown by a {type(view).__name__}"
        return view

    def show_page(self, key: str) -> None:
        """Show a place (``doc:profile``, ``app:calendar``, ``trash``...)."""
        place = place_for(key)
        if place is None:
            raise KeyError(f"no place called {key!r}")
        if place.leads_to is not None and key == place.key:  # a group row, not one of its apps
            target = place.leads_to(self)
            if target:
                self.sidebar.expand_key(key)
                self.show_page(target)
                return
        view = self._view(place)
        if key.startswith(APP_PREFIX):
            from memdesk.gui.views.apps import AppMemoriesView

            app_id = key.removeprefix(APP_PREFIX)
            self.view_as(key, AppMemoriesView).show_app(app_id)
            self._switch(key, view, f"App · {app_id}", refresh=False)
        elif place.show is not None:
            place.show(self, view)  # the view reads what it now shows
            self._switch(key, view, place.title, refresh=False)
        else:
            self._switch(key, view, place.title)

    def _switch(self, key: str, view: Page, title: str, refresh: bool = True) -> None:
        if key != "search":
            self._page_before_search = ""
        self.current_page = key
        if refresh:  # before it is shown: a view shown unasked reads by itself, and would read twice
            view.refresh()
        self.stack.setCurrentWidget(view)
        if self.opening_label is not None:
            self.stack.removeWidget(self.opening_label)
            self.opening_label.deleteLater()
            self.opening_label = None
        self.sidebar.select_key(key)
        self.setWindowTitle(f"{title} — {APP_NAME}")

    @staticmethod
    def _title(key: str) -> str:
        place = place_for(key)
        return place.title if place is not None else key

    def navigate(self, item: ItemRef) -> None:
        """Open an item a view or a search result points at."""
        kind, ref = item.kind, item.ref
        if kind in (ItemKind.DOCUMENT, ItemKind.WORKING):
            self._open_document(ref)
        elif kind == ItemKind.APP:
            self.show_page(f"{APP_PREFIX}{ref}")
        elif kind == ItemKind.APP_MEMORY:
            self.tasks.read(
                lambda app: app.apps.get(int(ref)).app_id,
                on_done=lambda app_id: self._open_memory(app_id, int(ref)),
            )
        elif kind == ItemKind.ENTRY:
            self.tasks.read(
                lambda app: app.entries.rows([int(ref)]),
                on_done=lambda rows: rows and self._open_entry(rows[0]),
            )
        elif kind == ItemKind.SESSION:
            from memdesk.gui.views.sessions import SessionsView

            self.show_page("sessions")
            self.view_as("sessions", SessionsView).show_session(ref)
        elif kind == ItemKind.TRASH:
            self.show_page("trash")
        elif kind == ItemKind.HISTORY_STEP:
            from memdesk.gui.views.history import HistoryView

            self.show_page("history")
            self.view_as("history", HistoryView).show_step(int(ref))

    def compact(self, item: ItemRef) -> None:
        """The Compaction page with an app or a session chosen: "Compact now"."""
        from memdesk.gui.views.compaction import CompactionView

        view = self.view_as("compaction", CompactionView)
        self._switch("compaction", view, self._title("compaction"), refresh=False)
        if item.kind == ItemKind.APP:
            view.select_app(item.ref)  # reads the sessions again, then picks the app's latest
        else:
            view.select_session(item.ref)

    def _open_memory(self, app_id: str, memory_id: int) -> None:
        from memdesk.gui.views.apps import AppMemoriesView

        key = f"{APP_PREFIX}{app_id}"
        self.show_page(key)
        self.view_as(key, AppMemoriesView).select_memory(memory_id)

    def _open_entry(self, row: EntryRow) -> None:
        from memdesk.gui.views.entries import EntriesView

        self.show_page(row.category)
        self.view_as(row.category, EntriesView).open_entry(row.id)

    def _open_document(self, namespace: str) -> None:
        if is_working(namespace):
            from memdesk.gui.views.working import WorkingView

            session = namespace.removeprefix("sessions/").removesuffix("/working")
            view = self.view_as("working", WorkingView)
            view.show_working(session if namespace.startswith("sessions/") else None)
            self._switch("working", view, self._title("working"), refresh=False)
            return
        key = document_place(namespace, self.user_namespace())
        if key:
            self.show_page(key)
            return
        from memdesk.gui.views.documents import DocumentsView

        view = self.view_as("documents", DocumentsView)
        view.show_namespace(namespace)
        self._switch("documents", view, document_title(namespace), refresh=False)

    def preview_at(self, when: datetime) -> None:
        from memdesk.gui.views.preview import PromptPreviewView

        self.show_page("preview")
        self.view_as("preview", PromptPreviewView).set_date(when)

    def user_namespace(self) -> str:
        return self.app.settings.memory.user_namespace or "user"

    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, 5000)

    def _open_review(self) -> None:
        self.show_page("review")
        self.showNormal()
        self.raise_()
        self.activateWindow()

    def _first_page(self, empty: bool) -> None:
        if self.current_page:  # the person already went somewhere
            return
        last = self.state.get("page")
        known = isinstance(last, str) and (
            last.startswith(APP_PREFIX) or self.sidebar.sidebar_model.find(last) is not None
        )
        if empty:
            self.show_page("welcome")
        elif known:
            self.show_page(last)
        else:
            self.show_page("doc:profile")

    # --- search ---------------------------------------------------------------------------

    def focus_search(self) -> None:
        self.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_box.selectAll()

    def _search_panel(self) -> SearchPanel:
        from memdesk.gui.search_panel import SearchPanel

        return self.view_as("search", SearchPanel)

    def _search(self, query: str) -> None:
        panel = self._search_panel()
        if not query:
            self._cancel_search(keep_focus=True)
            return
        if self.current_page != "search":
            self._page_before_search = self.current_page
            self._switch("search", panel, self._title("search"), refresh=False)
        panel.search(query)

    def _cancel_search(self, keep_focus: bool = False) -> None:
        back = self._page_before_search
        self.search_box.clear()
        if self.current_page == "search":
            self.show_page(back or "doc:profile")
        if not keep_focus:
            self.stack.currentWidget().setFocus()

    # --- undo, import, export, settings ------------------------------------------------------

    def _flush_editors(self) -> None:
        for view in self.views.values():
            view.flush()

    def undo(self, direction: str) -> None:
        from memdesk.gui.views.history import undo_or_redo

        self._flush_editors()  # the text being typed is the latest change: undo that
        message = self.statusBar().showMessage
        undo_or_redo(
            self.tasks, direction, lambda text: message(text, 5000), lambda text: message(text, 5000)
        )

    def import_(self) -> None:
        kind = dialogs.choose(
            self,
            "Import",
            "What would you like to import? Items already in the store are kept as they are.",
            ["Memdesk export (.json)…", "Flynn memory folder…"],
        )
        if kind is None:
            return
        if kind.startswith("Memdesk"):
            path = dialogs.open_file(self, "Import a Memdesk export", JSON_FILTER)
            if path is not None:
                self.tasks.write(
                    lambda app: app.transfer.import_file(path),
                    on_done=lambda report: self._imported(
                        f"Imported {path.name}: {report.added} added, {report.skipped} already here.",
                        report.flagged,
                    ),
                    label="Importing…",
                )
        else:
            folder = dialogs.pick_folder(self, "Import a Flynn memory folder")
            if folder is not None:
                self.tasks.write(
                    lambda app: app.flynn.import_(folder), on_done=self._flynn_imported, label="Importing…"
                )

    def _flynn_imported(self, report: Any) -> None:
        files = plural(len(report.written), "file")
        self._imported(f"Imported {files} from the Flynn folder.", report.flagged)

    def _imported(self, message: str, flagged: list[str]) -> None:
        self.statusBar().showMessage(message, 8000)
        if self.current_page == "welcome":
            self.show_page("doc:profile")
        if flagged:
            listed = "\n".join(f"• {line}" for line in flagged[:20])
            more = f"\n…and {len(flagged) - 20} more." if len(flagged) > 20 else ""
            dialogs.info(
                self,
                "Look at what was imported",
                f"{message}\n\nSome of it reads like instructions to an assistant, and it is in memory "
                f"now. Look at it, and undo the import (Ctrl+Z) if it should not be there:\n\n{listed}{more}",
            )

    def export(self) -> None:
        kind = dialogs.choose(
            self,
            "Export",
            "Export every memory (Trash included) to one JSON file, or the documents to a Flynn folder?",
            ["Memdesk export (.json)…", "Flynn memory folder…"],
        )
        if kind is None:
            return
        if kind.startswith("Memdesk"):
            path = dialogs.save_file(self, "Export to a file", "memdesk-export.json", JSON_FILTER)
            if path is not None:
                self.tasks.read(
                    lambda app: app.transfer.export_file(path),
                    on_done=lambda _counts: self.statusBar().showMessage(f"Exported to {path}", 8000),
                    label="Exporting…",
                )
        else:
            folder = dialogs.pick_folder(self, "Export to a Flynn memory folder")
            if folder is not None:
                self.tasks.read(
                    lambda app: app.flynn.export(folder),
                    on_done=lambda report: self.statusBar().showMessage(
                        f"Exported {plural(len(report.written), 'file')} to {folder}", 8000
                    ),
                    label="Exporting…",
                )

    def load_example(self) -> None:
        from memdesk.services.examples import load_example

        self.tasks.write(
            load_example,
            on_done=lambda report: self._imported(
                f"Example memories loaded: {report.added} items added.", flagged=[]
            ),
            label="Loading example memories…",
        )

    def settings_dialog(self) -> SettingsDialog:
        """The Settings dialog, with the language-model panel (keyring, Test connection)."""
        from memdesk.gui.llm_settings import LLMSettingsPanel
        from memdesk.gui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.app, self.tasks, self)
        dialog.use_section_panel("llm", LLMSettingsPanel(self.app, self.tasks))
        return dialog

    def open_settings(self) -> None:
        dialog = self.settings_dialog()
        if dialog.exec():
            self._update_llm_label()
            self.refresh_all()

    def show_shortcuts(self) -> None:
        self.shortcuts_dialog = help_menu.ShortcutsDialog(self)
        self.shortcuts_dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.shortcuts_dialog.open()

    def about(self) -> None:
        dialogs.info(
            self,
            f"About {APP_NAME}",
            f"{APP_NAME} {__version__}\n\nSee and control what your personal AI assistant remembers.\n\n"
            f"Store: {self.app.store.where}",
        )

    # --- keeping up to date -----------------------------------------------------------------

    def refresh_all(self) -> None:
        self._counts_timer.stop()  # the first counts, if still waiting, are read now
        self._refresh(EVERYTHING)

    def _refresh(self, changes: Changes) -> None:
        """Read again the page on screen, if it shows what changed, and the counts it changed."""
        place = place_for(self.current_page)
        if place is not None and changes.touches(place.shows):
            self._view(place).refresh()
        self.count_reader.refresh(changes)

    def _store_changed(self, changes: Changes) -> None:
        self._refresh(changes)

    def _saved(self) -> None:
        self.saved_label.setText(f"Saved {datetime.now().strftime('%H:%M:%S')}")

    def _external_change(self) -> None:
        self.statusBar().showMessage("Updated with changes made by another program.", 4000)
        self.refresh_all()  # another program's change could be anything

    def _show_counts(self, counts: dict[str, Any]) -> None:
        self.counts.update(counts)
        model = self.sidebar.sidebar_model
        if "apps" in counts:
            self.sidebar.set_apps(counts["apps"])
        for key in ("review", "health", "trash", "knowledge", "timeline", "sessions"):
            if key in counts:
                model.set_count(key, counts[key])
        if "review" in counts:
            self.review_notice.update(counts["review"])
        if {"documents", "apps", "app_memories", "sessions"} <= self.counts.keys():
            apps, memories = self.counts["apps"], self.counts["app_memories"]
            self.counts_label.setText(
                f"{plural(self.counts['documents'], 'document')} · {plural(len(apps), 'app')} · "
                f"{plural(memories, 'app memory', 'app memories')} · "
                f"{plural(self.counts['sessions'], 'session')}"
            )

    def _count_apps(self, app_ids: list[str]) -> None:
        """Count the memories of the apps whose sidebar rows were just made."""
        self.tasks.read(
            lambda app: app.apps.summaries(app_ids), on_done=self.sidebar.sidebar_model.set_app_counts
        )

    def _update_llm_label(self) -> None:
        llm = self.app.settings.llm
        model = f" · {llm.model}" if llm.model and llm.backend != "offline" else ""
        self.llm_label.setText(f"LLM: {llm.backend}{model}")
        self.llm_label.setToolTip(
            f"The language model compaction uses: {BACKEND_LABELS.get(llm.backend, llm.backend)} "
            "(change it in Settings)"
        )

    def _busy_changed(self, busy: bool) -> None:
        if busy:
            self._busy_timer.start()
        else:
            self._busy_timer.stop()
            self.busy.hide()

    def remembered_project(self) -> Path | None:
        """The project folder chosen last in Files (whether it is trusted is a setting)."""
        project = self.state.get("project")
        if self.state.take(OLD_TRUST_KEY) and project:
            self._keep_old_trust(project)
        return Path(project) if project else None

    def _keep_old_trust(self, project: str) -> None:
        """A project trusted in the window of an earlier version, which kept the trust in its
        own state: moved to the one setting, so the person need not trust it again."""
        # Here, not at the top: the window's chrome loads before the services layer.
        from memdesk.services.projects import TRUSTED_KEY, with_trust

        listed = with_trust(self.app.settings.files.trusted_projects, project, True)
        if listed is not None:
            self.app.update_settings(self.app.settings.with_values({TRUSTED_KEY: list(listed)}))
        self.state.save()

    def remember_project(self, project: Path | None) -> None:
        self.state.set("project", str(project) if project else None)
        self.state.save()

    # --- window state -------------------------------------------------------------------------

    def _restore_geometry(self) -> None:
        geometry = self.state.get("geometry")
        if isinstance(geometry, str):
            self.restoreGeometry(QByteArray(base64.b64decode(geometry)))
        else:
            self.resize(1200, 780)
        sizes = self.state.get("splitter")
        if isinstance(sizes, list) and len(sizes) == 2 and all(isinstance(size, int) for size in sizes):
            self.splitter.setSizes(sizes)
        else:
            self.splitter.setSizes([200, 1000])

    def _save_state(self) -> None:
        self.state.set("geometry", base64.b64encode(bytes(self.saveGeometry().data())).decode("ascii"))
        self.state.set("splitter", self.splitter.sizes())
        if self.current_page:  # closed before the first page was chosen: keep the last one
            self.state.set("page", self.current_page)
        self.state.save()

    def unsaved_views(self) -> list[Page]:
        return [view for view in self.views.values() if view.has_unsaved_changes()]

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.attached:  # closed while the store was still opening
            self._save_state()
            event.accept()
            return
        self._flush_editors()
        self.tasks.wait_writes(5000)  # let the saves land before deciding anything
        if self.unsaved_views() and not dialogs.confirm(
            self,
            "Unsaved changes",
            "Some changes could not be saved (see the bar above the editor). Close anyway and lose them?",
            action="Close without saving",
        ):
            event.ignore()
            return
        self.watcher.stop()
        self.source_reader.stop()
        self._counts_timer.stop()
        self._save_state()
        event.accept()
