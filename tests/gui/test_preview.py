"""The prompt preview shows, byte for byte, what `memdesk prompt` prints for the same inputs."""

from __future__ import annotations

import dataclasses
import gc
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta

import pytest
import shiboken6
from PySide6.QtGui import QGuiApplication

from memdesk.core.timefmt import format_iso
from memdesk.gui import dialogs
from memdesk.gui.views.preview import PreviewInputs, PromptPreviewView, add_months, diff_lines

NOW = datetime(2026, 3, 1, 12, 0, 0)  # the clock fixture's start


@pytest.fixture
def store(memdesk_app):
    app = memdesk_app
    app.documents.set("user/profile", "Name: Dana\nWorks as a designer in Lisbon ☀️")
    app.documents.set("user/facts", "- Allergic to peanuts\n- Has a dog called Miso 🐕")
    app.documents.set("user/patterns", "- Plans the week on Monday mornings")
    app.working.write("Planning the Lisbon offsite: venues, budget €12k.", ttl_days=14)
    app.apps.set_name("calendar", "Calendar")
    app.apps.add("calendar", "Prefers meetings after 2pm", created_at=NOW - timedelta(days=3))
    app.apps.add("calendar", "No meetings on Friday afternoons", expires_at=NOW + timedelta(days=5))
    app.apps.add("mail", "Signs off with 'Best, Dana'")
    app.entries.upsert("offsite venue", "Shortlisted LX Factory for the offsite")
    app.entries.upsert("peanuts", "Never suggest recipes with peanuts")
    app.sessions.log("telegram:42", "user", "hello", app_id="calendar")
    return app


@pytest.fixture
def view(store, tasks, qtbot) -> Iterator[PromptPreviewView]:
    widget = PromptPreviewView(store, tasks)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    with qtbot.waitSignal(widget.composed, timeout=10000):
        widget.show()  # the first show composes
    yield widget
    tasks.wait_idle(10000)


def recompose(view: PromptPreviewView, qtbot, change: Callable[[], object]) -> None:
    """Make a change and wait for the prompt it leads to."""
    with qtbot.waitSignal(view.composed, timeout=10000):
        change()


