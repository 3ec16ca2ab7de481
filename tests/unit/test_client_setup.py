"""Which ``memdesk`` an assistant is told to start, and the set-up text per client."""

from __future__ import annotations

import json
import shlex
import tomllib
from pathlib import Path

from memdesk.paths import resolve_paths
from memdesk.servers import client_setup
from memdesk.servers.client_setup import memdesk_command, server_args, snippets
from memdesk.services.clients.known import BY_NAME


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


def test_the_snippet_opens_the_store_in_use_not_the_default(tmp_path: Path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.delenv("MEMDESK_DATA_DIR", raising=False)
    monkeypatch.delenv("MEMDESK_DB", raising=False)
    assert server_args(resolve_paths()) == ["mcp"]  # the default store: nothing to say
    other = tmp_path / "other.db"
    assert server_args(resolve_paths(db=str(other))) == ["--db", str(other), "mcp"]
    # Set in the window's environment only: an assistant starts without it, so it is spelled out.
    monkeypatch.setenv("MEMDESK_DB", "postgresql+psycopg://ada:s3cret@db.example:5432/memdesk")
    args = server_args(resolve_paths(data_dir=str(tmp_path / "data")))
    assert args == [
        "--data-dir",
        str(tmp_path / "data"),
        "--db",
        "postgresql+psycopg://ada@db.example:5432/memdesk",
        "mcp",
    ]
    assert "s3cret" not in " ".join(args)
    config = tmp_path / "elsewhere.toml"
    assert server_args(resolve_paths(config=str(config))) == [
        "--db",
        "postgresql+psycopg://ada@db.example:5432/memdesk",
        "--config",
        str(config),
        "mcp",
    ]


def test_snippets_for_each_client():
    by_client = {s.name: s.text for s in snippets("/opt/my tools/memdesk", ["mcp"])}
    entry = {"command": "/opt/my tools/memdesk", "args": ["mcp"]}
    for name in ("claude-desktop", "cursor", "gemini", "windsurf", "lm-studio"):
        assert json.loads(by_client[name]) == {"mcpServers": {"memdesk": entry}}
    assert json.loads(by_client["vscode"]) == {"servers": {"memdesk": {"type": "stdio", **entry}}}
    assert tomllib.loads(by_client["codex"]) == {"mcp_servers": {"memdesk": entry}}
    assert shlex.split(by_client["claude-code"]) == [
        "claude",
        "mcp",
        "add",
        "memdesk",
        "--",
        "/opt/my tools/memdesk",
        "mcp",
    ]
    assert shlex.split(by_client["stdio"]) == ["/opt/my tools/memdesk", "mcp"]
    assert list(by_client) == [*BY_NAME, "stdio"]  # one per known client, in the table's order
