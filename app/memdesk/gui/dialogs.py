"""Every question the window asks goes through these functions, so tests can answer them.

Tests replace a function with ``monkeypatch.setattr(dialogs, "confirm", lambda *a, **k: True)``;
the rest of the GUI always calls ``dialogs.<name>(...)`` through the module.
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from memdesk.errors import MemdeskError


def confirm(parent: QWidget | None, title: str, text: str, action: str = "OK") -> bool:
    """Ask before something that cannot be taken back; the safe answer is the default."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.Cancel, parent)
    accept = box.addButton(action, QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is accept


def error(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.warning(parent, title, text)


def info(parent: QWidget | None, title: str, text: str) -> None:
    QMessageBox.information(parent, title, text)


def choose(parent: QWidget | None, title: str, text: str, options: list[str]) -> str | None:
    """One of ``options`` (as buttons), or None when cancelled."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.Cancel, parent)
    buttons = {box.addButton(option, QMessageBox.ButtonRole.AcceptRole): option for option in options}
    box.exec()
    return buttons.get(box.clickedButton())


def ask_int(
    parent: QWidget | None, title: str, label: str, value: int, minimum: int, maximum: int
) -> int | None:
    number, ok = QInputDialog.getInt(parent, title, label, value, minimum, maximum)
    return number if ok else None


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    answer, ok = QInputDialog.getText(parent, title, label, text=text)
    return answer if ok else None


def ask_long_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    answer, ok = QInputDialog.getMultiLineText(parent, title, label, text)
    return answer if ok else None


def open_file(parent: QWidget | None, title: str, filters: str = "") -> Path | None:
    name, _ = QFileDialog.getOpenFileName(parent, title, "", filters)
    return Path(name) if name else None


def save_file(parent: QWidget | None, title: str, suggested: str = "", filters: str = "") -> Path | None:
    name, _ = QFileDialog.getSaveFileName(parent, title, suggested, filters)
    return Path(name) if name else None


def pick_folder(parent: QWidget | None, title: str, start: str = "") -> Path | None:
    name = QFileDialog.getExistingDirectory(parent, title, start)
    return Path(name) if name else None


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def describe_error(exc: Exception) -> str:
    """Plain words for an error: what happened, then what to do about it."""
    if isinstance(exc, MemdeskError):
        message = _sentence(exc.message)
        return f"{message}\n\n{_sentence(exc.hint)}" if exc.hint else message
    return (
        f"Something unexpected went wrong: {exc}\n\n"
        "Please report this, with the details printed in the terminal."
    )


def show_error(parent: QWidget | None, exc: Exception, title: str = "Memdesk") -> None:
    """The one error dialog for failed background work."""
    if not isinstance(exc, MemdeskError):
        traceback.print_exception(exc, file=sys.stderr)
    error(parent, title, describe_error(exc))
