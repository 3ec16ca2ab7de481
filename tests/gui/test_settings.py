"""The Settings dialog: every key with its range; bad values refused, good ones saved to the TOML."""

from __future__ import annotations

import tomllib

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget
from tests.support.llm_servers import FakeLLMServer, Reply

from memdesk.config import SPECS
from memdesk.gui.settings_dialog import PathEditor, PathsEditor, SettingsDialog, SubsetEditor
from memdesk.secrets import SERVICE


def settings_dialog(qtbot, memdesk_app, tasks) -> SettingsDialog:
    dialog = SettingsDialog(memdesk_app, tasks)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_every_key_has_an_editor_with_its_range(qtbot, memdesk_app, tasks):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    assert set(dialog.editors) == {spec.key for spec in SPECS}
    kinds = {
        "int": QSpinBox,
        "float": QDoubleSpinBox,
        "bool": QCheckBox,
        "choice": QComboBox,
        "subset": SubsetEditor,
        "path": PathEditor,
        "paths": PathsEditor,
        "str": QLineEdit,
        "url": QLineEdit,
    }
    for spec in SPECS:
        editor = dialog.editors[spec.key]
        assert isinstance(editor, kinds[spec.kind]), spec.key
        if spec.kind in ("int", "float"):
            assert (editor.minimum(), editor.maximum()) == (spec.minimum, spec.maximum), spec.key
        assert spec.key in editor.toolTip()
    stored = memdesk_app.settings.to_toml_dict()
    assert dialog.values() == {spec.key: stored[spec.section][spec.name] for spec in SPECS}
    assert dialog.data_folder.isReadOnly()
    assert dialog.data_folder.text() == str(memdesk_app.paths.data_dir)


def test_a_number_out_of_range_cannot_be_typed(qtbot, memdesk_app, tasks):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    spin = dialog.editors["memory.recall_limit"]
    spin.selectAll()
    qtbot.keyClicks(spin, "999")
    spin.interpretText()
    assert spin.value() <= 50


def test_a_bad_value_shows_the_message_and_is_not_saved(qtbot, memdesk_app, tasks, settle):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    url = dialog.editors["llm.openai_base_url"]
    url.clear()
    qtbot.keyClicks(url, "ftp://models.example")
    dialog.editors["memory.recall_limit"].setValue(7)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    settle()
    assert dialog.isVisible()
    assert dialog.bad_value.isVisible()
    assert "llm.openai_base_url" in dialog.bad_value.label.text()
    assert "an http:// or https:// URL" in dialog.bad_value.label.text()
    assert dialog.tabs.tabText(dialog.tabs.currentIndex()) == "Language model"
    assert not memdesk_app.paths.config_file.exists()
    assert memdesk_app.settings.memory.recall_limit == 5


def test_good_values_are_saved_to_the_toml_and_used(qtbot, memdesk_app, tasks, settle):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    dialog.editors["memory.recall_limit"].setValue(12)
    dialog.editors["memory.proactive_session_greeting"].setChecked(True)
    backend = dialog.editors["llm.backend"]
    backend.setCurrentIndex(backend.findData("anthropic"))
    dialog.editors["compaction.steps"].boxes["facts"].setChecked(False)
    dialog.editors["llm.timeout_seconds"].setValue(30.5)
    with qtbot.waitSignal(dialog.accepted):
        qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    saved = tomllib.loads(memdesk_app.paths.config_file.read_text(encoding="utf-8"))
    assert saved["memory"]["recall_limit"] == 12
    assert saved["memory"]["proactive_session_greeting"] is True
    assert saved["llm"]["backend"] == "anthropic"
    assert saved["llm"]["timeout_seconds"] == 30.5
    assert saved["compaction"]["steps"] == ["working", "timeline", "app"]
    assert memdesk_app.settings.memory.recall_limit == 12


def test_saving_writes_only_the_changed_keys_into_the_persons_file(qtbot, memdesk_app, tasks, settle):
    theirs = '# tuned for the laptop\n[llm]\nbackend = "openai"  # llama.cpp on :8080\n'
    memdesk_app.paths.config_file.write_text(theirs, encoding="utf-8")
    memdesk_app.update_settings(memdesk_app.settings)  # as opened: nothing changes, nothing is written
    assert memdesk_app.paths.config_file.read_text(encoding="utf-8") == theirs
    assert memdesk_app.settings.llm.backend == "openai"  # the file, read again, is what is used
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    dialog.editors["memory.recall_limit"].setValue(9)
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    settle()
    assert (
        memdesk_app.paths.config_file.read_text(encoding="utf-8") == theirs + "\n[memory]\nrecall_limit = 9\n"
    )


