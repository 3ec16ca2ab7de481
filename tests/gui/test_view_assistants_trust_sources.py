"""The Assistants page: each assistant's trust level, set from the page; the transcripts of
assistants on this machine, turned on, read and connected; and the window reading them as
they grow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from anyio.from_thread import start_blocking_portal
from PySide6.QtCore import Qt
from tests.gui.tables_fixtures import shown
from tests.support.mcp_client import connect, text_of

from memdesk.core.trust import TrustLevel
from memdesk.gui.views.assistants import AssistantsView, ClientsModel
from memdesk.services.review import Write

SESSION = "7a1c0e2b-1111-4222-8333-944455556666"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder with Claude Code's projects folder and nothing of the person's."""
    folder = tmp_path / "home"
    (folder / ".claude" / "projects" / "-work-atlas").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(folder))
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "PI_CODING_AGENT_DIR"):
        monkeypatch.delenv(name, raising=False)
    return folder


def _write_transcript(home: Path, text: str) -> Path:
    path = home / ".claude" / "projects" / "-work-atlas" / f"{SESSION}.jsonl"
    record = {
        "type": "user",
        "cwd": "/work/atlas",
        "sessionId": SESSION,
        "timestamp": "2026-03-01T11:00:00Z",
        "message": {"role": "user", "content": text},
    }
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")
    return path


def _view(qtbot, memdesk_app, tasks, settle) -> AssistantsView:
    return shown(qtbot, AssistantsView(memdesk_app, tasks), settle, (1000, 800))


def test_the_trust_level_is_shown_and_set_from_the_page(qtbot, memdesk_app, tasks, settle):
    memdesk_app.assistants.seen("mcp:web-agent", 2)
    with memdesk_app.ctx.acting_as("mcp:web-agent"):
        memdesk_app.review.submit(Write.append_document("user/profile", "Likes tea"))  # held
    view = _view(qtbot, memdesk_app, tasks, settle)
    trust = view.clients.index(0, ClientsModel.TRUST)
    assert trust.data() == "Review suspicious" and "default" in trust.data(Qt.ItemDataRole.ToolTipRole)
    assert view.clients.index(0, ClientsModel.WAITING).data() == "1"
    view.clients_table.selectRow(0)
    assert view.level_actions[TrustLevel.REVIEW_SUSPICIOUS].isChecked()
    view.level_actions[TrustLevel.REVIEW_EVERYTHING].trigger()
    settle()
    assert memdesk_app.assistants.level("mcp:web-agent") is TrustLevel.REVIEW_EVERYTHING
    assert view.clients.index(0, ClientsModel.TRUST).data() == "Review everything"
    with memdesk_app.ctx.acting_as("mcp:web-agent"):  # the next write follows the new level
        assert memdesk_app.review.submit(Write.save_entry("tea", "Likes green tea")).held is not None


def test_a_running_server_follows_the_level_set_in_the_page(qtbot, memdesk_app, tasks, settle):
    # The official MCP client keeps one real `memdesk mcp` open while the page acts.
    with (
        start_blocking_portal() as portal,
        portal.wrap_async_context_manager(connect(memdesk_app.paths.data_dir, "web-agent")) as session,
    ):
        city = {"key": "home_city", "content": "Ada lives in Bergen"}
        assert portal.call(session.call_tool, "memory_store", city).structuredContent["held"] is False
        view = _view(qtbot, memdesk_app, tasks, settle)
        assert view.clients.index(0, ClientsModel.NAME).data() == "web-agent"
        view.clients_table.selectRow(0)
        view.level_actions[TrustLevel.READ_ONLY].trigger()
        settle()
        refused = portal.call(session.call_tool, "memory_store", {"key": "pet", "content": "Ada has a cat"})
        assert refused.isError and "read-only" in text_of(refused)
        view.level_actions[TrustLevel.REVIEW_EVERYTHING].trigger()
        settle()
        held = portal.call(session.call_tool, "memory_store", {"key": "pet", "content": "Ada has a cat"})
        assert held.structuredContent["held"] is True
    view.refresh()
    settle()
    assert view.clients.index(0, ClientsModel.WAITING).data() == "1"


def test_sources_are_listed_turned_on_and_read(qtbot, memdesk_app, tasks, settle, home):
    _write_transcript(home, "We chose Berlin for the offsite.")
    view = _view(qtbot, memdesk_app, tasks, settle)
    box = view.sources.boxes["claude-code"]
    assert "1 transcript in" in box.text() and not box.isChecked()
    assert "not found on this machine" in view.sources.boxes["codex"].text()
    assert not view.sources.read_button.isEnabled()
    box.setChecked(True)
    settle()
    assert memdesk_app.settings.sources.claude_code
    assert view.sources.read_button.isEnabled()
    lines: list[str] = []
    view.status_message.connect(lines.append)
    view.sources.read_button.click()
    settle()
    assert lines[-1] == "Read 1 new message from 1 transcript."
    assert [s.id for s in memdesk_app.sessions.list()] == [f"claude-code:{SESSION}"]


def test_connect_claude_code_from_the_page(qtbot, memdesk_app, tasks, settle, home, answer, dialog_log):
    view = _view(qtbot, memdesk_app, tasks, settle)
    answer("confirm", True)
    answer("info", None)
    rows = view.connections.model.clients
    view.connections.table.selectRow(next(i for i, r in enumerate(rows) if r.status.name == "claude-code"))
    view.connections.connect_button.click()
    settle()
    servers = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]
    assert servers["memdesk"]["args"][-1] == "mcp"
    hooks = json.loads((home / ".claude" / "settings.json").read_text(encoding="utf-8"))["hooks"]
    assert "SessionStart" in hooks and "Stop" in hooks
    (shown,) = dialog_log.texts("info")
    assert ".claude.json" in shown and "Turned on the claude-code source" in shown
    assert view.sources.boxes["claude-code"].isChecked()
    assert not view.connections.connect_button.isEnabled()  # read back: connected, nothing to add
    assert view.connections.model.clients[view.connections.table.currentIndex().row()].status.state.value == (
        "Connected"
    )


def test_the_window_reads_a_growing_transcript_by_itself(memdesk_app, make_window, settle, home, qtbot):
    memdesk_app.sources.set_enabled("claude-code", True)
    _write_transcript(home, "First line of the session.")
    window = make_window()
    window.source_reader.read()  # what its timer does every few seconds
    settle()
    assert memdesk_app.sessions.list()[0].messages == 1
    _write_transcript(home, "We moved the offsite to Lisbon.")
    window.source_reader.read()
    settle()
    assert memdesk_app.sessions.list()[0].messages == 2
    assert "Read 1 new message from 1 transcript." in window.statusBar().currentMessage()
