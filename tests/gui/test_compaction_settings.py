"""The LLM settings panel: Test connection in plain words, and the API key kept in the keyring."""

import keyring.backends.fail
import pytest
import shiboken6
from PySide6.QtCore import Qt
from tests.gui.tables_fixtures import RENDERS, app_palette, save_render
from tests.support.llm_servers import MODELS_PATH, OLLAMA_TAGS_PATH, FakeLLMServer, Reply, Status
from tests.support.ports import free_port

from memdesk.gui import theme
from memdesk.llm import discovery, prompts
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


def chats(server):
    """The chat calls the server had (listing models is not one)."""
    return [request for request in server.requests if request.body is not None]


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
    panel.model.setEditText("qwen2.5")
    panel.max_tokens.setValue(512)
    settings = memdesk_app.settings.with_values(panel.values())
    assert (settings.llm.backend, settings.llm.openai_base_url, settings.llm.model) == (
        "openai",
        "http://127.0.0.1:1234/v1",
        "qwen2.5",
    )
    assert panel.model.lineEdit().placeholderText() == "default: llama3.2"


def test_test_connection_reports_success(panel, server, memory_keyring, qtbot, settle):
    server.script(Reply("NO FACTS"), Reply("1\n2\n3"))
    choose(panel, "openai", server.openai_url)
    panel.model.setEditText("tiny")
    settle()

    click(qtbot, panel.test_button)
    # Long: the first import of the client library is slow on a busy machine.
    qtbot.waitUntil(lambda: panel.test_result.text().startswith("Connected"), timeout=30000)

    assert f"Connected: {server.openai_url} answered with model tiny in" in panel.test_result.text()
    assert panel.test_result.text().endswith(" tokens per second.")
    request = chats(server)[0]
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
    assert text.startswith(
        "The OpenAI-compatible server rejected the API key (HTTP 401). The server said: invalid key."
    )
    assert "Check the API key for the OpenAI-compatible server in Settings" in text and "sk-typed" not in text
    assert chats(server)[0].api_key == "sk-typed-not-saved"  # tried before saving
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


def text_color(label):
    return label.palette().windowText().color()


def test_without_a_keyring_a_local_server_hears_nothing_of_it(panel, use_keyring, settle):
    use_keyring(keyring.backends.fail.Keyring())
    for url in ("http://127.0.0.1:9/v1", "http://localhost:11434/v1", "http://[::1]:8080/v1"):
        choose(panel, "openai", url)
        panel.base_url.editingFinished.emit()
        settle()
        assert panel.key_status.text() == "A server on this computer needs no key.", url
        assert text_color(panel.key_status) == theme.muted()


def test_without_a_keyring_the_panel_says_so_where_a_key_is_needed(panel, use_keyring, qtbot, settle):
    use_keyring(keyring.backends.fail.Keyring())
    choose(panel, "anthropic")
    settle()
    # Said, as a note rather than an error: nothing has failed yet.
    assert panel.key_status.text().startswith("No usable system keyring was found to keep the API key.")
    assert text_color(panel.key_status) == theme.muted()
    panel.key.setText("sk-nowhere")

    click(qtbot, panel.save_key_button)
    settle()

    assert (
        "No usable system keyring" in panel.key_status.text() and "MEMDESK_API_KEY" in panel.key_status.text()
    )
    assert text_color(panel.key_status) == theme.danger()  # saving the typed key failed
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
    request = server.requests[0]
    assert request.path == "/v1/messages" and request.api_key == "sk-ant-typed"
    assert request.system_text == prompts.FACTS_SYSTEM


# --- models of the configured server, servers found on this computer -------------------------


def port_of(server):
    return int(server.root_url.rsplit(":", 1)[1])


def items(combo):
    return [combo.itemText(index) for index in range(combo.count())]


@pytest.fixture
def local_servers(monkeypatch):
    """An Ollama and a llama.cpp stand-in on 127.0.0.1, and LM Studio's port closed."""
    with (
        FakeLLMServer(models=("qwen2.5:0.5b", "llama3.2"), model_routes=(OLLAMA_TAGS_PATH,)) as ollama,
        FakeLLMServer(models=("SmolLM2-135M-Instruct",), model_routes=(MODELS_PATH,)) as llama_cpp,
    ):
        ports = (("Ollama", port_of(ollama)), ("LM Studio", free_port()), ("llama.cpp", port_of(llama_cpp)))
        monkeypatch.setattr(discovery, "LOCAL_SERVERS", ports)
        yield ollama, llama_cpp


