"""The welcome page of an empty store: the assistants to connect are listed on it, writes
waiting in Review are said and linked, not hidden behind "empty", and in a small window every
button shows without scrolling (the page is arranged to its size, its text kept whole)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
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


# A small laptop's window, the smallest a new user is expected to open, and a large one.
WINDOWS = [("800x560", (800, 560)), ("900x640", (900, 640)), ("large", (1280, 800))]


def _in_view(welcome: WelcomeView, widget) -> bool:
    viewport = welcome.scroll.viewport()
    return viewport.rect().contains(QRect(widget.mapTo(viewport, QPoint(0, 0)), widget.size()))


@pytest.mark.parametrize(("name", "size"), WINDOWS)
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_what_to_do_first_shows_without_scrolling(
    client_home, memdesk_app, make_window, settle, name, size, dark
):
    _hold_writes(memdesk_app, 1)  # the bar about them takes room too
    with app_palette(dark):
        window = make_window()
        window.resize(*size)
        settle()
        welcome = window.views["welcome"]
        assert window.stack.currentWidget() is welcome
        assert welcome.scroll.verticalScrollBar().maximum() == 0
        assert welcome.scroll.horizontalScrollBar().maximum() == 0
        connections = welcome.connections
        buttons = [welcome.example_button, welcome.import_button, welcome.waiting.button("Open Review")]
        for widget in [*buttons, connections.connect_button, connections.disconnect_button]:
            assert widget.isVisible() and _in_view(welcome, widget), (name, widget.text())
        for label in (welcome.intro, welcome.waiting.label):  # wrapped, and not cut
            assert label.height() >= label.heightForWidth(label.width()), label.text()
        save_render(window, f"welcome-window-{name}-{'dark' if dark else 'light'}", size)


def test_the_page_is_arranged_to_the_window_not_its_text_made_smaller(client_home, main_window, settle):
    welcome = main_window.views["welcome"]
    arrangements, fonts = {}, set()
    for name, size in WINDOWS:
        main_window.resize(*size)
        settle()
        icon, title = welcome.icon.geometry(), welcome.title.geometry()
        start, listed = welcome.start.geometry(), welcome.connect_block.geometry()
        arrangements[name] = (
            "icon beside the title"
            if title.top() <= icon.center().y() <= title.bottom()
            else "icon above it",
            "list beside the text" if listed.left() >= start.right() else "list below the text",
        )
        fonts.add((welcome.title.font().pointSizeF(), welcome.intro.font().pointSizeF()))
    assert arrangements == {
        "800x560": ("icon beside the title", "list below the text"),
        "900x640": ("icon above it", "list below the text"),
        "large": ("icon above it", "list beside the text"),
    }
    assert len(fonts) == 1
