"""Global search: grouped results with snippets; keyboard only, from the box to the item."""

from __future__ import annotations

from PySide6.QtCore import Qt

from memdesk.gui.search_panel import SearchModel, snippet_html
from memdesk.gui.views.apps import AppMemoriesView
from memdesk.gui.views.entries import EntriesView
from memdesk.services.examples import load_example


def type_search(main_window, qtbot, text: str) -> None:
    qtbot.keyClick(main_window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert main_window.search_box.hasFocus()
    qtbot.keyClicks(main_window.search_box, text)


def test_results_are_grouped_by_kind_with_snippets(main_window, memdesk_app, qtbot, settle):
    load_example(memdesk_app)
    type_search(main_window, qtbot, "porto")
    qtbot.waitUntil(lambda: main_window.current_page == "search")
    settle()
    panel = main_window.views["search"]
    groups = [group.name for group in panel.model.groups]
    assert groups == ["document", "knowledge", "timeline", "app_memory"]
    first = panel.model.groups[0].hits[0].result
    assert first.ref == "user/working"
    assert "[Porto]" in first.snippet
    assert "5 results" in panel.header.subtitle.text()


def test_arrow_keys_and_enter_open_the_result(main_window, memdesk_app, qtbot, settle, monkeypatch):
    opened = []
    monkeypatch.setattr(EntriesView, "open_entry", lambda view, entry_id: opened.append((view, entry_id)))
    load_example(memdesk_app)
    type_search(main_window, qtbot, "venues")
    qtbot.waitUntil(lambda: main_window.current_page == "search")
    settle()
    panel = main_window.views["search"]
    assert [g.name for g in panel.model.groups] == ["document", "knowledge"]
    qtbot.keyClick(main_window.search_box, Qt.Key.Key_Down)  # from working memory to the entry
    qtbot.keyClick(main_window.search_box, Qt.Key.Key_Return)
    settle()
    assert main_window.current_page == "knowledge"
    entry = next(e for e in memdesk_app.entries.list("knowledge") if e.key == "porto-venues")
    assert opened == [(main_window.views["knowledge"], entry.id)]


def test_enter_right_after_typing_opens_the_first_document(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/facts", "The gym card is in the blue wallet.")
    settle()
    type_search(main_window, qtbot, "wallet")
    qtbot.keyClick(main_window.search_box, Qt.Key.Key_Return)  # before the typing pause ends
    settle()
    assert main_window.current_page == "doc:facts"
    assert "blue wallet" in main_window.views["documents"].editor.text()


def test_an_app_memory_result_opens_its_app_and_selects_it(
    main_window, memdesk_app, qtbot, settle, monkeypatch
):
    selected = []
    monkeypatch.setattr(AppMemoriesView, "select_memory", lambda view, memory_id: selected.append(memory_id))
    memdesk_app.apps.add("calendar", "Lunch with Ana")
    memory = memdesk_app.apps.add("calendar", "Stand-up moved to 13:30").memory
    settle()
    type_search(main_window, qtbot, "standup OR stand")
    qtbot.keyClick(main_window.search_box, Qt.Key.Key_Return)
    settle()
    assert main_window.current_page == "app:calendar"
    assert selected == [memory.id]


def test_escape_clears_the_search_and_goes_back(main_window, memdesk_app, qtbot, settle):
    load_example(memdesk_app)
    main_window.show_page("trash")
    settle()
    type_search(main_window, qtbot, "porto")
    qtbot.waitUntil(lambda: main_window.current_page == "search")
    qtbot.keyClick(main_window.search_box, Qt.Key.Key_Escape)
    assert main_window.current_page == "trash"
    assert main_window.search_box.text() == ""


def test_nothing_found_says_so(main_window, memdesk_app, qtbot, settle):
    load_example(memdesk_app)
    type_search(main_window, qtbot, "zzyzx")
    qtbot.waitUntil(lambda: main_window.current_page == "search")
    settle()
    panel = main_window.views["search"]
    assert panel.model.result_count() == 0
    assert "Nothing matches" in panel.empty.text()


def test_search_model_passes_the_model_tester(memdesk_app, qtmodeltester):
    load_example(memdesk_app)
    model = SearchModel()
    model.set_results(memdesk_app.search.search("porto"))
    qtmodeltester.check(model)
    assert model.result_count() == 5
    model.set_results({})
    qtmodeltester.check(model)


def test_snippets_show_matches_bold_and_text_as_text():
    assert snippet_html("a <b>[x]</b> & y") == "a &lt;b&gt;<b>x</b>&lt;/b&gt; &amp; y"
