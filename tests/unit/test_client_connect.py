"""`memdesk connect`'s engine against a temporary home: each known client's config merged,
backed up, read back and taken out again; bad files left exactly as they were."""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from pathlib import Path

import pytest
import tomli_w

from memdesk.errors import BadInputError, MemdeskError
from memdesk.services.clients.connect import State, change_lines, connect, disconnect, status
from memdesk.services.clients.files import BACKUP_MARK
from memdesk.services.clients.known import BY_NAME, CLIENTS, LOCATION_ENV, Client

COMMAND = "/opt/memdesk tools/memdesk"
ARGS = ["--data-dir", "/home/ada/memdesk data", "mcp"]
# A config as a person leaves it: their own settings and another server, which must survive.
THEIRS_TOML = (
    '# my Codex settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other-server"  # keep me\n'
)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in LOCATION_ENV:
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def _theirs(client: Client) -> str:
    if client.format == "toml":
        return THEIRS_TOML
    return json.dumps({"theme": "dark", client.key: {"other": {"command": "other-server"}}}, indent=4)


def _servers(client: Client) -> dict:
    text = client.config_path().read_text()
    data = tomllib.loads(text) if client.format == "toml" else json.loads(text)
    return data[client.key]


def _backups(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + BACKUP_MARK + "*"))


@pytest.mark.parametrize("client", CLIENTS, ids=lambda client: client.name)
def test_connect_merges_backs_up_reads_back_and_disconnect_restores(home, client):
    path = client.config_path()
    assert home in path.parents
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(_theirs(client))
    assert status(client, COMMAND, ARGS).state is State.NOT_CONNECTED

    changed = connect(client, COMMAND, ARGS)[0]
    assert changed.path == path and changed.changes
    assert changed.backup is not None and changed.backup.read_text() == _theirs(client)
    servers = _servers(client)
    assert servers["other"] == {"command": "other-server"}
    assert servers["memdesk"]["command"] == COMMAND and servers["memdesk"]["args"] == ARGS
    assert status(client, COMMAND, ARGS).state is State.CONNECTED

    assert not any(change.changes for change in connect(client, COMMAND, ARGS))  # twice: nothing
    assert len(_backups(path)) == 1
    assert status(client, COMMAND, ["--db", "/elsewhere.db", "mcp"]).state is State.DIFFERENT

    removed = disconnect(client)[0]
    assert removed.changes and removed.backup is not None
    if client.format == "toml":
        assert path.read_text() == THEIRS_TOML  # comments and layout kept
    else:
        assert json.loads(path.read_text()) == json.loads(_theirs(client))
    assert status(client, COMMAND, ARGS).state is State.NOT_CONNECTED
    assert not any(change.changes for change in disconnect(client))  # never connected now
    assert len(_backups(path)) == 2


@pytest.mark.parametrize("client", CLIENTS, ids=lambda client: client.name)
def test_a_client_without_a_config_gets_one_with_only_memdesk(home, client):
    changed = connect(client, COMMAND, ARGS)[0]
    assert changed.created and changed.backup is None and _backups(changed.path) == []
    assert "  (a new file)" in change_lines([changed])
    assert list(_servers(client)) == ["memdesk"]


@pytest.mark.parametrize("client", CLIENTS, ids=lambda client: client.name)
def test_an_empty_config_is_written_without_a_backup_and_not_called_new(home, client):
    path = client.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("")  # what a disconnect that took out the only entry can leave
    changed = connect(client, COMMAND, ARGS)[0]
    assert changed.changes and not changed.created and changed.backup is None
    assert change_lines([changed]) == [f"{path}:", *(f"  {line}" for line in changed.changes)]
    assert list(_servers(client)) == ["memdesk"]


def test_the_entries_each_client_reads(home):
    entries = {client.name: client.entry(COMMAND, ARGS) for client in CLIENTS}
    plain = {"command": COMMAND, "args": ARGS}
    assert entries["vscode"] == entries["claude-code"] == {"type": "stdio", **plain}
    for name in ("claude-desktop", "cursor", "codex", "gemini", "windsurf", "lm-studio"):
        assert entries[name] == plain
    assert {client.name: client.key for client in CLIENTS if client.key != "mcpServers"} == {
        "codex": "mcp_servers",
        "vscode": "servers",
    }


