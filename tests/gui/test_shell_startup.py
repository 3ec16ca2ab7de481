"""``memdesk gui``: the smoke test packaging runs, and a store that cannot be opened."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path


def run_gui(data_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-m", "memdesk", "--data-dir", str(data_dir), "gui", *extra],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def test_smoke_test_starts_opens_the_store_and_exits_0(tmp_path):
    done = run_gui(tmp_path / "data", "--smoke-test")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "data" / "memdesk.sqlite3").exists()
    assert "Traceback" not in done.stderr


def test_a_newer_store_is_refused_in_plain_words(tmp_path):
    data = tmp_path / "data"
    assert run_gui(data, "--smoke-test").returncode == 0
    with sqlite3.connect(data / "memdesk.sqlite3") as conn:
        conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    done = run_gui(data, "--smoke-test")
    assert done.returncode == 1
    assert "written by a newer Memdesk" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_store_that_cannot_be_opened_is_explained_in_a_dialog(tmp_path, qapp, answer, dialog_log):
    from memdesk.cli.main import build_parser
    from memdesk.gui.application import run

    data = tmp_path / "data"
    data.mkdir()
    (data / "memdesk.sqlite3").write_bytes(b"this is not a database, just some bytes" * 100)
    answer("error", None)
    args = build_parser().parse_args(["--data-dir", str(data), "gui"])
    assert run(args) == 1
    ((title, text),) = [args[1:] for name, args in dialog_log.calls if name == "error"]
    assert "cannot open its memory store" in title
    assert "not a readable Memdesk database" in text or "not a database" in text


# In its own process: quitting the event loop for good would stall every later test here.
WATCH_THE_OPENING = """
import sys
from PySide6.QtWidgets import QApplication
from memdesk.cli.main import build_parser
from memdesk.gui import application
from memdesk.gui.main_window import MainWindow

real_open = application.open_store


def watching_open(args):
    shown = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    print("while opening:", [w.stack.currentWidget().text() for w in shown], "sqlalchemy" in sys.modules)
    return real_open(args)


application.open_store = watching_open
sys.exit(application.run(build_parser().parse_args(sys.argv[1:])))
"""


def test_the_window_is_on_screen_before_the_store_opens(tmp_path):
    """A person sees the window at once; the slow store layer loads behind it."""
    script = tmp_path / "watch.py"
    script.write_text(WATCH_THE_OPENING, encoding="utf-8")
    data = tmp_path / "data"
    done = subprocess.run(
        [sys.executable, str(script), "--data-dir", str(data), "gui", "--smoke-test"],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "while opening: ['Opening the store…'] False"
    assert (data / "memdesk.sqlite3").exists()


def test_a_window_closed_before_its_store_opened_still_remembers_its_size(tmp_path, qtbot):
    from memdesk.gui.main_window import MainWindow

    window = MainWindow(tmp_path)
    qtbot.addWidget(window)
    window.resize(700, 500)
    window.show()
    qtbot.waitExposed(window)
    window.close()
    reopened = MainWindow(tmp_path)
    qtbot.addWidget(reopened)
    assert (reopened.width(), reopened.height()) == (700, 500)


def test_the_opening_message_gives_way_to_the_first_page(main_window, qtbot):
    qtbot.waitUntil(lambda: main_window.current_page != "")
    assert main_window.opening_label is None
    assert main_window.stack.currentWidget() in main_window.views.values()
    assert main_window.stack.count() == len(main_window.views)  # the message left the stack
    assert main_window.store_label.text().startswith("Store: ")
