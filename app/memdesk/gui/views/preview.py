"""The prompt preview: the exact system prompt a session would get, section by section.

The text comes from the one composer (``app.prompt.compose``), on a worker thread; this
view only shows it. Inputs are debounced, and a result that arrives after a newer request
was made is dropped, so typing never shows an older prompt last.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import cast

from PySide6.QtCore import (
    QDate,
    QDateTime,
    QEvent,
    QFileSystemWatcher,
    QObject,
    QPoint,
    QRect,
    QRectF,
    Qt,
    QTime,
    QTimer,
    QTimeZone,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QFontMetricsF,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShowEvent,
    QTextBlockFormat,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStyle,
    QTabWidget,
    QTextEdit,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from memdesk.core.privacy import Target, TargetKind
from memdesk.core.timefmt import format_minute
from memdesk.gui import dialogs, theme
from memdesk.gui.tasks import TaskRunner
from memdesk.gui.views.base import Page
from memdesk.gui.views.prompt_sources import SourcesPanel
from memdesk.gui.widgets.message_bar import MessageBar
from memdesk.gui.widgets.view_header import ViewHeader
from memdesk.services.memdesk import Memdesk
from memdesk.services.projects import project_for
from memdesk.services.prompt import ComposedPrompt, PromptSpec, Section
from memdesk.services.provenance import PromptSource

DEBOUNCE_MS = 150
YOU = "You (every app)"


def add_months(when: datetime, months: int) -> datetime:
    """The same day ``months`` later, or the month's last day when it is shorter (31 Jan → 28 Feb)."""
    index = when.year * 12 + when.month - 1 + months
    year, month = divmod(index, 12)
    month += 1
    following = datetime(year + (month == 12), month % 12 + 1, 1)
    last_day = (following - timedelta(days=1)).day
    return when.replace(year=year, month=month, day=min(when.day, last_day))


@dataclass(frozen=True)
class PreviewInputs:
    """What the person chose; ``spec`` turns it into the composer's input."""

    session: str = ""
    app_id: str = ""
    message: str = ""
    base_text: str = ""
    base_file: str = ""
    base_from_file: bool = True
    project: str = ""
    trusted: bool = False
    when: datetime | None = None  # None: the store's current time
    reader: str = ""  # an assistant (``mcp:coder``): its prompt, within its app limit; "": yours

    def spec(self, trusted_projects: Iterable[str] = ()) -> PromptSpec:
        """The composer's input; a project folder is composed for as an assistant working in it
        gets it (``trusted_projects``: the setting; ``trusted`` trusts it for this preview)."""
        base_file = Path(self.base_file.strip()) if self.base_from_file and self.base_file.strip() else None
        spec = PromptSpec(
            base="" if self.base_from_file else self.base_text,
            base_file=base_file,
            session=self.session.strip() or None,
            app=self.app_id or None,
            message=self.message or None,
            now=self.when,
            reader=self.reader or None,
        )
        if not self.project.strip():
            return spec
        return spec.in_project(project_for(self.project.strip(), trusted_projects, self.trusted))

    def describe(self, now: datetime) -> str:
        parts = [f"{format_minute(self.when or now)} UTC"]
        if self.session.strip():
            parts.append(f"session {self.session.strip()}")
        if self.app_id:
            parts.append(f"app {self.app_id}")
        if self.reader:
            parts.append(f"as seen by {self.reader}")
        if self.message:
            short = self.message if len(self.message) <= 30 else self.message[:29] + "…"
            parts.append(f"message “{short}”")
        return ", ".join(parts)


def diff_lines(before: str, after: str) -> list[tuple[str, str]]:
    """The lines of both texts, each marked ``" "`` (both), ``"-"`` (only before) or ``"+"``."""
    a = before.split("\n") if before else []
    b = after.split("\n") if after else []
    lines: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            lines += [(" ", line) for line in a[i1:i2]]
        else:
            lines += [("-", line) for line in a[i1:i2]]
            lines += [("+", line) for line in b[j1:j2]]
    return lines


def section_token_changes(before: ComposedPrompt, after: ComposedPrompt) -> list[tuple[str, int]]:
    """Per section, how many tokens it gained or lost (a section left out counts as 0)."""
    old = {s.name: s.tokens if s.included else 0 for s in before.sections}
    new = {s.name: s.tokens if s.included else 0 for s in after.sections}
    names = list(dict.fromkeys([*old, *new]))
    return [
        (name, new.get(name, 0) - old.get(name, 0)) for name in names if new.get(name, 0) != old.get(name, 0)
    ]


