"""Reopening on Knowledge: its first page is on screen before the store layer loads, and
the table's own reads take over from it without a row, the selection or the scroll moving."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt

from memdesk.core.privacy import Target, TargetKind
from memdesk.gui.main_window import STATE_FILE, MainWindow
from memdesk.gui.models.entries import EntryTableModel
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.entries import EntriesView

ENTRIES = 25
PAGE_ROWS = 10  # so that the ids read after the first page are more than it


def reopen_on(data_dir: Any, page: str) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / STATE_FILE).write_text(json.dumps({"page": page}), encoding="utf-8")


def fill(app: Any, now: Any) -> None:
    for number in range(ENTRIES):
        app.entries.upsert(
            f"k{number:02d}", f"fact {number}", "knowledge", created_at=now - timedelta(hours=number)
        )
    app.privacy.set_private(Target(TargetKind.ENTRY, "k01"), True)


def cells(view: EntriesView, rows: int) -> list[list[Any]]:
    model = view.model
    return [
        [
            model.index(row, column).data(role)
            for column in range(model.columnCount())
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
        ]
        + [model.index(row, EntryTableModel.KEY).data(Qt.ItemDataRole.DecorationRole) is not None]
        for row in range(rows)
    ]


@pytest.fixture
def unstarted(qtbot, memdesk_app, answer) -> Iterator[Callable[[str], tuple[MainWindow, TaskRunner]]]:
    """``unstarted(page)``: a window reopening on ``page`` and a runner not started yet, the
    store not attached."""
    made: list[tuple[MainWindow, TaskRunner]] = []

    def make(page: str) -> tuple[MainWindow, TaskRunner]:
        reopen_on(memdesk_app.paths.data_dir, page)
        made.append((MainWindow(memdesk_app.paths.data_dir), TaskRunner()))
        return made[-1]

    yield make
    answer("confirm", True)
    for window, tasks in made:
        window.close()
        tasks.wait_idle(10000)
        tasks.shutdown()
        window.deleteLater()


def test_the_first_page_shows_before_the_store_and_the_table_takes_over_unmoved(
    qtbot, memdesk_app, clock, unstarted, monkeypatch
):
    monkeypatch.setattr(EntryTableModel, "PAGE_ROWS", PAGE_ROWS)
    fill(memdesk_app, clock.now)
    window, tasks = unstarted("knowledge")

    assert window.show_first_page(tasks, memdesk_app.paths.db_file, clock.now)
    window.resize(900, 300)  # fewer rows fit than the first page holds: there is a scroll
    window.show()
    qtbot.waitExposed(window)
    view = window.view_as("knowledge", EntriesView)
    assert window.stack.currentWidget() is view and window.current_page == "knowledge"
    assert view.model.rowCount() == PAGE_ROWS
    before = cells(view, PAGE_ROWS)
    assert before[0][0] == "k00" and before[1][-1]  # newest first; the private one has its lock
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    view.table.selectionModel().setCurrentIndex(view.model.index(6, EntryTableModel.CONTENT), flags)
    view.table.scrollTo(view.model.index(6, 0))
    scrolled = view.table.verticalScrollBar().value()
    assert scrolled > 0
    resets: list[bool] = []
    view.model.modelReset.connect(lambda: resets.append(True))

    tasks.start(memdesk_app)
    window.attach(memdesk_app, tasks)
    qtbot.waitUntil(lambda: view.model.complete and not tasks.busy, timeout=10000)
    tasks.wait_idle()

    assert resets == []
    assert view.model.rowCount() == ENTRIES
    assert cells(view, PAGE_ROWS) == before
    assert view.model.id_at(view.table.currentIndex().row()) == view.model.id_at(6)
    assert view.table.currentIndex().row() == 6
    assert [index.row() for index in view.table.selectionModel().selectedRows()] == [6]
    assert view.table.verticalScrollBar().value() == scrolled
    assert view.header.subtitle.text() == f"{ENTRIES} entries"


def test_another_page_opened_last_waits_for_the_store(qtbot, memdesk_app, clock, unstarted):
    fill(memdesk_app, clock.now)
    window, tasks = unstarted("trash")

    assert not window.show_first_page(tasks, memdesk_app.paths.db_file, clock.now)
    assert window.current_page == "" and window.views == {}


# In its own process: whether SQLAlchemy has loaded can only be seen in a fresh interpreter.
WATCH_THE_OPENING = """
import sys
from PySide6.QtWidgets import QApplication
from memdesk.cli.main import build_parser
from memdesk.gui import application

real_open = application.open_store


def watching_open(args):
    (window,) = [w for w in QApplication.topLevelWidgets() if w.isVisible() and hasattr(w, "views")]
    table = window.views["knowledge"].model
    print("while opening:", window.current_page, table.rowCount(), "sqlalchemy" in sys.modules)
    return real_open(args)


application.open_store = watching_open
sys.exit(application.run(build_parser().parse_args(sys.argv[1:])))
"""


def test_the_first_rows_are_on_screen_before_sqlalchemy_loads(tmp_path, memdesk_app, clock):
    fill(memdesk_app, clock.now)
    memdesk_app.close()
    data = memdesk_app.paths.data_dir
    reopen_on(data, "knowledge")
    script = tmp_path / "watch.py"
    script.write_text(WATCH_THE_OPENING, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script), "--data-dir", str(data), "gui", "--smoke-test"],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"while opening: knowledge {ENTRIES} False"
