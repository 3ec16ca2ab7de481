"""The assistants ``memdesk connect`` knows: where each keeps its MCP servers, and in what form.

Paths and keys are the ones each client documents (and, for Codex CLI and Gemini CLI, writes
itself with ``codex mcp add`` and ``gemini mcp add --scope user``).
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from memdesk.core.trust import MCP_PREFIX

SERVER_NAME = "memdesk"
PI = "pi"  # as typed after `memdesk connect`: pi has no MCP client, so it gets an extension instead
# The environment variables that move a client's config file.
LOCATION_ENV = (
    "XDG_CONFIG_HOME",
    "APPDATA",
    "CODEX_HOME",
    "GEMINI_CLI_HOME",
    "CLAUDE_CONFIG_DIR",
    "PI_CODING_AGENT_DIR",  # pi's folder, where its extensions are
)

# (home folder, environment, sys.platform) -> the config file on that machine
Locate = Callable[[Path, Mapping[str, str], str], Path]


@dataclass(frozen=True)
class Client:
    name: str  # as typed after `memdesk connect`
    title: str
    locate: Locate
    format: Literal["json", "toml"]
    key: str  # the object (JSON) or table (TOML) that holds the servers by name
    where: str  # how a person adds the snippet by hand, in a sentence
    extra: Mapping[str, Any] = field(default_factory=dict)  # fields of the entry besides the command
    defaults: Mapping[str, Any] = field(default_factory=dict)  # fields a new entry starts with
    # The name it gives in its MCP handshake (clientInfo.name), where it differs from ``name``
    # or is known: its writes carry ``mcp:<this>``.
    mcp_name: str = ""

    @property
    def actor(self) -> str:
        """The assistant it connects as (``mcp:codex-mcp-client``); empty when not known."""
        return MCP_PREFIX + self.mcp_name if self.mcp_name else ""

    def config_path(
        self, home: Path | None = None, env: Mapping[str, str] | None = None, platform: str | None = None
    ) -> Path:
        return self.locate(home or Path.home(), os.environ if env is None else env, platform or sys.platform)

    def entry(self, command: str, args: list[str]) -> dict[str, Any]:
        """The server entry this client reads: how it starts ``memdesk mcp`` on the open store."""
        return {**self.extra, "command": command, "args": list(args)}

    def updated(self, current: Any, command: str, args: list[str]) -> dict[str, Any] | None:
        """The entry to write over ``current`` (the one there now, if any); None when it already
        starts Memdesk this way. Its other fields (an ``env``, a timeout, a flag the client
        itself added) are the person's and are kept."""
        ours = self.entry(command, args)
        theirs = current if isinstance(current, dict) else {}
        if theirs and all(theirs.get(key) == value for key, value in ours.items()):
            return None
        return {**self.defaults, **theirs, **ours}


def command_line(entry: Mapping[str, Any]) -> str:
    return shlex.join([entry["command"], *entry["args"]])


def app_config_dir(home: Path, env: Mapping[str, str], platform: str) -> Path:
    """Where desktop apps (Electron's ``appData``) keep their settings on each platform."""
    if platform == "darwin":
        return home / "Library" / "Application Support"
    if platform == "win32":
        return Path(env["APPDATA"]) if env.get("APPDATA") else home / "AppData" / "Roaming"
    return Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"


def _claude_code(home: Path, env: Mapping[str, str], _platform: str) -> Path:
    # `claude mcp add --scope user` writes here; CLAUDE_CONFIG_DIR moves the whole folder.
    folder = env.get("CLAUDE_CONFIG_DIR")
    return Path(folder).expanduser() / ".claude.json" if folder else home / ".claude.json"


def _codex(home: Path, env: Mapping[str, str], _platform: str) -> Path:
    folder = env.get("CODEX_HOME")
    return (Path(folder).expanduser() if folder else home / ".codex") / "config.toml"


def _gemini(home: Path, env: Mapping[str, str], _platform: str) -> Path:
    # GEMINI_CLI_HOME stands in for the home folder: the CLI keeps its .gemini folder inside it.
    base = Path(env["GEMINI_CLI_HOME"]).expanduser() if env.get("GEMINI_CLI_HOME") else home
    return base / ".gemini" / "settings.json"


def _in_home(*parts: str) -> Locate:
    return lambda home, _env, _platform: home.joinpath(*parts)


def _in_app_config(*parts: str) -> Locate:
    return lambda home, env, platform: app_config_dir(home, env, platform).joinpath(*parts)


STDIO = {"type": "stdio"}
CLIENTS: tuple[Client, ...] = (
    Client(
        "claude-code",
        "Claude Code",
        _claude_code,
        "json",
        "mcpServers",
        "Run this once in a terminal; add --scope user to use Memdesk in every project.",
        STDIO,
        {"env": {}},  # as `claude mcp add` writes it
        mcp_name="claude-code",
    ),
    Client(
        "claude-desktop",
        "Claude Desktop",
        _in_app_config("Claude", "claude_desktop_config.json"),
        "json",
        "mcpServers",
        "Add this to claude_desktop_config.json (Settings › Developer › Edit Config), then restart "
        "Claude Desktop.",
    ),
    Client(
        "cursor",
        "Cursor",
        _in_home(".cursor", "mcp.json"),
        "json",
        "mcpServers",
        "Put this in ~/.cursor/mcp.json, or in .cursor/mcp.json in one project.",
    ),
    Client(
        "codex",
        "Codex CLI",
        _codex,
        "toml",
        "mcp_servers",
        "Add this table to ~/.codex/config.toml (or config.toml in $CODEX_HOME).",
        mcp_name="codex-mcp-client",
    ),
    Client(
        "gemini",
        "Gemini CLI",
        _gemini,
        "json",
        "mcpServers",
        "Add this to ~/.gemini/settings.json (user settings), or .gemini/settings.json in a project.",
    ),
    Client(
        "vscode",
        "VS Code",
        _in_app_config("Code", "User", "mcp.json"),
        "json",
        "servers",
        "Add this to your user mcp.json (Command Palette › MCP: Open User Configuration).",
        STDIO,
    ),
    Client(
        "windsurf",
        "Windsurf",
        _in_home(".codeium", "windsurf", "mcp_config.json"),
        "json",
        "mcpServers",
        "Add this to ~/.codeium/windsurf/mcp_config.json (Cascade › MCP servers › View raw config).",
    ),
    Client(
        "lm-studio",
        "LM Studio",
        _in_home(".lmstudio", "mcp.json"),
        "json",
        "mcpServers",
        "Add this to ~/.lmstudio/mcp.json (Program › Install › Edit mcp.json), then reload it.",
    ),
)
BY_NAME = {client.name: client for client in CLIENTS}
BY_ACTOR = {client.actor: client for client in CLIENTS if client.actor}


def product_title(actor: str) -> str:
    """The product behind ``actor`` ("Codex CLI" for ``mcp:codex-mcp-client``), when the name
    it gives itself is not the one `memdesk connect` knows it by; else empty."""
    client = BY_ACTOR.get(actor)
    return client.title if client is not None and client.mcp_name != client.name else ""
