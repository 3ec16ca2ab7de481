"""Render the main views to PNG, in light and dark palettes, at two window sizes.

    make screenshots        # or: .venv/bin/python scripts/screenshots.py [--out DIR]

Runs offscreen on the example store (with a fixed clock, so every run draws the same
dates) in a temporary data folder. Writes ``screenshots-out/<palette>-<size>-<view>.png``
and ``docs/screenshot-main.png`` (the main window, light) for the README.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory, QWidget

from memdesk.gui.application import make_qapplication
from memdesk.gui.main_window import MainWindow
from memdesk.gui.settings_dialog import SettingsDialog
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.welcome import load_example
from memdesk.services import files
from memdesk.services.memdesk import Memdesk

ROOT = Path(__file__).resolve().parent.parent
NOW = datetime(2026, 3, 1, 12, 0, 0)
SIZES = {"large": (1280, 800), "small": (800, 560)}
# (file name, sidebar key or action): the views worth looking at.
PAGES = [
    ("documents", "doc:profile"),
    ("working", "working"),
    ("apps", "app:calendar"),
    ("knowledge", "knowledge"),
    ("timeline", "timeline"),
    ("sessions", "sessions"),
    ("files", "files:global"),
    ("expiry", "expiry"),
    ("preview", "preview"),
    ("trash", "trash"),
    ("history", "history"),
]
MEMORY_INDEX = """# Memory index

- Build with `make build`; tests with `make test` (needs Docker running).
- Maya prefers squash merges with a one-line summary.
- Release notes go in CHANGELOG.md, newest first. See release.md.

## Design system

- Tokens live in ds-tokens; never hard-code colours. See tokens.md.
"""


def dark_palette() -> QPalette:
    """A dark palette like a desktop's dark mode, for checking that views stay readable."""
    pal = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2d30",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1f2023",
        QPalette.ColorRole.AlternateBase: "#27292c",
        QPalette.ColorRole.ToolTipBase: "#3a3c40",
        QPalette.ColorRole.ToolTipText: "#f0f0f0",
        QPalette.ColorRole.PlaceholderText: "#8a8d93",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#35373b",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.BrightText: "#ffffff",
        QPalette.ColorRole.Highlight: "#3d6fb6",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#7fb0ff",
        QPalette.ColorRole.Light: "#45484d",
        QPalette.ColorRole.Midlight: "#3a3c40",
        QPalette.ColorRole.Mid: "#2f3134",
        QPalette.ColorRole.Dark: "#18191b",
        QPalette.ColorRole.Shadow: "#000000",
    }
    for role, color in roles.items():
        pal.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor("#7c7f85"))
    return pal


def quiet_messages(kind: QtMsgType, _context: object, message: str) -> None:
    """Qt's warnings, minus the one the offscreen platform prints for every window."""
    if kind != QtMsgType.QtDebugMsg and "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


def settle(tasks: TaskRunner, rounds: int = 3) -> None:
    """Let background reads land and the widgets repaint."""
    for _ in range(rounds):
        tasks.wait_idle(10000)
        deadline = time.monotonic() + 0.15
        while time.monotonic() < deadline:
            QCoreApplication.processEvents()
            time.sleep(0.01)


def open_store(data_dir: Path) -> Memdesk:
    return Memdesk.open(data_dir=str(data_dir), actor="gui", clock=lambda: NOW)


def prepare_example(data_dir: Path) -> None:
    """The example store, a few edits for History and Trash, and a MEMORY.md folder."""
    app = open_store(data_dir)
    try:
        load_example(app)
        profile = app.documents.text("user/profile")
        app.documents.set("user/profile", profile + "\n- Prefers Portuguese for family matters.")
        memories = app.apps.memories("fitness")
        app.apps.delete([memories[-1].id])
        folder = app.files_global_dir
        files.write_file(folder, "MEMORY.md", MEMORY_INDEX)
        files.write_file(folder, "release.md", "# Releases\n\nTag, then run `make release`.\n")
        files.write_file(folder, "tokens.md", "# Design tokens\n\nColours are named by role.\n")
        files.write_file(folder / files.ARCHIVE_DIR, "old-ci.md", "# Old CI\n\nJenkins, retired in 2025.\n")
    finally:
        app.close()


def grab(widget: QWidget, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not widget.grab().save(str(path)):
        raise SystemExit(f"could not write {path}")
    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def with_window(
    data_dir: Path, size: tuple[int, int], body: Callable[[MainWindow, TaskRunner], None]
) -> None:
    app = open_store(data_dir)
    tasks = TaskRunner(app)
    window = MainWindow(app, tasks)
    window.resize(*size)
    window.show()
    settle(tasks)
    try:
        body(window, tasks)
    finally:
        window.watcher.stop()
        window.close()
        tasks.wait_idle(10000)
        tasks.shutdown()
        app.close()


def shoot(out: Path, data_dir: Path, empty_dir: Path, palette_name: str, size_name: str) -> None:
    size = SIZES[size_name]
    prefix = f"{palette_name}-{size_name}"

    def welcome(window: MainWindow, tasks: TaskRunner) -> None:
        grab(window, out / f"{prefix}-welcome.png")

    def views(window: MainWindow, tasks: TaskRunner) -> None:
        for name, key in PAGES:
            window.show_page(key)
            settle(tasks)
            grab(window, out / f"{prefix}-{name}.png")
            if (palette_name, size_name, name) == ("light", "large", "documents"):
                grab(window, ROOT / "docs" / "screenshot-main.png")
        window.search_box.setText("porto")
        window.search_box.query_changed.emit("porto")
        settle(tasks)
        grab(window, out / f"{prefix}-search.png")
        dialog = SettingsDialog(window.app, tasks, window)
        dialog.show()
        settle(tasks)
        grab(dialog, out / f"{prefix}-settings.png")
        dialog.close()

    with_window(empty_dir, size, welcome)
    with_window(data_dir, size, views)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "screenshots-out"), help="folder for the PNG files")
    args = parser.parse_args()
    out = Path(args.out)
    qInstallMessageHandler(quiet_messages)
    qt_app = make_qapplication(sys.argv[:1])
    qt_app.setStyle(QStyleFactory.create("Fusion"))
    light = qt_app.style().standardPalette()
    with tempfile.TemporaryDirectory() as tmp:
        data_dir, empty_dir = Path(tmp) / "example", Path(tmp) / "empty"
        os.environ["MEMDESK_DATA_DIR"] = str(data_dir)
        prepare_example(data_dir)
        for palette_name, palette in (("light", light), ("dark", dark_palette())):
            QApplication.setPalette(palette)
            for size_name in SIZES:
                # Each run starts from the same window state, not the previous run's size.
                for state in (data_dir / "window-state.json", empty_dir / "window-state.json"):
                    state.unlink(missing_ok=True)
                shoot(out, data_dir, empty_dir, palette_name, size_name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
