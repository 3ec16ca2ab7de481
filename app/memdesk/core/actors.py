"""The names history records the person's own changes under, one per way of making them.

An assistant's changes carry its own name instead (``mcp:…``, ``api:…``, ``python:…``; see
``core.trust``). Pure: no I/O.
"""

from __future__ import annotations

WINDOW = "gui"  # the desktop window
COMMAND = "cli"  # the memdesk command
PYTHON = "user"  # a Python program that opened the store without naming itself
CLAUDE_CODE_HOOK = "hook:claude-code"  # Claude Code's hooks, which `memdesk connect` sets up
SOURCE_PREFIX = "source:"  # an assistant's transcripts read into sessions (source:codex)

# What each name stands for, where a person picks one to filter by.
MEANINGS = {
    COMMAND: "the memdesk command",
    WINDOW: "the window",
    PYTHON: "a Python program that gave no name",
}


def described(actor: str) -> str:
    """``actor``, with what it stands for when the name alone does not say: "gui (the window)"."""
    meaning = MEANINGS.get(actor)
    return f"{actor} ({meaning})" if meaning else actor
