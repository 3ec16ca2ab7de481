"""The guide's connecting walk-through and its samples, run as printed.

Each ``$ memdesk …`` line of a page's text blocks runs as the real command, on a home folder
of its own with the default store in it, and prints what the page shows below it: on Ada's
machine (``/home/ada``, Memdesk in ``/usr/bin``), with times and backup stamps aside. The
assistants' sessions between the steps are the official MCP client, started as the entries
``memdesk connect`` wrote say, under the name each assistant gives itself.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import Implementation

from memdesk.servers.client_setup import memdesk_command
from memdesk.services.clients.known import LOCATION_ENV

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide"
ADA_HOME = "/home/ada"
ADA_MEMDESK = "/usr/bin/memdesk"
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_BACKUP_STAMP = re.compile(r"memdesk-backup-\d{8}-\d{6}")
_DAY = re.compile(r"\d{4}-\d\d-\d\d")
_FENCE = re.compile(r"^```(?P<lang>\w*)\n(?P<body>.*?)^```", re.S | re.M)
# Variables that would move the store or an assistant's files away from the home folder.
_MOVERS = ("MEMDESK_DATA_DIR", "MEMDESK_DB", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME")
# When the page shows each assistant last seen, minutes apart.
CLAUDE_SEEN, CODEX_SEEN = "2026-05-14T09:38:05Z", "2026-05-14T09:41:27Z"


def section(page: str, heading: str) -> str:
    """The text of ``page`` from ``heading`` to the next heading of the same level or higher."""
    text = (GUIDE / page).read_text(encoding="utf-8")
    start = text.index(heading)
    body = text.index("\n", start)
    if heading.startswith("#"):
        level = len(heading.split(" ", 1)[0])
        end = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, body)
    else:  # a paragraph's bold lead: to the next one, or a heading
        end = re.compile(r"^(#{1,6} |\*\*)", re.M).search(text, body)
    return text[start : end.start() if end else len(text)]


def fences(text: str, lang: str) -> list[str]:
    return [m["body"] for m in _FENCE.finditer(text) if m["lang"] == lang]


def sessions(text: str) -> list[tuple[list[str], list[str]]]:
    """(the command's words after ``memdesk``, the lines shown below it) of each ``$ memdesk``
    line in the text blocks of ``text``."""
    found: list[tuple[list[str], list[str]]] = []
    for block in fences(text, "text"):
        for line in block.splitlines():
            if line.startswith("$ "):
                words = line[2:].split()
                assert words[0] == "memdesk", line
                found.append((words[1:], []))
            elif found and block.startswith("$ "):
                found[-1][1].append(line)
    return found


def comparable(lines: list[str]) -> list[str]:
    """The lines with times, days and backup stamps as placeholders, spacing as single spaces."""
    said = []
    for line in lines:
        line = _BACKUP_STAMP.sub("memdesk-backup-STAMP", line)
        said.append(" ".join(_DAY.sub("DAY", _TIME.sub("TIME", line)).split()))
    return said


class Home:
    """A home folder with the default store in it, and the real ``memdesk`` run there."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in _MOVERS}
        # Set here too: a module's fixture starts before the shared fixture that sets it.
        no_keyring = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
        self.env = {**env, **dict.fromkeys(LOCATION_ENV, ""), **no_keyring, "HOME": str(folder)}

    def run(self, words: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "memdesk", *words],
            input=stdin.decode() if stdin is not None else None,
            capture_output=True,
            text=True,
            env=self.env,
            timeout=60,
        )

    def as_ada(self, text: str) -> list[str]:
        """What a command printed, as it reads on Ada's machine."""
        return text.replace(memdesk_command(), ADA_MEMDESK).replace(str(self.folder), ADA_HOME).splitlines()

    def printed(self, words: list[str]) -> list[str]:
        """Standard output, then standard error, as on a terminal; a command that fails must
        say so as an error."""
        done = self.run(words)
        assert "Traceback" not in done.stderr, done.stderr
        if done.returncode != 0:
            assert done.stderr.startswith("memdesk: error: "), done.stderr
        return self.as_ada(done.stdout + done.stderr)

    def session(
        self, assistant: str, server: dict, tool: str, arguments: dict, at: str | None = None
    ) -> None:
        """One session of ``assistant`` (the name it gives itself), starting Memdesk's server
        as its config says, with one call of ``tool``; ``at``: the server's clock (``--now``),
        so two sessions a test runs within one second are still seen in their order."""
        args = ["--now", at, *server["args"]] if at else server["args"]

        async def talk() -> None:
            params = StdioServerParameters(command=server["command"], args=args, env=self.env)
            async with stdio_client(params) as (read, write):
                info = Implementation(name=assistant, version="1.0")
                async with ClientSession(read, write, client_info=info) as client:
                    await client.initialize()
                    result = await client.call_tool(tool, arguments)
                    assert not result.isError, result.content

        anyio.run(talk)

    def claude_code_server(self) -> dict:
        return json.loads((self.folder / ".claude.json").read_text())["mcpServers"]["memdesk"]

    def codex_server(self) -> dict:
        return tomllib.loads((self.folder / ".codex" / "config.toml").read_text())["mcp_servers"]["memdesk"]