def test_config_paths_on_each_platform():
    home = Path("/u/ada")
    desktop, vscode = BY_NAME["claude-desktop"], BY_NAME["vscode"]
    assert desktop.config_path(home, {}, "darwin") == Path(
        "/u/ada/Library/Application Support/Claude/claude_desktop_config.json"
    )
    assert desktop.config_path(home, {"APPDATA": "/w/Roaming"}, "win32") == Path(
        "/w/Roaming/Claude/claude_desktop_config.json"
    )
    assert desktop.config_path(home, {}, "linux") == Path("/u/ada/.config/Claude/claude_desktop_config.json")
    assert vscode.config_path(home, {"XDG_CONFIG_HOME": "/x"}, "linux") == Path("/x/Code/User/mcp.json")
    assert vscode.config_path(home, {}, "darwin") == Path(
        "/u/ada/Library/Application Support/Code/User/mcp.json"
    )
    assert vscode.config_path(home, {}, "win32") == Path("/u/ada/AppData/Roaming/Code/User/mcp.json")
    for platform in ("linux", "darwin", "win32"):
        assert BY_NAME["cursor"].config_path(home, {}, platform) == home / ".cursor" / "mcp.json"
        assert (
            BY_NAME["windsurf"].config_path(home, {}, platform) == home / ".codeium/windsurf/mcp_config.json"
        )
        assert BY_NAME["lm-studio"].config_path(home, {}, platform) == home / ".lmstudio" / "mcp.json"
    assert BY_NAME["codex"].config_path(home, {}, "linux") == home / ".codex" / "config.toml"
    assert BY_NAME["codex"].config_path(home, {"CODEX_HOME": "/c"}, "linux") == Path("/c/config.toml")
    assert BY_NAME["gemini"].config_path(home, {}, "linux") == home / ".gemini" / "settings.json"
    assert BY_NAME["gemini"].config_path(home, {"GEMINI_CLI_HOME": "/g"}, "linux") == Path(
        "/g/.gemini/settings.json"
    )
    assert BY_NAME["claude-code"].config_path(home, {"CLAUDE_CONFIG_DIR": "/k"}, "linux") == Path(
        "/k/.claude.json"
    )


# --- bad input: the file is left exactly as it was ------------------------------------------


def _untouched(path: Path, before: bytes) -> None:
    assert path.read_bytes() == before and _backups(path) == []


def test_malformed_json_names_the_file_and_line_and_is_not_changed(home):
    client = BY_NAME["cursor"]
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "mcpServers": {\n    "x": {"command": "y"},\n  }\n}\n')  # a trailing comma
    before = path.read_bytes()
    with pytest.raises(BadInputError, match=rf"^{re.escape(str(path))} is not valid JSON \(line 4, column 3"):
        connect(client, COMMAND, ARGS)
    with pytest.raises(BadInputError):
        disconnect(client)
    _untouched(path, before)
    assert status(client, COMMAND, ARGS).state is State.UNREADABLE


def test_malformed_toml_names_the_file_and_line_and_is_not_changed(home):
    client = BY_NAME["codex"]
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.write_text('model = "o3"\n[mcp_servers.other\ncommand = "x"\n')
    before = path.read_bytes()
    with pytest.raises(BadInputError, match=r"is not valid TOML \(.*at line 2"):
        connect(client, COMMAND, ARGS)
    _untouched(path, before)


def test_an_inline_codex_table_is_left_for_the_person(home):
    client = BY_NAME["codex"]
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.write_text('mcp_servers = { memdesk = { command = "old", args = [] } }\n')
    before = path.read_bytes()
    with pytest.raises(BadInputError, match="in a form Memdesk does not edit"):
        connect(client, COMMAND, ARGS)
    _untouched(path, before)


def test_a_codex_table_is_replaced_where_it_stands_with_its_sub_tables(home):
    client = BY_NAME["codex"]
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.write_text(
        'model = "o3"\n\n[mcp_servers.memdesk]\ncommand = "old"\nargs = []\n\n'
        '[mcp_servers.memdesk.env]\nTOKEN = "x"\n\n'
        '# the profile I use at work\n[profiles.work]\nmodel = "o4"\n'
    )
    connect(client, COMMAND, ARGS)
    text = path.read_text()
    assert tomllib.loads(text) == {
        "model": "o3",
        "mcp_servers": {"memdesk": {"command": COMMAND, "args": ARGS, "env": {"TOKEN": "x"}}},
        "profiles": {"work": {"model": "o4"}},
    }
    assert text.index("[mcp_servers.memdesk]") < text.index("# the profile I use at work\n[profiles.work]")
    disconnect(client)
    assert path.read_text() == 'model = "o3"\n\n# the profile I use at work\n[profiles.work]\nmodel = "o4"\n'


