"""What the window asks of every page it shows, and a base class that says it.

The window keeps no list of which view can do what: every view is a ``Page``, so it can
be refreshed, asked to save what is being typed, and asked whether something could not
be saved, and it asks to open an item through ``open_requested(ItemRef)``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtCore import Signal, SignalInstance
from PySide6.QtWidgets import QWidget

from memdesk.core.items import ItemRef


@runtime_checkable
class View(Protocol):
    open_requested: SignalInstance  # carries an ItemRef: the window opens it

    def refresh(self) -> None:
        """Read again what is shown (the store changed)."""

    def flush(self) -> None:
        """Save now whatever is typed and not saved yet."""

    def has_unsaved_changes(self) -> bool:
        """Something typed that could not be saved (closing would lose it)."""


class Page(QWidget):
    """A view; by default one with nothing of its own to save."""

    open_requested = Signal(ItemRef)

    def refresh(self) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not say how to read again")

    def flush(self) -> None:
        """Nothing typed to save."""

    def has_unsaved_changes(self) -> bool:
        return False
