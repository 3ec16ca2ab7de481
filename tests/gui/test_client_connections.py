"""Connecting an assistant from the window: the welcome page and the Assistants page list the
same clients, each with its state read back from its own config file; Connect and Disconnect
change that file (backed up), and a file Memdesk must not change leaves both buttons off."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render, shown

from memdesk.gui.views.assistants import AssistantsView
from memdesk.gui.views.client_connections import ClientConnections, ClientStatesModel
from memdesk.gui.welcome import WelcomeView
from memdesk.services.clients import pi_extension
from memdesk.services.clients.known import BY_NAME, CLIENTS


def _configs(home: Path) -> None:
    """Cursor with a server of the person's own; Codex CLI's file broken by hand."""
    cursor = home / ".cursor" / "mcp.json"
    cursor.parent.mkdir()
    cursor.write_text(json.dumps({"mcpServers": {"other": {"command": "other-server"}}}))
    codex = home / ".codex" / "config.toml"
    codex.parent.mkdir()
    codex.write_text('model = "o3"\nmodel = "o4"\n')


def _rows(panel: ClientConnections) -> dict[str, str]:
    model = panel.model
    return {
        model.index(row, ClientStatesModel.NAME).data(): model.index(row, ClientStatesModel.STATE).data()
        for row in range(model.rowCount())
    }


def _select(panel: ClientConnections, title: str) -> None:
    row = next(i for i, r in enumerate(panel.model.clients) if r.status.title == title)
    panel.table.selectRow(row)


def _welcome(qtbot, tasks, settle) -> WelcomeView:
    return shown(qtbot, WelcomeView("Store: test", tasks), settle)


def test_both_pages_list_every_client_with_its_state(client_home, qtbot, memdesk_app, tasks, settle):
    _configs(client_home)
    welcome_page = _welcome(qtbot, tasks, settle)
    assistants_page = shown(qtbot, AssistantsView(memdesk_app, tasks), settle)
    welcome, assistants = welcome_page.connections, assistants_page.connections
    expected = {client.title: "Not connected" for client in CLIENTS} | {
        "Codex CLI": "Config not readable",
        "pi": "Not connected",
    }
    assert _rows(welcome) == _rows(assistants) == expected
    _select(welcome, "Codex CLI")
    assert not welcome.connect_button.isEnabled() and not welcome.disconnect_button.isEnabled()
    assert "config.toml is not valid TOML" in welcome.detail.text() and "line 2" in welcome.detail.text()
    state = welcome.model.index(welcome.table.currentIndex().row(), ClientStatesModel.STATE)
    assert "not valid TOML" in state.data(Qt.ItemDataRole.ToolTipRole)


def test_connect_and_disconnect_change_the_file_and_read_it_back(
    client_home, qtbot, memdesk_app, tasks, settle, answer, dialog_log
):
    _configs(client_home)
    answer("confirm", True)
    answer("info", None)
    page = _welcome(qtbot, tasks, settle)
    panel = page.connections
    _select(panel, "Cursor")
    assert panel.connect_button.isEnabled() and not panel.disconnect_button.isEnabled()
    qtbot.mouseClick(panel.connect_button, Qt.MouseButton.LeftButton)
    settle()
    config = client_home / ".cursor" / "mcp.json"
    servers = json.loads(config.read_text())["mcpServers"]
    assert set(servers) == {"other", "memdesk"}
    assert servers["memdesk"]["args"] == ["--data-dir", str(memdesk_app.paths.data_dir), "mcp"]
    assert "backed up as" in dialog_log.texts("info")[-1]
    assert _rows(panel)["Cursor"] == "Connected"
    assert not panel.connect_button.isEnabled() and panel.disconnect_button.isEnabled()

    qtbot.mouseClick(panel.disconnect_button, Qt.MouseButton.LeftButton)
    settle()
    assert json.loads(config.read_text()) == {"mcpServers": {"other": {"command": "other-server"}}}
    assert _rows(panel)["Cursor"] == "Not connected"
    assert len(list(config.parent.glob("mcp.json.memdesk-backup-*"))) == 2


def test_a_client_set_up_for_another_store_can_be_updated(
    client_home, qtbot, memdesk_app, tasks, settle, answer
):
    gemini = BY_NAME["gemini"].config_path()
    gemini.parent.mkdir(parents=True)
    gemini.write_text(json.dumps({"mcpServers": {"memdesk": {"command": "memdesk", "args": ["mcp"]}}}))
    page = shown(qtbot, AssistantsView(memdesk_app, tasks), settle)
    panel = page.connections
    assert _rows(panel)["Gemini CLI"] == "Connected to another set-up"
    _select(panel, "Gemini CLI")
    assert panel.connect_button.text() == "Update" and panel.disconnect_button.isEnabled()
    answer("confirm", True)
    answer("info", None)
    panel.connect_button.click()
    settle()
    assert _rows(panel)["Gemini CLI"] == "Connected"


def test_a_symlinked_config_is_shown_locked(client_home, tmp_path, qtbot, tasks, settle):
    target = tmp_path / "dotfiles-windsurf.json"
    target.write_text("{}")
    config = BY_NAME["windsurf"].config_path()
    config.parent.mkdir(parents=True)
    config.symlink_to(target)
    page = _welcome(qtbot, tasks, settle)
    panel = page.connections
    assert _rows(panel)["Windsurf"] == "Not connected (locked)"
    _select(panel, "Windsurf")
    assert not panel.connect_button.isEnabled() and "is a symlink to" in panel.detail.text()


def test_the_assistants_page_shows_the_set_up_text_to_copy(client_home, qtbot, memdesk_app, tasks, settle):
    page = shown(qtbot, AssistantsView(memdesk_app, tasks), settle)
    panel = page.connections
    _select(panel, "VS Code")
    entry = json.loads(panel.text.toPlainText())["servers"]["memdesk"]
    assert entry["type"] == "stdio" and Path(entry["command"]).name == "memdesk"
    assert entry["args"] == ["--data-dir", str(memdesk_app.paths.data_dir), "mcp"]
    assert "MCP: Open User Configuration" in panel.where.text()
    panel.copy_button.click()
    assert QGuiApplication.clipboard().text() == panel.text.toPlainText()
    _select(panel, "Codex CLI")
    assert panel.text.toPlainText().startswith("[mcp_servers.memdesk]")
    copied: list[str] = []
    page.status_message.connect(copied.append)
    panel.copy_other_button.click()
    command = QGuiApplication.clipboard().text()
    assert Path(shlex.split(command)[0]).name == "memdesk" and command.endswith(
        f"{memdesk_app.paths.data_dir} mcp"
    )
    assert copied == [f"Copied: {command}"]


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_the_list(client_home, qtbot, memdesk_app, tasks, settle, name, size, dark):
    _configs(client_home)
    cursor = BY_NAME["claude-desktop"].config_path()
    cursor.parent.mkdir(parents=True)
    with app_palette(dark):
        welcome = _welcome(qtbot, tasks, settle)
        from memdesk.servers.client_setup import memdesk_command, server_args
        from memdesk.services.clients.connect import connect

        connect(BY_NAME["claude-desktop"], memdesk_command(), server_args(memdesk_app.paths))
        welcome.resize(*size)
        welcome.refresh()
        settle()
        assert _rows(welcome.connections)["Claude Desktop"] == "Connected"
        save_render(welcome, f"welcome-clients-{name}", size)
        assistants = shown(qtbot, AssistantsView(memdesk_app, tasks), settle, size)
        assistants.bottom_tabs.setCurrentIndex(0)
        _select(assistants.connections, "Claude Desktop")
        # Small: the transcripts tab beside it names this test's long home folder, too wide to fit.
        if name != "small":
            save_render(assistants, f"assistants-clients-{name}", size)
            _select(assistants.connections, "pi")
            save_render(assistants, f"assistants-pi-{name}", size)


def test_a_connected_claude_code_shows_what_is_connected_and_offers_disconnect(
    client_home, qtbot, memdesk_app, tasks, settle, answer
):
    page = shown(qtbot, AssistantsView(memdesk_app, tasks), settle)
    panel = page.connections
    _select(panel, "Claude Code")
    assert "claude mcp add" in panel.text.toPlainText() and panel.copy_button.isVisibleTo(panel)
    answer("confirm", True)
    answer("info", None)
    panel.connect_button.click()
    settle()
    _select(panel, "Claude Code")

    assert _rows(panel)["Claude Code"] == "Connected"
    where = panel.where.text()
    assert where.startswith(
        "Claude Code is connected: ~/.claude.json starts Memdesk's MCP server on this store."
    )
    assert "Its hooks in ~/.claude/settings.json give it your prompt at SessionStart" in where
    # No set-up line that would add a second server; Disconnect in its place.
    assert not panel.text.isVisibleTo(panel) and not panel.copy_button.isVisibleTo(panel)
    assert panel.pane_disconnect.isVisibleTo(panel) and panel.pane_disconnect.isEnabled()
    panel.pane_disconnect.click()
    settle()
    assert _rows(panel)["Claude Code"] == "Not connected"
    assert panel.text.isVisibleTo(panel) and not panel.pane_disconnect.isVisibleTo(panel)


def test_pi_is_connected_by_its_extension_file(client_home, qtbot, memdesk_app, tasks, settle, answer):
    page = shown(qtbot, AssistantsView(memdesk_app, tasks), settle)
    panel = page.connections
    extension = client_home / ".pi" / "agent" / "extensions" / "memdesk.ts"
    assert _rows(panel)["pi"] == "Not connected"
    _select(panel, "pi")
    assert "Connect saves this extension as ~/.pi/agent/extensions/memdesk.ts" in panel.where.text()
    shown_text = panel.text.toPlainText()
    assert shown_text.startswith(pi_extension.MARK) and '"--data-dir"' in shown_text
    answer("confirm", True)
    answer("info", None)
    panel.connect_button.click()
    settle()

    # What `memdesk connect pi` writes, the pi transcript source on as it turns it on.
    assert extension.read_text() == shown_text
    assert "pi" in memdesk_app.sources.enabled()
    assert _rows(panel)["pi"] == "Connected"
    assert panel.where.text().startswith(
        "pi is connected: Memdesk's extension, ~/.pi/agent/extensions/memdesk.ts, adds Memdesk's prompt"
    )
    assert panel.pane_disconnect.isVisibleTo(panel) and not panel.connect_button.isEnabled()
    panel.pane_disconnect.click()
    settle()
    assert not extension.exists() and _rows(panel)["pi"] == "Not connected"


def test_a_memdesk_ts_of_the_persons_own_is_left_alone(client_home, qtbot, tasks, settle):
    extension = client_home / ".pi" / "agent" / "extensions" / "memdesk.ts"
    extension.parent.mkdir(parents=True)
    extension.write_text("export default function (pi) {}\n")
    page = _welcome(qtbot, tasks, settle)
    panel = page.connections
    assert _rows(panel)["pi"] == "Not connected (locked)"
    _select(panel, "pi")
    assert not panel.connect_button.isEnabled() and not panel.disconnect_button.isEnabled()
    assert "was not written by Memdesk" in panel.detail.text()
