"""GUI fixtures: a TaskRunner and a MainWindow on the test's real Memdesk store.

Every dialog function is replaced by one that fails the test, so a question nobody
expected cannot block a run waiting for a click; tests that expect a question answer it
with ``answer(monkeypatch, "confirm", True)``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.gui.tables_fixtures import Answers, running_tasks

from memdesk.gui import dialogs
from memdesk.services.clients.known import LOCATION_ENV

# The offscreen platform warns about this for every top-level window it shows.
DIALOG_FUNCTIONS = (
    "confirm",
    "error",
    "info",
    "choose",
    "ask_int",
    "ask_text",
    "ask_long_text",
    "open_file",
    "save_file",
    "pick_folder",
)



class DialogLog:
    """What the window asked, in order: (function name, args)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def texts(self, name: str) -> list[str]:
        return [" ".join(str(a) for a in args[1:]) for called, args in self.calls if called == name]


@pytest.fixture(autouse=True)
def dialog_log(monkeypatch: pytest.MonkeyPatch) -> DialogLog:
    log = DialogLog()

    def unexpected(name: str) -> Callable[..., Any]:
        def ask(*args: Any, **kwargs: Any) -> Any:
            log.calls.append((name, args))
            raise AssertionError(f"unexpected dialog {name}{args[1:]}")

        return ask

    for name in DIALOG_FUNCTIONS:
        monkeypatch.setattr(dialogs, name, unexpected(name))
    return log


@pytest.fixture
def answer(monkeypatch: pytest.MonkeyPatch, dialog_log: DialogLog) -> Callable[[str, Any], None]:
    """``answer("confirm", True)``: the next (and every) call of that dialog returns the value."""

    def set_answer(name: str, value: Any) -> None:
        def reply(*args: Any, **kwargs: Any) -> Any:
            dialog_log.calls.append((name, args))
            return value

        monkeypatch.setattr(dialogs, name, reply)

    return set_answer


@pytest.fixture
def tasks(memdesk_app, qapp) -> Iterator:
    """A runner whose background errors fail the test unless the test takes them."""
    yield from running_tasks(memdesk_app)


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> Answers:
    """Dialogs answered from an ``Answers`` (confirm yes; texts in turn), and what was asked."""
    return Answers().install(monkeypatch)


@pytest.fixture
def make_window(memdesk_app, tasks, qtbot, answer) -> Iterator[Callable[[], Any]]:
    """``make_window()``: a shown MainWindow, closed at teardown.

    Closed here rather than by qtbot: qtbot closes widgets before fixtures are torn down,
    when the dialogs still refuse to answer, and an exception inside closeEvent leaves
    PySide in a state that crashes a later test.
    """
    from memdesk.gui.main_window import MainWindow

    windows = []

    def make() -> Any:
        window = MainWindow.for_store(memdesk_app, tasks)
        windows.append(window)
        window.show()
        qtbot.waitExposed(window)
        tasks.wait_idle()
        return window

    yield make
    answer("confirm", True)  # closing with an unresolved conflict must not wait for a click
    for window in windows:
        window.close()
        tasks.wait_idle(10000)
        window.deleteLater()


@pytest.fixture
def main_window(make_window) -> Any:
    return make_window()


@pytest.fixture
def settle(tasks, qtbot) -> Callable[[], None]:
    """Deliver every background task, and the tasks their results start in turn."""

    def run() -> None:
        for _ in range(3):
            tasks.wait_idle(10000)
            qtbot.wait(30)
        assert tasks.wait_idle(10000)

    return run




@pytest.fixture
def client_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of the test's own, so the client list reads (and Connect writes) no real
    assistant's config."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for name in LOCATION_ENV:
        monkeypatch.delenv(name, raising=False)
    return home
