"""The LLM settings panel: Test connection in plain words, and the API key kept in the keyring."""

import keyring.backends.fail
import pytest
from PySide6.QtCore import Qt
from tests.support.llm_servers import FakeLLMServer, Reply, Status

from memdesk.llm import prompts
from memdesk.secrets import SERVICE


@pytest.fixture
def server():
    with FakeLLMServer() as server:
        yield server


@pytest.fixture
def panel(memdesk_app, tasks, qtbot, settle):
    from memdesk.gui.llm_settings import LLMSettingsPanel

    widget = LLMSettingsPanel(memdesk_app, tasks)
    qtbot.addWidget(widget)
    widget.show()
    settle()
    return widget


def choose(panel, backend, url=None):
    panel.backend.setCurrentIndex(panel.backend.findData(backend))
    if url:
        panel.base_url.setText(url)


def click(qtbot, button):
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_values_are_the_llm_settings(memdesk_app, panel):
    assert panel.values() == {
        "llm.backend": "offline",
        "llm.openai_base_url": "http://localhost:11434/v1",
        "llm.anthropic_base_url": "",
        "llm.model": "",
        "llm.timeout_seconds": 60.0,
        "llm.max_tokens": 1024,
    }
    assert not panel.base_url.isEnabled() and not panel.key.isEnabled()
    choose(panel, "openai", "http://127.0.0.1:1234/v1")
    panel.model.setText("qwen2.5")
    panel.max_tokens.setValue(512)
    settings = memdesk_app.settings.with_values(panel.values())
    assert (settings.llm.backend, settings.llm.openai_base_url, settings.llm.model) == (
        "openai",
        "http://127.0.0.1:1234/v1",
        "qwen2.5",
    )
    assert panel.model.placeholderText() == "default: llama3.2"


def test_test_connection_reports_success(panel, server, memory_keyring, qtbot, settle):
    server.script(Reply("NO FACTS"))
    choose(panel, "openai", server.openai_url)
    panel.model.setText("tiny")
    settle()

    click(qtbot, panel.test_button)
    # Long: the first import of the client library is slow on a busy machine.
    qtbot.waitUntil(lambda: panel.test_result.text().startswith("Connected"), timeout=30000)

    assert f"Connected: {server.openai_url} answered with model tiny in" in panel.test_result.text()
    request = server.requests[0]
    assert request.system_text == prompts.FACTS_SYSTEM and request.body["max_tokens"] == 64
    assert panel.test_button.isEnabled()


def test_test_connection_explains_a_401(panel, server, memory_keyring, qtbot, settle):
    server.default = Status(401, "invalid key")
    choose(panel, "openai", server.openai_url)
    panel.key.setText("sk-typed-not-saved")
    settle()

    click(qtbot, panel.test_button)
    qtbot.waitUntil(lambda: "401" in panel.test_result.text(), timeout=5000)

    text = panel.test_result.text()
    assert text.startswith("The openai server rejected the API key (HTTP 401). The server said: invalid key.")
    assert "Check the API key for openai in Settings" in text and "sk-typed" not in text
    assert server.requests[0].api_key == "sk-typed-not-saved"  # tried before saving
    assert memory_keyring.passwords == {}


def test_the_key_goes_to_the_keyring_not_the_config_file(memdesk_app, panel, memory_keyring, qtbot, settle):
    choose(panel, "anthropic")
    settle()
    assert panel.key_status.text() == "No key stored yet: paste one and press Save key."
    panel.key.setText("sk-ant-secret")

    click(qtbot, panel.save_key_button)
    settle()

    assert memory_keyring.passwords == {(SERVICE, "anthropic"): "sk-ant-secret"}
    assert panel.key.text() == "" and panel.key_status.text() == "A key is stored in the system keyring."
    memdesk_app.update_settings(memdesk_app.settings.with_values(panel.values()))
    assert "sk-ant-secret" not in memdesk_app.paths.config_file.read_text(encoding="utf-8")
    assert 'backend = "anthropic"' in memdesk_app.paths.config_file.read_text(encoding="utf-8")

    click(qtbot, panel.remove_key_button)
    settle()
    assert memory_keyring.passwords == {} and panel.key_status.text().startswith("No key stored")


def test_without_a_keyring_the_panel_says_so(panel, use_keyring, qtbot, settle):
    use_keyring(keyring.backends.fail.Keyring())
    choose(panel, "openai")
    settle()
    assert panel.key_status.text().startswith("No usable system keyring was found to keep the API key.")
    panel.key.setText("sk-nowhere")

    click(qtbot, panel.save_key_button)
    settle()

    assert (
        "No usable system keyring" in panel.key_status.text() and "MEMDESK_API_KEY" in panel.key_status.text()
    )
    assert panel.key.text() == "sk-nowhere"  # kept, so nothing typed is lost


def test_offline_needs_no_connection(panel, qtbot, settle):
    click(qtbot, panel.test_button)
    settle()
    assert panel.test_result.text() == "The offline backend needs no connection: it runs inside Memdesk."
    assert panel.key_status.text() == "The offline backend needs no key."


def test_a_bad_url_is_reported_without_a_call(panel, qtbot, settle):
    choose(panel, "openai", "localhost:11434")
    click(qtbot, panel.test_button)
    settle()
    assert panel.test_result.text() == (
        "Fix this first: llm.openai_base_url: 'localhost:11434' is not valid; "
        "expected an http:// or https:// URL."
    )


def test_the_url_field_shows_the_chosen_backends_url(memdesk_app, panel):
    memdesk_app.update_settings(
        memdesk_app.settings.with_values({"llm.openai_base_url": "http://127.0.0.1:1/v1"})
    )
    panel.set_values(memdesk_app.settings)
    assert not panel.base_url.isEnabled() and panel.base_url.text() == ""
    choose(panel, "anthropic")
    assert panel.base_url.isEnabled() and panel.base_url.text() == ""
    assert panel.base_url.placeholderText() == "empty: the official API, https://api.anthropic.com"
    assert "llm.anthropic_base_url" in panel.base_url.toolTip()
    panel.base_url.setText("http://127.0.0.1:2")
    choose(panel, "openai")
    assert panel.base_url.text() == "http://127.0.0.1:1/v1"
    assert panel.base_url.placeholderText() == "http://localhost:11434/v1"
    panel.base_url.setText("http://127.0.0.1:3/v1")
    choose(panel, "anthropic")
    assert panel.base_url.text() == "http://127.0.0.1:2"
    values = panel.values()
    assert (values["llm.openai_base_url"], values["llm.anthropic_base_url"]) == (
        "http://127.0.0.1:3/v1",
        "http://127.0.0.1:2",
    )
    panel.set_values(memdesk_app.settings)  # Restore and Cancel paths: the stored URLs again
    choose(panel, "anthropic")
    assert panel.base_url.text() == ""


def test_test_connection_reaches_an_anthropic_server_at_its_url(panel, server, qtbot, settle):
    server.script(Reply("NO FACTS"))
    choose(panel, "anthropic", server.anthropic_url)
    panel.key.setText("sk-ant-typed")
    settle()

    click(qtbot, panel.test_button)
    # Long: the first import of the client library is slow on a busy machine.
    qtbot.waitUntil(lambda: panel.test_result.text().startswith("Connected"), timeout=30000)

    assert f"Connected: {server.anthropic_url} answered with model claude-haiku-4-5 in" in (
        panel.test_result.text()
    )
    (request,) = server.requests
    assert request.path == "/v1/messages" and request.api_key == "sk-ant-typed"
    assert request.system_text == prompts.FACTS_SYSTEM