def cli_prompt(app, when: datetime, *args: str) -> str:
    """The real command's output, less the one newline it prints after the text."""
    command = [sys.executable, "-m", "memdesk", "--data-dir", str(app.paths.data_dir)]
    command += ["--now", format_iso(when), "prompt", *args]
    done = subprocess.run(command, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.endswith(b"\n")
    return done.stdout[:-1].decode("utf-8")


def test_default_inputs_match_the_command(view, store):
    assert view.text() == cli_prompt(store, NOW)
    assert view.prompt_view.toPlainText() == view.text()  # what is shown is the prompt itself


@pytest.mark.parametrize(
    ("inputs", "args", "days_later"),
    [
        ({"app": "calendar"}, ["--app", "calendar"], 0),
        (
            {"app": "calendar", "message": "offsite venue?"},
            ["--app", "calendar", "--message", "offsite venue?"],
            0,
        ),
        ({"message": "peanuts and Miso"}, ["--message", "peanuts and Miso"], 0),
        ({"session": "telegram:42", "app": "mail"}, ["--session", "telegram:42", "--app", "mail"], 0),
        # Working memory (14 days) and one calendar memory (5 days) have expired by then.
        ({"app": "calendar", "message": "offsite"}, ["--app", "calendar", "--message", "offsite"], 20),
        ({"app": "nobody"}, ["--app", "nobody"], 0),
    ],
)
def test_inputs_match_the_command(view, store, qtbot, inputs, args, days_later):
    when = NOW + timedelta(days=days_later)

    def change() -> None:
        if "app" in inputs:
            view.select_app(inputs["app"])
        view.message.setText(inputs.get("message", ""))
        view.session.setEditText(inputs.get("session", ""))
        view.set_date(when)

    recompose(view, qtbot, change)
    assert view.text() == cli_prompt(store, when, *args)
    assert view.prompt_view.toPlainText() == view.text()


def test_a_future_date_shows_working_memory_expired(view, qtbot):
    recompose(view, qtbot, lambda: view.set_date(NOW + timedelta(days=20)))
    working = next(s for s in view.result.prompt.sections if s.name == "working")
    assert not working.included and working.reason == "expired at 2026-03-15T12:00:00Z"
    assert "working: expired at 2026-03-15T12:00:00Z" in view.left_out.text()
    assert "--- Recent context ---" not in view.text()


def test_left_out_sections_are_listed_with_their_reasons(view):
    assert view.left_out.text() == (
        "Left out — base: empty · greeting: disabled · files: disabled · app: no app · recall: no message"
    )


def test_base_prompt_from_a_file_and_typed(view, store, qtbot, tmp_path):
    base = tmp_path / "base.md"
    base.write_text("You are Dana's assistant.\n  Be brief; never guess.  \n\n", encoding="utf-8")
    recompose(view, qtbot, lambda: view.base_file.setText(str(base)))
    expected = cli_prompt(store, NOW, "--base", str(base))
    assert view.text() == expected and expected.startswith("You are Dana's assistant.")

    def type_it() -> None:
        view.base_mode.setCurrentIndex(1)
        view.base_text.setPlainText(base.read_text(encoding="utf-8"))

    recompose(view, qtbot, type_it)
    assert view.text() == expected


def test_a_base_file_that_cannot_be_read_is_reported(view, qtbot, tmp_path):
    missing = tmp_path / "missing.txt"
    view.base_file.setText(str(missing))
    qtbot.waitUntil(lambda: view.errors.isVisible(), timeout=5000)
    assert f"Base prompt {missing}: No such file or directory." in view.errors.label.text()


def test_project_and_trust(view, store, qtbot, tmp_path):
    settings = store.settings
    store.update_settings(
        dataclasses.replace(settings, files=dataclasses.replace(settings.files, enabled=True))
    )
    project = tmp_path / "repo"
    (project / ".pi" / "memory").mkdir(parents=True)
    (project / ".pi" / "memory" / "MEMORY.md").write_text("# Memory\n\n- build with make\n", encoding="utf-8")
    recompose(view, qtbot, lambda: view.project.setText(str(project)))
    assert view.text() == cli_prompt(store, NOW, "--project", str(project))
    assert "build with make" not in view.text()
    assert view.trusted.isEnabled()
    recompose(view, qtbot, lambda: view.trusted.setChecked(True))
    assert view.text() == cli_prompt(store, NOW, "--project", str(project), "--trusted")
    assert "build with make" in view.text()
    # Trusted in the settings, as `memdesk files trust` does: no tick needed, as for the hook.
    store.update_settings(store.settings.with_values({"files.trusted_projects": [str(project)]}))
    recompose(view, qtbot, lambda: view.trusted.setChecked(False))
    assert "build with make" in view.text()
    assert view.text() == cli_prompt(store, NOW, "--project", str(project))


def test_copy_puts_the_exact_text_on_the_clipboard(view, qtbot):
    recompose(view, qtbot, lambda: view.select_app("calendar"))
    view.copy_button.click()
    assert QGuiApplication.clipboard().text() == view.text()
    assert "☀️" in view.text()


def test_save_as_writes_the_exact_bytes(view, monkeypatch, tmp_path):
    target = tmp_path / "prompt.txt"
    monkeypatch.setattr(dialogs, "save_file", lambda *args: target)
    view.save_button.click()
    assert target.read_bytes() == view.text().encode("utf-8")


def test_compare_with_a_later_date_shows_the_difference_and_token_delta(view, qtbot):
    recompose(view, qtbot, lambda: view.select_app("calendar"))
    before = view.result.prompt
    recompose(view, qtbot, lambda: view.compare_later(lambda when: when + timedelta(days=20)))
    result = view.result
    assert result.baseline is not None and result.baseline.text == before.text
    # The inputs stay as they were: the left still shows prompt A, dated now.
    assert result.prompt.text == before.text and result.prompt.now == NOW and result.inputs.when is None
    assert view.date.dateTime().toUTC().date().toString("yyyy-MM-dd") == "2026-03-01"
    assert result.later is not None and result.later.now == NOW + timedelta(days=20)
    removed = [line for tag, line in result.diff if tag == "-"]
    assert "--- Recent context ---" in removed
    assert "1. [2026-03-01] No meetings on Friday afternoons" in removed  # expired by then
    assert [line for tag, line in result.diff if tag == "+"] == ["1. [2026-02-26] Prefers meetings after 2pm"]
    delta = result.later.tokens - before.tokens
    assert delta < 0
    summary = view.diff_summary.text()
    assert f"B − A: −{-delta:,} tokens" in summary
    assert "working −" in summary and "app −" in summary
    assert view.tabs.currentIndex() == 1
    assert "- --- Recent context ---" in view.diff_view.toPlainText()
    recompose(view, qtbot, view.end_compare)
    assert view.result.baseline is None and view.result.later is None and view.tabs.currentIndex() == 0


def test_compare_with_other_inputs(view, qtbot):
    recompose(view, qtbot, view.compare_with)
    assert view.diff_view.toPlainText() == "No difference: both prompts are the same."
    recompose(view, qtbot, lambda: view.message.setText("peanuts"))
    added = [line for tag, line in view.result.diff if tag == "+"]
    assert added[:2] == ["", "## Memory Context"]
    assert "B − A: +" in view.diff_summary.text() and "recall +" in view.diff_summary.text()


def test_the_store_changing_recomposes(view, store, qtbot):
    store.documents.set("user/profile", "Name: Dana (updated)")
    recompose(view, qtbot, view.refresh)
    assert "Name: Dana (updated)" in view.text()


def test_quick_date_picks_and_now(view, qtbot):
    recompose(view, qtbot, lambda: view.pick_buttons[2].click())
    assert view.result.prompt.now == datetime(2026, 4, 1, 12, 0)
    assert view.date.dateTime().toUTC().date().toString("yyyy-MM-dd") == "2026-04-01"
    recompose(view, qtbot, view.now_button.click)
    assert view.result.prompt.now == NOW and view.result.inputs.when is None


def test_a_stale_result_is_dropped(view, store, qtbot, monkeypatch):
    """An older request that finishes after a newer one never replaces it."""
    compose = store.prompt.compose
    first_started = threading.Event()

    def slow_for_calendar(spec):
        if spec.app == "calendar":
            first_started.set()
            time.sleep(0.5)
        return compose(spec)

    monkeypatch.setattr(store.prompt, "compose", slow_for_calendar)
    view.select_app("calendar")
    qtbot.waitUntil(first_started.is_set, timeout=5000)
    recompose(view, qtbot, lambda: view.select_app("mail"))
    view.tasks.wait_idle(10000)
    qtbot.wait(50)
    assert view.result.inputs.app_id == "mail"
    assert "(memories for app: mail)" in view.text()


def test_inputs_become_the_composer_spec(tmp_path):
    spec = PreviewInputs(session=" web:1 ", message="", project=str(tmp_path), trusted=True).spec()
    assert (spec.session, spec.message, spec.project, spec.trusted) == ("web:1", None, tmp_path, True)
    assert PreviewInputs(trusted=True).spec().trusted is False  # trust needs a project, as in the CLI


def test_diff_lines():
    assert diff_lines("a\nb\nc", "a\nc\nd") == [(" ", "a"), ("-", "b"), (" ", "c"), ("+", "d")]
    assert diff_lines("", "x") == [("+", "x")]


def test_add_months_keeps_the_day_or_the_month_end():
    assert add_months(datetime(2026, 1, 31, 9), 1) == datetime(2026, 2, 28, 9)
    assert add_months(datetime(2026, 12, 15), 1) == datetime(2027, 1, 15)


def test_the_sections_are_labelled_in_the_gutter(view, qtbot):
    recompose(view, qtbot, lambda: view.select_app("calendar"))
    bands = {band.section.name: band for band in view.prompt_view.bands}
    assert list(bands) == ["profile", "working", "app"]
    y = (
        view.prompt_view.blockBoundingGeometry(
            view.prompt_view.document().findBlockByNumber(bands["app"].first_block)
        )
        .translated(view.prompt_view.contentOffset())
        .center()
        .y()
    )
    assert view.prompt_view.band_at(y).section.name == "app"


def test_an_edit_of_memory_md_on_disk_recomposes_the_preview(store, tasks, qtbot):
    store.update_settings(store.settings.with_values({"files.enabled": True}))  # the command reads it too
    folder = store.files_global_dir
    folder.mkdir(parents=True)
    index = folder / "MEMORY.md"
    index.write_text("- build with `make all`\n")
    widget = PromptPreviewView(store, tasks)
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.composed, timeout=10000):
        widget.show()
    assert "- build with `make all`" in widget.text()
    index.write_text("- build with `make release`\n")  # as an assistant's own file tool would
    qtbot.waitUntil(lambda: "make release" in widget.text(), timeout=5000)
    assert widget.text() == cli_prompt(store, NOW)
    tasks.wait_idle(10000)


