"""The Assistants page's set-up snippet opens the store the window has open: a SQLite file
that is not the data folder's, or a PostgreSQL database. The server is started from the
snippet alone, without Memdesk's environment variables, as an assistant would start it; what
it writes shows in the window. A PostgreSQL password stays out of the snippet: the assistant's
server finds it where libpq looks, here ``~/.pgpass``."""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from tests.gui.tables_fixtures import running_tasks
from tests.support.mcp_client import call_ok
from tests.support.postgres import PASSWORD_ROLE

from memdesk.gui.main_window import MainWindow
from memdesk.gui.views.assistants import AssistantsView
from memdesk.services.memdesk import Memdesk

PASSWORD = "kept-in-pgpass"


@pytest.fixture
def assistant_home(tmp_path: Path) -> Path:
    """The home the assistant starts the server in: nothing of the person's default store."""
    home = tmp_path / "assistant-home"
    home.mkdir()
    return home


@pytest.fixture
def elsewhere(
    store_engine: str, request: pytest.FixtureRequest, tmp_path: Path, assistant_home: Path
) -> Iterator[Memdesk]:
    """A Memdesk on a store that a bare ``memdesk mcp`` would not open; on PostgreSQL as a
    role that must give a password, which the window's URL carries."""
    if store_engine == "sqlite":
        url = str(tmp_path / "elsewhere" / "work-memories.sqlite3")
        Path(url).parent.mkdir()
    else:
        server = request.getfixturevalue("postgres_server")
        server.login_role(PASSWORD_ROLE, PASSWORD)
        name = server.empty_database()
        server.admin(f'ALTER DATABASE "{name}" OWNER TO {PASSWORD_ROLE}')
        url = server.url(name, user=PASSWORD_ROLE).replace("@", f":{PASSWORD}@")
        pgpass = assistant_home / ".pgpass"
        pgpass.write_text(f"127.0.0.1:{server.port}:{name}:{PASSWORD_ROLE}:{PASSWORD}\n", encoding="utf-8")
        pgpass.chmod(0o600)
    app = Memdesk.open(data_dir=str(tmp_path / "data"), db=url, actor="gui")
    yield app
    app.close()


def _row_texts(model) -> list[str]:
    return [str(model.index(0, column).data()) for column in range(model.columnCount())]


def _start_and_write(command: str, args: list[str], env: dict[str, str]) -> None:
    """Start the server as the snippet says, and store one memory through it."""

    async def write() -> None:
        params = StdioServerParameters(command=command, args=args, env=env)
        async with stdio_client(params) as (read, send), ClientSession(read, send) as session:
            await session.initialize()
            await call_ok(session, "memory_store", key="desk_plant", content="Waters the fern on Fridays")

    anyio.run(write)


@pytest.mark.parametrize("store_engine", ["sqlite", "postgresql"], indirect=True)
def test_a_server_started_from_the_snippet_writes_where_the_window_looks(
    elsewhere, qtbot, answer, assistant_home
):
    runner = running_tasks(elsewhere)
    tasks = next(runner)
    window = MainWindow.for_store(elsewhere, tasks)
    qtbot.addWidget(window)
    window.show()
    window.show_page("assistants")
    view = window.views["assistants"]
    assert isinstance(view, AssistantsView)
    qtbot.waitUntil(lambda: view.connections.other_clients is not None)
    stdio = view.connections.other_clients
    command, *args = shlex.split(stdio.text)
    assert "--db" in args and args[-1] == "mcp" and PASSWORD not in stdio.text
    bare = {k: v for k, v in os.environ.items() if not k.startswith(("MEMDESK_", "PG"))}
    # No keyring on the assistant's side: a password can only come from ~/.pgpass.
    bare |= {"HOME": str(assistant_home), "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring"}
    _start_and_write(command, args, bare)

    window.show_page("knowledge")
    window.watcher.check()  # what its timer does: it notices another program's write
    model = window.views["knowledge"].model
    qtbot.waitUntil(lambda: any("Waters the fern" in text for text in _row_texts(model)), timeout=10000)
    window.close()
    next(runner, None)  # the runner's own checks: no error was left unreported
