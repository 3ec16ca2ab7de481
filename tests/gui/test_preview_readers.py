"""The prompt preview and what assistants can read: private items listed as left out, and
"As seen by" showing exactly the prompt an assistant receives (the same as `memdesk prompt
--as`)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render

from memdesk.core.privacy import Target, TargetKind
from memdesk.core.timefmt import format_iso
from memdesk.gui.views.preview import YOU, PromptPreviewView


@pytest.fixture
def store(memdesk_app):
    app = memdesk_app
    app.documents.set("user/profile", "Name: Ada")
    app.apps.add("health", "Sees a therapist every Thursday.")
    app.apps.add("work", "Stand-up every Thursday at nine.")
    app.entries.upsert("therapy", "Therapy with Dr. Lind on Thursdays")
    app.entries.upsert("coffee", "Coffee with Sam on Thursdays")
    app.privacy.set_private(Target(TargetKind.APP, "health"), True)
    app.privacy.set_private(Target(TargetKind.ENTRY, "therapy"), True)
    app.privacy.set_app_limit("mcp:coder", ["health"])
    return app


@pytest.fixture
def view(store, tasks, qtbot) -> Iterator[PromptPreviewView]:
    widget = PromptPreviewView(store, tasks)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    with qtbot.waitSignal(widget.composed, timeout=10000):
        widget.show()
    yield widget
    tasks.wait_idle(10000)


def _set(view: PromptPreviewView, qtbot, app: str, message: str, reader: str = "") -> None:
    # The choices are read after the first composition.
    qtbot.waitUntil(lambda: view.app_choice.findData(app) >= 0 and view.reader.findData(reader) >= 0)
    with qtbot.waitSignal(view.composed, timeout=10000):
        view.app_choice.setCurrentIndex(view.app_choice.findData(app))
        view.message.setText(message)
        view.reader.setCurrentIndex(view.reader.findData(reader))
        view.recompose()


def _cli(app, *args: str) -> str:
    command = [sys.executable, "-m", "memdesk", "--data-dir", str(app.paths.data_dir)]
    command += ["--now", format_iso(app.now()), "prompt", *args]
    done = subprocess.run(command, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout[:-1].decode("utf-8")


def test_private_items_are_listed_as_left_out(view, store, qtbot):
    _set(view, qtbot, "health", "what happens on Thursdays")
    assert "therapist" not in view.text() and "Dr. Lind" not in view.text()
    assert "Coffee with Sam" in view.text()
    lines = view.left_out.text().splitlines()
    assert "app: private" in lines[0]  # the person is told why, where an assistant reads "empty"
    assert lines[1] == "Left out — private: app:health · entry:therapy"
    assert view.text() == _cli(store, "--app", "health", "--message", "what happens on Thursdays")


def test_as_seen_by_shows_the_assistants_own_prompt(view, store, qtbot):
    qtbot.waitUntil(lambda: view.reader.count() == 2)
    assert [view.reader.itemText(i) for i in range(view.reader.count())] == [YOU, "mcp:coder"]
    _set(view, qtbot, "work", "Thursday", reader="mcp:coder")
    assert "Stand-up" not in view.text()
    assert "app: this assistant may read only the apps the person chose for it" in view.left_out.text()
    as_coder = _cli(store, "--as", "coder", "--app", "work", "--message", "Thursday")
    assert view.text() == as_coder
    _set(view, qtbot, "work", "Thursday")
    assert "Stand-up" in view.text()
    # A limit lifted while the preview is open shows at the next composition.
    store.privacy.set_app_limit("mcp:coder", None)
    _set(view, qtbot, "work", "Thursday", reader="mcp:coder")
    assert "Stand-up" in view.text()


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_as_seen_by(store, tasks, qtbot, name, size, dark):
    with app_palette(dark):
        widget = PromptPreviewView(store, tasks)
        qtbot.addWidget(widget)
        widget.resize(*size)
        with qtbot.waitSignal(widget.composed, timeout=10000):
            widget.show()
        _set(widget, qtbot, "health", "Thursdays", reader="mcp:coder")
        save_render(widget, f"preview-as-seen-by-{name}", size)
        tasks.wait_idle(10000)
