"""Documents and working memory: edit, autosave, Ctrl+S, leaving saves, Esc, the state buttons."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import Qt

from memdesk.gui.views.documents import DocumentsView
from memdesk.gui.views.working import WorkingView


def open_document(qtbot, memdesk_app, tasks, settle, namespace: str) -> DocumentsView:
    view = DocumentsView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.show()
    view.show_namespace(namespace)
    settle()
    focus(qtbot, view.editor.editor)
    return view


def focus(qtbot, widget) -> None:
    """Keyboard shortcuts reach only the focused widget of the active window."""
    widget.window().activateWindow()
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)


def test_an_edit_is_saved_after_a_pause_and_recorded_in_history(qtbot, memdesk_app, tasks, settle):
    memdesk_app.documents.set("user/profile", "Ada")
    view = open_document(qtbot, memdesk_app, tasks, settle, "user/profile")
    assert view.editor.text() == "Ada"
    view.editor.editor.moveCursor(view.editor.editor.textCursor().MoveOperation.End)
    qtbot.keyClicks(view.editor.editor, " Lovelace")
    assert view.state_label.text() == "Edited"
    qtbot.waitUntil(lambda: memdesk_app.documents.text("user/profile") == "Ada Lovelace", timeout=3000)
    settle()
    assert view.state_label.text() == "Saved"
    latest = memdesk_app.history.list(limit=1)[0]
    assert latest.label == "Edit user/profile" and latest.state == "done"
    assert not view.has_unsaved_changes()


def test_ctrl_s_saves_at_once(qtbot, memdesk_app, tasks, settle):
    view = open_document(qtbot, memdesk_app, tasks, settle, "user/facts")
    view.autosave._timer.setInterval(60_000)
    qtbot.keyClicks(view.editor.editor, "Allergic to cashews")
    qtbot.keyClick(view.editor.editor, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    settle()
    assert memdesk_app.documents.text("user/facts") == "Allergic to cashews"


def test_leaving_the_view_saves(main_window, memdesk_app, qtbot, settle):
    memdesk_app.documents.set("user/patterns", "")
    main_window.show_page("doc:patterns")
    settle()
    view = main_window.views["documents"]
    view.autosave._timer.setInterval(60_000)
    qtbot.keyClicks(view.editor.editor, "Plans on Sundays")
    main_window.show_page("trash")
    settle()
    assert memdesk_app.documents.text("user/patterns") == "Plans on Sundays"


def test_switching_documents_saves_the_first(qtbot, memdesk_app, tasks, settle):
    view = open_document(qtbot, memdesk_app, tasks, settle, "user/facts")
    view.autosave._timer.setInterval(60_000)
    qtbot.keyClicks(view.editor.editor, "fact one")
    view.show_namespace("global")
    settle()
    assert memdesk_app.documents.text("user/facts") == "fact one"
    assert memdesk_app.documents.text("global") == ""
    assert view.header.title.text() == "Global notes"


def test_escape_drops_the_edit_not_saved_yet(qtbot, memdesk_app, tasks, settle):
    memdesk_app.documents.set("global", "kept")
    view = open_document(qtbot, memdesk_app, tasks, settle, "global")
    view.autosave._timer.setInterval(60_000)
    qtbot.keyClicks(view.editor.editor, "oops ")
    qtbot.keyClick(view.editor.editor, Qt.Key.Key_Escape)
    assert view.editor.text() == "kept"
    assert not view.has_unsaved_changes()


def test_size_in_tokens_and_the_document_picker(qtbot, memdesk_app, tasks, settle):
    memdesk_app.documents.set("sessions/web:abc", "notes")
    view = open_document(qtbot, memdesk_app, tasks, settle, "user/profile")
    qtbot.keyClicks(view.editor.editor, "x" * 40)
    assert view.size_label.text().startswith("10 tokens")
    names = [view.picker.itemData(i) for i in range(view.picker.count())]
    assert names == ["user/profile", "user/patterns", "user/facts", "global", "sessions/web:abc"]


def test_the_preview_follows_the_text(qtbot, memdesk_app, tasks, settle):
    view = open_document(qtbot, memdesk_app, tasks, settle, "user/profile")
    qtbot.keyClicks(view.editor.editor, "# Heading")
    qtbot.keyClick(view.editor.editor, Qt.Key.Key_Return)
    qtbot.keyClick(view.editor.editor, Qt.Key.Key_Return)
    qtbot.keyClicks(view.editor.editor, "<b>raw</b>")
    qtbot.waitUntil(lambda: "Heading" in view.editor.preview.toPlainText())
    assert "<b>raw</b>" in view.editor.preview.toPlainText()


def open_working(qtbot, memdesk_app, tasks, settle) -> WorkingView:
    view = WorkingView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.show()
    view.show_working()
    settle()
    focus(qtbot, view.editor.editor)
    return view


def test_working_memory_shows_when_it_expires(qtbot, memdesk_app, tasks, settle):
    memdesk_app.working.write("Planning the offsite", ttl_days=14)
    view = open_working(qtbot, memdesk_app, tasks, settle)
    assert view.editor.text() == "Planning the offsite"
    assert "In the prompt" in view.status.text() and "expires in 14 days" in view.status.text()
    assert view.extend_button.isEnabled() and view.pin_button.isEnabled() and view.expire_button.isEnabled()


def test_extend_asks_for_days_and_pushes_the_expiry(qtbot, memdesk_app, tasks, settle, answer, dialog_log):
    memdesk_app.working.write("Planning the offsite", ttl_days=14)
    before = memdesk_app.working.state().expires_at
    view = open_working(qtbot, memdesk_app, tasks, settle)
    answer("ask_int", 5)
    qtbot.mouseClick(view.extend_button, Qt.MouseButton.LeftButton)
    settle()
    assert memdesk_app.working.state().expires_at == before + timedelta(days=5)
    assert dialog_log.calls[0][0] == "ask_int"
    assert "expires in 19 days" in view.status.text()


def test_cancelling_extend_changes_nothing(qtbot, memdesk_app, tasks, settle, answer):
    memdesk_app.working.write("Planning", ttl_days=14)
    before = memdesk_app.working.state()
    view = open_working(qtbot, memdesk_app, tasks, settle)
    answer("ask_int", None)
    view.extend()
    settle()
    assert memdesk_app.working.state() == before


def test_pin_keeps_it_until_expired_by_hand(qtbot, memdesk_app, tasks, settle):
    memdesk_app.working.write("Planning", ttl_days=1)
    view = open_working(qtbot, memdesk_app, tasks, settle)
    qtbot.mouseClick(view.pin_button, Qt.MouseButton.LeftButton)
    settle()
    assert memdesk_app.working.state().pinned
    assert view.status.text().startswith("Pinned")
    assert not view.pin_button.isEnabled()


def test_expire_now_greys_it_out_of_the_prompt(qtbot, memdesk_app, tasks, settle):
    memdesk_app.working.write("Planning", ttl_days=3)
    view = open_working(qtbot, memdesk_app, tasks, settle)
    qtbot.mouseClick(view.expire_button, Qt.MouseButton.LeftButton)
    settle()
    state = memdesk_app.working.state()
    assert not state.live and state.content == "Planning"
    assert "not in the prompt" in view.status.text()
    assert view.editor.editor.palette().text().color() != view.palette().text().color()
    assert not view.expire_button.isEnabled()


def test_expired_by_time_is_shown_as_expired(qtbot, memdesk_app, tasks, settle, clock):
    memdesk_app.working.write("Old context", ttl_days=2)
    clock.now += timedelta(days=3)
    view = open_working(qtbot, memdesk_app, tasks, settle)
    assert view.status.text().startswith("Expired")


def test_editing_working_memory_writes_it_with_a_fresh_expiry(qtbot, memdesk_app, tasks, settle, clock):
    memdesk_app.working.write("Old", ttl_days=2)
    clock.now += timedelta(days=1)
    view = open_working(qtbot, memdesk_app, tasks, settle)
    view.editor.editor.selectAll()
    qtbot.keyClicks(view.editor.editor, "New context")
    view.flush()
    settle()
    state = memdesk_app.working.state()
    assert state.content == "New context"
    assert state.expires_at == clock.now + timedelta(days=memdesk_app.settings.memory.working_memory_ttl_days)


def test_an_empty_working_memory_has_nothing_to_extend(qtbot, memdesk_app, tasks, settle):
    view = open_working(qtbot, memdesk_app, tasks, settle)
    assert view.status.text().startswith("Empty")
    assert not view.extend_button.isEnabled() and not view.expire_button.isEnabled()


def test_per_session_mode_shows_a_session_working_memory(qtbot, memdesk_app, tasks, settle):
    memdesk_app.update_settings(memdesk_app.settings.with_values({"memory.user_namespace": ""}))
    memdesk_app.working.write("Debugging the router", session_id="telegram:42")
    view = WorkingView(memdesk_app, tasks)
    qtbot.addWidget(view)
    view.show()
    view.show_working()
    settle()
    assert "per-session mode" in view.header.subtitle.text()
    assert not view.editor.isEnabled() and not view.extend_button.isEnabled()
    view.show_working("telegram:42")
    settle()
    assert view.editor.text() == "Debugging the router"
    assert view.header.subtitle.text().startswith("sessions/telegram:42/working")
    assert view.expire_button.isEnabled()
