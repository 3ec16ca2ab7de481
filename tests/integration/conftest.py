"""Fixtures for tests that run the real `memdesk` command."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand


@pytest.fixture
def memdesk(tmp_path: Path, store_url: str | None, monkeypatch: pytest.MonkeyPatch) -> MemdeskCommand:
    """The real command on a fresh store: a SQLite file in the test's folder, or a PostgreSQL database."""
    if store_url:
        monkeypatch.setenv("MEMDESK_DB", store_url)
    return MemdeskCommand(tmp_path / "store")
