"""Settings: one row per key in ``config.SPECS``, with that key's range; saved only when valid."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any, Protocol, cast, runtime_checkable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from memdesk.config import SPECS, Settings, SettingSpec
from memdesk.errors import BadInputError
from memdesk.gui import dialogs, theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.services.memdesk import Memdesk

SECTION_TITLES = {
    "memory": "Memory",
    "compaction": "Compaction",
    "llm": "Language model",
    "files": "Files",
    "prompt": "Prompt",
    "agents": "Assistants",
    "sources": "Sources",
}


class SectionPanel(Protocol):
    """What a widget given to ``use_section_panel`` provides besides being a widget."""

    def values(self) -> dict[str, Any]: ...

    def set_values(self, settings: Settings) -> None: ...


@runtime_checkable
class SavesMore(Protocol):
    """A section panel with something to keep outside the settings file (an API key)."""

    def save_job(self) -> Callable[[], None] | None:
        """Qt-free work to run on the worker just before the settings are written, or None."""
        ...


class SubsetEditor(QWidget):
    """A ``subset`` key: one checkbox per allowed choice."""

    def __init__(self, spec: SettingSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)  # two a row: the labels are words, and the tab is narrow
        grid.setContentsMargins(0, 0, 0, 0)
        self.boxes = {choice: QCheckBox(spec.choice_label(choice)) for choice in spec.choices}
        for index, box in enumerate(self.boxes.values()):
            grid.addWidget(box, index // 2, index % 2)
        grid.setColumnStretch(2, 1)

    def value(self) -> list[str]:
        return [choice for choice, box in self.boxes.items() if box.isChecked()]

    def set_value(self, value: Any) -> None:
        for choice, box in self.boxes.items():
            box.setChecked(choice in value)


class PathEditor(QWidget):
    """A ``path`` key: the text, and Browse… for a folder or a file."""

    def __init__(self, spec: SettingSpec, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.spec = spec
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.line = QLineEdit()
        self.line.setPlaceholderText("(default)")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row.addWidget(self.line, 1)
        row.addWidget(browse)
        self.setFocusProxy(self.line)
        # As tall as its line: a form gives spare height to rows that may grow.
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def _browse(self) -> None:
        if self.spec.key.endswith("_dir"):
            chosen = dialogs.pick_folder(self, self.spec.label, self.line.text())
        else:
            chosen = dialogs.open_file(self, self.spec.label, "Text files (*.md *.txt);;All files (*)")
        if chosen is not None:
            self.line.setText(str(chosen))


class PathsEditor(QPlainTextEdit):
    """A ``paths`` key: one folder a line."""

    def value(self) -> list[str]:
        return [line.strip() for line in self.toPlainText().splitlines() if line.strip()]

    def set_value(self, value: Any) -> None:
        self.setPlainText("\n".join(value))


def setting_tip(spec: SettingSpec) -> str:
    """What a setting does (where its label needs it), its key and what it accepts."""
    key = f"{spec.key}: {spec.describe_range()}"
    return f"{spec.help}.\n{key}" if spec.help else key


def make_editor(spec: SettingSpec) -> QWidget:
    if spec.kind in ("int", "float"):
        assert spec.minimum is not None and spec.maximum is not None
        spin: QSpinBox | QDoubleSpinBox
        if spec.kind == "int":
            spin = QSpinBox()
            spin.setRange(int(spec.minimum), int(spec.maximum))
        else:
            spin = QDoubleSpinBox()
            spin.setDecimals(1)
            spin.setRange(spec.minimum, spec.maximum)
        spin.setGroupSeparatorShown(spec.maximum >= 10000)
        spin.setCorrectionMode(QAbstractSpinBox.CorrectionMode.CorrectToNearestValue)
        spin.setMinimumWidth(120)
        return spin
    if spec.kind == "bool":
        return QCheckBox(spec.label)
    if spec.kind == "choice":
        combo = QComboBox()
        for choice in spec.choices:  # shown by its label, saved by its value
            combo.addItem(spec.choice_label(choice), choice)
        return combo
    if spec.kind == "subset":
        return SubsetEditor(spec)
    if spec.kind == "path":
        return PathEditor(spec)
    if spec.kind == "paths":
        paths = PathsEditor()
        paths.setPlaceholderText("(none)")
        paths.setFixedHeight(paths.fontMetrics().lineSpacing() * 4 + 12)
        paths.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        return paths
    line = QLineEdit()
    line.setMinimumWidth(260)
    return line


def editor_value(spec: SettingSpec, widget: QWidget) -> Any:
    if isinstance(widget, QSpinBox | QDoubleSpinBox):
        return widget.value()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    if isinstance(widget, QComboBox):
        return widget.currentData()
    if isinstance(widget, SubsetEditor | PathsEditor):
        return widget.value()
    if isinstance(widget, PathEditor):
        return widget.line.text().strip()
    assert isinstance(widget, QLineEdit)
    return widget.text().strip() if spec.kind == "url" else widget.text()


def set_editor_value(widget: QWidget, value: Any) -> None:
    if isinstance(widget, QSpinBox | QDoubleSpinBox):
        widget.setValue(value)
    elif isinstance(widget, QCheckBox):
        widget.setChecked(bool(value))
    elif isinstance(widget, QComboBox):
        widget.setCurrentIndex(widget.findData(str(value)))
    elif isinstance(widget, SubsetEditor | PathsEditor):
        widget.set_value(value)
    elif isinstance(widget, PathEditor):
        widget.line.setText(str(value))
    elif isinstance(widget, QLineEdit):
        widget.setText(str(value))


def scrolling(page: QWidget) -> QScrollArea:
    """A tab's page that scrolls when its wrapped notes grow taller than the dialog."""
    scroll = QScrollArea()
    scroll.setWidget(page)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    return scroll