@dataclass(frozen=True)
class Preview:
    """The prompt the inputs give; when comparing, prompt A (``baseline``) and prompt B
    (``later`` when it is these inputs at a later time, else ``prompt`` itself)."""

    inputs: PreviewInputs
    prompt: ComposedPrompt
    baseline_inputs: PreviewInputs | None = None
    baseline: ComposedPrompt | None = None
    diff: tuple[tuple[str, str], ...] = ()
    # What the composer read from disk that exists now (a watcher can follow only those).
    watch: tuple[str, ...] = ()
    sources: tuple[PromptSource, ...] = ()  # who wrote each item, and where it is in the text
    later_inputs: PreviewInputs | None = None
    later: ComposedPrompt | None = None

    @property
    def compared(self) -> tuple[PreviewInputs, ComposedPrompt]:
        """Prompt B of a comparison, with its inputs."""
        if self.later_inputs is not None and self.later is not None:
            return self.later_inputs, self.later
        return self.inputs, self.prompt


Shift = Callable[[datetime], datetime]


def compose_preview(
    app: Memdesk, inputs: PreviewInputs, baseline: PreviewInputs | None, later: Shift | None = None
) -> Preview:
    """Runs on a worker thread: the prompt, and the one to compare it with: A = ``baseline``
    and B = the inputs, or (``later``) A = the inputs and B = the inputs at a later time."""
    trusted = app.settings.files.trusted_projects
    prompt = app.prompt.compose(inputs.spec(trusted))
    watch = tuple(str(path) for path in prompt.depends_on if path.exists())
    sources = tuple(app.provenance.sources(prompt))
    if later is not None:
        shifted = replace(inputs, when=later(prompt.now))
        after = app.prompt.compose(shifted.spec(trusted))
        diff = tuple(diff_lines(prompt.text, after.text))
        return Preview(inputs, prompt, inputs, prompt, diff, watch, sources, shifted, after)
    if baseline is None:
        return Preview(inputs, prompt, watch=watch, sources=sources)
    before = app.prompt.compose(baseline.spec(trusted))
    diff = tuple(diff_lines(before.text, prompt.text))
    return Preview(inputs, prompt, baseline, before, diff, watch, sources)


def signed(number: int) -> str:
    return f"+{number:,}" if number > 0 else f"−{-number:,}" if number < 0 else "±0"


SECTION_HUES = {
    "base": 265,
    "profile": theme.OK_HUE,
    "working": theme.WARNING_HUE,
    "greeting": 300,
    "files": 175,
    "app": theme.INFO_HUE,
    "recall": 335,
}
GUTTER_MAX = 170
_AFTER_SLASH = re.compile(r"(?<=/)")  # where a path may break across lines
STRIP_WIDTH = 4


def utf16_length(text: str) -> int:
    """Qt counts positions in UTF-16 code units; an emoji is two."""
    return len(text.encode("utf-16-le")) // 2


@dataclass(frozen=True)
class _Band:
    section: Section
    first_block: int
    last_block: int
    hue: int


def _tint_blocks(editor: QPlainTextEdit, first: int, last: int, color: QColor) -> None:
    """Give blocks ``first``..``last`` a background that runs the full width."""
    document = editor.document()
    cursor = QTextCursor(document.findBlockByNumber(first))
    cursor.setPosition(document.findBlockByNumber(last).position(), QTextCursor.MoveMode.KeepAnchor)
    block_format = QTextBlockFormat()
    block_format.setBackground(color)
    cursor.mergeBlockFormat(block_format)


class _Gutter(QWidget):
    def __init__(self, editor: PromptText) -> None:
        super().__init__(editor)
        self.setMouseTracking(True)

    @property
    def editor(self) -> PromptText:
        # Asked of Qt rather than kept: an editor and its gutter that point at each other in
        # Python are freed by the garbage collector, on whatever thread it runs.
        return cast(PromptText, self.parentWidget())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            self.editor.paint_gutter(painter, event.rect())
        finally:
            painter.end()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            band = self.editor.band_at(event.pos().y())
            if band is None:
                QToolTip.hideText()
            else:
                section = band.section
                tip = f"{section.name} — {section.tokens:,} tokens\nfrom {section.source or 'no source'}"
                QToolTip.showText(
                    event.globalPos(), tip + (f"\n{section.reason}" if section.reason else ""), self
                )
            return True
        return super().event(event)


