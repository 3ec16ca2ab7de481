"""What the window changes is recorded under the name `memdesk history --actor` and its help use."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget
from tests.support.cli import MemdeskCommand, out

from memdesk.cli.main import build_parser
from memdesk.gui.application import open_or_explain


def test_a_change_made_in_the_window_is_listed_by_the_name_the_help_gives(tmp_path, qtbot):
    data = tmp_path / "data"
    window = QWidget()
    qtbot.addWidget(window)
    app = open_or_explain(window, build_parser().parse_args(["--data-dir", str(data), "gui"]))
    assert app is not None
    try:
        app.entries.upsert("tea", "Ada drinks green tea")
    finally:
        app.close()
    memdesk = MemdeskCommand(data)
    assert "gui (the window)" in " ".join(out(memdesk("history", "--help")).split())
    (line,) = out(memdesk("history", "--actor", "gui")).splitlines()
    assert line.split("\t")[2:] == ["gui", "done", "Save entry tea"]
