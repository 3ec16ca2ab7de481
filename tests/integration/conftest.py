"""Fixtures for tests that run the real `memdesk` command."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand


@pytest.fixture
def memdesk(tmp_path: Path, store_url: str | None) -> MemdeskCommand:
    """The real command on a fresh store: a SQLite file in the test's folder, or a PostgreSQL
    database (``store_url`` puts it in MEMDESK_DB)."""
    if store_url:  # the data folder (settings, logs) exists as it would beside a SQLite file
        (tmp_path / "store").mkdir()
    return MemdeskCommand(tmp_path / "store")
