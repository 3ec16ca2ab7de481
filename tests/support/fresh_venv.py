"""A new virtual environment holding Memdesk as `pip install .` puts it there, with no network.

Memdesk goes in from a wheel built from this checkout; its dependencies are those that
pyproject.toml's ``dependencies`` name, and theirs, taken from the running environment: each
of their installed files is linked into the new one. Nothing else is there (no extra, no test
tool), so a dependency the code needs and the list lacks shows, as does one it should not have.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from collections import Counter
from importlib.metadata import Distribution, distribution
from importlib.metadata import distributions as all_distributions
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
# What a wheel of the project is built from: pyproject.toml names the rest.
_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "app")
_PIP = (sys.executable, "-m", "pip", "--disable-pip-version-check", "--quiet")


def declared_dependencies() -> list[Requirement]:
    """pyproject.toml's ``dependencies`` that apply to this Python and platform."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = [Requirement(line) for line in project["dependencies"]]
    return [requirement for requirement in wanted if _applies(requirement, "")]


def _applies(requirement: Requirement, extra: str) -> bool:
    return requirement.marker is None or requirement.marker.evaluate({"extra": extra})


def installed_closure(requirements: list[Requirement]) -> list[Distribution]:
    """The distributions installed here that ``requirements`` need, and those they need."""
    found: dict[str, Distribution] = {}
    seen: set[tuple[str, str]] = set()
    pending = [(requirement, extra) for requirement in requirements for extra in ("", *requirement.extras)]
    while pending:
        requirement, extra = pending.pop()
        name = canonicalize_name(requirement.name)
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        found.setdefault(name, distribution(requirement.name))
        for line in found[name].requires or []:
            needed = Requirement(line)
            if _applies(needed, extra):
                pending += [(needed, needed_extra) for needed_extra in ("", *needed.extras)]
    return list(found.values())


def _site_packages(environment: Path) -> Path:
    return Path(sysconfig.get_path("purelib", scheme="venv", vars={"base": str(environment)}))


def _top_level(installed: Distribution) -> dict[str, list[Path]]:
    """The files a distribution installed into site-packages (its RECORD), by their first part."""
    if installed.files is None:
        raise RuntimeError(f"{installed.metadata['Name']} has no list of its files (RECORD)")
    found: dict[str, list[Path]] = {}
    for file in installed.files:
        relative = Path(os.path.normpath(file))
        if relative.parts[0] != os.pardir:  # not its commands (bin/), which Memdesk does not run
            found.setdefault(relative.parts[0], []).append(relative)
    return found


def _link_installed(distributions: list[Distribution], site_packages: Path) -> None:
    """What the distributions installed, linked into ``site_packages``: a folder only one
    distribution installed into as a whole (quick), one they share file by file."""
    owners = Counter(name for every in all_distributions() for name in _top_level(every))
    for installed in distributions:
        base = Path(installed.locate_file(""))
        for name, files in _top_level(installed).items():
            linked = [Path(name)] if owners[name] == 1 else files
            for relative in linked:
                target = site_packages / relative
                if (base / relative).exists() and not target.exists():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.symlink_to(base / relative)


def _pip(*args: str) -> None:
    done = subprocess.run([*_PIP, *args], capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"pip {' '.join(args)} failed:\n{done.stderr}"


def _build_wheel(folder: Path) -> Path:
    """A wheel of the checkout, built from a copy so the checkout gains no build output."""
    source = folder / "source"
    source.mkdir()
    for name in _SOURCES:
        if (ROOT / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    wheels = folder / "wheels"
    _pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", str(wheels), str(source))
    (wheel,) = wheels.glob("memdesk-*.whl")
    return wheel


def install_without_extras(folder: Path) -> Path:
    """A virtual environment in ``folder`` with Memdesk and its dependencies; its ``bin``."""
    environment = folder / "venv"
    venv.EnvBuilder(symlinks=True, with_pip=False).create(environment)
    _link_installed(installed_closure(declared_dependencies()), _site_packages(environment))
    python = environment / "bin" / "python"
    _pip("--python", str(python), "install", "--no-deps", "--no-index", str(_build_wheel(folder)))
    return environment / "bin"
