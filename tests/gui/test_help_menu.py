"""The Help menu: the user guide, the keyboard shortcuts read from the actions, the data folder."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QDesktopServices, QKeySequence

from memdesk import resources
from memdesk.gui.help_menu import ShortcutsDialog, plain_text


@pytest.fixture
def opened(monkeypatch) -> list[str]:
    """The URLs the window asked the desktop to open, in order; none is really opened."""
    urls: list[str] = []

    def open_url(url) -> bool:
        urls.append(url.toLocalFile())
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    return urls


def help_entries(window) -> list[str]:
    menu = next(a.menu() for a in window.menuBar().actions() if plain_text(a) == "Help")
    return [plain_text(action) for action in menu.actions() if not action.isSeparator()]


def test_the_help_menu_offers_the_guide_the_shortcuts_and_the_data_folder(main_window):
    assert help_entries(main_window) == [
        "User Guide",
        "Keyboard Shortcuts",
        "Open Data Folder",
        "About Memdesk",
    ]


def test_user_guide_opens_the_guide_shipped_with_the_package(main_window, opened, monkeypatch, tmp_path):
    shipped = tmp_path / "resources"
    (shipped / resources.GUIDE_DIR).mkdir(parents=True)
    (shipped / resources.GUIDE_DIR / "index.html").write_text("<h1>Memdesk</h1>")
    monkeypatch.setattr(resources, "resources_root", lambda: shipped)
    main_window.guide_action.trigger()
    assert opened == [str(shipped / "guide" / "index.html")]


def test_user_guide_in_a_checkout_opens_the_guide_make_docs_built(main_window, opened, monkeypatch, tmp_path):
    checkout = tmp_path / "checkout"
    (checkout / "site").mkdir(parents=True)
    (checkout / "site" / "index.html").write_text("<h1>Memdesk</h1>")
    monkeypatch.setattr(resources, "resources_root", lambda: tmp_path / "no-resources")
    monkeypatch.setattr(resources, "source_checkout", lambda: checkout)
    main_window.guide_action.trigger()
    assert opened == [str(checkout / "site" / "index.html")]


def test_an_unbuilt_guide_says_how_to_build_it_and_opens_its_source(
    main_window, opened, answer, dialog_log, monkeypatch, tmp_path
):
    checkout = tmp_path / "checkout"
    (checkout / "docs").mkdir(parents=True)
    monkeypatch.setattr(resources, "resources_root", lambda: tmp_path / "no-resources")
    monkeypatch.setattr(resources, "source_checkout", lambda: checkout)
    answer("info", None)
    main_window.guide_action.trigger()
    [message] = dialog_log.texts("info")
    assert "make docs" in message and str(checkout) in message
    assert opened == [str(checkout / "docs" / "index.md")]


def test_an_installation_without_the_guide_says_so_and_opens_nothing(
    main_window, opened, answer, dialog_log, monkeypatch, tmp_path
):
    monkeypatch.setattr(resources, "resources_root", lambda: tmp_path / "no-resources")
    monkeypatch.setattr(resources, "source_checkout", lambda: None)
    answer("error", None)
    main_window.guide_action.trigger()
    assert dialog_log.texts("error") == [
        "User guide The user guide is missing from this installation of Memdesk."
    ]
    assert opened == []


def test_open_data_folder_opens_the_stores_folder(main_window, memdesk_app, opened):
    main_window.data_folder_action.trigger()
    assert opened == [str(memdesk_app.paths.data_dir)]


def test_a_desktop_that_cannot_open_the_folder_gets_a_sentence(main_window, answer, dialog_log, monkeypatch):
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda _url: False)
    answer("error", None)
    main_window.data_folder_action.trigger()
    [message] = dialog_log.texts("error")
    assert message.startswith(f"Data folder Could not open {main_window.data_dir}")


def dialog_rows(dialog: ShortcutsDialog) -> list[tuple[str, str, str]]:
    table = dialog.table
    return [tuple(table.item(row, column).text() for column in range(3)) for row in range(table.rowCount())]


def test_keyboard_shortcuts_lists_the_keys_of_the_windows_own_actions(main_window, qtbot):
    main_window.shortcuts_action.trigger()
    dialog = main_window.shortcuts_dialog
    qtbot.waitExposed(dialog)
    rows = dialog_rows(dialog)
    native = QKeySequence.SequenceFormat.NativeText
    assert ("Edit", "Undo", "Ctrl+Z") in rows
    assert ("Edit", "Find", "Ctrl+F, Ctrl+K") in rows
    assert ("Help", "Keyboard Shortcuts", "Ctrl+/") in rows
    assert ("Go", "Refresh", "F5") in rows  # the standard key and F5 are one key here, listed once
    assert all(keys and not keys.startswith(",") for _menu, _action, keys in rows)
    # Every action of every menu that has a key is listed, with exactly its keys.
    listed = {(menu, action): keys for menu, action, keys in rows}
    for menu_action in main_window.menuBar().actions():
        for action in menu_action.menu().actions():
            named = [key.toString(native) for key in action.shortcuts()]
            keys = ", ".join(dict.fromkeys(key for key in named if key))
            if keys:
                assert listed[(plain_text(menu_action), plain_text(action))] == keys
    dialog.close()


def test_a_changed_shortcut_shows_in_the_list(main_window):
    main_window.refresh_action.setShortcuts([QKeySequence("Ctrl+Alt+R")])
    rows = dialog_rows(ShortcutsDialog(main_window))
    assert ("Go", "Refresh", "Ctrl+Alt+R") in rows
    assert not [row for row in rows if row[1] == "Refresh" and "F5" in row[2]]
