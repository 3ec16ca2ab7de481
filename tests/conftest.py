"""Fixtures shared by every test: an isolated data folder and a Memdesk on a real store.

Service, composer and command tests (``tests/unit``, ``tests/integration``) that use a store
run twice: on a SQLite file and on a PostgreSQL database of a real server this session
starts (``store_engine``). A test about one engine only is marked ``engines("sqlite")``.

Which tests run on PostgreSQL too: one whose outcome could differ by engine — the SQL it
goes through (what is ordered, filtered, counted, matched or ranked, dates stored and read
back), transactions and locks, migrations, what a running server sees of another process's
writes, writers at once, moving a store between engines. A command or server test whose
subject is the command's or server's own — wording, arguments and exit codes, the MCP
protocol's shapes, HTTP checks, hooks' output, settings files, the write check's verdicts —
is marked ``engines("sqlite")``: the store code under it runs on both engines in the service
tests, and a second engine would only start the same processes again.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from tests.support.postgres import PostgresServer, running_server, server_bin_dir

# Qt (only in GUI tests) runs offscreen; nothing may touch the user's real store or settings.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# A `memdesk` process a test starts loads Memdesk's modules from cached bytecode, as an installed
# Memdesk does. Where Python is told not to write that cache, every process would compile them
# again (about 0.15 s of each start).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


ENGINES = ("sqlite", "postgresql")
# Tests in these folders that use a store run on every engine.
BOTH_ENGINES_DIRS = ("unit", "integration")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    folder = Path(str(metafunc.definition.fspath)).parent.name
    if folder in BOTH_ENGINES_DIRS and "store_engine" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("engines")
        metafunc.parametrize("store_engine", only.args if only else ENGINES, indirect=True)


# What a test costs, roughly, in samples of module timings: one that starts `memdesk`
# processes (tests/integration) takes about ten times a test in process, and one on PostgreSQL
# about three, since it makes a database of its own. One that drives a real client from npm
# takes 6-15 s with the client installed, and the first installs it.
PROCESS_TEST_COST = 10
POSTGRES_TEST_COST = 3
NPM_CLIENT_TEST_COST = 100


def _cost(item: pytest.Item) -> int:
    module = getattr(item, "module", None)
    if module is not None and any(
        getattr(value, "__module__", None) == "tests.support.npm" for value in vars(module).values()
    ):
        return NPM_CLIENT_TEST_COST
    if Path(str(item.fspath)).parent.name == "integration":
        return PROCESS_TEST_COST
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("store_engine") == "postgresql":
        return POSTGRES_TEST_COST
    return 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with slow tests first, the most slow tests first; then the costliest first.

    ``make test`` hands out whole modules in this order (``--dist loadfile``,
    ``--no-loadscope-reorder``): a long module started last would leave the other worker idle
    while it runs, so the long ones start first and the short ones fill in at the end. A
    module's length is guessed from its tests: a hundred quick checks of a function take less
    than a few tests that each start processes.
    """
    slow: Counter[str] = Counter()
    cost: Counter[str] = Counter()
    for item in items:
        module = item.nodeid.split("::")[0]
        cost[module] += _cost(item)
        slow[module] += item.get_closest_marker("slow") is not None
    items.sort(key=lambda item: (-slow[(module := item.nodeid.split("::")[0])], -cost[module]))


@pytest.fixture
def store_engine(request: pytest.FixtureRequest) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """One PostgreSQL server for the whole test session, in a temporary folder."""
    if server_bin_dir() is None:
        if os.environ.get("MEMDESK_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL's server programs are missing (Debian package: postgresql)")
        pytest.skip("PostgreSQL's server programs are not installed (Debian package: postgresql)")
    with running_server() as server:
        yield server


@pytest.fixture
def store_url(
    store_engine: str,
    request: pytest.FixtureRequest,
    isolated_data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[str | None]:
    """The store's URL for this test: None (the data folder's SQLite file) or a fresh database.

    A PostgreSQL URL is also put in ``MEMDESK_DB``, so a second Memdesk or a ``memdesk``
    command the test starts uses the same store, as it would the same SQLite file.
    """
    if store_engine == "sqlite":
        yield None
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.new_database()
    url = server.url(name)
    monkeypatch.setenv("MEMDESK_DB", url)
    yield url
    server.drop_database(name)


@pytest.fixture(autouse=True)
def isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data_dir = tmp_path / "data"
    monkeypatch.setenv("MEMDESK_DATA_DIR", str(data_dir))
    monkeypatch.delenv("MEMDESK_DB", raising=False)
    monkeypatch.delenv("MEMDESK_API_KEY", raising=False)
    # No test may read the person's real keyring; one that needs a keyring sets its own. Named
    # here, a `memdesk` process the test starts also skips looking for the system's keyrings.
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
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


@pytest.fixture(scope="session")
def empty_sqlite_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding a new, empty store: copied, it saves each test making the schema."""
    from memdesk.paths import DB_FILE_NAME
    from memdesk.services.memdesk import Memdesk

    folder = tmp_path_factory.mktemp("empty-store")
    Memdesk.open(data_dir=str(folder)).close()
    return folder / DB_FILE_NAME


@pytest.fixture
def memdesk_app(
    isolated_data_dir: Path, clock: Clock, store_url: str | None, empty_sqlite_store: Path
) -> Iterator:
    """A Memdesk on a fresh store (see ``store_url``), with a fixed clock."""
    from memdesk.services.memdesk import Memdesk

    if store_url is None:
        isolated_data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(empty_sqlite_store, isolated_data_dir / empty_sqlite_store.name)
    app = Memdesk.open(data_dir=str(isolated_data_dir), db=store_url, actor="test", clock=clock)
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
