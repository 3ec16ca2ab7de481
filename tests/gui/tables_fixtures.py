"""Helpers for the table view tests: a drained TaskRunner, answered dialogs, settling, bulk rows."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication
from sqlalchemy import insert

from memdesk.gui import dialogs
from memdesk.gui.tasks import TaskRunner
from memdesk.services.memdesk import Memdesk
from memdesk.store.models import Entry

START = datetime(2026, 1, 1, 9, 0, 0)


def running_tasks(app: Memdesk) -> Iterator[TaskRunner]:
    """A TaskRunner whose unhandled errors are collected in ``tasks.errors``; a test that
    leaves one there fails, so no error is lost silently."""
    tasks = TaskRunner(app)
    errors: list[Exception] = []
    tasks.error.connect(errors.append)
    tasks.errors = errors  # type: ignore[attr-defined]
    yield tasks
    tasks.wait_idle(10000)
    tasks.shutdown()
    assert not errors, f"unexpected errors: {errors!r}"


def settle(view: Any, qtbot: Any) -> None:
    """Deliver every task of the view's runner, and the reads their results start."""
    for _ in range(3):
        view.tasks.wait_idle()
        qtbot.wait(10)


@dataclass
class Answers:
    """What the dialogs answer, and what they were asked."""

    confirm: bool = True
    texts: list[str | None] = field(default_factory=list)
    asked: list[tuple[str, str, str]] = field(default_factory=list)  # (function, title, text)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> Answers:
        def confirm(_parent: object, title: str, text: str, action: str = "OK") -> bool:
            self.asked.append(("confirm", title, text))
            return self.confirm

        def ask_text(_parent: object, title: str, label: str, text: str = "") -> str | None:
            self.asked.append(("ask_text", title, label))
            return self.texts.pop(0) if self.texts else None

        def refuse(*args: object, **kwargs: object) -> None:
            raise AssertionError(f"unexpected dialog {args!r}")

        monkeypatch.setattr(dialogs, "confirm", confirm)
        monkeypatch.setattr(dialogs, "ask_text", ask_text)
        for name in ("error", "info", "choose", "ask_int", "show_error"):
            monkeypatch.setattr(dialogs, name, refuse)
        return self


def bulk_entries(
    app: Memdesk,
    count: int,
    category: str = "knowledge",
    first: int = 0,
    content: str = "note {i} about coffee",
) -> None:
    """``count`` entries written in one transaction (the FTS triggers index them as usual).

    Entry ``i`` has key ``k{i:07d}``, is created ``i`` minutes after START and has importance
    ``(i % 11) / 10``."""
    rows = []
    for i in range(first, first + count):
        at = START + timedelta(minutes=i)
        rows.append(
            {
                "key": f"k{i:07d}",
                "content": content.format(i=i),
                "category": category,
                "importance": (i % 11) / 10,
                "session_id": f"telegram:{i % 7}",
                "created_at": at,
                "updated_at": at,
                "pinned": False,
            }
        )
    with app.store.write() as session:
        session.execute(insert(Entry), rows)


def shown(qtbot: Any, view: Any, settle: Any, size: tuple[int, int] = (1000, 760)) -> Any:
    """``view`` on screen at ``size``, read from the store, every task it started delivered."""
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    view.refresh()
    settle()
    return view


SHOTS = Path(os.environ.get("MEMDESK_SHOTS_DIR", "/tmp/memdesk-shots"))
# Light, dark and a small window: the renders each view is looked at in.
RENDERS = [("light", (1000, 760), False), ("dark", (1000, 760), True), ("small", (640, 460), False)]


@contextmanager
def app_palette(dark: bool) -> Iterator[None]:
    """The application in a dark palette (or as it is) for the block, then back."""
    app = QApplication.instance()
    previous = app.palette()
    if dark:
        app.setPalette(QPalette(QColor("#2b2d30")))
    try:
        yield
    finally:
        app.setPalette(previous)


def save_render(view: Any, name: str, size: tuple[int, int]) -> None:
    """Grab ``view`` at ``size`` into ``SHOTS/<name>.png`` to be looked at."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    image = view.grab()
    assert image.width() == size[0]
    assert image.save(str(SHOTS / f"{name}.png"))
