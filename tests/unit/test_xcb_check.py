"""`memdesk gui` where Qt cannot start on X11: one line saying why and what to do (a desktop
without Qt's X11 libraries: what to install; no display at all: where the window can open)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.gui import xcb

# A system library no machine has, standing in for libxcb-cursor.so.0 on a bare desktop.
PROBE = "libmemdesk-probe.so.0"
needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler to build a stand-in plugin")

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


@pytest.mark.parametrize("environ", [{}, {"QT_QPA_PLATFORM": "xcb"}])
def test_no_display_is_said_before_the_libraries_are_looked_at(environ):
    line = xcb.problem(environ, ldd=lambda _plugin: pytest.fail("no display: the libraries do not matter"))
    assert line is not None and "\n" not in line
    assert "there is no display (DISPLAY is not set" in line and line.endswith("memdesk --help")


def test_memdesk_gui_without_a_display_says_so_instead_of_aborting(tmp_path: Path):
    # As over SSH: no DISPLAY, no WAYLAND_DISPLAY, no platform chosen. Qt itself would abort
    # (exit 134) blaming libxcb-cursor0, which is installed.
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "memdesk", "--data-dir", str(tmp_path / "data"), "gui"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("memdesk: the window cannot open: there is no display")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()  # Qt never started, no store was made


def _cc(output: Path, *options: str) -> None:
    output.parent.mkdir(parents=True, exist_ok=True)
    source = output.parent / "empty.c"
    source.write_text("int memdesk_probe;\n")
    soname = f"-Wl,-soname,{output.name}"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(output), soname, str(source), *options], check=True)


@pytest.fixture
def plugin_on_a_bare_desktop(tmp_path: Path) -> Path:
    """A stand-in for Qt's plugin that needs a Qt library and a system library, both built in
    a folder the linker searches only when told (``LD_LIBRARY_PATH``)."""
    elsewhere = tmp_path / "elsewhere"
    _cc(elsewhere / PROBE)
    _cc(elsewhere / "libQt6XcbQpa.so.6")
    plugin = tmp_path / "platforms" / "libqxcb.so"
    _cc(plugin, "-Wl,--no-as-needed", f"-L{elsewhere}", f"-l:{PROBE}", "-l:libQt6XcbQpa.so.6")
    return plugin


@needs_cc
def test_the_real_linker_decides_and_only_system_libraries_count(plugin_on_a_bare_desktop, monkeypatch):
    monkeypatch.setitem(xcb.PACKAGES, PROBE, "memdesk-probe0")
    assert xcb.missing_libraries(plugin_on_a_bare_desktop) == [PROBE]  # not Qt's own
    monkeypatch.setenv("LD_LIBRARY_PATH", str(plugin_on_a_bare_desktop.parents[1] / "elsewhere"))
    assert xcb.missing_libraries(plugin_on_a_bare_desktop) == []


@needs_cc
def test_memdesk_gui_on_xcb_stops_at_what_the_real_linker_cannot_find(plugin_on_a_bare_desktop, tmp_path):
    # Only where the plugin lies and the stand-in library's package are set; ldd, the
    # platform choice and the command are the real ones.
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "from memdesk.gui import xcb\n"
        "xcb.xcb_plugin = lambda: Path(sys.argv[2])\n"
        f"xcb.PACKAGES[{PROBE!r}] = 'memdesk-probe0'\n"
        "from memdesk.cli.main import main\n"
        "sys.exit(main(['--data-dir', sys.argv[1], 'gui']))\n"
    )
    env = {"PATH": "/usr/bin:/bin", "QT_QPA_PLATFORM": "xcb", "DISPLAY": ":0", "HOME": str(tmp_path)}
    args = [sys.executable, "-c", script, str(tmp_path / "data"), str(plugin_on_a_bare_desktop)]
    done = subprocess.run(args, capture_output=True, text=True, env=env)
    assert done.returncode == 1
    assert done.stderr == (
        f"memdesk: the window cannot open: Qt's X11 support needs {PROBE}, which this system does "
        "not have. Install them with: sudo apt install memdesk-probe0\n"
    )


@pytest.mark.parametrize("on_path", [False, True])
def test_no_display_names_the_memdesk_that_was_started(tmp_path: Path, on_path: bool):
    # `make run` starts .venv/bin/memdesk, which the shell of a fresh checkout does not find.
    script = Path(sys.executable).parent / "memdesk"
    checkout = script.parent.parent.parent
    path = f"{script.parent}:/usr/bin:/bin" if on_path else "/usr/bin:/bin"
    done = subprocess.run(
        [str(script.relative_to(checkout)), "--data-dir", str(tmp_path / "data"), "gui"],
        capture_output=True,
        text=True,
        cwd=checkout,
        env={"PATH": path, "HOME": str(tmp_path)},
    )
    expected = "memdesk" if on_path else str(script.relative_to(checkout))
    assert done.returncode == 1
    assert done.stderr.endswith(f"every other command works without one: {expected} --help\n")
