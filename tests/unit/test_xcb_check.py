"""`memdesk gui` on a desktop without Qt's X11 libraries: one line naming what to install."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.gui import xcb

LDD_ON_A_BARE_DESKTOP = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibQt6XcbQpa.so.6 => /opt/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f1)
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f2)
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-cursor.so.0 => not found
\tlibQt6Gui.so.6 => not found
"""


def test_missing_libraries_are_named_with_their_packages():
    line = xcb.problem({"DISPLAY": ":0"}, ldd=lambda _plugin: LDD_ON_A_BARE_DESKTOP)
    assert line is not None and "\n" not in line
    assert "libxcb-cursor.so.0, libxcb-icccm.so.4, libxcb-keysyms.so.1, which" in line
    assert "libQt6Gui" not in line  # Qt's own libraries come with Qt, not from the system
    assert line.endswith("sudo apt install libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1")


def test_nothing_to_say_when_the_libraries_are_there_or_qt_is_not_on_x11():
    complete = LDD_ON_A_BARE_DESKTOP.replace("not found", "/lib/x.so (0x1)")
    assert xcb.problem({"DISPLAY": ":0"}, ldd=lambda _plugin: complete) is None
    for environ in ({"QT_QPA_PLATFORM": "offscreen"}, {"WAYLAND_DISPLAY": "wayland-0"}):
        assert xcb.problem(environ, ldd=lambda _plugin: LDD_ON_A_BARE_DESKTOP) is None


@pytest.mark.skipif(xcb.xcb_plugin() is None, reason="this PySide6 has no xcb plugin")
def test_the_real_plugin_is_read_with_the_real_linker():
    # On this machine every library is there (the tests run Qt); the real ldd output parses to
    # the libraries it names as missing, which must then be none at all.
    assert xcb.missing_libraries(xcb.xcb_plugin()) == []


def test_memdesk_gui_prints_the_line_and_exits_1(tmp_path: Path):
    script = (
        "import sys\n"
        "from memdesk.gui import xcb\n"
        f"xcb._run_ldd = lambda plugin: {LDD_ON_A_BARE_DESKTOP!r}\n"
        "from memdesk.cli.main import main\n"
        "sys.exit(main(['--data-dir', sys.argv[1], 'gui']))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "DISPLAY": ":0", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "data")], capture_output=True, text=True, env=env
    )
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "sudo apt install libxcb-cursor0" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "data").exists()  # Qt never started
