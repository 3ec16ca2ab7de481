"""The assistant's own system prompt, read from the file the ``prompt.base_file`` setting names."""

from __future__ import annotations

from pathlib import Path

from memdesk.config import Settings
from memdesk.errors import BadInputError


def read_base_prompt(path: str) -> str:
    """The file's text, decoded strictly as UTF-8."""
    try:
        raw = Path(path).expanduser().read_bytes()
    except OSError as exc:
        raise BadInputError(f"base prompt {path}: {exc.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"base prompt {path}: not valid UTF-8 (byte {exc.start})") from None


def configured_base_prompt(settings: Settings) -> str:
    """The base prompt the settings name, or "" when they name none."""
    path = settings.prompt.base_file
    return read_base_prompt(path) if path else ""
