"""Before Qt starts on X11: is there a display, and are the system libraries its xcb
platform plugin needs installed?

Without either, Qt aborts with "Could not load the Qt platform plugin xcb" (and, with no
display, blames libxcb-cursor0 as well), which says neither what is wrong nor what to do.
Minimal Debian and Ubuntu installs often lack a few of the libraries: this asks the dynamic
linker (``ldd``) what the plugin cannot find and names the Debian packages instead.
It imports nothing of Qt, so it runs before Qt can abort.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

# The Debian package of each library Qt's xcb plugin loads; the .deb's Depends is read from here
# (packaging/project.py), so keep it a plain literal.
PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
}
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)

Ldd = Callable[[Path], str]


def xcb_plugin() -> Path | None:
    """Qt's xcb platform plugin inside the installed PySide6, if there is one."""
    spec = importlib.util.find_spec("PySide6")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def will_use_xcb(environ: Mapping[str, str]) -> bool:
    """Whether Qt will start on X11: asked for, or the default on Linux outside Wayland."""
    if not sys.platform.startswith("linux"):
        return False
    chosen = environ.get("QT_QPA_PLATFORM", "")
    return chosen.startswith("xcb") or (not chosen and not environ.get("WAYLAND_DISPLAY"))


def _run_ldd(plugin: Path) -> str:
    done = subprocess.run(["ldd", str(plugin)], capture_output=True, text=True, timeout=30, check=False)
    return done.stdout


def missing_libraries(plugin: Path, ldd: Ldd = _run_ldd) -> list[str]:
    """The system libraries the plugin (and what it loads) needs and the system does not have.

    Only those a Debian package provides count: Qt's own libraries travel with PySide6 (or
    the installed bundle), and how the linker finds them is not the system's business.
    """
    return [name for name in dict.fromkeys(_NOT_FOUND.findall(ldd(plugin))) if name in PACKAGES]


def problem(
    environ: Mapping[str, str] | None = None, ldd: Ldd | None = None, command: str = "memdesk"
) -> str | None:
    """One line saying why the window cannot open on X11 and what to do (no display, or the
    missing packages and how to install them); None when Qt can start (or when this cannot be
    told: no plugin, no ``ldd``). ``command``: how the person runs memdesk, to name the others."""
    environ = os.environ if environ is None else environ
    if not will_use_xcb(environ):
        return None
    if not environ.get("DISPLAY"):
        return (
            "memdesk: the window cannot open: there is no display (DISPLAY is not set, as over SSH "
            "or on a server). Open it on the desktop; every other command works without one: "
            f"{command} --help"
        )
    plugin = xcb_plugin()
    if plugin is None or (ldd is None and shutil.which("ldd") is None):
        return None
    missing = missing_libraries(plugin, ldd or _run_ldd)
    if not missing:
        return None
    packages = " ".join(dict.fromkeys(PACKAGES.get(name, name) for name in missing))
    return (
        f"memdesk: the window cannot open: Qt's X11 support needs {', '.join(missing)}, which this "
        f"system does not have. Install them with: sudo apt install {packages}"
    )
