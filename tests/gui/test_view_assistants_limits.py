"""The Assistants page: the apps each assistant may read, shown beside its trust level and set
from the page; a running server follows from its next call."""

from __future__ import annotations

import pytest
from anyio.from_thread import start_blocking_portal
from PySide6.QtCore import Qt
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render, shown
from tests.support.mcp_client import connect, text_of

from memdesk.gui.views.assistants import AssistantsView, ClientsModel


def _action(view: AssistantsView, text: str):
    view._fill_apps_menu()  # what showing the menu does
    return next(a for a in view.apps_menu.actions() if a.text() == text)


def _reads(view: AssistantsView) -> str:
    return view.clients.index(0, ClientsModel.READS).data()


def test_the_apps_an_assistant_reads_are_set_from_the_page(qtbot, memdesk_app, tasks, settle):
    memdesk_app.assistants.seen("mcp:coder", 1)
    for app_id in ("work", "home", "health"):
        memdesk_app.apps.add(app_id, f"A memory of {app_id}")
    view = shown(qtbot, AssistantsView(memdesk_app, tasks), settle, (1000, 800))
    assert _reads(view) == "Every app"
    view.clients_table.selectRow(0)
    assert view.apps_button.isEnabled() and _action(view, "Every app").isChecked()
    assert not _action(view, "work").isChecked()

    _action(view, "work").trigger()
    settle()
    assert memdesk_app.privacy.scope("mcp:coder").apps == {"work"}
    assert _reads(view) == "work"
    assert "only these apps" in view.clients.index(0, ClientsModel.READS).data(Qt.ItemDataRole.ToolTipRole)
    assert _action(view, "work").isChecked() and not _action(view, "Every app").isChecked()
    _action(view, "home").trigger()
    settle()
    assert _reads(view) == "home, work"
    _action(view, "work").trigger()  # unchecked
    settle()
    assert _reads(view) == "home"
    _action(view, "home").trigger()  # none left: every app again
    settle()
    assert _reads(view) == "Every app" and memdesk_app.privacy.scope("mcp:coder").apps is None


def test_a_running_server_follows_the_limit_set_in_the_page(qtbot, memdesk_app, tasks, settle):
    memdesk_app.apps.add("home", "Bins go out on Thursday evening.")
    memdesk_app.apps.add("work", "Stand-up at nine.")
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(connect(memdesk_app.paths.data_dir, "coder")) as session,
    ):
        first = portal.call(session.call_tool, "app_memories", {"app": "home"})
        assert "Bins" in text_of(first)
        # The server notes its callers a moment after their calls, in a batch of its own.
        qtbot.waitUntil(lambda: any(c.name == "mcp:coder" for c in memdesk_app.assistants.list()))
        view = shown(qtbot, AssistantsView(memdesk_app, tasks), settle, (1000, 800))
        view.clients_table.selectRow(0)
        _action(view, "work").trigger()
        settle()
        refused = portal.call(session.call_tool, "app_memories", {"app": "home"})
        assert refused.isError and "may read only the apps the person chose" in text_of(refused)
        _action(view, "Every app").trigger()
        settle()
        again = portal.call(session.call_tool, "app_memories", {"app": "home"})
        assert not again.isError and "Bins" in text_of(again)


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_the_reads_column(qtbot, memdesk_app, tasks, settle, name, size, dark):
    memdesk_app.assistants.seen("mcp:coder", 3)
    memdesk_app.assistants.seen("mcp:telegram-bot", 1)
    memdesk_app.privacy.set_app_limit("mcp:coder", ["work", "calendar"])
    with app_palette(dark):
        view = shown(qtbot, AssistantsView(memdesk_app, tasks), settle, size)
        save_render(view, f"assistants-reads-{name}", size)
