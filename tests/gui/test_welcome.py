"""The welcome page of an empty store: "Connect an assistant…" opens the Assistants page's
set-up, and writes waiting in Review are said and linked, not hidden behind "empty"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render

from memdesk.gui.views.assistants import AssistantsView
from memdesk.gui.welcome import WelcomeView
from memdesk.services.review import Write


def _hold_writes(app, count: int) -> None:
    app.assistants.set_level("mcp:web-agent", "review-everything")
    with app.ctx.acting_as("mcp:web-agent"):
        for number in range(count):
            assert app.review.submit(Write.save_entry(f"fact_{number}", f"Fact number {number}")).held


def test_connect_an_assistant_opens_the_set_up(main_window, qtbot, settle):
    settle()
    welcome = main_window.stack.currentWidget()
    assert isinstance(welcome, WelcomeView)
    assert "Your memory store is empty" in welcome.intro.text() and welcome.waiting.isHidden()
    qtbot.mouseClick(welcome.connect_button, Qt.MouseButton.LeftButton)
    settle()
    assert main_window.current_page == "assistants"
    view = main_window.view_as("assistants", AssistantsView)
    assert view.bottom_tabs.tabText(view.bottom_tabs.currentIndex()) == "Connect an assistant"


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
