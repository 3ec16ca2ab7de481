"""The window as a new user first finds it: pages with nothing in them say how something gets
there, boxes that cannot act are off, and the status bar says Saved only after a save."""

from __future__ import annotations

from memdesk.core.items import Changes, ItemKind


def test_apps_without_apps_say_how_an_app_comes_to_exist(main_window, settle):
    main_window.show_page("apps")
    settle()
    view = main_window.views["apps"]
    assert view.no_apps.isVisible() and not view.table.isVisible()
    assert "an assistant keeps a note for it" in view.no_apps.text()
    assert 'memdesk app add calendar "Prefers meetings after 2pm"' in view.no_apps.text()
    assert not view.add_box.isEnabled()
    assert view.add_box.placeholderText() == "Choose an app to add a memory to it"


def test_an_app_chosen_lists_it_and_takes_new_memories(main_window, memdesk_app, settle):
    memdesk_app.apps.add("calendar", "Prefers meetings after 2pm")
    main_window.refresh_all()
    settle()
    main_window.show_page("app:calendar")
    settle()
    view = main_window.views["apps"]
    assert view.table.isVisible() and not view.no_apps.isVisible()
    assert view.add_box.isEnabled()
    assert view.add_box.placeholderText() == "Add a memory: type it and press Enter"


def test_empty_knowledge_says_what_lands_there(main_window, memdesk_app, settle):
    main_window.show_page("knowledge")
    settle()
    view = main_window.views["knowledge"]
    assert view.empty_label.isVisible() and not view.table.isVisible()
    assert view.empty_label.text().startswith("No knowledge entries yet.")
    assert "memory_store" in view.empty_label.text()
    memdesk_app.entries.add("editor", "Ada edits in Helix", "knowledge")
    view.refresh()
    settle()
    assert view.table.isVisible() and not view.empty_label.isVisible()


def test_a_filter_matching_nothing_keeps_the_table(main_window, memdesk_app, settle, qtbot):
    memdesk_app.entries.add("editor", "Ada edits in Helix", "knowledge")
    main_window.show_page("knowledge")
    settle()
    view = main_window.views["knowledge"]
    view.filter_box.setText("zebra")
    view.filter_box.returnPressed.emit()
    settle()
    assert view.table.isVisible() and not view.empty_label.isVisible()
    assert view.header.subtitle.text() == "0 entries matching “zebra”"


def test_saved_is_said_only_after_a_write_that_changed_something(main_window, memdesk_app, tasks, settle):
    memdesk_app.apps.add("calendar", "Prefers meetings after 2pm")
    main_window.refresh_all()
    settle()
    for key in ("review", "doc:profile", "working", "app:calendar", "knowledge", "timeline", "trash"):
        main_window.show_page(key)
        settle()
    assert main_window.saved_label.text() == ""
    tasks.write(lambda app: app.documents.text("user/profile"), changes=Changes.of(ItemKind.DOCUMENT))
    settle()
    assert main_window.saved_label.text() == ""  # a write that found nothing to change
    tasks.write(
        lambda app: app.documents.set("user/profile", "Name: Ada."), changes=Changes.of(ItemKind.DOCUMENT)
    )
    settle()
    assert main_window.saved_label.text().startswith("Saved ")


def test_an_assistant_that_read_through_the_hook_is_on_the_assistants_page(main_window, memdesk_app, settle):
    from memdesk.core.items import ItemRef
    from memdesk.services.claude_hook import ASSISTANT, READ_TOOL

    memdesk_app.access_log.record(ASSISTANT, READ_TOOL, [ItemRef(ItemKind.DOCUMENT, "user/profile")])
    assert memdesk_app.access_log.flush(5)
    main_window.show_page("assistants")
    settle()
    view = main_window.views["assistants"]
    names = [view.clients.index(row, 0).data() for row in range(view.clients.rowCount())]
    assert names == ["claude-code"]  # as the Profile's "Last read by mcp:claude-code" names it
    assert not view.empty_label.isVisible()
