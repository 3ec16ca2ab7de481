"""The language-model part of Settings: backend, server, model, limits, the API key and a test call.

The key goes to the system keyring (never the config file); keyring access and the test
call run off the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from memdesk.config import SPEC_BY_KEY, Settings
from memdesk.core.backends import BACKEND_LABELS, BACKENDS
from memdesk.errors import MemdeskError
from memdesk.gui import dialogs, theme
from memdesk.gui.tasks import TaskRunner
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


class LLMSettingsPanel(QWidget):
    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        # Outcomes shown (None: neutral, False: a problem), kept to recolour them on a palette change.
        self._test_ok: bool | None = None
        self._key_ok: bool | None = None
        self.backend = QComboBox()
        for name in BACKENDS:
            self.backend.addItem(BACKEND_LABELS[name], name)
        openai = self.backend.findData("openai")
        self.backend.setItemData(
            openai, "OpenAI, Ollama, llama.cpp, vLLM, LM Studio…", Qt.ItemDataRole.ToolTipRole
        )
        self.base_url = QLineEdit()
        self._urls: dict[str, str] = {}  # backend → its URL, kept while another is chosen
        self._url_backend = ""  # the backend whose URL the field shows
        self.backend.currentIndexChanged.connect(self._backend_changed)
        self.model = QLineEdit()
        self.timeout = QDoubleSpinBox(decimals=0, suffix=" s")
        self.max_tokens = QSpinBox()
        for box, key in ((self.timeout, "llm.timeout_seconds"), (self.max_tokens, "llm.max_tokens")):
            spec = SPEC_BY_KEY[key]
            assert spec.minimum is not None and spec.maximum is not None
            box.setRange(int(spec.minimum), int(spec.maximum))
            box.setToolTip(spec.describe_range())
            box.setMaximumWidth(box.fontMetrics().horizontalAdvance("0" * 12) + 40)

        self.key = QLineEdit(echoMode=QLineEdit.EchoMode.Password, clearButtonEnabled=True)
        self.key.setPlaceholderText("Paste a key to keep it in the system keyring")
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
        test_row.addWidget(self.test_button, 0, Qt.AlignmentFlag.AlignTop)
        test_row.addWidget(self.test_result, 1)

        # Labels aligned like the Settings dialog's other tabs; every field takes the row's
        # width, so the wrapped key status and test result are not squeezed.
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        form.addRow("Backend", self.backend)
        form.addRow("Server URL", self.base_url)
        form.addRow("Model", self.model)
        form.addRow("Timeout", self.timeout)
        form.addRow("Longest reply (tokens)", self.max_tokens)
        form.addRow("API key", key_row)
        form.addRow("", self.key_status)
        form.addRow("", test_row)
        self.set_values(app.settings)

    # --- values ------------------------------------------------------------------------------

    def set_values(self, settings: Settings) -> None:
        llm = settings.llm
        self._urls = {name: settings.get(key) for name, key in URL_KEYS.items()}
        self._url_backend = ""  # the field's text belongs to no backend until shown again
        self.backend.setCurrentIndex(max(self.backend.findData(llm.backend), 0))
        self.model.setText(llm.model)
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
            "llm.model": self.model.text().strip(),
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
        self.base_url.setToolTip(f"{key}: {SPEC_BY_KEY[key].describe_range()}" if key else "")

    def _backend_changed(self) -> None:
        name = self.backend_name
        self._show_url(name)
        self.model.setEnabled(name != "offline")
        self.model.setPlaceholderText(f"default: {DEFAULT_MODELS[name]}" if name in DEFAULT_MODELS else "")
        for widget in (self.timeout, self.max_tokens):
            widget.setEnabled(name != "offline")
        self._show_result("", None)
        self._read_key_status()

    # --- the API key ---------------------------------------------------------------------------

    def _read_key_status(self) -> None:
        name = self.backend_name
        self._update_buttons()
        if name not in KEYED_BACKENDS:
            self._show_key_status("The offline backend needs no key.", None)
            return
        self.tasks.read(
            lambda _app: describe_key(name),
            on_done=lambda text: self._show_key_status(text, None) if name == self.backend_name else None,
            on_error=lambda exc: self._show_key_status(dialogs.describe_error(exc), False),
        )

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
        )

    def remove_key(self) -> None:
        name = self.backend_name
        if name not in KEYED_BACKENDS:
            return
        self.tasks.read(
            lambda _app: delete_api_key(name),
            on_done=lambda _none: self._read_key_status(),
            on_error=lambda exc: self._key_failed(exc),
        )

    def _key_saved(self) -> None:
        self.key.clear()
        self._read_key_status()

    def _key_failed(self, exc: Exception) -> None:
        self._update_buttons()
        self._show_key_status(dialogs.describe_error(exc), False)

    def _update_buttons(self) -> None:
        keyed = self.backend_name in KEYED_BACKENDS
        self.key.setEnabled(keyed)
        self.save_key_button.setEnabled(keyed and bool(self.key.text().strip()))
        self.remove_key_button.setEnabled(keyed)

    def _show_key_status(self, text: str, ok: bool | None) -> None:
        self._key_ok = ok
        self.key_status.setText(text)
        self._recolour()

    # --- the test call -----------------------------------------------------------------------

    def test_connection(self) -> None:
        try:
            settings = self.app.settings.with_values(self.values())
        except MemdeskError as exc:  # a value out of range: named by its settings key
            self._show_result(f"Fix this first: {exc.message}.", False)
            return
        name, typed = self.backend_name, self.key.text().strip()

        def probe(_app: Memdesk) -> str:
            # A key typed but not saved yet is tried as it is, so it can be checked before saving.
            return check_connection(settings, typed or api_key_for(name))

        self.test_button.setEnabled(False)
        self._show_result("Testing…", None)
        self.tasks.read(probe, on_done=lambda text: self._tested(text, True), on_error=self._test_failed)

    def _test_failed(self, exc: Exception) -> None:
        if not isinstance(exc, MemdeskError):
            dialogs.show_error(self, exc, "Test connection")
        self._tested(dialogs.describe_error(exc), False)

    def _tested(self, text: str, ok: bool) -> None:
        self.test_button.setEnabled(True)
        self._show_result(text, ok)

    def _show_result(self, text: str, ok: bool | None) -> None:
        self._test_ok = ok
        self.test_result.setText(text)
        self._recolour()

    def _recolour(self) -> None:
        for label, ok in ((self.test_result, self._test_ok), (self.key_status, self._key_ok)):
            theme.set_text_color(label, theme.muted() if ok is None else theme.ok() if ok else theme.danger())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:  # light ↔ dark
            self._recolour()