def test_restore_defaults_resets_every_editor(qtbot, memdesk_app, tasks):
    memdesk_app.update_settings(memdesk_app.settings.with_values({"memory.app_memory_cap": 3}))
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    assert dialog.editors["memory.app_memory_cap"].value() == 3
    dialog.restore_defaults()
    assert dialog.values()["memory.app_memory_cap"] == 10


def test_problems_in_the_settings_file_are_shown(qtbot, isolated_data_dir, tasks, qapp):
    from memdesk.services.memdesk import Memdesk

    isolated_data_dir.mkdir(parents=True, exist_ok=True)
    (isolated_data_dir / "config.toml").write_text("[memory]\nrecall_limit = 500\n", encoding="utf-8")
    app = Memdesk.open(data_dir=str(isolated_data_dir))
    try:
        dialog = SettingsDialog(app, tasks)
        qtbot.addWidget(dialog)
        dialog.show()
        assert dialog.problems.isVisible()
        assert "memory.recall_limit: 500 is not valid" in dialog.problems.label.text()
    finally:
        app.close()


def test_settings_from_the_main_window_use_the_llm_panel_and_the_keyring(
    main_window, memdesk_app, monkeypatch, memory_keyring, qtbot, settle
):
    from memdesk.gui.llm_settings import LLMSettingsPanel

    key = "sk-test-0123456789"
    with FakeLLMServer() as server:
        server.script(Reply("NO FACTS"))

        def accept_with_openai(dialog: SettingsDialog) -> int:
            panel = dialog.page("llm")
            assert isinstance(panel, LLMSettingsPanel)
            assert "llm.backend" not in dialog.editors  # the panel edits the llm keys
            panel.backend.setCurrentIndex(panel.backend.findData("openai"))
            panel.base_url.setText(server.openai_url)
            panel.model.setEditText("llama3")
            panel.key.setText(key)  # typed, not saved with "Save key": OK keeps it
            qtbot.mouseClick(panel.test_button, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda: panel.test_result.text().startswith("Connected"), timeout=5000)
            with qtbot.waitSignal(dialog.accepted):
                qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
            return 1

        monkeypatch.setattr(SettingsDialog, "exec", accept_with_openai)
        main_window.settings_action.trigger()
        settle()

    assert server.requests[0].api_key == key  # Test connection tried the typed key
    config = memdesk_app.paths.config_file.read_text(encoding="utf-8")
    saved = tomllib.loads(config)["llm"]
    assert (saved["backend"], saved["openai_base_url"], saved["model"]) == (
        "openai",
        server.openai_url,
        "llama3",
    )
    assert memory_keyring.passwords == {(SERVICE, "openai"): key}
    assert key not in config
    assert main_window.llm_label.text() == "LLM: openai · llama3"
    assert "compaction uses: OpenAI-compatible server" in main_window.llm_label.toolTip()


def test_a_section_panel_can_take_over_a_tab(qtbot, memdesk_app, tasks, settle):
    class TimeoutPanel(QWidget):
        """Stands in for the language-model panel: edits llm.* keys its own way."""

        def __init__(self) -> None:
            super().__init__()
            self.timeout = 60.0

        def values(self) -> dict:
            return {"llm.backend": "openai", "llm.timeout_seconds": self.timeout}

        def set_values(self, settings) -> None:
            self.timeout = settings.llm.timeout_seconds

    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    panel = TimeoutPanel()
    dialog.use_section_panel("llm", panel)
    assert dialog.page("llm") is panel
    assert "llm.openai_base_url" not in dialog.editors
    panel.timeout = 15.0
    with qtbot.waitSignal(dialog.accepted):
        dialog.save()
    assert memdesk_app.settings.llm.backend == "openai"
    assert memdesk_app.settings.llm.timeout_seconds == 15.0
    assert memdesk_app.settings.llm.openai_base_url == "http://localhost:11434/v1"  # not edited: kept
    dialog.restore_defaults()
    assert panel.timeout == 60.0


def test_trusted_projects_are_edited_one_folder_a_line(qtbot, memdesk_app, tasks, settle, tmp_path):
    dialog = settings_dialog(qtbot, memdesk_app, tasks)
    dialog.editors["files.trusted_projects"].setPlainText(f"{tmp_path / 'a'}\n\n  {tmp_path / 'b'}  \n")
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    settle()
    assert memdesk_app.settings.files.trusted_projects == (str(tmp_path / "a"), str(tmp_path / "b"))