class PromptText(QPlainTextEdit):
    """The prompt, read-only, each section tinted; a gutter names each section, its source and size."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.bands: list[_Band] = []
        self._band_of_block: list[int] = []
        self._marked: list[tuple[int, int]] = []
        self.gutter = _Gutter(self)
        self.updateRequest.connect(lambda _rect, _dy: self.gutter.update())
        theme.follow(self, self._retint)

    def gutter_width(self) -> int:
        return min(GUTTER_MAX, max(90, self.width() // 4))

    def set_prompt(self, prompt: ComposedPrompt) -> None:
        bar = self.verticalScrollBar()
        at = bar.value()
        self._marked = []  # offsets into the text being replaced
        self.setPlainText(prompt.text)
        self.bands = []
        position = 0
        for section in prompt.sections:
            if not section.included:
                continue
            first = self.document().findBlock(position).blockNumber()
            end = position + utf16_length(section.text)
            last = self.document().findBlock(max(end - 1, position)).blockNumber()
            self.bands.append(_Band(section, first, last, SECTION_HUES.get(section.name, theme.INFO_HUE)))
            position = end + 2  # the blank line between sections
        self._band_of_block = [-1] * self.document().blockCount()
        for index, band in enumerate(self.bands):
            for number in range(band.first_block, band.last_block + 1):
                self._band_of_block[number] = index
        self._retint()
        bar.setValue(at)

    def _retint(self) -> None:
        for band in self.bands:
            _tint_blocks(self, band.first_block, band.last_block, theme.tint(band.hue))
        self._mark()
        self.gutter.update()

    def mark_spans(self, spans: list[tuple[int, int]]) -> None:
        """Underlay these (start, end) offsets of the prompt text with the warning colour."""
        self._marked = spans
        self._mark()

    def _mark(self) -> None:
        text = self.toPlainText()
        marked_format = QTextCharFormat()
        marked_format.setBackground(theme.tint(theme.WARNING_HUE, strength=0.45))
        selections = []
        for start, end in self._marked:
            selection = QTextEdit.ExtraSelection()
            selection.cursor = QTextCursor(self.document())
            # Python counts code points, Qt counts UTF-16 units.
            selection.cursor.setPosition(utf16_length(text[:start]))
            selection.cursor.setPosition(utf16_length(text[:end]), QTextCursor.MoveMode.KeepAnchor)
            selection.format = marked_format
            selections.append(selection)
        self.setExtraSelections(selections)

    def band_at(self, y: float) -> _Band | None:
        block = self.cursorForPosition(QPoint(4, int(y))).block()
        if not block.isValid() or block.blockNumber() >= len(self._band_of_block):
            return None
        index = self._band_of_block[block.blockNumber()]
        return self.bands[index] if index >= 0 else None

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)
        area = self.contentsRect()
        self.gutter.setGeometry(area.left(), area.top(), self.gutter_width(), area.height())

    def paint_gutter(self, painter: QPainter, area: QRect) -> None:
        pal = theme.palette()
        painter.fillRect(area, theme.subtle_background(pal))
        extents: dict[int, list[float]] = {}  # band -> [top, bottom] of its visible part
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        while block.isValid():
            geometry = self.blockBoundingGeometry(block).translated(offset)
            if geometry.top() > area.bottom():
                break
            index = (
                self._band_of_block[block.blockNumber()]
                if block.blockNumber() < len(self._band_of_block)
                else -1
            )
            if index >= 0:
                extent = extents.setdefault(index, [geometry.top(), geometry.bottom()])
                extent[1] = geometry.bottom()
            block = block.next()
        width = self.gutter.width()
        metrics = QFontMetricsF(self.font())
        bold = QFont(self.font())
        bold.setBold(True)
        line = metrics.lineSpacing()
        for index, (top, bottom) in extents.items():
            band = self.bands[index]
            accent = theme.accent(band.hue, pal)
            painter.fillRect(QRectF(width - STRIP_WIDTH - 2, top, STRIP_WIDTH, bottom - top), accent)
            room = width - STRIP_WIDTH - 12
            lines = [
                (band.section.name, bold, accent),
                (f"{band.section.tokens:,} tokens", self.font(), theme.muted(pal)),
                # The source wraps at its spaces; only a single word too long is cut.
                *(
                    (part, self.font(), theme.muted(pal))
                    for part in wrap_words(band.section.source, metrics, room)
                ),
            ]
            y = max(top, 0.0) + 2
            for text, font, color in lines:
                if not text or y + line > max(bottom, top + line) + 3:
                    break  # a one-line section shows its name only; the tooltip has the rest
                painter.setFont(font)
                painter.setPen(color)
                elided = QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideMiddle, room)
                painter.drawText(QRectF(6, y, room, line), Qt.AlignmentFlag.AlignVCenter, elided)
                y += line


def wrap_words(text: str, metrics: QFontMetricsF, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``, broken at spaces or after a slash
    ("user/" "profile"); a single piece still too wide is left for the caller to elide."""
    lines: list[str] = []
    for word in text.split():
        for piece in _AFTER_SLASH.split(word):
            glue = "" if lines and lines[-1].endswith("/") else " "
            joined = f"{lines[-1]}{glue}{piece}" if lines else piece
            if lines and metrics.horizontalAdvance(joined) <= width:
                lines[-1] = joined
            elif piece:
                lines.append(piece)
    return lines


