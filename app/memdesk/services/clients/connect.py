"""Connect a client to Memdesk, take it out again, and read back whether it is connected.

Every file a client needs changed is read and checked first; only then is any written (each
backed up beside itself). Connecting twice changes nothing the second time.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.errors import MemdeskError
from memdesk.services.clients import claude_code, files, json_config, toml_config
from memdesk.services.clients.files import Edit, FileChange
from memdesk.services.clients.known import SERVER_NAME, Client

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk


class State(Enum):
    CONNECTED = "Connected"
    DIFFERENT = "Connected to another set-up"  # a memdesk entry that starts another store or program
    NOT_CONNECTED = "Not connected"
    UNREADABLE = "Config not readable"


@dataclass(frozen=True)
class ClientStatus:
    name: str  # as typed after `memdesk connect`
    title: str
    path: Path
    state: State
    problem: str = ""  # why connect or disconnect cannot change the config; empty when they can


def hooks_file(client: Client) -> Path | None:
    """The file that holds ``client``'s hooks, when ``connect`` sets some up (Claude Code's)."""
    return claude_code.settings_path() if client.name == "claude-code" else None


def _edits(client: Client, start: tuple[str, list[str]] | None) -> list[Edit]:
    """What ``client``'s files would become with the server that runs ``start`` (command,
    arguments) in them, or with none (``start`` None)."""
    path = client.config_path()
    if client.format == "toml":
        table = (client.key, SERVER_NAME)
        if start is None:
            return [toml_config.drop_table(path, table)]
        return [toml_config.set_table(path, table, lambda current: client.updated(current, *start))]
    server = (
        json_config.drop_server(client.key, SERVER_NAME)
        if start is None
        else json_config.set_server(client.key, SERVER_NAME, lambda current: client.updated(current, *start))
    )
    edits = [json_config.edit(path, server)]
    hooks_path = hooks_file(client)
    if hooks_path is not None:
        hooks = (
            claude_code.drop_hooks
            if start is None
            else claude_code.set_hooks(claude_code.hook_command(*start))
        )
        edits.append(json_config.edit(hooks_path, hooks))
    return edits


def connect(client: Client, command: str, args: list[str], dry_run: bool = False) -> list[FileChange]:
    """Add Memdesk's server entry (for Claude Code also its hooks); what changed in which file
    (``dry_run``: what would change; nothing is written)."""
    return files.apply(_edits(client, (command, args)), dry_run)


def disconnect(client: Client, dry_run: bool = False) -> list[FileChange]:
    """Take out exactly what ``connect`` adds, and nothing else."""
    return files.apply(_edits(client, None), dry_run)


def has_transcript_source(name: str) -> bool:
    """Whether Memdesk reads the transcripts of the assistant ``name`` (Claude Code, Codex CLI,
    pi), a source that connecting turns on."""
    from memdesk.services.sources.catalog import BY_NAME as SOURCES

    return name in SOURCES


def connect_store(app: Memdesk, client: Client, command: str, args: list[str]) -> list[str]:
    """Connect ``client`` to the store ``app`` has open, and turn on reading its transcripts
    where Memdesk can. What changed, a line each (none: it was all in place)."""
    return change_lines(connect(client, command, args)) + turn_on_source(app, client.name)


def turn_on_source(app: Memdesk, name: str, dry_run: bool = False) -> list[str]:
    """Turn on reading the transcripts of the assistant ``name``, where Memdesk reads them and
    they are off; what changed (or would), a line."""
    from memdesk.services.sources.catalog import BY_NAME as SOURCES

    if not has_transcript_source(name) or name in app.sources.enabled():
        return []
    if dry_run:
        return [f"Would turn on the {name} source ({SOURCES[name].setting} = true)."]
    info = app.sources.set_enabled(name, True)
    return [f"Turned on the {info.name} source ({info.setting} = true)."]


def status(client: Client, command: str, args: list[str]) -> ClientStatus:
    """Whether ``client``'s config starts Memdesk as ``connect`` would write it now, and what
    would stop ``connect`` or ``disconnect`` from changing it."""
    path = client.config_path()
    try:
        edits = _edits(client, (command, args))
        if not any(edit.changes for edit in edits):
            state = State.CONNECTED
        elif any(edit.changes for edit in _edits(client, None)):
            state = State.DIFFERENT
        else:
            state = State.NOT_CONNECTED
    except MemdeskError as exc:
        return ClientStatus(client.name, client.title, path, State.UNREADABLE, exc.message)
    locked = (files.why_unwritable(edit.path) for edit in edits)
    problem = next((problem for problem in locked if problem), "")
    return ClientStatus(client.name, client.title, path, state, problem)


def change_lines(changes: list[FileChange]) -> list[str]:
    """Each changed file, then what changed in it and where its backup is."""
    lines: list[str] = []
    for change in changes:
        if change.changes:
            lines.append(f"{change.path}:")
            lines += [f"  {line}" for line in change.changes]
            if change.backup:
                lines.append(f"  (the file was backed up as {change.backup})")
            elif change.created:
                lines.append("  (a new file)")
    return lines


def outcome(title: str, lines: list[str], connecting: bool) -> str:
    """What ``connect`` (or ``disconnect``) did for the assistant ``title``, for a person: the
    lines, or that nothing changed."""
    if lines:
        return "\n".join(lines)
    if connecting:
        return f"{title} is already connected; nothing changed."
    return f"{title} was not connected; nothing changed."
