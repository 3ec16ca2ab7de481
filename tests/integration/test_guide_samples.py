"""The guide's command samples, run with the real `memdesk` on a fresh store: each comment
that shows what a command prints must be the first line it prints (dates aside)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.support.cli import MemdeskCommand, out

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide"
_SAMPLE = re.compile(r"^(?P<command>memdesk .*?)\s{2,}# (?P<said>.*)$")
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")
_DAY = re.compile(r"\d{4}-\d\d-\d\d")


def _block(page: str, heading: str) -> list[str]:
    """The lines of the first ```sh block after ``heading``."""
    text = (GUIDE / page).read_text(encoding="utf-8")
    after = text[text.index(heading) :]
    start = after.index("```sh\n") + len("```sh\n")
    return after[start : after.index("```", start)].splitlines()


def _comparable(line: str) -> str:
    """The line with its times and days as placeholders and its spacing as single spaces."""
    return " ".join(_DAY.sub("DAY", _TIME.sub("TIME", line)).split())


def test_first_steps_prints_what_its_comments_say(tmp_path):
    memdesk = MemdeskCommand(tmp_path / "store")
    checked = 0
    for line in _block("first-steps.md", "## From the command line"):
        sample = _SAMPLE.match(line)
        command = shlex.split(sample.group("command") if sample else line)
        assert command[0] == "memdesk", line
        printed = out(memdesk(*command[1:])).splitlines()
        if sample is None:
            continue
        said = _comparable(sample.group("said"))
        first = _comparable(printed[0]) if printed else ""
        if said.endswith("…"):
            assert first.startswith(said.removesuffix("…").rstrip()), (line, printed)
        else:
            assert first == said, (line, printed)
        checked += 1
    assert checked >= 10  # the page still shows its outputs


# --- the HTTP API's curl examples ----------------------------------------------------------

_EXAMPLE = re.compile(r"```sh\n(?P<curl>curl .*?)```\n\n```json\n(?P<printed>.*?)\n```", re.S)


def _request(curl: str, token: str, server_url: str) -> tuple[str, str, dict[str, str], str | None]:
    """What a guide's ``curl -s`` line sends: method, URL, headers and body."""
    words = shlex.split(curl.replace("\\\n", " ").replace("$TOKEN", token))
    method, headers, body, url = "GET", {}, None, ""
    index = 1
    while index < len(words):
        word = words[index]
        if word in ("-X", "-H", "-d"):
            value = words[index + 1]
            if word == "-X":
                method = value
            elif word == "-H":
                name, _, header = value.partition(":")
                headers[name.strip()] = header.strip()
            else:
                method, body = ("POST" if method == "GET" else method), value
            index += 2
            continue
        assert word == "-s" or word.startswith("http://127.0.0.1:8765/"), word
        if word != "-s":
            url = server_url + word.removeprefix("http://127.0.0.1:8765")
        index += 1
    return method, url, headers, body


def test_the_http_guides_curl_examples_print_what_it_shows(tmp_path):
    import httpx
    from tests.support.server import ServeProcess

    store = MemdeskCommand(tmp_path / "store")
    token = out(store("token", "create", "picobot")).strip()
    served = ServeProcess(store.data_dir, extra=("--now", "2026-05-04T09:30:00Z"))
    try:
        examples = list(_EXAMPLE.finditer((GUIDE / "http-api.md").read_text(encoding="utf-8")))
        methods = set()
        for example in examples:
            method, url, headers, body = _request(example["curl"], token, served.url)
            answer = httpx.request(method, url, headers=headers, content=body)
            assert answer.text == example["printed"], example["curl"]
            methods.add(method)
        assert methods == {"GET", "POST", "PUT", "DELETE"} and len(examples) >= 5
    finally:
        served.stop()