class DiffText(QPlainTextEdit):
    """Two prompts line by line: removed lines marked ``-``, added ``+``, each tinted."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._lines: list[tuple[str, str]] = []
        theme.follow(self, self._retint)

    def set_diff(self, lines: list[tuple[str, str]]) -> None:
        if lines and all(tag == " " for tag, _ in lines):
            self._lines = []
            self.setPlainText("No difference: both prompts are the same.")
            return
        self._lines = lines
        self.setPlainText("\n".join(f"{tag} {text}" for tag, text in lines))
        self._retint()

    def _retint(self) -> None:
        hues = {"-": theme.DANGER_HUE, "+": theme.OK_HUE}
        document = self.document()
        position = 0
        for tag, text in self._lines:
            length = utf16_length(text) + 2
            if tag in hues:
                number = document.findBlock(position).blockNumber()
                last = document.findBlock(position + length - 1).blockNumber()
                _tint_blocks(self, number, last, theme.tint(hues[tag], strength=0.22))
            position += length + 1


def _row(*widgets: QWidget, stretch: bool = True) -> QWidget:
    """Widgets side by side; the first takes the spare width, or none does."""
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(4)
    for index, widget in enumerate(widgets):
        layout.addWidget(widget, 1 if stretch and index == 0 else 0)
    if not stretch:
        layout.addStretch(1)
    return row


def _utc_qdatetime(when: datetime) -> QDateTime:
    return QDateTime(
        QDate(when.year, when.month, when.day),
        QTime(when.hour, when.minute, when.second),
        QTimeZone.utc(),
    )


def _from_qdatetime(value: QDateTime) -> datetime:
    utc = value.toUTC()
    date, time = utc.date(), utc.time()
    return datetime(date.year(), date.month(), date.day(), time.hour(), time.minute(), time.second())


class PromptPreviewView(Page):
    composed = Signal()  # a new result is on screen

    def __init__(self, app: Memdesk, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.tasks = tasks
        self.result: Preview | None = None
        self._when: datetime | None = None
        self._baseline: PreviewInputs | None = None
        self._later: Shift | None = None  # comparing with these inputs at a later time
        self._request = 0
        self._started = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._compose)
        # The file scopes live on disk, where an assistant edits them with its own tools.
        self._disk = QFileSystemWatcher(self)
        self._disk.directoryChanged.connect(self._schedule)
        self._disk.fileChanged.connect(self._schedule)

        self.header = ViewHeader(
            "Prompt preview",
            "The exact system prompt a session gets — the same text as `memdesk prompt`.",
        )
        self._make_inputs()
        self._make_output()
        self._layout()

    # -- building ------------------------------------------------------------------------

    def _make_inputs(self) -> None:
        self.session = QComboBox()
        self.session.setEditable(True)
        self.session.lineEdit().setPlaceholderText("no session")
        self.session.editTextChanged.connect(self._schedule)
        self.app_choice = QComboBox()
        self.app_choice.addItem("No app", "")
        self.app_choice.currentIndexChanged.connect(self._schedule)
        self.reader = QComboBox()
        self.reader.addItem(YOU, "")
        self.reader.setToolTip(
            "Whose prompt: an assistant's is composed within the apps it may read. "
            "Private items are left out for everyone."
        )
        self.reader.currentIndexChanged.connect(self._schedule)
        self.message = QLineEdit()
        self.message.setPlaceholderText("what the user says first")
        self.message.setToolTip("The user's first message: it decides what is recalled into the prompt")
        self.message.setClearButtonEnabled(True)
        self.message.textChanged.connect(self._schedule)

        self.base_mode = QComboBox()
        self.base_mode.addItems(["From a file", "Typed text"])
        self.base_file = QLineEdit(self.app.settings.prompt.base_file)
        self.base_file.setPlaceholderText("none")
        self.base_file.textChanged.connect(self._schedule)
        browse_base = QPushButton("Browse…")
        browse_base.clicked.connect(self._browse_base)
        self.base_file_row = _row(self.base_file, browse_base)
        self.base_text = QPlainTextEdit()
        self.base_text.setPlaceholderText("the assistant's own system prompt")
        self.base_text.setTabChangesFocus(True)
        self.base_text.setFixedHeight(self.fontMetrics().lineSpacing() * 5)
        self.base_text.textChanged.connect(self._schedule)
        self.base_text.hide()
        self.base_mode.currentIndexChanged.connect(self._base_mode_changed)

        self.project = QLineEdit()
        self.project.setPlaceholderText("none")
        self.project.textChanged.connect(self._project_changed)
        browse_project = QPushButton("Browse…")
        browse_project.clicked.connect(self._browse_project)
        self.project_row = _row(self.project, browse_project)
        self.trusted = QCheckBox("Trust for this preview")
        self.trusted.setToolTip(
            "Only a trusted project's MEMORY.md reaches the prompt. The projects you trust (Files, "
            "or `memdesk files trust`) are trusted without this."
        )
        self.trusted.setEnabled(False)
        self.trusted.toggled.connect(self._schedule)

        self.date = QDateTimeEdit()
        self.date.setCalendarPopup(True)
        self.date.setTimeZone(QTimeZone.utc())
        self.date.setDisplayFormat("yyyy-MM-dd HH:mm 'UTC'")
        self.date.setDateTime(_utc_qdatetime(self.app.now()))
        self.date.dateTimeChanged.connect(self._date_edited)
        self.now_button = QToolButton()
        self.now_button.setText("Now")
        self.now_button.setToolTip("Follow the current time")
        self.now_button.clicked.connect(self.follow_now)
        self.date_row = _row(self.date, self.now_button)
        picks: list[tuple[str, str, Callable[[datetime], datetime]]] = [
            ("+1 day", "A day later", lambda when: when + timedelta(days=1)),
            ("+1 week", "A week later", lambda when: when + timedelta(days=7)),
            ("+1 month", "A month later", lambda when: add_months(when, 1)),
        ]
        self.pick_buttons: list[QToolButton] = []
        for text, tip, shift in picks:
            button = QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.clicked.connect(lambda _=False, shift=shift: self.set_date(shift(self._effective_date())))
            self.pick_buttons.append(button)
        self.picks_row = _row(*self.pick_buttons, stretch=False)

    def _make_output(self) -> None:
        self.total = QLabel()
        self.total.setFont(theme.scaled_font(self.font(), 1.15, bold=True))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        theme.follow(self.summary, lambda: theme.set_text_color(self.summary, theme.muted()))
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the exact prompt text")
        self.copy_button.clicked.connect(self.copy)
        self.save_button = QPushButton("Save as…")
        self.save_button.clicked.connect(self.save_as)
        self.compare_button = QPushButton("Compare with…")
        menu = QMenu(self.compare_button)
        for text, shift in (
            ("These inputs a day later", lambda when: when + timedelta(days=1)),
            ("These inputs a week later", lambda when: when + timedelta(days=7)),
            ("These inputs a month later", lambda when: add_months(when, 1)),
        ):
            menu.addAction(text).triggered.connect(lambda _=False, shift=shift: self.compare_later(shift))
        menu.addAction("Other inputs (change them after this)").triggered.connect(lambda: self.compare_with())
        menu.addSeparator()
        self.stop_compare = menu.addAction("Stop comparing")
        self.stop_compare.setEnabled(False)
        self.stop_compare.triggered.connect(self.end_compare)
        self.compare_button.setMenu(menu)

        self.errors = MessageBar(hue=theme.DANGER_HUE)
        self.prompt_view = PromptText()
        self.diff_view = DiffText()
        self.diff_summary = QLabel()
        self.diff_summary.setWordWrap(True)
        diff_page = QWidget()
        diff_layout = QVBoxLayout(diff_page)
        diff_layout.setContentsMargins(0, 4, 0, 0)
        diff_layout.addWidget(self.diff_summary)
        diff_layout.addWidget(self.diff_view, 1)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.prompt_view, "Prompt")
        self.tabs.addTab(diff_page, "Difference")
        self.tabs.setTabEnabled(1, False)
        self.sources_panel = SourcesPanel()
        self.sources_panel.marking_changed.connect(lambda _on: self._mark_assistants())
        self.sources_panel.open_requested.connect(self.open_requested)
        self.sources_panel.undo_requested.connect(self.undo_step)
        self.tabs.addTab(self.sources_panel, "Who wrote it")
        self.left_out = QLabel()
        self.left_out.setWordWrap(True)
        theme.follow(self.left_out, lambda: theme.set_text_color(self.left_out, theme.muted()))

    def _layout(self) -> None:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # labels above fields when narrow
        form.addRow("Session", self.session)
        form.addRow("App", self.app_choice)
        form.addRow("As seen by", self.reader)
        form.addRow("First message", self.message)
        form.addRow("Base prompt", self.base_mode)
        form.addRow("", self.base_file_row)
        form.addRow("", self.base_text)
        form.addRow("Project", self.project_row)
        form.addRow("", self.trusted)
        form.addRow("Date", self.date_row)
        form.addRow("", self.picks_row)
        inputs = QWidget()
        column = QVBoxLayout(inputs)
        column.addLayout(form)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(inputs)
        # Never narrower than the fields (they would be cut off: it does not scroll sideways).
        scrollbar = scroll.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        scroll.setMinimumWidth(inputs.minimumSizeHint().width() + scrollbar)

        self.buttons = QHBoxLayout()
        for button in (self.copy_button, self.save_button, self.compare_button):
            self.buttons.addWidget(button)
        self.actions = QGridLayout()
        self.actions.setContentsMargins(0, 0, 0, 0)
        self.actions.setColumnStretch(0, 1)
        self.actions.addWidget(self.total, 0, 0)
        self.actions.addLayout(self.buttons, 0, 1)
        self._actions_in_one_row = True
        self.output = output = QWidget()
        # Narrower than the total beside the buttons, the buttons move under it (_fit_actions).
        output.setMinimumWidth(self.buttons.minimumSize().width())
        output.installEventFilter(self)
        out = QVBoxLayout(output)
        out.setContentsMargins(0, 0, 0, 0)
        out.addLayout(self.actions)
        out.addWidget(self.summary)
        out.addWidget(self.errors)
        # Above the tabs rather than beside them (it marks the Prompt tab too), so a narrow
        # pane keeps every tab's title whole.
        out.addWidget(self.sources_panel.assistants_only)
        out.addWidget(self.tabs, 1)
        out.addWidget(self.left_out)

        self.splitter = QSplitter()
        self.splitter.addWidget(scroll)
        self.splitter.addWidget(output)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        layout = theme.view_layout(self)
        layout.addWidget(self.header)
        layout.addWidget(self.splitter, 1)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.output and event.type() == QEvent.Type.Resize:
            self._fit_actions()
        return False

    def _fit_actions(self) -> None:
        """The total beside the buttons when there is room, above them in a narrow window."""
        one_row = (
            self.total.sizeHint().width() + self.actions.horizontalSpacing() + self.buttons.sizeHint().width()
        )
        fits = self.output.width() >= one_row
        if fits == self._actions_in_one_row:
            return
        self._actions_in_one_row = fits
        self.actions.removeItem(self.buttons)
        if fits:
            self.actions.addLayout(self.buttons, 0, 1)
        else:
            self.actions.addLayout(self.buttons, 1, 0, 1, 2, Qt.AlignmentFlag.AlignLeft)

    # -- public --------------------------------------------------------------------------

    def text(self) -> str:
        """The composed prompt on screen, exactly."""
        return self.result.prompt.text if self.result else ""

    def inputs(self) -> PreviewInputs:
        return PreviewInputs(
            session=self.session.currentText(),
            app_id=self.app_choice.currentData() or "",
            message=self.message.text(),
            base_text=self.base_text.toPlainText(),
            base_file=self.base_file.text(),
            base_from_file=self.base_mode.currentIndex() == 0,
            project=self.project.text(),
            trusted=self.trusted.isChecked(),
            when=self._when,
            reader=self.reader.currentData() or "",
        )

    def set_date(self, when: datetime) -> None:
        """Preview the prompt as it will be at ``when`` (naive UTC)."""
        self._when = when
        self._show_date(when)
        self._schedule()

    def follow_now(self) -> None:
        self._when = None
        self._show_date(self.app.now())
        self._schedule()

    def refresh(self) -> None:
        """Re-read sessions and apps, and compose again (the store changed)."""
        self._started = True
        self.tasks.read(_choices, on_done=self._fill_choices)
        self.recompose()

    def undo_step(self, step_id: int) -> None:
        """Undo the change that wrote an item; the window recomposes when it lands."""
        self.tasks.write(lambda app: app.history.undo(step_id), label="Undoing…")

    def _mark_assistants(self) -> None:
        marking = self.sources_panel.assistants_only.isChecked() and self.result is not None
        sources = self.result.sources if marking and self.result else ()
        self.prompt_view.mark_spans(
            [
                span
                for source in sources
                if source.origin and source.origin.by_assistant
                for span in source.spans
            ]
        )

    def compare_with(self, baseline: PreviewInputs | None = None) -> None:
        """Compare what the inputs give from now on with ``baseline`` (default: the current inputs)."""
        self._baseline, self._later = baseline or self.inputs(), None
        self._show_compare()

    def compare_later(self, shift: Shift) -> None:
        """Compare the inputs (A, still shown on the left) with the same inputs at ``shift``
        of their date (B); the inputs themselves stay as they are."""
        self._baseline, self._later = None, shift
        self._show_compare()

    def _show_compare(self) -> None:
        self.stop_compare.setEnabled(True)
        self.tabs.setTabEnabled(1, True)
        self.tabs.setCurrentIndex(1)
        self._schedule()

    def end_compare(self) -> None:
        self._baseline, self._later = None, None
        self.stop_compare.setEnabled(False)
        self.tabs.setCurrentIndex(0)
        self.tabs.setTabEnabled(1, False)
        self._schedule()

    def copy(self) -> None:
        if self.result is not None:
            QGuiApplication.clipboard().setText(self.result.prompt.text)

    def save_as(self) -> None:
        if self.result is None:
            return
        text = self.result.prompt.text
        path = dialogs.save_file(self, "Save the prompt", "prompt.txt", "Text files (*.txt);;All files (*)")
        if path is None:
            return
        try:
            Path(path).write_bytes(text.encode("utf-8"))
        except OSError as exc:
            dialogs.error(self, "Save the prompt", f"Could not save {path}: {exc.strerror}.")

    # -- composing -----------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:
        if not self._started:  # shown before anyone asked for a refresh
            self.refresh()
            total = max(self.splitter.width(), 600)
            inputs = min(max(total // 3, 280), 420)
            self.splitter.setSizes([inputs, total - inputs])
        super().showEvent(event)

    def _schedule(self) -> None:
        self._timer.start()

    def recompose(self) -> None:
        """Compose now, without waiting for a pause in typing."""
        self._timer.stop()
        self._compose()

    def _compose(self) -> None:
        self._request += 1
        request = self._request
        inputs, baseline, later = self.inputs(), self._baseline, self._later
        self.tasks.read(
            lambda app: compose_preview(app, inputs, baseline, later),
            on_done=lambda result: self._show(request, result),
            on_error=lambda exc: self._failed(request, exc),
        )

    def _show(self, request: int, result: Preview) -> None:
        if request != self._request:
            return  # a newer request is on its way
        self._watch_disk(result.watch)
        self.result = result
        self.errors.hide()
        prompt = result.prompt
        if self._when is None:
            self._show_date(prompt.now)
        self.prompt_view.set_prompt(prompt)
        self.sources_panel.set_sources(list(result.sources))
        self._mark_assistants()
        included = [s for s in prompt.sections if s.included]
        moment = "now" if result.inputs.when is None else "at"
        self.total.setText(f"{prompt.tokens:,} tokens")
        self._fit_actions()  # a longer number may no longer fit beside the buttons
        # The total is counted over the whole text (the breaks between sections too), each
        # section on its own: say so where the two figures differ.
        in_sections = sum(s.tokens for s in included)
        breaks = (
            f" ({in_sections:,} tokens counted section by section; the total counts the whole "
            "text, breaks between sections included)"
            if in_sections != prompt.tokens
            else ""
        )
        self.summary.setText(
            f"{len(included)} of {len(prompt.sections)} sections{breaks} · "
            f"composed {moment} {format_minute(prompt.now)} UTC"
        )
        notes = [f"{s.name}: {_reason(s, prompt.private)}" for s in prompt.sections if not s.included]
        cuts = [f"{s.name}: {s.reason}" for s in included if s.reason]
        lines = []
        if notes:
            lines.append("Left out — " + " · ".join(notes))
        if prompt.private:
            lines.append("Left out — private: " + " · ".join(prompt.private))
        if cuts:
            lines.append("Cut — " + " · ".join(cuts))
        self.left_out.setText("\n".join(lines))
        self._show_diff(result)
        self.composed.emit()

    def _watch_disk(self, paths: tuple[str, ...]) -> None:
        """Follow the files the composer read (base prompt, MEMORY.md scopes), so an edit
        on disk recomposes the preview."""
        wanted = set(paths)
        watched = set(self._disk.files()) | set(self._disk.directories())
        if watched - wanted:
            self._disk.removePaths(sorted(watched - wanted))
        if wanted - watched:
            self._disk.addPaths(sorted(wanted - watched))

    def _show_diff(self, result: Preview) -> None:
        if result.baseline is None or result.baseline_inputs is None:
            self.diff_view.set_diff([])
            self.diff_summary.clear()
            return
        before = result.baseline
        after_inputs, after = result.compared
        changes = section_token_changes(before, after)
        by_section = " · ".join(f"{name} {signed(delta)}" for name, delta in changes) or "no section changed"
        self.diff_summary.setText(
            f"A: {result.baseline_inputs.describe(before.now)} — {before.tokens:,} tokens\n"
            f"B: {after_inputs.describe(after.now)} — {after.tokens:,} tokens\n"
            f"B − A: {signed(after.tokens - before.tokens)} tokens ({by_section})"
        )
        self.diff_view.set_diff(list(result.diff))

    def _failed(self, request: int, exc: Exception) -> None:
        if request != self._request:
            return
        self.errors.show_message(dialogs.describe_error(exc))

    # -- inputs --------------------------------------------------------------------------

    def _effective_date(self) -> datetime:
        return self._when or (self.result.prompt.now if self.result else self.app.now())

    def _show_date(self, when: datetime) -> None:
        self.date.blockSignals(True)
        self.date.setDateTime(_utc_qdatetime(when))
        self.date.blockSignals(False)

    def _date_edited(self, value: QDateTime) -> None:
        self._when = _from_qdatetime(value)
        self._schedule()

    def _base_mode_changed(self, index: int) -> None:
        self.base_file_row.setVisible(index == 0)
        self.base_text.setVisible(index == 1)
        self._schedule()

    def _project_changed(self, text: str) -> None:
        self.trusted.setEnabled(bool(text.strip()))
        self._schedule()

    def _browse_base(self) -> None:
        path = dialogs.open_file(self, "Base prompt file", "Text files (*.txt *.md);;All files (*)")
        if path is not None:
            self.base_file.setText(str(path))

    def _browse_project(self) -> None:
        path = dialogs.pick_folder(self, "Project folder", self.project.text())
        if path is not None:
            self.project.setText(str(path))

    def _fill_choices(self, choices: tuple[list[str], list[tuple[str, str]], list[str]]) -> None:
        sessions, apps, readers = choices
        reader = self.reader.currentData()
        self.reader.blockSignals(True)
        self.reader.clear()
        self.reader.addItem(YOU, "")
        for name in readers:
            self.reader.addItem(name, name)
        self.reader.setCurrentIndex(max(self.reader.findData(reader), 0))
        self.reader.blockSignals(False)
        typed = self.session.currentText()
        self.session.blockSignals(True)
        self.session.clear()
        self.session.addItems(["", *sessions])
        self.session.setEditText(typed)
        self.session.blockSignals(False)
        chosen = self.app_choice.currentData()
        self.app_choice.blockSignals(True)
        self.app_choice.clear()
        self.app_choice.addItem("No app", "")
        for app_id, label in apps:
            self.app_choice.addItem(label if label == app_id else f"{label} ({app_id})", app_id)
        index = self.app_choice.findData(chosen)
        if index < 0 and chosen:  # keep a choice the store no longer lists; the prompt says so
            self.app_choice.addItem(chosen, chosen)
            index = self.app_choice.count() - 1
        self.app_choice.setCurrentIndex(max(index, 0))
        self.app_choice.blockSignals(False)

    def select_app(self, app_id: str) -> None:
        index = self.app_choice.findData(app_id)
        if index < 0:
            self.app_choice.addItem(app_id, app_id)
            index = self.app_choice.count() - 1
        self.app_choice.setCurrentIndex(index)


def _reason(section: Section, private: tuple[str, ...]) -> str:
    """Why a section is left out, as the person is told: an assistant reads "empty" where the
    item is private, and the person reads "private"."""
    targets = {section.source, str(Target(TargetKind.DOC, section.source))}  # an app's source is app:ID
    return "private" if section.source and targets & set(private) else section.reason


def _choices(app: Memdesk) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """Runs on a worker thread: session ids, (app id, label) pairs and assistants for the combos."""
    sessions = [summary.id for summary in app.sessions.list()]
    apps = sorted(app.expiry.app_labels().items(), key=lambda pair: pair[1].casefold())
    readers = sorted(client.name for client in app.assistants.list())
    return sessions, apps, readers
