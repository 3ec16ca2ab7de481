"""The welcome page of an empty store: the assistants to connect are listed on it, and writes
waiting in Review are said and linked, not hidden behind "empty"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render

from memdesk.gui.welcome import WelcomeView
from memdesk.services.clients.known import CLIENTS
from memdesk.services.review import Write


def _hold_writes(app, count: int) -> None:
    app.assistants.set_level("mcp:web-agent", "review-everything")
    with app.ctx.acting_as("mcp:web-agent"):
        for number in range(count):
            assert app.review.submit(Write.save_entry(f"fact_{number}", f"Fact number {number}")).held


def test_the_empty_store_offers_the_assistants_to_connect(client_home, main_window, settle):
    settle()
    welcome = main_window.stack.currentWidget()
    assert isinstance(welcome, WelcomeView)
    assert "Your memory store is empty" in welcome.intro.text() and welcome.waiting.isHidden()
    listed = [row.status.title for row in welcome.connections.model.clients]
    assert listed == [*(client.title for client in CLIENTS), "pi"]
    assert welcome.connections.connect_button.isEnabled()  # nothing is connected in this home


def test_writes_waiting_in_review_are_said_and_linked(memdesk_app, make_window, qtbot, settle):
    _hold_writes(memdesk_app, 4)
    window = make_window()
    settle()
    assert window.current_page == "welcome"  # nothing is in memory yet
    welcome = window.stack.currentWidget()
    assert "empty" not in welcome.intro.text()
    assert welcome.waiting.isVisible()
    assert welcome.waiting.label.text() == (
        "Nothing is in memory yet, but 4 writes by assistants wait for your review."
    )
    qtbot.mouseClick(welcome.waiting.button("Open Review"), Qt.MouseButton.LeftButton)
    settle()
    assert window.current_page == "review"


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_the_welcome_page(memdesk_app, tasks, qtbot, settle, name, size, dark):
    _hold_writes(memdesk_app, 1)
    with app_palette(dark):
        view = WelcomeView("Store: /home/ada/.local/share/memdesk/memdesk.sqlite3", tasks)
        qtbot.addWidget(view)
        view.resize(*size)
        view.show()
        view.refresh()
        settle()
        assert "but 1 write by assistants waits" in view.waiting.label.text()
        save_render(view, f"welcome-{name}", size)
