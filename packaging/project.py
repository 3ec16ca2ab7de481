"""Project facts for the packaging scripts, read from the tree without importing the app.

pyproject.toml holds the app id and name; the version is ``memdesk.__version__``, which
pyproject.toml names as its dynamic version. ``python3 packaging/project.py`` prints
"VERSION APP_ID APP_NAME" for the shell scripts; ``python3 packaging/project.py
xcb-packages`` prints the Debian packages of the libraries Qt's X11 plugin loads, the .deb's
share of Depends, from the list ``memdesk gui`` names when one is missing.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def pyproject() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def app_id() -> str:
    return pyproject()["tool"]["memdesk"]["app_id"]


def app_name() -> str:
    return pyproject()["tool"]["memdesk"]["app_name"]


def _constant(source: Path, name: str) -> Any:
    """The literal value of ``name = ...`` at the top of ``source``."""
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            return ast.literal_eval(node.value)
    raise LookupError(f"no {name} = ... in {source}")


def version() -> str:
    attr = pyproject()["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, _, name = attr.rpartition(".")
    return _constant(ROOT / "app" / Path(*module.split(".")) / "__init__.py", name)


def xcb_packages() -> list[str]:
    packages: dict[str, str] = _constant(ROOT / "app" / "memdesk" / "gui" / "xcb.py", "PACKAGES")
    return list(dict.fromkeys(packages.values()))


if __name__ == "__main__":
    if sys.argv[1:] == ["xcb-packages"]:
        print(", ".join(xcb_packages()))
    else:
        print(version(), app_id(), app_name())
