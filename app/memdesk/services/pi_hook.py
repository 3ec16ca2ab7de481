"""What pi's Memdesk extension runs (``memdesk hook pi``; ``memdesk connect pi`` writes it).

pi has no MCP client, so its extension reaches the store through Memdesk's Python surface
(``memdesk.assistant``), as the assistant ``python:pi``: the prompt it adds is the one that
assistant reads (within its app limit, private items left out, logged in the read log), and
what its ``remember`` tool saves passes the write check and Review under the trust level the
person gives ``python:pi``. The app is the project folder's, as for pi's transcripts, and a
trusted project's MEMORY.md is in the prompt as for Claude Code's hook.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.core.projects import app_id_for_folder
from memdesk.errors import BadInputError

if TYPE_CHECKING:
    from memdesk.assistant import Assistant

NAME = "pi"  # the assistant python:pi


def prompt(assistant: Assistant, folder: str) -> str:
    """The prompt for a session working in ``folder``, as pi reads it: the folder's app, and
    its project's MEMORY.md when the person trusts the project."""
    return assistant.prompt(project=str(Path(folder).absolute())).data["text"]


def remember(assistant: Assistant, folder: str, text: str) -> str:
    """Add ``text`` to the folder's app memories, as pi; what happened, for the model to read
    (added, merged, or waiting for the person's review)."""
    app_id = app_id_for_folder(folder)
    if app_id is None:
        raise BadInputError(f"the folder {folder!r} names no app to remember this in")
    return assistant.app_memory_add(app_id, text).text
