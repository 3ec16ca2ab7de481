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
