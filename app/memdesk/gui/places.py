"""Every place the window can show, each declared once.

A ``Place`` is a sidebar row (its label, tooltip and parent), a Go-menu entry (its
shortcut), a window title, the view that shows it and how that view is built, and the
kinds of item the view shows, so a write refreshes it only when it changed one of those.
The sidebar tree, the Go menu, window titles and ``MainWindow.show_page`` are all read
from ``PLACES``; adding a page is one entry here. Views are imported when first built, so
the window is on screen before the store layer loads.

Apps are places too, but there can be thousands: ``app:<id>`` keys are made from the
store and all shown by the "apps" place's view.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memdesk.core.items import ItemKind
from memdesk.gui.views.base import Page

if TYPE_CHECKING:
    from memdesk.gui.main_window import MainWindow

ViewFactory = Callable[["MainWindow"], Page]
APP_PREFIX = "app:"
DOCUMENT_PREFIX = "doc:"


@dataclass(frozen=True)
class Place:
    key: str
    title: str  # the window title and the Go-menu entry
    view: str = ""  # the view that shows it (places sharing one name it alike); "" for a group
    build: ViewFactory | None = None
    # Point the (shared) view at this place; it then reads by itself. None: refresh it.
    show: Callable[[MainWindow, Page], None] | None = None
    # A sidebar group opens one of its places: the key, or "" to show its own view.
    leads_to: Callable[[MainWindow], str] | None = None
    shows: frozenset[ItemKind] | None = None  # the kinds its view shows; None: anything
    label: str = ""  # in the sidebar, when not the title
    tooltip: str = ""
    parent: str = ""  # the sidebar group it sits in
    shortcut: str = ""  # in the Go menu
    in_sidebar: bool = True

    @property
    def sidebar_label(self) -> str:
        return self.label or self.title


# --- how the views are built ---------------------------------------------------------------


def _welcome(window: MainWindow) -> Page:
    from memdesk.gui.welcome import WelcomeView

    welcome = WelcomeView(f"Store: {window.app.store.where}", window.tasks)
    welcome.load_example_requested.connect(window.load_example)
    welcome.import_requested.connect(window.import_)
    welcome.review_requested.connect(lambda: window.show_page("review"))
    return welcome


def _documents(window: MainWindow) -> Page:
    from memdesk.gui.views.documents import DocumentsView

    return DocumentsView(window.app, window.tasks)


def _working(window: MainWindow) -> Page:
    from memdesk.gui.views.working import WorkingView

    return WorkingView(window.app, window.tasks)


def _apps(window: MainWindow) -> Page:
    from memdesk.gui.views.apps import AppMemoriesView

    apps = AppMemoriesView(window.app, window.tasks)
    apps.compact_requested.connect(window.compact)
    return apps


def _show_no_app(window: MainWindow, view: Page) -> None:
    """The Apps row with no app to open: the view says how an app comes to exist."""
    from memdesk.gui.views.apps import AppMemoriesView

    assert isinstance(view, AppMemoriesView)
    view.show_no_app(apps_exist=bool(window.sidebar.first_app_key()))


def _entries(category: str) -> ViewFactory:
    def build(window: MainWindow) -> Page:
        from memdesk.gui.views.entries import EntriesView

        return EntriesView(window.tasks, category)

    return build


def _sessions(window: MainWindow) -> Page:
    from memdesk.gui.views.sessions import SessionsView

    sessions = SessionsView(window.app, window.tasks)
    sessions.compact_requested.connect(window.compact)
    return sessions


def _files(window: MainWindow) -> Page:
    from memdesk.gui.views.files import FilesView

    files = FilesView(window.app, window.tasks)
    files.set_project(window.remembered_project())
    files.project_changed.connect(window.remember_project)
    return files


def _expiry(window: MainWindow) -> Page:
    from memdesk.gui.views.timeline import ExpiryTimelineView

    expiry = ExpiryTimelineView(window.app, window.tasks)
    expiry.preview_at_requested.connect(window.preview_at)
    return expiry


def _preview(window: MainWindow) -> Page:
    from memdesk.gui.views.preview import PromptPreviewView

    return PromptPreviewView(window.app, window.tasks)


def _compaction(window: MainWindow) -> Page:
    from memdesk.gui.views.compaction import CompactionView

    return CompactionView(window.app, window.tasks)


def _trash(window: MainWindow) -> Page:
    from memdesk.gui.views.trash import TrashView

    return TrashView(window.app, window.tasks)


def _history(window: MainWindow) -> Page:
    from memdesk.gui.views.history import HistoryView

    history = HistoryView(window.app, window.tasks)
    history.status_message.connect(window.show_status)
    return history


def _assistants(window: MainWindow) -> Page:
    from memdesk.gui.views.assistants import AssistantsView

    assistants = AssistantsView(window.app, window.tasks)
    assistants.status_message.connect(window.show_status)
    return assistants


def _review(window: MainWindow) -> Page:
    from memdesk.gui.views.review import ReviewView

    review = ReviewView(window.app, window.tasks)
    review.status_message.connect(window.show_status)
    return review


def _health(window: MainWindow) -> Page:
    from memdesk.gui.views.health import HealthView

    health = HealthView(window.app, window.tasks)
    health.status_message.connect(window.show_status)
    return health


def _search(window: MainWindow) -> Page:
    from memdesk.gui.search_panel import SearchPanel

    return SearchPanel(window.app, window.tasks)


# --- how a shared view is pointed at one place ----------------------------------------------


def document_namespace(name: str, user: str) -> str:
    """The namespace ``doc:<name>`` shows: ``<user>/profile``..., or "global"."""
    return "global" if name == "global" else f"{user}/{name}"


def document_place(namespace: str, user: str) -> str:
    """The ``doc:`` place that shows ``namespace``, or "" when no sidebar row does."""
    name = namespace if namespace == "global" else namespace.removeprefix(f"{user}/")
    key = f"{DOCUMENT_PREFIX}{name}"
    return key if key in _BY_KEY and document_namespace(name, user) == namespace else ""


def _document(name: str, title: str, shortcut: str = "") -> Place:
    def show(window: MainWindow, view: Page) -> None:
        from memdesk.gui.views.documents import DocumentsView

        assert isinstance(view, DocumentsView)
        view.show_namespace(document_namespace(name, window.user_namespace()))

    return Place(
        f"{DOCUMENT_PREFIX}{name}",
        title,
        "documents",
        _documents,
        show=show,
        shows=frozenset({ItemKind.DOCUMENT}),
        parent="user",
        shortcut=shortcut,
    )


def _files_scope(scope: str, label: str) -> Place:
    def show(_window: MainWindow, view: Page) -> None:
        from memdesk.gui.views.files import FilesView

        assert isinstance(view, FilesView)
        view.show_scope(scope)

    return Place(f"files:{scope}", "Files", "files", _files, show=show, label=label, parent="files")


def _show_working(_window: MainWindow, view: Page) -> None:
    from memdesk.gui.views.working import WorkingView

    assert isinstance(view, WorkingView)
    view.show_working()


# --- the places, in sidebar order ----------------------------------------------------------

PLACES: tuple[Place, ...] = (
    Place(
        "review",
        "Review",
        "review",
        _review,
        shows=frozenset({ItemKind.HELD_WRITE}),
        tooltip="Assistants' writes that wait for you before they reach a prompt",
        shortcut="Ctrl+R",
    ),
    Place(
        "user",
        "User",
        leads_to=lambda _window: "doc:profile",
        tooltip="The person's documents: always or often in the prompt",
    ),
    _document("profile", "Profile", "Ctrl+1"),
    _document("patterns", "Patterns"),
    _document("facts", "Facts"),
    Place(
        "working",
        "Working memory",
        "working",
        _working,
        show=_show_working,
        shows=frozenset({ItemKind.WORKING}),
        parent="user",
        shortcut="Ctrl+2",
    ),
    _document("global", "Global notes"),
    Place(
        "apps",
        "Apps",
        "apps",
        _apps,
        show=_show_no_app,
        leads_to=lambda window: window.sidebar.first_app_key(),
        shows=frozenset({ItemKind.APP, ItemKind.APP_MEMORY}),
        tooltip="Memories kept per app, capped per app",
        shortcut="Ctrl+3",
    ),
    Place(
        "knowledge",
        "Knowledge",
        "knowledge",
        _entries("knowledge"),
        shows=frozenset({ItemKind.ENTRY}),
        tooltip="Facts and notes, recalled when a message matches",
        shortcut="Ctrl+4",
    ),
    Place(
        "timeline",
        "Timeline",
        "timeline",
        _entries("timeline"),
        shows=frozenset({ItemKind.ENTRY}),
        tooltip="Dated events; they expire after the retention period",
        shortcut="Ctrl+5",
    ),
    Place(
        "sessions",
        "Sessions",
        "sessions",
        _sessions,
        shows=frozenset({ItemKind.SESSION}),
        tooltip="Conversation logs that compaction reads",
        shortcut="Ctrl+6",
    ),
    Place(
        "files",
        "Files",
        leads_to=lambda _window: "files:global",
        tooltip="MEMORY.md folders an assistant edits itself",
        shortcut="Ctrl+7",
    ),
    _files_scope("global", "Global folder"),
    _files_scope("project", "Project folder"),
    Place(
        "expiry",
        "Expiry timeline",
        "expiry",
        _expiry,
        shows=frozenset({ItemKind.WORKING, ItemKind.ENTRY, ItemKind.APP_MEMORY, ItemKind.TRASH}),
        tooltip="Everything that expires, on a time axis",
    ),
    Place(
        "preview",
        "Prompt preview",
        "preview",
        _preview,
        tooltip="The prompt a session would receive, at any date",
        shortcut="Ctrl+8",
    ),
    Place(
        "compaction",
        "Compaction",
        "compaction",
        _compaction,
        tooltip="Turn long conversations into memories, reviewed",
    ),
    Place(
        "health",
        "Memory health",
        "health",
        _health,
        shows=frozenset({ItemKind.DOCUMENT, ItemKind.ENTRY, ItemKind.APP_MEMORY}),
        tooltip="Facts that disagree or are stored twice, with one-click fixes",
    ),
    Place(
        "trash",
        "Trash",
        "trash",
        _trash,
        shows=frozenset({ItemKind.TRASH}),
        tooltip="Deleted items, until restored or emptied",
        shortcut="Ctrl+9",
    ),
    Place(
        "history", "History", "history", _history, tooltip="Every change; undo and redo", shortcut="Ctrl+0"
    ),
    Place(
        "assistants",
        "Assistants",
        "assistants",
        _assistants,
        tooltip="Assistants connected over MCP, and what each wrote",
    ),
    # Not in the sidebar: reached from the search box, the first start, or a link.
    Place("search", "Search", "search", _search, in_sidebar=False),
    Place("welcome", "Welcome", "welcome", _welcome, in_sidebar=False),
    # Any other document (session notes): titled by its namespace.
    Place(
        "documents",
        "Documents",
        "documents",
        _documents,
        shows=frozenset({ItemKind.DOCUMENT}),
        in_sidebar=False,
    ),
)

_BY_KEY = {place.key: place for place in PLACES}


def place_for(key: str) -> Place | None:
    """The place ``key`` names; every ``app:<id>`` is the "apps" place."""
    return _BY_KEY.get("apps" if key.startswith(APP_PREFIX) else key)
