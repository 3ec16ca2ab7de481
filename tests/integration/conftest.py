"""Fixtures for tests that run the real `memdesk` command."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand


@pytest.fixture
def memdesk(tmp_path: Path) -> MemdeskCommand:
    return MemdeskCommand(tmp_path / "store")