class SettingsDialog(QDialog):
    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.setWindowTitle("Settings")
        self.editors: dict[str, QWidget] = {}
        self.panels: list[SectionPanel] = []
        self.forms: dict[str, QFormLayout] = {}
        self.problems = MessageBar(hue=theme.WARNING_HUE)
        self.bad_value = MessageBar(hue=theme.DANGER_HUE)
        self.tabs = QTabWidget()
        for section, title in SECTION_TITLES.items():
            page = QWidget()
            form = QFormLayout(page)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
            form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.forms[section] = form
            self.tabs.addTab(scrolling(page), title)
        for spec in SPECS:
            editor = make_editor(spec)
            editor.setToolTip(setting_tip(spec))
            editor.setAccessibleName(spec.label)
            self.editors[spec.key] = editor
            label = "" if spec.kind == "bool" else spec.label
            self.forms[spec.section].addRow(label, editor)
        self._add_data_folder()
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self.restore_defaults)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addWidget(self.problems)
        layout.addWidget(self.bad_value)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(buttons)
        self.load(app.settings)
        if app.settings_problems:
            listed = "<br>".join(html.escape(problem) for problem in app.settings_problems)
            self.problems.show_message(
                f"<b>The settings file had problems</b> (what could not be read has its default):<br>{listed}"
            )
        self.resize(640, 460)

    def _add_data_folder(self) -> None:
        """Where Memdesk keeps things: shown, not editable (set with --data-dir or MEMDESK_DATA_DIR)."""
        form = self.forms["files"]
        self.data_folder = QLineEdit(str(self.app.paths.data_dir), readOnly=True)
        self.data_folder.setToolTip("Choose another one with --data-dir or MEMDESK_DATA_DIR")
        settings_file = QLineEdit(str(self.app.paths.config_file), readOnly=True)
        form.addRow("Data folder", self.data_folder)
        form.addRow("Settings file", settings_file)

    def use_section_panel(self, section: str, panel: QWidget) -> None:
        """Let a richer panel edit one section's keys instead of the plain rows.

        The hook for the language-model panel (API key in the keyring, "Test connection"):
        ``dialog.use_section_panel("llm", LLMSettingsPanel(app, tasks))``.
        """
        index = list(SECTION_TITLES).index(section)
        self.tabs.widget(index).deleteLater()
        self.tabs.removeTab(index)
        self.tabs.insertTab(index, scrolling(panel), SECTION_TITLES[section])
        for key in [key for key in self.editors if key.startswith(f"{section}.")]:
            del self.editors[key]
        self.panels.append(cast(SectionPanel, panel))
        self.panels[-1].set_values(self.app.settings)

    def page(self, section: str) -> QWidget:
        """The widget a section's tab shows (inside the tab's scroll area)."""
        scroll = self.tabs.widget(list(SECTION_TITLES).index(section))
        assert isinstance(scroll, QScrollArea)
        return scroll.widget()

    def load(self, settings: Settings) -> None:
        for key, editor in self.editors.items():
            set_editor_value(editor, settings.get(key))
        for panel in self.panels:
            panel.set_values(settings)

    def values(self) -> dict[str, Any]:
        values = {
            spec.key: editor_value(spec, self.editors[spec.key]) for spec in SPECS if spec.key in self.editors
        }
        for panel in self.panels:
            values.update(panel.values())
        return values

    def restore_defaults(self) -> None:
        for spec in SPECS:
            if spec.key in self.editors:
                set_editor_value(self.editors[spec.key], spec.default)
        for panel in self.panels:
            panel.set_values(Settings())

    def save(self) -> None:
        """Validate every value; show the first problem and keep the dialog open, or save."""
        try:
            settings = self.app.settings.with_values(self.values())
        except BadInputError as exc:
            self._show_bad(exc)
            return
        self.bad_value.hide()
        self.ok_button.setEnabled(False)
        jobs = [panel.save_job() for panel in self.panels if isinstance(panel, SavesMore)]

        def write(app: Memdesk) -> None:
            # The extra work first: if it fails, nothing is saved and the dialog stays open.
            for job in jobs:
                if job is not None:
                    job()
            app.update_settings(settings)

        self.tasks.write(
            write,
            on_done=lambda _none: self.accept(),
            on_error=self._failed,
            label="Saving settings…",
        )

    def _failed(self, exc: Exception) -> None:
        self.ok_button.setEnabled(True)
        dialogs.show_error(self, exc, "Settings not saved")

    def _show_bad(self, exc: BadInputError) -> None:
        self.bad_value.show_message(f"<b>Not saved.</b> {html.escape(exc.message)}")
        key = exc.message.split(":", 1)[0]
        section = key.split(".", 1)[0]
        if section in SECTION_TITLES:
            self.tabs.setCurrentIndex(list(SECTION_TITLES).index(section))
        editor = self.editors.get(key)
        if editor is not None:
            editor.setFocus()
