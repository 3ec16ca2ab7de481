"""Settings as a new user reads it: the window's names for values, a tooltip naming each key,
and notes that wrap and scroll rather than overlap at the dialog's first size."""

from __future__ import annotations

from itertools import pairwise

import keyring.backends.fail
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QScrollArea
from tests.gui.test_settings import settings_dialog

from memdesk.config import SPEC_BY_KEY
from memdesk.gui.settings_dialog import SECTION_TITLES


def test_trust_and_steps_read_as_on_the_assistants_page(qtbot, memdesk_app, tasks):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    trust = dialog.editors["agents.default_trust"]
    assert trust.currentText() == "Review suspicious"
    assert [trust.itemText(i) for i in range(trust.count())] == [
        "Read only",
        "Review everything",
        "Review suspicious",
        "Trusted",
    ]
    steps = dialog.editors["compaction.steps"]
    assert [box.text() for box in steps.boxes.values()] == [
        "Working memory",
        "Timeline",
        "Facts",
        "App memories",
    ]
    form = dialog.forms["compaction"]
    labels = {
        form.labelForField(dialog.editors[key]).text()
        for key in SPEC_BY_KEY
        if key.startswith("compaction.")
        if form.labelForField(dialog.editors[key]) is not None
    }
    assert "What compaction writes" in labels
    assert "Failed runs before keeping the conversation as it is" in labels


def test_plain_labels_explain_themselves_and_name_their_key(qtbot, memdesk_app, tasks):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    failures = dialog.editors["compaction.max_failures_before_degrade"].toolTip()
    assert failures.startswith("After this many failed runs in a row on one session")
    assert failures.endswith("compaction.max_failures_before_degrade: a number from 1 to 100")
    steps = dialog.editors["compaction.steps"].toolTip()
    assert "never touched by compaction" in steps and "compaction.steps: a list drawn from working" in steps
    assert "agents.default_trust: one of read-only" in dialog.editors["agents.default_trust"].toolTip()


def test_every_language_model_field_names_its_key(main_window, settle):
    dialog = main_window.settings_dialog()
    panel = dialog.page("llm")
    panel.backend.setCurrentIndex(panel.backend.findData("openai"))
    settle()
    fields = {
        "llm.backend": panel.backend,
        "llm.openai_base_url": panel.base_url,
        "llm.model": panel.model,
        "llm.timeout_seconds": panel.timeout,
        "llm.max_tokens": panel.max_tokens,
    }
    for key, field in fields.items():
        assert f"{key}: " in field.toolTip(), key
    dialog.close()


def test_a_failed_test_at_a_closed_port_wraps_and_scrolls(main_window, use_keyring, qtbot, settle):
    use_keyring(keyring.backends.fail.Keyring())
    dialog = main_window.settings_dialog()
    dialog.show()
    dialog.tabs.setCurrentIndex(list(SECTION_TITLES).index("llm"))
    panel = dialog.page("llm")
    panel.backend.setCurrentIndex(panel.backend.findData("openai"))
    panel.base_url.setText("http://127.0.0.1:9/v1")
    panel.base_url.editingFinished.emit()
    qtbot.mouseClick(panel.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "not reachable" in panel.test_result.text(), timeout=10000)
    settle()

    assert panel.test_result.text().startswith(
        "The OpenAI-compatible server at http://127.0.0.1:9/v1 is not reachable"
    )
    assert panel.key_status.text() == "A server on this computer needs no key."
    # Every note gets the height its wrapped text needs, and none overlaps the next.
    notes = [panel.local_status, panel.models_status, panel.key_status, panel.test_result]
    for label in notes:
        assert label.wordWrap()
        assert label.height() >= label.heightForWidth(label.width()), label.text()
    tops = sorted((label.y(), label.y() + label.height()) for label in notes)
    assert all(bottom <= next_top for (_top, bottom), (next_top, _b) in pairwise(tops))
    # The tab scrolls to show what does not fit, the result of the test included.
    scroll = dialog.tabs.currentWidget()
    assert isinstance(scroll, QScrollArea)
    top_left = panel.test_result.mapTo(scroll.viewport(), panel.test_result.rect().topLeft())
    assert 0 <= top_left.y() < scroll.viewport().height()
    assert all(isinstance(label, QLabel) for label in notes)
    dialog.close()


def test_every_field_of_every_tab_fits_the_dialog_at_its_first_size(qtbot, memdesk_app, tasks, settle):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    for index, section in enumerate(SECTION_TITLES):
        dialog.tabs.setCurrentIndex(index)
        settle()
        page = dialog.page(section)
        for key, editor in dialog.editors.items():
            if key.startswith(f"{section}."):
                right = editor.mapTo(page, editor.rect().topRight()).x()
                assert right <= page.width(), key
                for box in getattr(editor, "boxes", {}).values():  # a subset's checkboxes
                    assert box.mapTo(page, box.rect().topRight()).x() <= page.width(), box.text()
