"""The markdown preview: raw HTML is shown as text and nothing remote is ever loaded."""

from __future__ import annotations

from PySide6.QtCore import QUrl
from PySide6.QtGui import QTextDocument

from memdesk.core.markdown_html import is_local_url, render_markdown
from memdesk.gui.widgets.markdown_editor import MarkdownEditor, MarkdownPreview


def test_raw_html_is_escaped():
    html = render_markdown('<script>alert("x")</script>\n\nHi <img src=x onerror=alert(1)> & <b>bold</b>')
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&amp;" in html


def test_markdown_still_renders():
    html = render_markdown("# Title\n\n- **bold** item\n\n```\n<kept> & code\n```")
    assert "<h1>Title</h1>" in html
    assert "<strong>bold</strong>" in html
    assert "&lt;kept&gt; &amp; code" in html


def test_remote_images_are_not_referenced():
    html = render_markdown("![tracker](https://example.com/pixel.png) ![local](diagram.png)")
    assert "example.com" not in html
    assert "[image not loaded: tracker]" in html
    assert 'src="diagram.png"' in html


def test_local_and_remote_urls():
    assert is_local_url("diagram.png") and is_local_url("file:///tmp/x.png")
    assert not is_local_url("https://example.com/x.png")
    assert not is_local_url("//example.com/x.png")
    assert not is_local_url("file://fileserver/share/x.png")
    assert not is_local_url("ftp://example.com/x")


def test_the_preview_refuses_remote_resources(qtbot):
    preview = MarkdownPreview()
    qtbot.addWidget(preview)
    assert not preview.openExternalLinks() and not preview.openLinks()
    url = QUrl("https://example.com/pixel.png")
    assert preview.loadResource(QTextDocument.ResourceType.ImageResource.value, url) is None
    assert preview.refused == ["https://example.com/pixel.png"]
    preview.setHtml('<p><img src="http://example.com/a.png"></p>')
    preview.grab()  # paint: Qt asks for the image now
    assert "http://example.com/a.png" in preview.refused


def test_the_editor_previews_what_is_typed(qtbot):
    editor = MarkdownEditor()
    qtbot.addWidget(editor)
    edits = []
    editor.text_edited.connect(lambda: edits.append(1))
    editor.set_text("not an edit")
    assert edits == []
    qtbot.keyClicks(editor.editor, " <i>x</i> **y**")
    assert edits
    qtbot.waitUntil(lambda: "y" in editor.preview.toPlainText())
    assert "<i>x</i>" in editor.preview.toPlainText()  # shown as typed, not as italics
