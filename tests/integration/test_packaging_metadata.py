"""The installer metadata agrees with itself: one app id everywhere, one version, sound icons.

Fast checks on the files in the tree; building the packages is `make package-test`.
"""

from __future__ import annotations

import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import memdesk

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
APP_ID = PYPROJECT["tool"]["memdesk"]["app_id"]
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def desktop_entry() -> dict[str, str]:
    """The keys of the [Desktop Entry] group (untranslated ones are enough here)."""
    path = ROOT / "resources" / "linux" / f"{APP_ID}.desktop"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "[Desktop Entry]"
    return dict(line.split("=", 1) for line in lines[1:] if "=" in line)


def metainfo() -> ET.Element:
    return ET.parse(ROOT / "resources" / "linux" / f"{APP_ID}.metainfo.xml").getroot()


def test_one_app_id_everywhere():
    assert memdesk.APP_ID == APP_ID
    assert desktop_entry()["Icon"] == APP_ID
    component = metainfo()
    assert component.findtext("id") == APP_ID
    launchable = component.find("launchable")
    assert launchable is not None
    assert launchable.get("type") == "desktop-id"
    assert launchable.text == f"{APP_ID}.desktop"
    assert (ROOT / "resources" / "icons" / f"{APP_ID}.svg").is_file()


def test_app_name_and_command_match_the_project():
    entry = desktop_entry()
    assert entry["Name"] == PYPROJECT["tool"]["memdesk"]["app_name"] == memdesk.APP_NAME
    assert metainfo().findtext("name") == memdesk.APP_NAME
    binary = metainfo().findtext("provides/binary")
    assert binary in PYPROJECT["project"]["scripts"]
    assert entry["Exec"].split()[0] == binary


def test_metainfo_release_is_the_project_version():
    # pyproject.toml takes its version from memdesk.__version__.
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"] == "memdesk.__version__"
    releases = metainfo().findall("releases/release")
    assert releases, "metainfo lists no release"
    assert releases[0].get("version") == memdesk.__version__


def test_metainfo_licenses():
    component = metainfo()
    assert component.findtext("metadata_license") == "CC0-1.0"
    assert component.findtext("project_license") == "MIT"


def test_svg_icon_is_square_svg():
    root = ET.parse(ROOT / "resources" / "icons" / f"{APP_ID}.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert width == height


@pytest.mark.parametrize("size", ICON_SIZES)
def test_hicolor_png_has_its_size(size: int):
    path = ROOT / "resources" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    signature, _, chunk, width, height = struct.unpack(">8sI4sII", path.read_bytes()[:24])
    assert signature == PNG_SIGNATURE
    assert chunk == b"IHDR"
    assert (width, height) == (size, size)


def test_packaging_scripts_read_the_same_facts():
    result = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "project.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == [memdesk.__version__, APP_ID, memdesk.APP_NAME]


def test_the_deb_depends_on_the_x11_libraries_memdesk_gui_checks_for():
    from memdesk.gui import xcb

    result = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "project.py"), "xcb-packages"],
        capture_output=True,
        text=True,
        check=True,
    )
    printed = result.stdout.strip().split(", ")
    assert printed == list(dict.fromkeys(xcb.PACKAGES.values()))
    assert "libxcb-cursor0" in printed and "libxkbcommon-x11-0" in printed