@pytest.fixture(scope="module")
def walked(tmp_path_factory) -> tuple[Home, list[tuple[list[str], list[str], list[str]]]]:
    """The walk-through of the Connect page, done on a home where both assistants have run
    before: (the home, each step's command, what the page shows and what it printed)."""
    home = Home(tmp_path_factory.mktemp("walk") / "ada")
    (home.folder / ".claude.json").write_text('{"numStartups": 3}\n')
    (home.folder / ".codex").mkdir()
    (home.folder / ".codex" / "config.toml").write_text('model = "gpt-5.1-codex"\n')
    text = section("connect.md", "## From zero to both assistants connected")
    [default_trust] = fences(text, "toml")
    steps = []
    lists = 0
    for words, shown in sessions(text):
        if words == ["assistant", "list"]:
            lists += 1
            if lists == 1:  # step 4: a session in each project, asking what it remembers
                claude, codex = home.claude_code_server(), home.codex_server()
                home.session("claude-code", claude, "prompt", {"app": "ledger"}, at=CLAUDE_SEEN)
                home.session("codex-mcp-client", codex, "prompt", {"app": "website"}, at=CODEX_SEEN)
            if lists == 2:  # step 5: the lines the page adds to the settings file
                with (home.folder / ".config" / "memdesk" / "config.toml").open("a") as settings:
                    settings.write("\n" + default_trust)
        steps.append((words, shown, home.printed(words)))
    return home, steps


def test_the_connect_walk_through_prints_what_the_page_shows(walked):
    _home, steps = walked
    assert [words[:2] for words, _shown, _printed in steps] == [
        ["--version"],
        ["connect", "claude-code"],
        ["connect", "codex"],
        ["assistant", "list"],
        ["assistant", "list"],
        ["assistant", "trust"],
    ]
    for words, shown, printed in steps:
        assert comparable(printed) == comparable(shown), words


def test_the_entries_connect_wrote_start_the_store_the_walk_through_uses(walked):
    home, steps = walked
    listed = steps[3][2]
    # Both sessions reached the one default store, each under the name its assistant gives itself.
    assert [line.split()[0] for line in listed] == ["mcp:codex-mcp-client", "mcp:claude-code"]
    assert home.claude_code_server()["args"] == ["mcp"] == home.codex_server()["args"]


def test_review_list_shows_where_each_write_goes_as_the_page_does(walked):
    home, _steps = walked
    text = section("trust-review.md", "**Review.**")
    [(words, shown)] = [(w, s) for w, s in sessions(text) if w == ["review", "list"]]
    # Under the default the walk-through set, each assistant's write waits.
    codex_note = "The site is built with Hugo and published from the main branch."
    home.session(
        "codex-mcp-client", home.codex_server(), "app_memory_add", {"app": "website", "content": codex_note}
    )
    entry = {"key": "money", "content": "Amounts are stored as integer cents, never floats."}
    home.session("claude-code", home.claude_code_server(), "memory_store", entry)
    printed = home.printed(words)
    assert comparable(printed) == comparable(shown)
    assert "\tgoes to: the memories of app website" in printed


def test_naming_codex_before_it_connects_is_refused_with_the_name_to_give(tmp_path):
    home = Home(tmp_path / "ada")
    text = section("trust-review.md", "**Naming an assistant before it connects.**")
    steps = sessions(text)
    assert [words[:3] for words, _shown in steps] == [
        ["assistant", "trust", "codex"],
        ["assistant", "trust", "mcp:codex-mcp-client"],
    ]
    refused = home.run(steps[0][0])
    assert refused.returncode == 1
    for words, shown in steps:
        assert comparable(home.printed(words)) == comparable(shown), words

    # A token's program: an assistant that follows the default until given a level of its own.
    [token_line] = re.findall(r"shows as `(api:picobot [^`]+)`", text.replace("\n", " "))
    assert home.run(["token", "create", "picobot"]).returncode == 0
    [token] = [line for line in home.printed(["assistant", "list"]) if line.startswith("api:")]
    assert comparable([token])[0].startswith(comparable([token_line])[0] + " reads every app")


def test_the_hook_sample_prints_what_the_page_shows(tmp_path):
    home = Home(tmp_path / "ada")
    text = section("claude-code-pi-codex.md", "### What the hook receives and prints")
    event, answer = fences(text, "json")
    assert json.loads(event)["hook_event_name"] == "SessionStart"
    [setup] = fences(text, "sh")
    for line in setup.splitlines():
        words = shlex.split(line)
        assert words[0] == "memdesk" and home.run(words[1:]).returncode == 0, line
    hooked = home.run(["hook", "claude-code"], stdin=event.encode())
    assert hooked.returncode == 0 and hooked.stderr == ""
    assert comparable(home.as_ada(hooked.stdout)) == comparable(answer.splitlines())
    # What the page says it is: the app's prompt, as `memdesk prompt --app ledger` prints it.
    context = json.loads(hooked.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context == home.run(["prompt", "--app", "ledger"]).stdout.rstrip("\n")
