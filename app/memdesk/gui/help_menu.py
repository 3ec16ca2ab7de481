"""The Help menu's windows and links: the user guide, the keyboard shortcuts, the data folder.

The shortcuts are read from the window's own actions, so the list shows what the keys do in
this build and cannot drift from them.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from memdesk import resources
from memdesk.gui import dialogs

GUIDE_TITLE = "User guide"


def open_path(parent: QWidget, path: Path, what: str) -> None:
    """Open a file or folder with the desktop's own program; say so when nothing could."""
    if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
        dialogs.error(parent, what, f"Could not open {path}: no program on this desktop opens it.")


def open_guide(parent: QWidget) -> None:
    """The built guide in the web browser; from a checkout where it is not built yet, its
    source pages, after saying how to build it."""
    page = resources.built_guide()
    if page is not None:
        open_path(parent, page, GUIDE_TITLE)
        return
    checkout = resources.source_checkout()
    if checkout is None:
        dialogs.error(parent, GUIDE_TITLE, "The user guide is missing from this installation of Memdesk.")
        return
    dialogs.info(
        parent,
        GUIDE_TITLE,
        f"The user guide has not been built in this source folder. Run `make docs` in {checkout} "
        "to build it; its Markdown pages open now instead.",
    )
    open_path(parent, checkout / "docs" / "index.md", GUIDE_TITLE)


def plain_text(action: QAction) -> str:
    """An action's name as a person reads it: no mnemonic ampersand, no trailing ellipsis."""
    return action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").removesuffix("…")


def shortcut_rows(window: QMainWindow) -> list[tuple[str, str, str]]:
    """(menu, action, its shortcuts) for every action of the window's menus that has a key,
    in menu order, then the window's other actions with keys."""
    rows: list[tuple[str, str, str]] = []
    listed: set[int] = set()

    def add(menu: str, action: QAction) -> None:
        # A standard key this platform has no binding for is empty; one key may come twice
        # (a standard key and its usual binding).
        named = (key.toString(QKeySequence.SequenceFormat.NativeText) for key in action.shortcuts())
        keys = list(dict.fromkeys(key for key in named if key))
        if keys and id(action) not in listed:
            listed.add(id(action))
            rows.append((menu, plain_text(action), ", ".join(keys)))

    for menu_action in window.menuBar().actions():
        menu = menu_action.menu()
        if menu is None:
            continue
        for action in menu.actions():
            add(plain_text(menu_action), action)
    for action in window.actions():
        add("", action)
    return rows


class ShortcutsDialog(QDialog):
    """A table of the window's keyboard shortcuts."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.setWindowTitle("Keyboard Shortcuts")
        rows = shortcut_rows(window)
        self.table = QTableWidget(len(rows), 3)
        self.table.setHorizontalHeaderLabels(["Menu", "Action", "Shortcut"])
        for row, values in enumerate(rows):
            for column, value in enumerate(values):
                self.table.setItem(row, column, QTableWidgetItem(value))
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(520, 560)
