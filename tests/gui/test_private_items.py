"""Private items in the window: a lock on each, the "Private" toggle on entries, apps and
documents, and undo of a toggle from anywhere."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render

from memdesk.core.privacy import Target, TargetKind
from memdesk.gui.models.entries import EntryTableModel as E
from memdesk.gui.views.apps import AppMemoriesView
from memdesk.gui.views.documents import DocumentsView
from memdesk.gui.views.entries import EntriesView

THERAPY = Target(TargetKind.ENTRY, "therapy")
HEALTH = Target(TargetKind.APP, "health")
FACTS = Target(TargetKind.DOC, "user/facts")


def _seed(app) -> None:
    app.entries.add("therapy", "Therapy with Dr. Lind on Thursdays", "knowledge")
    app.entries.add("coffee", "Coffee with Sam on Thursdays", "knowledge")
    app.apps.add("health", "Sees a therapist every Thursday.")
    app.documents.set("user/facts", "- Keeps a diary")


def _row(view: EntriesView, key: str) -> int:
    rows = [r for r in range(view.model.rowCount()) if view.model.index(r, E.KEY).data() == key]
    assert rows, key
    return rows[0]


def _locked(view: EntriesView, key: str) -> bool:
    return view.model.index(_row(view, key), E.KEY).data(Qt.ItemDataRole.DecorationRole) is not None


def _sidebar_locked(window, key: str) -> bool:
    model = window.sidebar.sidebar_model
    index = model.index_for(model.find(key))
    return index.data(Qt.ItemDataRole.DecorationRole) is not None


def _entries(window, settle) -> EntriesView:
    window.show_page("knowledge")
    settle()
    view = window.view_as("knowledge", EntriesView)
    for row in range(view.model.rowCount()):
        view.model.index(row, E.KEY).data()  # asks for the rows
    settle()
    return view


def test_an_entry_made_private_shows_a_lock_and_undo_takes_it_back(main_window, memdesk_app, settle):
    _seed(memdesk_app)
    view = _entries(main_window, settle)
    assert not _locked(view, "therapy") and not view.private_action.isChecked()
    view.table.setCurrentIndex(view.model.index(_row(view, "therapy"), E.CONTENT))
    assert view.private_action.isEnabled() and not view.private_action.isChecked()
    view.private_action.trigger()
    settle()
    assert memdesk_app.privacy.is_private(THERAPY)
    assert _locked(view, "therapy") and not _locked(view, "coffee")
    assert view.private_action.isChecked()
    assert "no assistant reads it" in view.model.index(_row(view, "therapy"), E.KEY).data(
        Qt.ItemDataRole.ToolTipRole
    )
    assert memdesk_app.history.list(1)[0].label == "Make entry therapy private"
    # Still editable in the window like any entry.
    assert view.model.index(_row(view, "therapy"), E.CONTENT).flags() & Qt.ItemFlag.ItemIsEditable

    main_window.undo_action.trigger()
    settle()
    assert not memdesk_app.privacy.is_private(THERAPY)
    assert not _locked(view, "therapy") and not view.private_action.isChecked()


def test_the_app_toggle_and_its_undo(main_window, memdesk_app, settle, qtbot):
    _seed(memdesk_app)  # not through the window's tasks: the sidebar learns of it from the watcher
    model = main_window.sidebar.sidebar_model
    qtbot.waitUntil(lambda: model.find("app:health") is not None, timeout=15000)
    main_window.show_page("app:health")
    settle()
    view = main_window.view_as("app:health", AppMemoriesView)
    toggle = view.private_toggle
    assert toggle.isEnabled() and not toggle.isChecked() and toggle.icon().isNull()
    assert not _sidebar_locked(main_window, "app:health")
    toggle.click()
    settle()
    assert memdesk_app.privacy.is_private(HEALTH)
    assert toggle.isChecked() and not toggle.icon().isNull()
    assert view.proxy.rowCount() == 1  # its memories stay visible to the person
    assert _sidebar_locked(main_window, "app:health")
    main_window.undo_action.trigger()
    settle()
    assert not memdesk_app.privacy.is_private(HEALTH) and not toggle.isChecked()
    assert not _sidebar_locked(main_window, "app:health")


def test_the_document_toggle_follows_another_programs_change(main_window, memdesk_app, settle, qtbot):
    _seed(memdesk_app)
    main_window.show_page("doc:facts")
    settle()
    view = main_window.view_as("doc:facts", DocumentsView)
    assert view.private_toggle.target == FACTS and not view.private_toggle.isChecked()
    memdesk_app.privacy.set_private(FACTS, True)  # as `memdesk private add` would
    qtbot.waitUntil(view.private_toggle.isChecked, timeout=15000)
    view.private_toggle.click()
    settle()
    assert not memdesk_app.privacy.is_private(FACTS)


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_private_marks_render(memdesk_app, tasks, qtbot, settle, name, size, dark):
    _seed(memdesk_app)
    memdesk_app.privacy.set_private(THERAPY, True)
    memdesk_app.privacy.set_private(HEALTH, True)
    with app_palette(dark):
        entries = EntriesView(tasks, "knowledge")
        apps = AppMemoriesView(memdesk_app, tasks)
        for widget in (entries, apps):
            qtbot.addWidget(widget)
            widget.resize(*size)
            widget.show()
        apps.show_app("health")
        qtbot.waitUntil(lambda: entries.model.complete)
        for row in range(entries.model.rowCount()):
            entries.model.index(row, E.KEY).data()
        settle()
        assert _locked(entries, "therapy") and apps.private_toggle.isChecked()
        save_render(entries, f"private-entries-{name}", size)
        save_render(apps, f"private-app-{name}", size)
