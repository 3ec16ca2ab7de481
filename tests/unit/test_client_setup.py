"""Which ``memdesk`` an assistant is told to start, and the set-up text per client."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from memdesk.paths import resolve_paths
from memdesk.servers import client_setup
from memdesk.servers.client_setup import memdesk_command, server_args, snippets


def test_the_bundle_names_the_deb_link_when_it_leads_to_it(tmp_path: Path, monkeypatch):
    bundle = tmp_path / "opt" / "memdesk"
    bundle.parent.mkdir()
    bundle.write_text("")
    link = tmp_path / "usr-bin-memdesk"
    link.symlink_to(bundle)
    monkeypatch.setattr(client_setup, "DEB_COMMAND", link)
    assert memdesk_command(frozen=True, executable=str(bundle)) == str(link)
    other = tmp_path / "elsewhere"
    other.write_text("")
    assert memdesk_command(frozen=True, executable=str(other)) == str(other)


def test_from_a_checkout_the_memdesk_on_path_or_beside_python(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(client_setup.shutil, "which", lambda name: None)
    python = tmp_path / "venv" / "bin" / "python"
    assert memdesk_command(frozen=False, executable=str(python)) == str(tmp_path / "venv" / "bin" / "memdesk")
    monkeypatch.setattr(client_setup.shutil, "which", lambda name: "/usr/local/bin/memdesk")
    assert memdesk_command(frozen=False, executable=str(python)) == "/usr/local/bin/memdesk"


def test_a_store_outside_the_default_folder_is_named(tmp_path: Path, monkeypatch):
    assert server_args(None) == ["mcp"]
    assert server_args(resolve_paths(data_dir=str(tmp_path))) == ["--data-dir", str(tmp_path), "mcp"]


def test_snippets_for_each_client():
    by_client = {s.client: s.text for s in snippets("/opt/my tools/memdesk", ["mcp"])}
    entry = {"command": "/opt/my tools/memdesk", "args": ["mcp"]}
    assert json.loads(by_client["Claude Desktop"]) == {"mcpServers": {"memdesk": entry}}
    assert json.loads(by_client["Cursor"]) == {"mcpServers": {"memdesk": entry}}
    assert shlex.split(by_client["Claude Code"]) == [
        "claude",
        "mcp",
        "add",
        "memdesk",
        "--",
        "/opt/my tools/memdesk",
        "mcp",
    ]
    assert shlex.split(by_client["Other clients"]) == ["/opt/my tools/memdesk", "mcp"]
