"""The one place that finds shipped files: in a checkout, an installed wheel or a frozen bundle."""

from __future__ import annotations

import sys
from pathlib import Path


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
