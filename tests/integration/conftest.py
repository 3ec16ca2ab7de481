"""Fixtures for tests that run the real `memdesk` command."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand
from tests.support.seeded import SeededStores

# Seconds spent per module marked ``wall_time`` (set-up, calls and tear-down; one worker runs
# a module, so their sum is its wall time). Reports reach the main process under xdist too.
_WALL_TIMES: defaultdict[str, float] = defaultdict(float)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if "wall_time" in report.keywords:
        _WALL_TIMES[report.nodeid.split("::")[0]] += report.duration


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for module, seconds in sorted(_WALL_TIMES.items()):
        terminalreporter.write_line(f"wall time of {module}: {seconds:.1f} s")


@pytest.fixture
def memdesk(tmp_path: Path, store_url: str | None) -> MemdeskCommand:
    """The real command on a fresh store: a SQLite file in the test's folder, or a PostgreSQL
    database (``store_url`` puts it in MEMDESK_DB)."""
    if store_url:  # the data folder (settings, logs) exists as it would beside a SQLite file
        (tmp_path / "store").mkdir()
    return MemdeskCommand(tmp_path / "store")


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> SeededStores:
    """``seeded.start(memdesk, seed)``: the store ``seed`` writes, seeded once per module and engine."""
    return SeededStores(
        tmp_path_factory.mktemp("seeds"), postgres=lambda: request.getfixturevalue("postgres_server")
    )
