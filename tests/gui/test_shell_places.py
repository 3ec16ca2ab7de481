"""Places are declared once: sidebar, Go menu, titles and views all come from the registry;
a write refreshes only what shows what it changed."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer
from PySide6.QtWidgets import QMenu

from memdesk.core.items import ItemKind, ItemRef
from memdesk.gui.places import PLACES, place_for
from memdesk.gui.sidebar import KEY_ROLE
from memdesk.gui.views.base import View


def sidebar_keys(model, parent=None) -> list[tuple[str, str]]:
    """(parent key, key) of every row, in order; apps (data, not places) left out."""
    from PySide6.QtCore import QModelIndex

    parent = parent or QModelIndex()
    rows = []
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        key = index.data(KEY_ROLE)
        if key.startswith("app:"):
            continue
        rows.append((parent.data(KEY_ROLE) or "", key))
        rows.extend(sidebar_keys(model, index))
    return rows


def test_the_sidebar_is_the_registry_in_order(main_window):
    expected = [(place.parent, place.key) for place in PLACES if place.in_sidebar]
    assert sidebar_keys(main_window.sidebar.sidebar_model) == expected


def test_every_place_builds_a_view_that_is_a_view(main_window, memdesk_app, settle):
    memdesk_app.documents.set("user/profile", "x")
    settle()
    for place in PLACES:
        if place.build is None:
            assert place.leads_to is not None, place.key  # a group row leads to one of its places
            continue
        view = main_window._view(place)
        assert isinstance(view, View), place.key
        received = []
        view.open_requested.connect(received.append)
        view.open_requested.emit(ItemRef(ItemKind.TRASH, "memory:1"))  # the window opens Trash
        assert received == [ItemRef(ItemKind.TRASH, "memory:1")], place.key
        assert main_window.current_page == "trash"


def test_the_go_menu_and_titles_come_from_the_places(main_window, settle):
    go_menu = next(action.menu() for action in main_window.menuBar().actions() if action.text() == "&Go")
    assert isinstance(go_menu, QMenu)
    shortcuts = {a.text(): a.shortcut().toString() for a in go_menu.actions() if not a.isSeparator()}
    for place in PLACES:
        if place.shortcut:
            assert shortcuts[place.title] == place.shortcut
    assert len({place.shortcut for place in PLACES if place.shortcut}) == len(
        [place for place in PLACES if place.shortcut]
    )
    main_window.show_page("trash")
    settle()
    assert main_window.windowTitle().startswith(place_for("trash").title)
    assert place_for("app:calendar") is place_for("apps")


def counting(calls: list[str], name: str, fn):
    def counted(*args, **kwargs):
        calls.append(name)
        return fn(*args, **kwargs)

    return counted


def test_a_document_save_reads_neither_apps_nor_trash(main_window, memdesk_app, qtbot, settle, monkeypatch):
    memdesk_app.documents.set("user/profile", "Before")
    memdesk_app.apps.add("calendar", "Lunch with Ana")
    main_window.show_page("doc:profile")
    main_window.refresh_all()
    settle()
    main_window.watcher.stop()  # only our own write is under test
    reads: list[str] = []
    for service, name in (
        (memdesk_app.apps, "list_apps"),
        (memdesk_app.trash, "count"),
        (memdesk_app.documents, "list"),
    ):
        monkeypatch.setattr(service, name, counting(reads, name, getattr(service, name)))
    view = main_window.views["documents"]
    qtbot.keyClicks(view.editor.editor, " after")
    view.flush()
    settle()
    assert "after" in memdesk_app.documents.text("user/profile")
    assert "list_apps" not in reads and "count" not in reads
    assert "list" in reads  # the document count was read again
    reads.clear()
    main_window.refresh_all()  # everything, as after another program's change
    settle()
    assert {"list_apps", "count", "list"} <= set(reads)


def test_another_programs_change_shows_within_a_second(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/profile", "Before")
    main_window.show_page("doc:profile")
    settle()
    editor = main_window.views["documents"].editor
    model = main_window.sidebar.sidebar_model
    timer = QElapsedTimer()
    timer.start()
    # Not through the window's tasks: to the window, this is another program.
    memdesk_app.documents.set("user/profile", "Written elsewhere")
    memdesk_app.apps.add("notes", "Buy oat milk")
    qtbot.waitUntil(lambda: editor.text() == "Written elsewhere", timeout=1000)
    qtbot.waitUntil(lambda: model.find("app:notes") is not None, timeout=1000 - timer.elapsed())


def test_adding_an_entry_reads_the_entry_counts_only(main_window, memdesk_app, answers, settle, monkeypatch):
    memdesk_app.apps.add("calendar", "Lunch with Ana")
    main_window.show_page("knowledge")
    main_window.refresh_all()
    settle()
    main_window.watcher.stop()  # only our own write is under test
    reads: list[str] = []
    for service, name in (
        (memdesk_app.apps, "list_apps"),
        (memdesk_app.trash, "count"),
        (memdesk_app.documents, "list"),
        (memdesk_app.entries, "live_count"),
    ):
        monkeypatch.setattr(service, name, counting(reads, name, getattr(service, name)))
    answers.texts = ["oat-milk", "Buys oat milk"]
    main_window.views["knowledge"].add_entry()
    settle()
    assert memdesk_app.entries.get("oat-milk").content == "Buys oat milk"
    assert reads.count("live_count") == 2  # knowledge and timeline
    assert not {"list_apps", "count", "list"} & set(reads)