def test_an_edit_of_the_base_prompt_file_recomposes_the_preview(view, store, qtbot, tmp_path):
    base = tmp_path / "base.md"
    base.write_text("You are a careful assistant.\n", encoding="utf-8")
    recompose(view, qtbot, lambda: view.base_file.setText(str(base)))
    assert view.text().startswith("You are a careful assistant.")
    base.write_text("You are a brief assistant.\n", encoding="utf-8")  # edited in another editor
    qtbot.waitUntil(lambda: view.text().startswith("You are a brief assistant."), timeout=5000)
    assert view.text() == cli_prompt(store, NOW, "--base", str(base))
    view.tasks.wait_idle(10000)


def test_who_wrote_it_marks_what_assistants_wrote_and_undoes_it(store, view, qtbot, tasks, settle):
    from memdesk.core.items import ItemKind, ItemRef
    from memdesk.services.review import Write

    with store.ctx.acting_as("mcp:web-agent"):
        store.review.submit(Write.save_entry("lisbon hotel", "Booked Hotel Lisboa Plaza for the offsite"))
    view.message.setText("where is the lisbon offsite")
    recompose(view, qtbot, view.recompose)
    panel = view.sources_panel
    writers = {panel.model.index(r, panel.model.WRITER).data() for r in range(panel.model.rowCount())}
    assert {"you", "mcp:web-agent"} <= writers
    assert not view.prompt_view.extraSelections()
    panel.assistants_only.setChecked(True)
    assert panel.proxy.rowCount() == 1
    [marked] = view.prompt_view.extraSelections()
    assert marked.cursor.selectedText() == "Booked Hotel Lisboa Plaza for the offsite"
    panel.table.selectRow(0)
    with qtbot.waitSignal(view.open_requested) as opened:
        panel.open_button.click()
    [source] = [s for s in panel.model.sources if s.origin and s.origin.by_assistant]
    assert opened.args == [ItemRef(ItemKind.HISTORY_STEP, str(source.origin.step_id))]
    panel.undo_button.click()
    settle()
    assert "lisbon hotel" not in [entry.key for entry in store.entries.list()]
    recompose(view, qtbot, view.recompose)
    assert "Hotel Lisboa Plaza" not in view.text()
    assert panel.proxy.rowCount() == 0 and not view.prompt_view.extraSelections()


