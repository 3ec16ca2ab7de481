"""The errors Memdesk expects and reports in plain words.

Every layer raises these; the CLI maps them to exit codes and the GUI to one error dialog.
Anything else is a bug and may show a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


class MemdeskError(Exception):
    """An expected failure: the operation did not happen and nothing was half-written."""

    exit_code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n{self.hint}" if self.hint else self.message


class BadInputError(MemdeskError):
    """The caller gave something unusable: a wrong type, a value out of range, bad text."""

    exit_code = 2


class ArgumentError(BadInputError):
    """One argument of an assistant's call (an MCP tool, an ``Assistant`` method) is unusable;
    ``argument`` names it as the call declares it."""

    def __init__(self, argument: str, message: str, hint: str | None = None) -> None:
        super().__init__(f"{argument}: {message}", hint)
        self.argument = argument


class NotFoundError(MemdeskError):
    """The item named does not exist (or is in Trash)."""


class NotAllowedError(MemdeskError):
    """The person's settings do not let this caller (an assistant) do this: its trust level is
    read-only, assistants may not write or delete here, or the app is outside what it may read."""


class ConflictError(MemdeskError):
    """The store changed in a way that makes the operation unsafe (e.g. undo over a newer edit)."""


@dataclass(frozen=True)
class UnseenChange:
    """Text a held write would replace or remove that was written after it was held."""

    held_id: int
    what: str  # "entry train-b", "working memory user/working", "memory 3 of calendar"…
    now: str  # what is there now
    put: str  # what approving would leave there ("" for a delete)


class ChangedSinceHeldError(ConflictError):
    """Approving would replace or remove text written after the held write was held, which the
    person has not seen; ``changes`` says, for each, what is there now and what approving puts.
    Approving again with ``replace`` set puts it anyway."""

    def __init__(self, message: str, hint: str, changes: tuple[UnseenChange, ...]) -> None:
        super().__init__(message, hint)
        self.changes = changes


class StoreError(MemdeskError):
    """The database cannot be used: locked, newer schema, unreadable or read-only."""


class LLMError(MemdeskError):
    """A call to a language-model backend failed; messages stay unconsolidated."""

    def __init__(self, message: str, backend: str, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.backend = backend


class ModelUnreachableError(LLMError):
    """Nothing answered at the model's address (refused, or the name did not resolve): no
    request reached a model, so nothing was tried on the conversation."""


class DamagedStoreError(StoreError):
    """The database file is damaged; it is left as it is, and a backup may replace it."""

    def __init__(self, message: str, hint: str | None, file: Path, backup: Path | None) -> None:
        super().__init__(message, hint)
        self.file = file
        self.backup = backup  # the newest backup, when there is one