@pytest.mark.parametrize("client", CLIENTS, ids=lambda client: client.name)
def test_fields_of_the_persons_own_in_the_entry_are_kept(home, client):
    path = client.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    own = {"env": {"LANG": "de_DE.UTF-8"}, "timeout": 20000}
    stale = {**client.entry("/old/memdesk", ["mcp"]), **own}
    if client.format == "toml":
        path.write_text(tomli_w.dumps({client.key: {"memdesk": stale}}))
    else:
        path.write_text(json.dumps({client.key: {"memdesk": stale}}))
    assert status(client, COMMAND, ARGS).state is State.DIFFERENT
    connect(client, COMMAND, ARGS)
    assert _servers(client)["memdesk"] == {**client.entry(COMMAND, ARGS), **own}
    assert status(client, COMMAND, ARGS).state is State.CONNECTED  # its own fields do not count


def test_a_new_claude_code_entry_is_written_as_claude_mcp_add_writes_it(home):
    connect(BY_NAME["claude-code"], COMMAND, ARGS)
    assert _servers(BY_NAME["claude-code"])["memdesk"] == {
        "type": "stdio",
        "command": COMMAND,
        "args": ARGS,
        "env": {},
    }


def test_a_read_only_config_is_not_changed(home):
    client = BY_NAME["gemini"]
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"theme": "dark"}')
    path.chmod(0o444)
    before = path.read_bytes()
    with pytest.raises(MemdeskError, match=rf"^{re.escape(str(path))} is read-only; not changed"):
        connect(client, COMMAND, ARGS)
    _untouched(path, before)


def test_a_symlinked_config_is_not_changed(home, tmp_path):
    client = BY_NAME["windsurf"]
    target = tmp_path / "dotfiles" / "windsurf.json"
    target.parent.mkdir()
    target.write_text('{"mcpServers": {}}')
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.symlink_to(target)
    with pytest.raises(
        MemdeskError, match=rf"^{re.escape(str(path))} is a symlink to {re.escape(str(target))}; not changed"
    ):
        connect(client, COMMAND, ARGS)
    assert path.is_symlink() and target.read_text() == '{"mcpServers": {}}' and _backups(path) == []
    read_back = status(client, COMMAND, ARGS)  # reading it is fine; changing it is not
    assert read_back.state is State.NOT_CONNECTED and read_back.problem.startswith(f"{path} is a symlink")


def test_claude_code_checks_both_files_before_writing_either(home):
    client = BY_NAME["claude-code"]
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{ not json")
    with pytest.raises(BadInputError, match=r"settings\.json is not valid JSON"):
        connect(client, COMMAND, ARGS)
    assert not client.config_path().exists() and settings.read_text() == "{ not json"


def test_claude_code_is_connected_only_with_its_hooks(home):
    client = BY_NAME["claude-code"]
    connect(client, COMMAND, ARGS)
    hooks = json.loads((home / ".claude" / "settings.json").read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "Stop", "SessionEnd", "PreCompact"}
    assert hooks["Stop"][0]["hooks"][0]["command"].endswith("'/home/ada/memdesk data' hook claude-code")
    (home / ".claude" / "settings.json").write_text("{}")  # the person took the hooks out
    assert status(client, COMMAND, ARGS).state is State.DIFFERENT


def test_a_byte_order_mark_is_not_read_as_bad_json(home):
    client = BY_NAME["vscode"]
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b'\xef\xbb\xbf{"inputs": []}')
    connect(client, COMMAND, ARGS)
    assert json.loads(path.read_text())["inputs"] == []


def test_a_rewritten_config_keeps_its_permissions(home):
    client = BY_NAME["cursor"]
    path = client.config_path()
    path.parent.mkdir(parents=True)
    path.write_text("{}")
    path.chmod(0o600)
    connect(client, COMMAND, ARGS)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []  # no temporary file left
    assert os.access(path, os.R_OK)


def test_the_pi_extension_runs_the_command_as_given_whatever_its_characters(home, monkeypatch):
    from memdesk.services.clients.pi_extension import MARK, extension_path, extension_text

    command = ["/opt/memdesk tools/memdesk", "--data-dir", 'C:\\Ada\'s "notes"\n', "--config", "ünï.toml"]
    text = extension_text(command)
    assert text.startswith(MARK + "\n")
    line = next(line for line in text.splitlines() if line.startswith("const MEMDESK = "))
    # A JSON array is a JavaScript array literal: the extension gets the command back unchanged.
    assert json.loads(line.removeprefix("const MEMDESK = ").removesuffix(";")) == command
    assert extension_path() == home / ".pi" / "agent" / "extensions" / "memdesk.ts"
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(home / "pi-elsewhere"))
    assert extension_path() == home / "pi-elsewhere" / "extensions" / "memdesk.ts"
