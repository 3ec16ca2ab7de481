"""The Memory health page: conflicts and near-duplicates with their facts, keep this one, keep
that one, merge, ignore, each undone by one Ctrl+Z; the sidebar's count; Review showing a held
write as the replacement of the fact it contradicts."""

from __future__ import annotations

import pytest
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render, shown

from memdesk.core.items import ItemKind
from memdesk.gui.views.health import HealthModel, HealthView
from memdesk.gui.views.review import ReviewView
from memdesk.services.health import FindingKind
from memdesk.services.review import Write

FACTS = "- Lives in Berlin\n- Drinks coffee every morning\n"


def _stale(app) -> None:
    app.documents.set("user/facts", FACTS)
    app.entries.upsert("home_city", "Priya lives in Paris now")
    app.apps.add("calendar", "Every morning she drinks coffee.")


def _window_health(make_window, settle):
    window = make_window()
    window.show_page("health")
    settle()
    view = window.views["health"]
    assert isinstance(view, HealthView)
    return window, view


def _badge(window) -> str:
    return window.sidebar.sidebar_model.find("health").badge


def _select(view: HealthView, kind: FindingKind) -> None:
    view.table.selectRow(next(row for row, f in enumerate(view.model.items) if f.kind is kind))


def test_findings_are_listed_with_both_facts(qtbot, memdesk_app, tasks, settle, qtmodeltester):
    _stale(memdesk_app)
    view = shown(qtbot, HealthView(memdesk_app, tasks), settle)
    qtmodeltester.check(view.model)
    assert sorted(view.model.index(r, HealthModel.KIND).data() for r in range(2)) == [
        "Conflict: home",
        "Near-duplicate",
    ]
    assert "1 conflict and 1 near-duplicate" in view.header.subtitle.text()
    _select(view, FindingKind.CONFLICT)
    cards = {view.first_card.text.text(), view.second_card.text.text()}
    assert cards == {"Lives in Berlin", "Priya lives in Paris now"}
    assert "entry home_city" in view.first_card.where.text() + view.second_card.where.text()


def test_keep_this_one_then_ctrl_z_brings_the_other_back(qtbot, memdesk_app, settle, make_window):
    _stale(memdesk_app)
    window, view = _window_health(make_window, settle)
    qtbot.waitUntil(lambda: _badge(window) == "2")
    _select(view, FindingKind.CONFLICT)
    finding = view.selected()[0]
    entry_card = view.first_card if finding.first.kind is ItemKind.ENTRY else view.second_card
    entry_card.keep_button.click()  # keep the new home, drop "Lives in Berlin"
    settle()
    assert memdesk_app.documents.text("user/facts") == "- Drinks coffee every morning\n"
    assert view.model.rowCount() == 1
    qtbot.waitUntil(lambda: _badge(window) == "1")
    window.undo("undo")
    settle()
    assert memdesk_app.documents.text("user/facts") == FACTS
    assert view.model.rowCount() == 2
    qtbot.waitUntil(lambda: _badge(window) == "2")


def test_merge_writes_the_edited_text_and_one_undo_restores_both(memdesk_app, settle, make_window, answer):
    _stale(memdesk_app)
    window, view = _window_health(make_window, settle)
    _select(view, FindingKind.DUPLICATE)
    answer("ask_long_text", "Drinks black coffee every morning")
    view.merge_button.click()
    settle()
    merged = [memdesk_app.documents.text("user/facts")] + [
        m.content for m in memdesk_app.apps.memories("calendar")
    ]
    assert any("Drinks black coffee every morning" in text for text in merged)
    assert "Every morning she drinks coffee." not in merged
    assert [f.kind for f in view.model.items] == [FindingKind.CONFLICT]
    window.undo("undo")
    settle()
    assert memdesk_app.documents.text("user/facts") == FACTS
    assert [m.content for m in memdesk_app.apps.memories("calendar")] == ["Every morning she drinks coffee."]


def test_ignore_hides_it_until_undone(memdesk_app, settle, make_window):
    _stale(memdesk_app)
    window, view = _window_health(make_window, settle)
    _select(view, FindingKind.DUPLICATE)
    view.ignore_button.click()
    settle()
    assert [f.kind for f in view.model.items] == [FindingKind.CONFLICT]
    window.undo("undo")
    settle()
    assert view.model.rowCount() == 2


def test_a_fix_made_elsewhere_meanwhile_is_one_line(qtbot, memdesk_app, tasks, settle):
    _stale(memdesk_app)
    view = shown(qtbot, HealthView(memdesk_app, tasks), settle)
    lines: list[str] = []
    view.status_message.connect(lines.append)
    _select(view, FindingKind.DUPLICATE)
    memdesk_app.health.ignore(view.selected()[0].id)  # another window, first
    view.ignore_button.click()
    settle()
    assert len(lines) == 1 and "no finding" in lines[0]
    assert view.model.rowCount() == 1


def test_review_shows_a_held_write_as_the_replacement_of_the_fact(qtbot, memdesk_app, tasks, settle):
    _stale(memdesk_app)
    with memdesk_app.ctx.acting_as("mcp:chat"):
        held = memdesk_app.review.submit(Write.append_document("user/profile", "Lives in Madrid")).held
    assert held is not None
    view = shown(qtbot, ReviewView(memdesk_app, tasks), settle)
    view.table.selectRow(0)
    title = view.detail.replaces_title.text()
    assert "Replaces what is stored" in title and "user/facts" in title and "entry home_city" in title
    diff = view.detail.replaces_diff.text()
    assert "Lives in Berlin" in diff and "Lives in Madrid" in diff


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render(qtbot, memdesk_app, tasks, settle, name, size, dark):
    _stale(memdesk_app)
    memdesk_app.entries.upsert("employer", "Works at Acme")
    memdesk_app.apps.add("work", "Works at Globex as a senior designer since March")
    with app_palette(dark):
        view = shown(qtbot, HealthView(memdesk_app, tasks), settle, size)
        view.table.selectRow(0)
        save_render(view, f"health-{name}", size)
