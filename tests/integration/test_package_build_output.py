"""What building the package prints: nothing from a step that worked, everything from one that
failed, and while a long step runs a line now and then that it still does. Checked on the
Makefile's own pip command and the wrapper it runs steps in, with a stand-in slow step, without
building anything (building the packages is `make package-test`)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUIETLY = ROOT / "packaging" / "quietly.sh"
# A stand-in for PyInstaller: a module that talks on both outputs, takes a while, and ends
# with the status it is given.
SLOW_STEP = """
import sys, time
print("INFO: Analyzing modules", flush=True)
time.sleep(float(sys.argv[1]))
print("WARNING: a hidden import was not found", file=sys.stderr, flush=True)
sys.exit(int(sys.argv[2]))
"""
HEARTBEAT = re.compile(r"  … slowstep is still running \(\d+ s\)")


def _make(*args: str) -> subprocess.CompletedProcess:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True, text=True)


def _pip(requirement: str) -> subprocess.CompletedProcess:
    """The Makefile's PIP_INSTALL, as its targets run it, on one requirement from no index."""
    rule = "pip-as-the-build-runs-it: ; @$(PIP_INSTALL) --no-index $(REQUIREMENT)"
    return _make("--eval", rule, "pip-as-the-build-runs-it", f"REQUIREMENT={requirement}")


def test_a_step_that_works_says_nothing_and_one_that_fails_says_all_it_said():
    worked = subprocess.run(
        [QUIETLY, "bash", "-c", "echo 'Collecting x'; echo 'notice: a new release' >&2"],
        capture_output=True,
        text=True,
    )
    assert (worked.returncode, worked.stdout, worked.stderr) == (0, "", "")
    failed = subprocess.run(
        [QUIETLY, "bash", "-c", "echo 'Collecting x'; echo 'ERROR: no such package' >&2; exit 3"],
        capture_output=True,
        text=True,
    )
    assert failed.returncode == 3 and failed.stdout == ""
    assert failed.stderr.startswith("Collecting x\nERROR: no such package\n")
    assert "failed with status 3: bash -c" in failed.stderr


def test_pip_as_the_build_runs_it_is_silent_when_it_works_and_fails_the_build_when_it_fails():
    installed = _pip("pip")  # in .venv already: pip would say so, and maybe more
    assert (installed.returncode, installed.stdout, installed.stderr) == (0, "", "")
    missing = _pip("memdesk-no-such-package")
    assert missing.returncode != 0
    assert "ERROR: Could not find a version that satisfies the requirement memdesk-no-such-package" in (
        missing.stderr
    )


def test_every_step_of_the_package_build_runs_quietly():
    planned = _make("-n", "package").stdout
    steps = [line for line in planned.splitlines() if "-m pip " in line or "-m PyInstaller " in line]
    assert any("-m PyInstaller " in line for line in steps)
    assert all("packaging/quietly.sh " in line for line in steps)
    assert all("--disable-pip-version-check" in line for line in steps if "-m pip " in line)
    assert "packaging/linux/build_deb.sh" in planned


def _slow_step(folder: Path, seconds: float, status: int) -> subprocess.CompletedProcess:
    """The stand-in step through the wrapper, as ``python -m slowstep``, with a beat every 0.2 s."""
    (folder / "slowstep.py").write_text(SLOW_STEP)
    return subprocess.run(
        [QUIETLY, sys.executable, "-m", "slowstep", str(seconds), str(status)],
        cwd=folder,
        env={**os.environ, "QUIETLY_HEARTBEAT": "0.2"},
        capture_output=True,
        text=True,
    )


def test_a_long_step_says_now_and_then_that_it_still_runs_and_nothing_else(tmp_path):
    worked = _slow_step(tmp_path, 1.0, 0)
    beats = worked.stdout.splitlines()
    assert worked.returncode == 0 and worked.stderr == ""
    assert len(beats) >= 2 and all(HEARTBEAT.fullmatch(line) for line in beats), beats


def test_a_long_step_that_fails_shows_all_it_said_after_its_heartbeats(tmp_path):
    failed = _slow_step(tmp_path, 0.5, 2)
    assert failed.returncode == 2
    assert all(HEARTBEAT.fullmatch(line) for line in failed.stdout.splitlines())
    assert failed.stderr.startswith(
        "INFO: Analyzing modules\nWARNING: a hidden import was not found\nfailed with status 2: "
    )
