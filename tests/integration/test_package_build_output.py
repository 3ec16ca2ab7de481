"""What building the package prints: nothing from a step that worked, everything from one that
failed. Checked on the Makefile's own pip command and the wrapper it runs steps in, without
building anything (building the packages is `make package-test`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
QUIETLY = ROOT / "packaging" / "quietly.sh"


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
