"""The one place that finds shipped files: in a checkout, an installed wheel or a frozen bundle."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path


@cache  # the folder stays put while the program runs; finding it reads the file system
def resources_root() -> Path:
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "memdesk" / "resources"
    return Path(__file__).resolve().parent / "resources"


def resource_path(*parts: str) -> Path:
    path = resources_root().joinpath(*parts)
    if not path.exists():
        raise FileNotFoundError(f"missing resource: {'/'.join(parts)} (looked in {resources_root()})")
    return path


GUIDE_DIR = "guide"  # the built user guide inside the resources (make package builds it there)


def source_checkout() -> Path | None:
    """The checkout this code runs from (where mkdocs.yml is), or None when installed."""
    root = Path(__file__).resolve().parent.parent.parent
    return root if (root / "mkdocs.yml").is_file() else None


def built_guide() -> Path | None:
    """The user guide's start page: shipped with the package, or built by `make docs` in a
    checkout; None when neither is there."""
    candidates = [resources_root() / GUIDE_DIR / "index.html"]
    checkout = source_checkout()
    if checkout is not None:
        candidates.append(checkout / "site" / "index.html")
    return next((page for page in candidates if page.is_file()), None)
