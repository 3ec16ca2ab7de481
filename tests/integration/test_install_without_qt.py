"""`pip install .` without the `gui` extra: no Qt, and all but the window works.

The environment is a new one holding Memdesk's wheel and only the dependencies pyproject.toml
declares (tests/support/fresh_venv.py), made once for the module; the commands are its own
installed ``memdesk``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import anyio
import httpx
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from tests.support.fresh_venv import install_without_extras
from tests.support.server import ServeProcess

import memdesk
from memdesk.cli.cmd_gui import QT_MISSING

_SCREEN = ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of the new environment."""
    return install_without_extras(tmp_path_factory.mktemp("install"))


def _memdesk(bin_dir: Path, data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(bin_dir / "memdesk"), "--data-dir", str(data_dir), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=data_dir.parent,  # not the checkout, whose sources the installed command must not need
        # No screen: with Qt there after all, the window would stop at once instead of opening.
        env={name: value for name, value in os.environ.items() if name not in _SCREEN},
    )


def test_the_environment_has_no_qt_and_imports_memdesk_from_its_own_install(installed: Path):
    where = subprocess.run(
        [
            str(installed / "python"),
            "-c",
            "import importlib.util, memdesk\n"
            "print(memdesk.__file__)\n"
            "print(importlib.util.find_spec('PySide6'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    module, qt = where.stdout.splitlines()
    assert Path(module).is_relative_to(installed.parent)
    assert qt == "None"


def test_version(installed: Path, tmp_path: Path):
    done = _memdesk(installed, tmp_path / "store", "--version")
    assert (done.returncode, done.stdout) == (0, f"memdesk {memdesk.__version__}\n"), done.stderr


def test_prompt_reads_the_example_memories(installed: Path, tmp_path: Path):
    store = tmp_path / "store"
    loaded = _memdesk(installed, store, "examples", "load")
    assert loaded.returncode == 0, loaded.stderr
    prompt = _memdesk(installed, store, "prompt", "--app", "calendar")
    assert prompt.returncode == 0, prompt.stderr
    assert "# Maya Lindqvist" in prompt.stdout  # the example profile, from the SQLite file


def test_mcp_server_answers_initialize_and_lists_its_tools(installed: Path, tmp_path: Path):
    server = StdioServerParameters(
        command=str(installed / "memdesk"),
        args=["--data-dir", str(tmp_path / "store"), "mcp"],
        env=dict(os.environ),
        cwd=str(tmp_path),
    )

    async def handshake() -> tuple[str, list[str]]:
        async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
            started = await session.initialize()
            tools = await session.list_tools()
        return started.serverInfo.name, [tool.name for tool in tools.tools]

    name, tools = anyio.run(handshake)
    assert name == "memdesk"
    assert "memory_store" in tools


def test_http_api_answers_with_a_token(installed: Path, tmp_path: Path):
    store = tmp_path / "store"
    created = _memdesk(installed, store, "token", "create", "mybot")
    assert created.returncode == 0, created.stderr
    served = ServeProcess(store, command=(str(installed / "memdesk"),))
    try:
        headers = {"Authorization": f"Bearer {created.stdout.strip()}"}
        answer = httpx.get(f"{served.url}/apps/calendar/memories", headers=headers)
    finally:
        served.stop()
    assert (answer.status_code, answer.json()) == (200, {"memories": []})


@pytest.mark.parametrize("command", [("gui",), ()], ids=["gui", "no-command"])
def test_the_window_says_in_one_line_how_to_get_qt(installed: Path, tmp_path: Path, command: tuple[str, ...]):
    done = _memdesk(installed, tmp_path / "store", *command)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [QT_MISSING]
    assert "pip install 'memdesk[gui]'" in done.stderr
    assert done.stdout == ""
