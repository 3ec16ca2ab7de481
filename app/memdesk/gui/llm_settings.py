"""The language-model part of Settings: backend, server, model, limits, the API key and a test call.

For the openai backend the panel offers the model servers running on this computer and
the models the chosen server lists. The key goes to the system keyring (never the config
file); keyring access, the look-ups and the test call run off the GUI thread.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from urllib.parse import urlsplit

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QWidget,
)

from memdesk.config import SPEC_BY_KEY, Settings
from memdesk.core.backends import BACKENDS
from memdesk.errors import MemdeskError
from memdesk.gui import dialogs, theme
from memdesk.gui.settings_dialog import setting_tip
from memdesk.gui.tasks import TaskRunner
from memdesk.llm import discovery
from memdesk.llm.base import ANTHROPIC_API_URL, DEFAULT_MODELS
from memdesk.llm.keys import KEYED_BACKENDS, delete_api_key, set_api_key
from memdesk.services.compaction.backends import api_key_for, check_connection, describe_key
from memdesk.services.memdesk import Memdesk

# Each backend keeps its own server URL; the one field shows the chosen backend's.
URL_KEYS = {"openai": "llm.openai_base_url", "anthropic": "llm.anthropic_base_url"}
URL_PLACEHOLDERS = {
    "openai": SPEC_BY_KEY["llm.openai_base_url"].default,
    "anthropic": f"empty: the official API, {ANTHROPIC_API_URL}",
}
LOCAL_NO_KEY = "A server on this computer needs no key."


def on_this_computer(url: str) -> bool:
    """Whether ``url`` names this computer (localhost, 127.0.0.1, ::1): such servers take no key."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class LLMSettingsPanel(QWidget):
    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        # Each status label's outcome (None: neutral, False: a problem), to recolour it on a palette change.
        self._outcomes: dict[QLabel, bool | None] = {}
        self.backend = QComboBox()
        backend_spec = SPEC_BY_KEY["llm.backend"]
        for name in BACKENDS:
            self.backend.addItem(backend_spec.choice_label(name), name)
        self.backend.setToolTip(setting_tip(backend_spec))
        openai = self.backend.findData("openai")
        self.backend.setItemData(
            openai, "OpenAI, Ollama, llama.cpp, vLLM, LM Studio…", Qt.ItemDataRole.ToolTipRole
        )
        self.base_url = QLineEdit()
        self._urls: dict[str, str] = {}  # backend → its URL, kept while another is chosen
        self._url_backend = ""  # the backend whose URL the field shows
        self.backend.currentIndexChanged.connect(self._backend_changed)
        self.base_url.editingFinished.connect(self._list_models)
        self.base_url.editingFinished.connect(self._read_key_status)  # a local server needs no key
        # Servers found on this computer, each with its models; choosing one fills the fields.
        self.local_servers = QComboBox()
        self.local_servers.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.local_servers.setMinimumContentsLength(20)
        self.local_servers.activated.connect(self._use_local_server)
        self.find_button = QPushButton("Look again")
        self.find_button.setToolTip(
            "Look for Ollama, LM Studio and llama.cpp on this computer (ports "
            + ", ".join(str(port) for _name, port in discovery.LOCAL_SERVERS)
            + ")"
        )
        self.find_button.clicked.connect(self.find_local_servers)
        self.local_status = QLabel()
        self.local_status.setWordWrap(True)
        self._local_row = QHBoxLayout()
        self._local_row.addWidget(self.local_servers, 1)
        self._local_row.addWidget(self.find_button)
        # The model: typed, or picked from what the server lists.
        self.model = QComboBox(editable=True)
        self.model.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.model.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model.setMinimumContentsLength(20)
        self.model.setToolTip(setting_tip(SPEC_BY_KEY["llm.model"]))
        self.models_status = QLabel()
        self.models_status.setWordWrap(True)
        self.timeout = QDoubleSpinBox(decimals=0, suffix=" s")
        self.max_tokens = QSpinBox()
        for box, key in ((self.timeout, "llm.timeout_seconds"), (self.max_tokens, "llm.max_tokens")):
            spec = SPEC_BY_KEY[key]
            assert spec.minimum is not None and spec.maximum is not None
            box.setRange(int(spec.minimum), int(spec.maximum))
            box.setToolTip(setting_tip(spec))
            box.setMaximumWidth(box.fontMetrics().horizontalAdvance("0" * 12) + 40)

        self.key = QLineEdit(echoMode=QLineEdit.EchoMode.Password, clearButtonEnabled=True)
        self.key.setPlaceholderText("Paste a key to keep it in the system keyring")
        self.key.setToolTip(
            "Kept in the system keyring, never in the settings file; the variable "
            "MEMDESK_API_KEY overrides it while set"
        )
        self.key.textChanged.connect(self._update_buttons)
        self.key.returnPressed.connect(self.save_key)
        self.save_key_button = QPushButton("Save key")
        self.save_key_button.setToolTip(
            "Store the key in the system keyring; it never goes in the settings file"
        )
        self.save_key_button.clicked.connect(self.save_key)
        self.remove_key_button = QPushButton("Remove key")
        self.remove_key_button.clicked.connect(self.remove_key)
        self.key_status = QLabel()
        self.key_status.setWordWrap(True)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key, 1)
        key_row.addWidget(self.save_key_button)
        key_row.addWidget(self.remove_key_button)

        self.test_button = QPushButton("Test connection")
        self.test_button.setToolTip("Send one tiny request with these settings")
        self.test_button.clicked.connect(self.test_connection)
        self.test_result = QLabel()
        self.test_result.setWordWrap(True)
        self.test_result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        test_row = QHBoxLayout()
        test_row.addWidget(self.test_button)
        test_row.addStretch(1)

        # Labels aligned like the Settings dialog's other tabs; every field takes the row's
        # width, so the wrapped key status and test result are not squeezed.
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        form.addRow("Backend", self.backend)
        form.addRow("Server URL", self.base_url)
        form.addRow("On this computer", self._local_row)
        form.addRow("", self.local_status)
        form.addRow("Model", self.model)
        form.addRow("", self.models_status)
        self._form = form
        form.addRow("Timeout", self.timeout)
        form.addRow("Longest reply (tokens)", self.max_tokens)
        form.addRow("API key", key_row)
        form.addRow("", self.key_status)
        form.addRow("", test_row)
        form.addRow("", self.test_result)
        self.set_values(app.settings)

    # --- values ------------------------------------------------------------------------------

    def set_values(self, settings: Settings) -> None:
        llm = settings.llm
        self._urls = {name: settings.get(key) for name, key in URL_KEYS.items()}
        self._url_backend = ""  # the field's text belongs to no backend until shown again
        self.backend.setCurrentIndex(max(self.backend.findData(llm.backend), 0))
        self.model.setEditText(llm.model)
        self.timeout.setValue(llm.timeout_seconds)
        self.max_tokens.setValue(llm.max_tokens)
        self._backend_changed()

    def values(self) -> dict[str, object]:
        """The settings keys this panel edits (the API key is not one: it lives in the keyring)."""
        self._keep_url()
        urls = {key: self._urls[name].strip() or SPEC_BY_KEY[key].default for name, key in URL_KEYS.items()}
        return {
            "llm.backend": self.backend.currentData(),
            **urls,
            "llm.model": self.model.currentText().strip(),
            "llm.timeout_seconds": float(self.timeout.value()),
            "llm.max_tokens": self.max_tokens.value(),
        }

    def save_job(self) -> Callable[[], None] | None:
        """A key typed but not saved with "Save key" is kept when the whole dialog is saved."""
        name, key = self.backend_name, self.key.text()
        if name not in KEYED_BACKENDS or not key.strip():
            return None
        return lambda: set_api_key(name, key)

    @property
    def backend_name(self) -> str:
        return str(self.backend.currentData())

    def _keep_url(self) -> None:
        if self._url_backend in URL_KEYS:
            self._urls[self._url_backend] = self.base_url.text()

    def _show_url(self, name: str) -> None:
        self._keep_url()
        self._url_backend = name
        self.base_url.setEnabled(name in URL_KEYS)
        self.base_url.setText(self._urls.get(name, ""))
        self.base_url.setPlaceholderText(URL_PLACEHOLDERS.get(name, ""))
        key = URL_KEYS.get(name)
        self.base_url.setToolTip(setting_tip(SPEC_BY_KEY[key]) if key else "")

    def _backend_changed(self) -> None:
        name = self.backend_name
        self._show_url(name)
        self.model.setEnabled(name != "offline")
        placeholder = f"default: {DEFAULT_MODELS[name]}" if name in DEFAULT_MODELS else ""
        self.model.lineEdit().setPlaceholderText(placeholder)
        for widget in (self.timeout, self.max_tokens):
            widget.setEnabled(name != "offline")
        # Local servers all speak the openai protocol; other backends list nothing here.
        for row in (self._local_row, self.local_status, self.models_status):
            self._form.setRowVisible(row, name == "openai")
        self._show_note(self.test_result, "", None)
        self._read_key_status()
        if name == "openai":
            self.find_local_servers()
            self._list_models()

    # --- servers and models ------------------------------------------------------------------

    def _openai_url(self) -> str:
        return self.base_url.text().strip() or SPEC_BY_KEY[URL_KEYS["openai"]].default

    def find_local_servers(self) -> None:
        self.find_button.setEnabled(False)
        self._show_note(self.local_status, "Looking for model servers on this computer…", None)
        self.tasks.read(
            lambda _app: discovery.find_local_servers(), on_done=self._show_local_servers, owner=self
        )

    def _show_local_servers(self, found: list[discovery.LocalServer]) -> None:
        self.find_button.setEnabled(True)
        self.local_servers.clear()
        for server in found:
            self.local_servers.addItem(server.describe(), server)
            # A narrow window cuts the line; the tooltip keeps every model name readable.
            self.local_servers.setItemData(
                self.local_servers.count() - 1, server.describe(), Qt.ItemDataRole.ToolTipRole
            )
        self.local_servers.setEnabled(bool(found))
        if found:
            count = "One server" if len(found) == 1 else f"{len(found)} servers"
            self._show_note(self.local_status, f"{count} found; choose one to use it.", None)
            self.local_servers.setCurrentIndex(-1)
            self.local_servers.setPlaceholderText("Choose a server found on this computer")
        else:
            names = ", ".join(f"{name} ({port})" for name, port in discovery.LOCAL_SERVERS)
            self.local_servers.setPlaceholderText("None found")
            self._show_note(self.local_status, f"None is running on 127.0.0.1: looked for {names}.", None)

    def _use_local_server(self, index: int) -> None:
        server: discovery.LocalServer = self.local_servers.itemData(index)
        self.base_url.setText(server.base_url)
        self._show_models(server.base_url, list(server.models))
        if server.models and self.model.currentText().strip() not in server.models:
            self.model.setEditText(server.models[0])

    def _list_models(self) -> None:
        if self.backend_name != "openai":
            return
        url, typed = self._openai_url(), self.key.text().strip()

        def listed(_app: Memdesk) -> list[str]:
            return discovery.list_models(url, typed or api_key_for("openai"), discovery.LIST_TIMEOUT_S)

        self._show_note(self.models_status, f"Asking {url} for its models…", None)
        self.tasks.read(
            listed,
            on_done=lambda names: self._show_models(url, names),
            on_error=lambda exc: self._models_failed(url, exc),
            owner=self,
        )

    def _show_models(self, url: str, names: list[str]) -> None:
        if url != self._openai_url():
            return  # the URL changed while the list was on its way
        self._fill_models(names)
        if not names:
            self._show_note(self.models_status, "The server lists no models yet.", False)
            return
        count = "1 model" if len(names) == 1 else f"{len(names)} models"
        self._show_note(self.models_status, f"{count} on this server; pick one or type a name.", None)

    def _fill_models(self, names: list[str]) -> None:
        typed = self.model.currentText()  # clear() would empty the field too
        self.model.clear()
        self.model.addItems(names)
        self.model.setEditText(typed)

    def _models_failed(self, url: str, exc: Exception) -> None:
        if url == self._openai_url():
            self._fill_models([])
            # The message alone: what to check is said once, by Test connection.
            said = exc.message if isinstance(exc, MemdeskError) else dialogs.describe_error(exc)
            self._show_note(self.models_status, f"No list of models: {said}", False)

    # --- the API key ---------------------------------------------------------------------------

    def _needs_no_key(self) -> bool:
        return self.backend_name == "openai" and on_this_computer(self._openai_url())

    def _read_key_status(self) -> None:
        name = self.backend_name
        self._update_buttons()
        if name not in KEYED_BACKENDS:
            self._show_note(self.key_status, "The offline backend needs no key.", None)
            return
        self.tasks.read(
            lambda _app: describe_key(name),
            on_done=lambda text: self._key_described(name, text),
            on_error=lambda exc: self._key_unreadable(name, exc),
            owner=self,
        )

    def _key_described(self, name: str, text: str) -> None:
        if name == self.backend_name:
            self._show_note(self.key_status, text, None)

    def _key_unreadable(self, name: str, exc: Exception) -> None:
        """No keyring: nothing to say to someone whose server takes no key; a note, not an
        error, to someone who needs one (saving a key that fails is the error)."""
        if name != self.backend_name:
            return
        if self._needs_no_key() and not self.key.text().strip():
            self._show_note(self.key_status, LOCAL_NO_KEY, None)
        else:
            self._show_note(self.key_status, dialogs.describe_error(exc), None)

    def save_key(self) -> None:
        """Store the typed key in the keyring for the chosen backend (a clear message if there is none)."""
        name, key = self.backend_name, self.key.text()
        if name not in KEYED_BACKENDS or not key.strip():
            return
        self.save_key_button.setEnabled(False)
        self.tasks.read(
            lambda _app: set_api_key(name, key),
            on_done=lambda _none: self._key_saved(),
            on_error=lambda exc: self._key_failed(exc),
            owner=self,
        )

    def remove_key(self) -> None:
        name = self.backend_name
        if name not in KEYED_BACKENDS:
            return
        self.tasks.read(
            lambda _app: delete_api_key(name),
            on_done=lambda _none: self._read_key_status(),
            on_error=lambda exc: self._key_failed(exc),
            owner=self,
        )

    def _key_saved(self) -> None:
        self.key.clear()
        self._read_key_status()

    def _key_failed(self, exc: Exception) -> None:
        self._update_buttons()
        self._show_note(self.key_status, dialogs.describe_error(exc), False)

    def _update_buttons(self) -> None:
        keyed = self.backend_name in KEYED_BACKENDS
        self.key.setEnabled(keyed)
        self.save_key_button.setEnabled(keyed and bool(self.key.text().strip()))
        self.remove_key_button.setEnabled(keyed)

    # --- the test call -----------------------------------------------------------------------

    def test_connection(self) -> None:
        try:
            settings = self.app.settings.with_values(self.values())
        except MemdeskError as exc:  # a value out of range: named by its settings key
            self._show_note(self.test_result, f"Fix this first: {exc.message}.", False)
            return
        name, typed = self.backend_name, self.key.text().strip()

        def probe(_app: Memdesk) -> str:
            # A key typed but not saved yet is tried as it is, so it can be checked before saving.
            return check_connection(settings, typed or api_key_for(name))

        self.test_button.setEnabled(False)
        self._show_note(self.test_result, "Testing…", None)
        self.tasks.read(
            probe, on_done=lambda text: self._tested(text, True), on_error=self._test_failed, owner=self
        )

    def _test_failed(self, exc: Exception) -> None:
        if not isinstance(exc, MemdeskError):
            dialogs.show_error(self, exc, "Test connection")
        self._tested(dialogs.describe_error(exc), False)

    def _tested(self, text: str, ok: bool) -> None:
        self.test_button.setEnabled(True)
        self._show_note(self.test_result, text, ok)
        # In a Settings tab that scrolls, the answer may land below the fold: bring it into view
        # once the layout has given the wrapped text its height.
        QTimer.singleShot(0, self, self._show_test_result)

    def _show_test_result(self) -> None:
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QScrollArea):
            parent = parent.parentWidget()
        if parent is not None:
            parent.ensureWidgetVisible(self.test_result)

    def _show_note(self, label: QLabel, text: str, ok: bool | None) -> None:
        self._outcomes[label] = ok
        label.setText(text)
        self._recolour()

    def _recolour(self) -> None:
        for label, ok in self._outcomes.items():
            theme.set_text_color(label, theme.muted() if ok is None else theme.ok() if ok else theme.danger())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # light ↔ dark
            self._recolour()
