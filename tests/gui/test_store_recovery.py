"""A store file damaged on disk: the window names the problem and offers the newest backup."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget
from tests.support.damage import damage_table

from memdesk.cli.main import build_parser
from memdesk.gui.application import open_or_explain
from memdesk.gui.recovery import RESTORE
from memdesk.services.memdesk import Memdesk


def damaged_store_with_a_backup(data: Path) -> Path:
    app = Memdesk.open(str(data))
    app.entries.upsert("coffee", "black, no sugar")
    backup = app.store.backup()
    app.entries.upsert("late", "written after the backup")
    app.close()
    damage_table(data / "memdesk.sqlite3", "meta")
    assert backup is not None
    return backup


def test_restoring_the_newest_backup_from_the_dialog(tmp_path, qtbot, answer, dialog_log):
    data = tmp_path / "data"
    backup = damaged_store_with_a_backup(data)
    damaged = (data / "memdesk.sqlite3").read_bytes()
    answer("choose", RESTORE)
    answer("info", None)
    window = QWidget()
    qtbot.addWidget(window)
    app = open_or_explain(window, build_parser().parse_args(["--data-dir", str(data), "gui"]))
    assert app is not None
    try:
        assert [entry.key for entry in app.entries.list()] == ["coffee"]
    finally:
        app.close()
    ((_title, question, options),) = [args[1:] for name, args in dialog_log.calls if name == "choose"]
    assert "damaged" in question and str(backup) in question and options == [RESTORE]
    (kept,) = data.glob("memdesk.sqlite3.damaged-*[0-9]")
    assert kept.read_bytes() == damaged
    assert str(kept) in dialog_log.texts("info")[0]


def test_declining_leaves_the_damaged_file_alone(tmp_path, qtbot, answer, dialog_log):
    data = tmp_path / "data"
    damaged_store_with_a_backup(data)
    damaged = (data / "memdesk.sqlite3").read_bytes()
    answer("choose", None)
    window = QWidget()
    qtbot.addWidget(window)
    assert open_or_explain(window, build_parser().parse_args(["--data-dir", str(data), "gui"])) is None
    assert (data / "memdesk.sqlite3").read_bytes() == damaged
    assert list(data.glob("*.damaged-*")) == []
