"""Fixtures shared by every test: an isolated data folder and a Memdesk on a real SQLite file."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

# Qt (only in GUI tests) runs offscreen; nothing may touch the user's real store or settings.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data_dir = tmp_path / "data"
    monkeypatch.setenv("MEMDESK_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMDESK_DB", raising=False)
    monkeypatch.delenv("MEMDESK_API_KEY", raising=False)
    return data_dir


class Clock:
    """A settable clock, so expiry can be tested at exact moments."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock(datetime(2026, 3, 1, 12, 0, 0))


@pytest.fixture
def memdesk_app(isolated_data_dir: Path, clock: Clock) -> Iterator:
    """A Memdesk on a fresh SQLite file in the test's data folder, with a fixed clock."""
    from memdesk.services.memdesk import Memdesk

    app = Memdesk.open(data_dir=str(isolated_data_dir), actor="test", clock=clock)
    yield app
    app.close()


@pytest.fixture
def use_keyring() -> Iterator:
    """``use_keyring(backend)`` for one test; the previous keyring is put back afterwards."""
    import keyring

    previous = keyring.get_keyring()
    yield keyring.set_keyring
    keyring.set_keyring(previous)


@pytest.fixture
def memory_keyring(use_keyring):
    """A keyring in a dict, so a test never touches the person's real one."""
    from tests.support.keyrings import MemoryKeyring

    ring = MemoryKeyring()
    use_keyring(ring)
    return ring
