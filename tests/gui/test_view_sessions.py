"""The sessions view: counts and compaction state, messages of the selected one, actions."""

from __future__ import annotations

from datetime import timedelta

import pytest
from tests.gui.tables_fixtures import settle

from memdesk.core.items import ItemKind, ItemRef
from memdesk.gui.models.sessions import MessageModel as MSG
from memdesk.gui.models.sessions import SessionModel as S
from memdesk.gui.views.sessions import SessionsView
from memdesk.store.models import ChatSession


@pytest.fixture
def conversations(memdesk_app, clock):
    """telegram:1 (calendar, 4 messages, 2 compacted) is the most recent; discord:2 has 1."""
    memdesk_app.sessions.log("discord:2", "user", "hello from discord")
    for number in range(4):
        clock.now += timedelta(minutes=1)
        role = "user" if number % 2 == 0 else "assistant"
        memdesk_app.sessions.log("telegram:1", role, f"message {number}", app_id="calendar")
    second = memdesk_app.sessions.messages("telegram:1")[1]
    with memdesk_app.store.write() as session:
        chat = session.get(ChatSession, "telegram:1")
        chat.last_consolidated_message_id = second.id
        chat.last_consolidated_at = clock.now
    return memdesk_app


@pytest.fixture
def view(conversations, tasks, qtbot):
    widget = SessionsView(conversations, tasks)
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    qtbot.waitUntil(lambda: widget.model.rowCount() == 2)
    return widget


def row(view, number):
    return [view.proxy.index(number, column).data() for column in range(view.proxy.columnCount())]


def messages(view):
    return [
        (view.messages.index(n, MSG.ROLE).data(), view.messages.index(n, MSG.TEXT).data())
        for n in range(view.messages.rowCount())
    ]


def test_sessions_show_counts_and_compaction_state(view, clock):
    first, second = row(view, 0), row(view, 1)
    assert first[: S.LAST_MESSAGE] == ["telegram:1", "telegram", "calendar", "4", "2"]
    assert first[S.LAST_CONSOLIDATED] != "never"
    assert second[: S.LAST_MESSAGE] == ["discord:2", "discord", "", "1", "1"]
    assert second[S.LAST_CONSOLIDATED] == "never"
    assert view.header.subtitle.text() == "2 sessions · 3 messages not compacted yet"


def test_selecting_a_session_shows_its_messages_in_order(view, qtbot):
    view.show_session("telegram:1")
    qtbot.waitUntil(lambda: view.messages.rowCount() == 4)
    assert messages(view) == [
        ("user", "message 0"),
        ("assistant", "message 1"),
        ("user", "message 2"),
        ("assistant", "message 3"),
    ]
    assert view.messages_label.text() == "telegram:1 · 4 messages, 2 not compacted yet"
    assert view.messages_table.wordWrap()
    view.show_session("discord:2")
    qtbot.waitUntil(lambda: messages(view) == [("user", "hello from discord")])


def test_refresh_shows_new_messages_and_keeps_the_selection(view, qtbot, conversations, clock):
    view.show_session("discord:2")
    qtbot.waitUntil(lambda: view.messages.rowCount() == 1)
    clock.now += timedelta(hours=1)
    conversations.sessions.log("discord:2", "assistant", "hi back")  # another program
    view.refresh()
    settle(view, qtbot)
    assert view.current_session().id == "discord:2"
    assert row(view, 0)[S.SESSION] == "discord:2"  # now the most recent
    assert messages(view) == [("user", "hello from discord"), ("assistant", "hi back")]


def test_compact_and_open_app_are_requested(view, qtbot):
    view.show_session("telegram:1")
    with qtbot.waitSignal(view.compact_requested) as compact:
        view.compact_button.click()
    assert compact.args == [ItemRef(ItemKind.SESSION, "telegram:1")]
    with qtbot.waitSignal(view.open_requested) as opened:
        view.open_app_button.click()
    assert opened.args == [ItemRef(ItemKind.APP, "calendar")]
    view.show_session("discord:2")
    assert not view.open_app_button.isEnabled()  # no app to open


def test_delete_asks_then_moves_the_session_to_trash(view, qtbot, conversations, answers):
    view.show_session("telegram:1")
    answers.confirm = False
    view.delete_button.click()
    assert answers.asked == [
        ("confirm", "Delete session", "Move session telegram:1 and its 4 messages to Trash?")
    ]
    answers.confirm = True
    view.delete_button.click()
    settle(view, qtbot)
    assert [chat.id for chat in conversations.sessions.list()] == ["discord:2"]
    assert "session:telegram:1" in [item.id for item in conversations.trash.list()]
    assert view.model.rowCount() == 1
    assert view.current_session().id == "discord:2"  # the next one, selected


def test_filter_and_show_session_through_it(view, qtbot):
    view.filter_box.setText("discord")
    assert view.proxy.rowCount() == 1
    view.show_session("telegram:1")
    assert view.filter_box.text() == ""
    assert view.current_session().id == "telegram:1"


def test_show_session_waits_for_the_list(conversations, tasks, qtbot):
    widget = SessionsView(conversations, tasks)
    qtbot.addWidget(widget)
    widget.show_session("discord:2")  # before the list has been read
    qtbot.waitUntil(lambda: widget.messages.rowCount() == 1)
    assert widget.current_session().id == "discord:2"
