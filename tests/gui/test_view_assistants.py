"""The Assistants page: clients, what each wrote (open in History, undo); and the History
view's actor filter. (Connecting a client: test_client_connections.py.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render, shown

from memdesk.core.items import ItemKind, ItemRef
from memdesk.core.trust import TrustLevel
from memdesk.gui.views.assistants import AssistantsView, ClientsModel
from memdesk.gui.views.history import EVERYONE, HistoryView, StepsModel
from memdesk.services.review import Write

SHOTS = Path(os.environ.get("MEMDESK_SHOTS_DIR", "/tmp/memdesk-shots"))


def _assistant_writes(app, clock) -> None:
    app.assistants.seen("mcp:claude-desktop", 3)
    with app.ctx.acting_as("mcp:claude-desktop"):
        app.entries.upsert("user_language_pref", "Prefers English", "knowledge")
        app.documents.append("user/facts", "- Has a cat called Miso")
    clock.now = clock.now.replace(hour=14)
    app.assistants.seen("mcp:cursor", 1)
    with app.ctx.acting_as("mcp:cursor"):
        app.apps.add("cursor", "Uses tabs, not spaces")
    app.entries.upsert("home", "Lives in Bergen", "knowledge")  # the person's own change, later


def assistants_view(qtbot, memdesk_app, tasks, settle) -> AssistantsView:
    return shown(qtbot, AssistantsView(memdesk_app, tasks), settle, (1000, 700))


def test_clients_are_listed_with_what_each_wrote(qtbot, memdesk_app, clock, tasks, settle, qtmodeltester):
    _assistant_writes(memdesk_app, clock)
    view = assistants_view(qtbot, memdesk_app, tasks, settle)
    qtmodeltester.check(view.clients)
    qtmodeltester.check(view.writes)
    names = [view.clients.index(r, ClientsModel.NAME).data() for r in range(view.clients.rowCount())]
    assert names == ["cursor", "claude-desktop"]  # the most recently connected first
    assert not view.empty_label.isVisibleTo(view)
    assert [s.label for s in view.writes.steps] == ["Add memory to cursor"]
    view.clients_table.selectRow(1)
    settle()
    labels = [view.writes.index(r, StepsModel.ACTION).data() for r in range(view.writes.rowCount())]
    assert labels == ["Append to user/facts", "Save entry user_language_pref"]


def test_undo_reverts_the_chosen_write_even_when_newer_changes_followed(
    qtbot, memdesk_app, clock, tasks, settle
):
    _assistant_writes(memdesk_app, clock)
    view = assistants_view(qtbot, memdesk_app, tasks, settle)
    view.clients_table.selectRow(1)
    settle()
    view.writes_table.selectRow(1)  # Save entry user_language_pref, three changes ago
    assert view.undo_button.isEnabled()
    view.undo_button.click()
    settle()
    assert [e.key for e in memdesk_app.entries.list()] == ["home"]  # the person's change stays
    assert view.writes.steps[1].state == "undone"
    assert not view.undo_button.isEnabled() or view.writes_table.currentIndex().row() != 1


def test_show_in_history_opens_the_step(qtbot, memdesk_app, clock, tasks, settle):
    _assistant_writes(memdesk_app, clock)
    view = assistants_view(qtbot, memdesk_app, tasks, settle)
    with qtbot.waitSignal(view.open_requested) as signal:
        view.open_button.click()
    assert signal.args == [ItemRef(ItemKind.HISTORY_STEP, str(view.writes.steps[0].id))]


def test_the_window_opens_an_assistants_step_in_history(make_window, memdesk_app, clock, tasks, settle):
    _assistant_writes(memdesk_app, clock)
    window = make_window()
    window.show_page("assistants")
    settle()
    step = window.view_as("assistants", AssistantsView).writes.steps[0]
    window.navigate(ItemRef(ItemKind.HISTORY_STEP, str(step.id)))
    settle()
    history = window.view_as("history", HistoryView)
    assert window.current_page == "history"
    selected = history.steps_table.selectionModel().selectedRows()[0].row()
    assert history.steps.steps[selected].id == step.id


def test_history_filters_by_actor(qtbot, memdesk_app, clock, tasks, settle):
    _assistant_writes(memdesk_app, clock)
    view = HistoryView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.show()
    view.refresh()
    settle()
    actors = [view.actor_filter.itemText(i) for i in range(view.actor_filter.count())]
    # The window's own changes are recorded as gui: it is offered even before there are any.
    assert actors == [EVERYONE, "cli", "gui", "mcp:claude-desktop", "mcp:cursor", "user"]
    assert len(view.steps.steps) == 4
    view.set_actor("mcp:claude-desktop")
    settle()
    assert {s.actor for s in view.steps.steps} == {"mcp:claude-desktop"} and len(view.steps.steps) == 2
    by = [view.steps.index(r, 1).data() for r in range(view.steps.rowCount())]
    assert by == ["mcp:claude-desktop"] * 2


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_the_page(qtbot, memdesk_app, clock, tasks, settle, name, size, dark):
    _assistant_writes(memdesk_app, clock)
    memdesk_app.assistants.set_level("mcp:cursor", TrustLevel.TRUSTED)
    with memdesk_app.ctx.acting_as("mcp:claude-desktop"):  # review suspicious holds a profile write
        assert memdesk_app.review.submit(Write.append_document("user/profile", "Likes tea")).held
    with app_palette(dark):
        view = assistants_view(qtbot, memdesk_app, tasks, settle)
        view.resize(*size)
        settle()
        save_render(view, f"assistants-{name}", size)


def test_codex_cli_is_named_beside_the_name_it_gives_itself(qtbot, memdesk_app, tasks, settle):
    memdesk_app.assistants.seen("mcp:codex-mcp-client", 2)
    memdesk_app.assistants.seen("mcp:claude-code", 1)
    view = assistants_view(qtbot, memdesk_app, tasks, settle)
    names = [view.clients.index(r, ClientsModel.NAME).data() for r in range(view.clients.rowCount())]
    assert sorted(names) == ["claude-code", "codex-mcp-client (Codex CLI)"]
    view.clients_table.selectRow(names.index("codex-mcp-client (Codex CLI)"))
    said: list[str] = []
    view.status_message.connect(said.append)
    view.set_trust(TrustLevel.TRUSTED)
    settle()
    assert memdesk_app.assistants.level("mcp:codex-mcp-client") is TrustLevel.TRUSTED
    assert said == [f"mcp:codex-mcp-client (Codex CLI) is now at {TrustLevel.TRUSTED.label}."]
