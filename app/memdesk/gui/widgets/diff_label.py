"""Before → after, line by line, tinted like a diff tool: compaction's proposals and Review."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from memdesk.gui import theme
from memdesk.services.compaction.render import DiffLine

_TIGHT = "margin-top:0; margin-bottom:0;"  # diff lines sit flush, like a diff tool's


class DiffLabel(QLabel):
    """Before → after, line by line: removed lines on a red tint, added ones on a green tint."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self._lines: list[DiffLine] = []
        self._dimmed = False

    def show_lines(self, lines: list[DiffLine], dimmed: bool = False) -> None:
        """``dimmed``: a rejected change, drawn faded so it reads as "not happening"."""
        self._lines, self._dimmed = lines, dimmed
        self.render_lines()

    def render_lines(self) -> None:
        pal = theme.palette()
        text = (theme.muted(pal) if self._dimmed else pal.color(pal.ColorRole.Text)).name()
        strength = 0.07 if self._dimmed else 0.22
        styles = {
            "-": (theme.tint(theme.DANGER_HUE, pal, strength).name(), theme.danger(pal).name()),
            "+": (theme.tint(theme.OK_HUE, pal, strength).name(), theme.ok(pal).name()),
        }
        rows = []
        for line in self._lines:
            body = html.escape(line.text) or "&nbsp;"
            if line.op == "…":
                rows.append(f'<p style="{_TIGHT} color:{theme.muted(pal).name()}"><i>⋯ {body}</i></p>')
            elif line.op in styles:
                background, mark = styles[line.op]
                sign = "−" if line.op == "-" else "+"
                rows.append(
                    f'<p style="{_TIGHT} background-color:{background}; color:{text}; white-space:pre-wrap">'
                    f'<span style="color:{mark}"><b>{sign}</b></span> {body}</p>'
                )
            else:
                rows.append(f'<p style="{_TIGHT} color:{text}; white-space:pre-wrap">  {body}</p>')
        self.setText("".join(rows) or f'<p style="color:{theme.muted(pal).name()}"><i>(empty)</i></p>')