def test_the_configured_servers_models_are_offered(memdesk_app, panel, qtbot, settle):
    with FakeLLMServer(models=("mistral", "llama3.2", "gemma3")) as server:
        memdesk_app.update_settings(
            memdesk_app.settings.with_values(
                {"llm.backend": "openai", "llm.openai_base_url": server.openai_url, "llm.model": "gemma3"}
            )
        )
        panel.set_values(memdesk_app.settings)
        settle()
        qtbot.waitUntil(lambda: panel.model.count() == 3)
    assert items(panel.model) == ["gemma3", "llama3.2", "mistral"]
    assert panel.model.currentText() == "gemma3"  # the configured model stays chosen
    assert panel.models_status.text() == "3 models on this server; pick one or type a name."
    panel.model.setCurrentIndex(2)
    assert panel.values()["llm.model"] == "mistral"


def test_a_server_that_cannot_list_says_so_and_keeps_the_typed_model(panel, qtbot, settle):
    closed = f"http://127.0.0.1:{free_port()}/v1"
    panel.model.setEditText("my-model")
    choose(panel, "openai", closed)
    panel.base_url.editingFinished.emit()
    qtbot.waitUntil(lambda: panel.models_status.text().startswith("No list of models"))
    assert panel.models_status.text() == (
        f"No list of models: Could not connect to the OpenAI-compatible server at {closed}."
    )
    assert panel.model.currentText() == "my-model" and panel.model.count() == 0


def test_local_servers_are_found_and_choosing_one_fills_the_url_and_model(
    local_servers, panel, qtbot, settle
):
    ollama, llama_cpp = local_servers
    choose(panel, "openai")
    qtbot.waitUntil(lambda: panel.local_servers.count() == 2)

    assert items(panel.local_servers) == [
        f"Ollama at {ollama.openai_url}: llama3.2, qwen2.5:0.5b",
        f"llama.cpp at {llama_cpp.openai_url}: SmolLM2-135M-Instruct",
    ]
    assert panel.local_status.text() == "2 servers found; choose one to use it."
    panel.local_servers.setCurrentIndex(1)
    panel.local_servers.activated.emit(1)

    assert panel.base_url.text() == llama_cpp.openai_url
    assert items(panel.model) == ["SmolLM2-135M-Instruct"]
    assert panel.values()["llm.model"] == "SmolLM2-135M-Instruct"
    assert panel.values()["llm.openai_base_url"] == llama_cpp.openai_url


def test_no_local_server_running_is_said_plainly(monkeypatch, panel, qtbot, settle):
    monkeypatch.setattr(discovery, "LOCAL_SERVERS", (("Ollama", free_port()),))
    choose(panel, "openai")
    qtbot.waitUntil(lambda: panel.local_status.text().startswith("None"))
    assert panel.local_status.text().startswith("None is running on 127.0.0.1: looked for Ollama (")
    assert panel.local_servers.count() == 0 and not panel.local_servers.isEnabled()
    choose(panel, "anthropic")
    assert panel.local_status.isHidden() and panel.models_status.isHidden()


def test_a_panel_closed_while_servers_are_looked_for_gets_no_answer(monkeypatch, memdesk_app, tasks, qtbot):
    from memdesk.gui.llm_settings import LLMSettingsPanel

    with FakeLLMServer(models=("llama3.2",), model_routes=(MODELS_PATH,), list_delay=0.5) as slow:
        monkeypatch.setattr(discovery, "LOCAL_SERVERS", (("Ollama", port_of(slow)),))
        panel = LLMSettingsPanel(memdesk_app, tasks)
        panel.show()
        choose(panel, "openai")
        qtbot.waitUntil(lambda: any(request.path == MODELS_PATH for request in slow.requests))
        panel.close()
        panel.deleteLater()
        qtbot.waitUntil(lambda: not shiboken6.isValid(panel))

        # The server answers after the panel is gone. Handing its list to the deleted panel
        # would raise in the event loop, which fails this test.
        assert tasks.wait_idle(10000)
        qtbot.wait(50)


@pytest.mark.parametrize(("name", "size", "dark"), RENDERS)
def test_render_local_servers_and_a_tested_connection(
    local_servers, memdesk_app, tasks, qtbot, settle, name, size, dark
):
    from memdesk.gui.llm_settings import LLMSettingsPanel

    ollama, _llama_cpp = local_servers
    ollama.script(Reply("NO FACTS", delay=0.1), Reply("1\n2\n3", delay=0.3))
    with app_palette(dark):
        widget = LLMSettingsPanel(memdesk_app, tasks)
        qtbot.addWidget(widget)
        widget.resize(*size)
        widget.show()
        choose(widget, "openai")
        qtbot.waitUntil(lambda: widget.local_servers.count() == 2)
        widget.local_servers.setCurrentIndex(0)
        widget.local_servers.activated.emit(0)
        click(qtbot, widget.test_button)
        qtbot.waitUntil(lambda: widget.test_result.text().startswith("Connected"), timeout=30000)
        settle()
        save_render(widget, f"llm-settings-{name}", size)
    assert "tokens per second" in widget.test_result.text()
