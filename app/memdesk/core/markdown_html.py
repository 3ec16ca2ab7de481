"""Markdown to HTML for previews: raw HTML shown as text, remote images never referenced.

Memories are written by assistants and imported from files, so their text is untrusted:
a ``<script>`` or ``<img onerror=...>`` in a note must show up as those characters, and
an image on a web server must not be fetched just because a note was opened.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree
from urllib.parse import urlsplit

import markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

LOCAL_SCHEMES = ("", "file")


def is_local_url(url: str) -> bool:
    """True for relative paths and file: URLs on this machine; anything naming a host is remote
    (``//host/x.png`` and ``file://host/x.png`` included: on Windows that is a network share)."""
    parts = urlsplit(url.strip())
    return parts.scheme.lower() in LOCAL_SCHEMES and parts.netloc.lower() in ("", "localhost")


class _RemoteImages(Treeprocessor):
    """Replace remote images by their alt text, so no renderer is even asked to load them."""

    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            for index, child in enumerate(list(parent)):
                if child.tag == "img" and not is_local_url(child.get("src", "")):
                    placeholder = etree.Element("span")
                    placeholder.text = f"[image not loaded: {child.get('alt') or child.get('src', '')}]"
                    placeholder.tail = child.tail
                    parent.remove(child)
                    parent.insert(index, placeholder)


class SafeMarkdown(Extension):
    """Drop Python-Markdown's raw-HTML pass-through; the serializer then escapes < > &."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_RemoteImages(md), "remote_images", 5)


def render_markdown(text: str) -> str:
    """The HTML body for ``text`` (no ``<html>`` wrapper)."""
    converter = markdown.Markdown(
        extensions=[SafeMarkdown(), "fenced_code", "tables", "sane_lists"],
        output_format="html",
    )
    return converter.convert(text)
