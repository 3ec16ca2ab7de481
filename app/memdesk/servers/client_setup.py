"""How an assistant starts ``memdesk mcp``: the installed command, and set-up snippets per client."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from memdesk.paths import Paths

DEB_COMMAND = Path("/usr/bin/memdesk")  # the .deb's link to the bundle in /opt/memdesk


@dataclass(frozen=True)
class Snippet:
    client: str
    where: str  # what to do with the text, in a sentence
    text: str


def memdesk_command(frozen: bool | None = None, executable: str | None = None) -> str:
    """The path of the ``memdesk`` actually running or installed, for an assistant to start.

    From the packaged bundle, ``/usr/bin/memdesk`` when it leads to this bundle (the .deb),
    else the bundle's own program; otherwise the ``memdesk`` on PATH, else the one beside
    this Python (a virtual environment's ``bin/memdesk``).
    """
    frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    executable = executable or sys.executable
    if frozen:
        if DEB_COMMAND.exists() and DEB_COMMAND.resolve() == Path(executable).resolve():
            return str(DEB_COMMAND)
        return executable
    found = shutil.which("memdesk")
    if found:
        return str(Path(found).absolute())
    beside = Path(executable).parent / ("memdesk.exe" if sys.platform == "win32" else "memdesk")
    return str(beside)


def server_args(paths: Paths | None = None) -> list[str]:
    """``mcp``, after the options that open the store ``paths`` names (the one in use), since
    an assistant starts the server without Memdesk's environment variables."""
    return [*(paths.reopen_options() if paths is not None else []), "mcp"]


def snippets(command: str, args: list[str]) -> list[Snippet]:
    entry = {"command": command, "args": args}
    servers = json.dumps({"mcpServers": {"memdesk": entry}}, indent=2)
    line = shlex.join([command, *args])
    return [
        Snippet(
            "Claude Desktop",
            "Add this to claude_desktop_config.json (Settings › Developer › Edit Config), "
            "then restart Claude Desktop.",
            servers,
        ),
        Snippet(
            "Claude Code",
            "Run this once in a terminal; add --scope user to use Memdesk in every project.",
            shlex.join(["claude", "mcp", "add", "memdesk", "--", command, *args]),
        ),
        Snippet("Cursor", "Put this in .cursor/mcp.json in a project, or in ~/.cursor/mcp.json.", servers),
        Snippet(
            "Other clients",
            "Any MCP client that starts a server over stdio: this command, with no extra environment.",
            line,
        ),
    ]