@pytest.mark.parametrize(
    ("name", "size", "dark"),
    [("light", (1100, 720), False), ("dark", (1100, 720), True), ("small", (700, 480), False)],
)
def test_render_what_assistants_wrote(store, tasks, qtbot, name, size, dark):
    import os
    from pathlib import Path

    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from memdesk.services.review import Write

    shots = Path(os.environ.get("MEMDESK_SHOTS_DIR", "/tmp/memdesk-shots"))
    with store.ctx.acting_as("mcp:web-agent"):
        store.review.submit(Write.save_entry("lisbon hotel", "Booked Hotel Lisboa Plaza for the offsite"))
    app = QApplication.instance()
    previous = app.palette()
    if dark:
        app.setPalette(QPalette(QColor("#2b2d30")))
    try:
        widget = PromptPreviewView(store, tasks)
        qtbot.addWidget(widget)
        widget.resize(*size)
        with qtbot.waitSignal(widget.composed, timeout=10000):
            widget.show()
        recompose(widget, qtbot, lambda: widget.message.setText("lisbon offsite"))
        widget.sources_panel.assistants_only.setChecked(True)
        shots.mkdir(parents=True, exist_ok=True)
        assert widget.grab().save(str(shots / f"preview-marked-{name}.png"))
        widget.tabs.setCurrentWidget(widget.sources_panel)
        widget.sources_panel.assistants_only.setChecked(False)
        assert widget.grab().save(str(shots / f"preview-sources-{name}.png"))
        tasks.wait_idle(10000)
    finally:
        app.setPalette(previous)


def test_a_closed_pages_prompt_text_is_freed_at_once_without_the_garbage_collector(qapp):
    """Freed on the GUI thread when its page is deleted. An editor and gutter kept in a
    reference cycle would be freed by the garbage collector on whatever thread runs it,
    and PySide then deletes them at an arbitrary moment of the GUI thread, which crashed."""
    from PySide6.QtWidgets import QWidget

    from memdesk.gui.views.preview import PromptText

    page = QWidget()
    text = PromptText(page)
    freed: list[bool] = []
    weakref.finalize(text, freed.append, True)
    gc.disable()
    try:
        del text
        shiboken6.delete(page)
        assert freed == [True]
    finally:
        gc.enable()


def test_the_total_and_the_sections_figures_are_explained(view, store, qtbot):
    """Each section is counted on its own, the total over the whole text: one of four
    profile lengths rounds differently, and the summary then says why the figures differ."""
    seen = set()
    for extra in range(4):
        store.documents.set("user/profile", "Name: Dana" + "!" * extra)
        recompose(view, qtbot, view.refresh)
        prompt = view.result.prompt
        in_sections = sum(section.tokens for section in prompt.sections if section.included)
        assert view.total.text() == f"{prompt.tokens:,} tokens"
        note = f"({in_sections:,} tokens counted section by section; the total counts the whole text"
        assert (note in view.summary.text()) == (in_sections != prompt.tokens)
        seen.add(in_sections == prompt.tokens)
    assert seen == {True, False}
