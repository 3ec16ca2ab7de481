""" "Compact now" from an app or a session opens the Compaction page with it chosen."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtCore import Qt

from memdesk.core.items import ItemKind, ItemRef
from memdesk.gui.views.compaction import CompactionView


@pytest.fixture
def chats(memdesk_app, clock):
    """telegram:1 belongs to calendar; web:9 (no app) and discord:2 are logged later."""
    memdesk_app.apps.add("calendar", "Prefers meetings after 2pm")
    memdesk_app.sessions.log("telegram:1", "user", "Move the stand-up to 10:00", app_id="calendar")
    for session in ("discord:2", "web:9"):
        clock.now += timedelta(minutes=5)
        memdesk_app.sessions.log(session, "user", f"hello from {session}")
    return memdesk_app


def compaction_page(window) -> CompactionView:
    view = window.stack.currentWidget()
    assert window.current_page == "compaction" and isinstance(view, CompactionView)
    assert window.sidebar.current_key() == "compaction"
    return view


def test_compact_now_on_an_app_picks_that_apps_session(chats, main_window, qtbot, settle):
    main_window.show_page("app:calendar")
    settle()
    qtbot.mouseClick(main_window.views["apps"].compact_button, Qt.MouseButton.LeftButton)
    settle()

    view = compaction_page(main_window)
    assert view.session_box.currentData() == "telegram:1"  # not web:9, the latest session
    assert view.run_button.isEnabled()


def test_compact_now_on_a_session_picks_that_session(chats, main_window, qtbot, settle):
    main_window.show_page("compaction")  # already open: the choice must still change
    settle()
    assert main_window.views["compaction"].session_box.currentData() == "web:9"
    main_window.navigate(ItemRef(ItemKind.SESSION, "discord:2"))
    settle()
    sessions = main_window.views["sessions"]
    assert sessions.current_session().id == "discord:2"
    qtbot.mouseClick(sessions.compact_button, Qt.MouseButton.LeftButton)
    settle()

    assert compaction_page(main_window).session_box.currentData() == "discord:2"
