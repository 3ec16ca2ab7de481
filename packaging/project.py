"""Project facts for the packaging scripts, read from the tree without importing the app.

pyproject.toml holds the app id and name; the version is ``memdesk.__version__``, which
pyproject.toml names as its dynamic version. ``python3 packaging/project.py`` prints
"VERSION APP_ID APP_NAME" for the shell scripts.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def pyproject() -> dict:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def app_id() -> str:
    return pyproject()["tool"]["memdesk"]["app_id"]


def app_name() -> str:
    return pyproject()["tool"]["memdesk"]["app_name"]


def version() -> str:
    attr = pyproject()["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    module, _, name = attr.rpartition(".")
    source = ROOT / "app" / Path(*module.split(".")) / "__init__.py"
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == name for target in node.targets
        ):
            return ast.literal_eval(node.value)
    raise LookupError(f"no {name} = ... in {source}")


if __name__ == "__main__":
    print(version(), app_id(), app_name())
