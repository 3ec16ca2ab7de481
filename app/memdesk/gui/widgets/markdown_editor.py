"""A markdown editor beside its live rendered preview.

The preview never reaches the network: links do not navigate, and ``loadResource``
refuses every URL that is not a local file (``markdown_html`` already drops remote images;
this is the second lock).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QFontDatabase, QPalette, QResizeEvent
from PySide6.QtWidgets import QPlainTextEdit, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from memdesk.core.markdown_html import is_local_url, render_markdown
from memdesk.gui import theme

PREVIEW_DELAY_MS = 150
SIDE_BY_SIDE_MIN_WIDTH = 560


class MarkdownPreview(QTextBrowser):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)
        self.refused: list[str] = []  # remote URLs the preview was asked for and did not load
        self._source = ""
        theme.follow(self, self._apply_style)

    def loadResource(self, kind: int, url: QUrl | str) -> Any:
        text = url.toString() if isinstance(url, QUrl) else str(url)
        if not is_local_url(text):
            self.refused.append(text)
            return None
        return super().loadResource(kind, url)

    def set_markdown(self, text: str) -> None:
        self._source = text
        bar = self.verticalScrollBar()
        at = bar.value() / bar.maximum() if bar.maximum() else 0.0
        self.setHtml(render_markdown(text))
        bar.setValue(round(at * bar.maximum()))

    def set_base_folder(self, folder: Path | None) -> None:
        """Where relative image paths (in a memory folder) are looked up."""
        self.document().setBaseUrl(QUrl.fromLocalFile(str(folder) + "/") if folder else QUrl())

    def _apply_style(self) -> None:
        pal = self.palette()
        code = theme.subtle_background(pal).name()
        rule = theme.mix(pal.color(QPalette.ColorRole.Text), pal.color(QPalette.ColorRole.Base), 0.75).name()
        link = pal.color(QPalette.ColorRole.Link).name()
        self.document().setDefaultStyleSheet(
            f"pre, code {{ background-color: {code}; }}"
            f"th, td {{ border: 1px solid {rule}; padding: 3px 6px; }}"
            f"a {{ color: {link}; }}"
            f"h1, h2, h3 {{ margin-top: 10px; }}"
        )
        if self._source:
            self.set_markdown(self._source)


class MarkdownEditor(QWidget):
    """Plain-text markdown on the left, rendered on the right. ``text_edited``: by the person only."""

    text_edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setTabChangesFocus(False)
        self.editor.document().setDocumentMargin(8)
        self.editor.setPlaceholderText("Nothing written yet.")
        self.preview = MarkdownPreview()
        self.preview.document().setDocumentMargin(12)
        self.splitter = QSplitter()
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(self.preview)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([1, 1])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self._preview_timer = QTimer(self, singleShot=True, interval=PREVIEW_DELAY_MS)
        self._preview_timer.timeout.connect(self._update_preview)
        self._setting = False
        self.editor.textChanged.connect(self._changed)
        self.setFocusProxy(self.editor)

    def resizeEvent(self, event: QResizeEvent) -> None:
        # Side by side when there is room; preview under the text in a narrow window.
        wide = event.size().width() >= SIDE_BY_SIDE_MIN_WIDTH
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)
            self.splitter.setSizes([1, 1])
        super().resizeEvent(event)

    def text(self) -> str:
        return self.editor.toPlainText()

    def set_text(self, text: str) -> None:
        """Replace the text (not an edit by the person), keeping the cursor near where it was."""
        if text == self.text():
            return
        position = self.editor.textCursor().position()
        self._setting = True
        try:
            self.editor.setPlainText(text)
        finally:
            self._setting = False
        cursor = self.editor.textCursor()
        cursor.setPosition(min(position, len(text)))
        self.editor.setTextCursor(cursor)
        self._update_preview()

    def set_dimmed(self, dimmed: bool) -> None:
        """Greyed text: the content is kept but not in the prompt (expired)."""
        for widget in (self.editor, self.preview):
            if dimmed:
                theme.set_text_color(widget, theme.muted())
            else:
                widget.setPalette(QPalette())

    def set_read_only(self, read_only: bool) -> None:
        self.editor.setReadOnly(read_only)

    def _changed(self) -> None:
        self._preview_timer.start()
        if not self._setting:
            self.text_edited.emit()

    def _update_preview(self) -> None:
        self._preview_timer.stop()
        self.preview.set_markdown(self.text())
