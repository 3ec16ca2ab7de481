"""Render the app icon SVG to the hicolor PNG sizes that desktops and installers use.

Run from the repository root:  QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/render_icons.py
The PNGs are committed, so this only needs running after the SVG changes.
"""

from __future__ import annotations

import sys

from project import ROOT, app_id
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def render(renderer: QSvgRenderer, size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def main() -> int:
    QGuiApplication(sys.argv)  # QPainter needs a GUI application for its paint engines
    name = app_id()
    svg = ROOT / "resources" / "icons" / f"{name}.svg"
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        print(f"cannot render {svg}", file=sys.stderr)
        return 1
    for size in SIZES:
        out = ROOT / "resources" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{name}.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        if not render(renderer, size).save(str(out), "PNG"):
            print(f"cannot write {out}", file=sys.stderr)
            return 1
        print(out.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
