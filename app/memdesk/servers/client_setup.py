"""How an assistant starts ``memdesk mcp``: the installed command, and the set-up text for each
client ``memdesk connect`` knows, to add by hand."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from memdesk.paths import Paths
from memdesk.services.clients.known import CLIENTS, SERVER_NAME, Client

DEB_COMMAND = Path("/usr/bin/memdesk")  # the .deb's link to the bundle in /opt/memdesk


# Not a client with a config file: any program that starts an MCP server over stdio.
STDIO_CLIENT = "stdio"


@dataclass(frozen=True)
class Snippet:
    name: str  # the client, as ``memdesk connect`` names it
    title: str
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


def snippet(client: Client, command: str, args: list[str]) -> Snippet:
    entry = client.entry(command, args)
    if client.name == "claude-code":
        # Its own command writes the server entry; the hooks need `memdesk connect claude-code`.
        text = shlex.join(["claude", "mcp", "add", SERVER_NAME, "--", command, *args])
    elif client.format == "toml":
        text = tomli_w.dumps({client.key: {SERVER_NAME: entry}}).rstrip("\n")
    else:
        text = json.dumps({client.key: {SERVER_NAME: entry}}, indent=2)
    return Snippet(client.name, client.title, client.where, text)


def other_clients(command: str, args: list[str]) -> Snippet:
    return Snippet(
        STDIO_CLIENT,
        "Other clients",
        "Any MCP client that starts a server over stdio: this command, with no extra environment.",
        shlex.join([command, *args]),
    )


def snippets(command: str, args: list[str]) -> list[Snippet]:
    """Every known client's set-up text, then the command line for any other client."""
    return [*(snippet(client, command, args) for client in CLIENTS), other_clients(command, args)]
