"""The Assistants page's Reads tab (newest first, filtered by item, paged as it scrolls), an
item's "Last read by" line, and the status bar's notice when reads are not being logged."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render, shown

from memdesk.core.items import ItemKind, ItemRef
from memdesk.gui.views.assistant_reads import ReadsModel
from memdesk.gui.views.assistants import AssistantsView
from memdesk.gui.widgets.last_read import LastReadLabel
from memdesk.services.access_log import PAGE_SIZE


def _reads(app, clock) -> None:
    app.assistants.seen("mcp:coder", 4)
    app.assistants.seen("api:picobot", 1)
    memory = app.apps.add("health", "Sees a therapist for anxiety every Thursday.").memory
    app.entries.upsert("therapy", "Therapy with Dr. Lind on Thursdays")
    log = app.access_log
    log.record("mcp:coder", "app_memories", [ItemRef(ItemKind.APP_MEMORY, str(memory.id))])
    clock.now += timedelta(minutes=5)
    log.record("mcp:coder", "memory_recall", [ItemRef(ItemKind.ENTRY, "therapy")])
    clock.now += timedelta(minutes=5)
    log.record(
        "mcp:coder",
        "prompt",
        [ItemRef(ItemKind.DOCUMENT, "user/profile"), ItemRef(ItemKind.ENTRY, "dentist")],
    )
    log.record("api:picobot", "GET /recall", [])
    assert log.flush(10)


def _reads_tab(qtbot, memdesk_app, tasks, settle, size=(1000, 700)) -> AssistantsView:
    view = shown(qtbot, AssistantsView(memdesk_app, tasks), settle, size)
    view.clients_table.selectRow(
        next(r for r, c in enumerate(view.clients.clients) if c.name == "mcp:coder")
    )
    view.activity_tabs.setCurrentWidget(view.reads)
    settle()
    return view


def _shown(view: AssistantsView) -> list[tuple[str, str]]:
    model = view.reads.model
    return [
        (model.index(r, ReadsModel.TOOL).data(), model.index(r, ReadsModel.ITEMS).data())
        for r in range(model.rowCount())
    ]


def test_the_reads_tab_lists_the_assistants_reads_newest_first(
    qtbot, memdesk_app, clock, tasks, settle, qtmodeltester
):
    _reads(memdesk_app, clock)
    view = _reads_tab(qtbot, memdesk_app, tasks, settle)
    qtmodeltester.check(view.reads.model)
    memory_id = memdesk_app.apps.memories("health")[0].id
    assert _shown(view) == [
        ("prompt", "document user/profile (deleted), entry dentist (deleted)"),
        ("memory_recall", "entry therapy"),
        ("app_memories", f"app_memory {memory_id}"),
    ]
    view.reads.filter_box.setText("ther")
    qtbot.waitUntil(lambda: len(_shown(view)) == 1)
    assert _shown(view) == [("memory_recall", "entry therapy")]
    view.reads.filter_box.setText("nothing-like-it")
    qtbot.waitUntil(lambda: view.reads.empty_label.isVisibleTo(view))
    assert "No read of items starting with that by mcp:coder" in view.reads.empty_label.text()

    picobot = next(r for r, c in enumerate(view.clients.clients) if c.name == "api:picobot")
    view.reads.filter_box.clear()
    view.clients_table.selectRow(picobot)
    settle()
    qtbot.waitUntil(lambda: len(_shown(view)) == 1)
    assert _shown(view) == [("GET /recall", "nothing")]


def test_a_long_log_is_read_a_page_at_a_time_as_it_scrolls(qtbot, memdesk_app, clock, tasks, settle):
    memdesk_app.assistants.seen("mcp:coder", 1)
    for number in range(PAGE_SIZE * 2 + 5):
        memdesk_app.access_log.record("mcp:coder", "memory_recall", [ItemRef(ItemKind.ENTRY, f"k{number}")])
    assert memdesk_app.access_log.flush(20)
    view = _reads_tab(qtbot, memdesk_app, tasks, settle)
    assert view.reads.model.rowCount() == PAGE_SIZE
    assert view.reads.model.index(0, ReadsModel.ITEMS).data() == f"entry k{PAGE_SIZE * 2 + 4} (deleted)"
    for _ in range(2):
        view.reads.table.scrollToBottom()
        settle()
    assert view.reads.model.rowCount() == PAGE_SIZE * 2 + 5
    assert view.reads.model.index(PAGE_SIZE * 2 + 4, ReadsModel.ITEMS).data() == "entry k0 (deleted)"


def test_last_read_by_names_the_assistant_and_when(qtbot, memdesk_app, clock, tasks, settle):
    _reads(memdesk_app, clock)
    label = LastReadLabel(tasks)
    qtbot.addWidget(label)
    label.show_item(ItemRef(ItemKind.ENTRY, "therapy"))
    settle()
    assert label.text().startswith("Last read by mcp:coder at ") and label.text().endswith("(memory_recall)")
    label.show_item(ItemRef(ItemKind.WORKING, "user/profile"))  # working memory: its document
    settle()
    assert label.text().endswith("(prompt)")
    label.show_item(ItemRef(ItemKind.ENTRY, "never-read"))
    settle()
    assert label.text() == "No assistant has read it."


def test_the_status_bar_says_when_reads_are_not_being_logged(make_window, memdesk_app, qtbot):
    window = make_window()
    notice = window.read_log_notice
    assert not notice.isVisibleTo(window)
    status = memdesk_app.paths.log_dir / "reads-not-logged-4242.json"
    status.parent.mkdir(parents=True, exist_ok=True)
    problem = "the disk is full: could not write to the store"
    status.write_text(json.dumps({"store": memdesk_app.store.where, "problem": problem}))
    notice.check()
    assert notice.isVisibleTo(window)
    assert notice.text() == "Reads are not being logged"
    assert problem in notice.toolTip()
    status.unlink()
    notice.check()
    assert not notice.isVisibleTo(window)


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_the_reads_tab(qtbot, memdesk_app, clock, tasks, settle, name, size, dark):
    _reads(memdesk_app, clock)
    with app_palette(dark):
        view = _reads_tab(qtbot, memdesk_app, tasks, settle, size)
        save_render(view, f"assistant-reads-{name}", size)


def test_an_items_view_says_who_last_read_it(qtbot, memdesk_app, clock, tasks, settle):
    from memdesk.gui.views.apps import AppMemoriesView
    from memdesk.gui.views.documents import DocumentsView
    from memdesk.gui.views.entries import EntriesView

    _reads(memdesk_app, clock)
    memdesk_app.documents.set("user/profile", "Name: Ada")
    entries = shown(qtbot, EntriesView(tasks, "knowledge"), settle)
    entries.table.selectRow(0)  # therapy, the one entry
    settle()
    assert entries.last_read.text().startswith("Last read by mcp:coder at ")
    assert entries.last_read.text().endswith("(memory_recall)")

    apps = shown(qtbot, AppMemoriesView(memdesk_app, tasks), settle)
    apps.show_app("health")
    qtbot.waitUntil(lambda: apps.page is not None)
    apps.table.selectRow(0)
    settle()
    assert apps.last_read.text().endswith("(app_memories)")

    documents = shown(qtbot, DocumentsView(memdesk_app, tasks), settle)
    documents.show_namespace("user/profile")
    settle()
    assert documents.last_read.text().endswith("(prompt)")
    documents.show_namespace("user/facts")
    settle()
    assert documents.last_read.text() == "No assistant has read it."
    save_render(entries, "entries-last-read", (1000, 760))


def test_coming_back_to_the_tab_shows_the_reads_made_meanwhile(qtbot, memdesk_app, clock, tasks, settle):
    _reads(memdesk_app, clock)
    view = _reads_tab(qtbot, memdesk_app, tasks, settle)
    assert len(_shown(view)) == 3
    view.activity_tabs.setCurrentIndex(0)
    clock.now += timedelta(minutes=1)
    memdesk_app.access_log.record("mcp:coder", "working_memory", [])
    assert memdesk_app.access_log.flush(10)
    view.activity_tabs.setCurrentWidget(view.reads)
    settle()
    assert _shown(view)[0] == ("working_memory", "nothing")
