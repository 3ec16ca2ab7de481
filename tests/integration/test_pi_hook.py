"""`memdesk hook pi`, what pi's Memdesk extension runs, as a real command: the prompt pi reads
within the limits the person set for python:pi, and its remember tool's writes through Review."""

from __future__ import annotations

import pytest
from tests.support.cli import MemdeskCommand, fails, out, store_of

FOLDER = "/home/ada/src/ledger"  # its app: ledger
MEMORY = "Ledger exports use ISO 8601 dates."


@pytest.mark.engines("sqlite")
def test_pi_reads_the_prompt_of_its_folders_app_within_its_app_limit(memdesk: MemdeskCommand):
    with store_of(memdesk) as app, app.ctx.change("Add the apps' memories"):
        app.apps.add("ledger", MEMORY)
        app.apps.add("atlas", "Atlas deploys on Fridays.")
    prompt = out(memdesk("hook", "pi", "prompt", FOLDER))
    assert MEMORY in prompt and "Atlas" not in prompt
    assert prompt.strip() == out(memdesk("prompt", "--app", "ledger", "--as", "python:pi")).strip()
    assert "python:pi  prompt" in out(memdesk("access", "log"))

    out(memdesk("assistant", "apps", "python:pi", "atlas"))
    assert MEMORY not in out(memdesk("hook", "pi", "prompt", FOLDER))


@pytest.mark.engines("sqlite")
def test_what_pi_remembers_passes_its_trust_level(memdesk: MemdeskCommand):
    said = out(memdesk("hook", "pi", "remember", "--", FOLDER, "Invoices are numbered per calendar year."))
    assert said.startswith("Added memory")
    assert "Invoices are numbered per calendar year." in out(memdesk("app", "show", "ledger"))

    out(memdesk("assistant", "trust", "python:pi", "review-everything"))
    said = out(memdesk("hook", "pi", "remember", "--", FOLDER, "Refunds go through Marta."))
    assert said.startswith("Held for review")
    assert "Refunds go through Marta." not in out(memdesk("app", "show", "ledger"))
    assert "python:pi\tAdd a memory to ledger" in out(memdesk("review", "list"))

    out(memdesk("assistant", "trust", "python:pi", "read-only"))
    fails(memdesk("hook", "pi", "remember", "--", FOLDER, "Anything."), 1, "read-only")
    fails(memdesk("hook", "pi", "remember", "--", "/", "Anything."), 2, "names no app")


@pytest.mark.engines("sqlite")
def test_a_prompt_memdesk_cannot_give_leaves_pi_nothing_and_a_line_in_the_log(memdesk: MemdeskCommand):
    (memdesk.data_dir / "memdesk.sqlite3").parent.mkdir(parents=True, exist_ok=True)
    (memdesk.data_dir / "memdesk.sqlite3").write_bytes(b"this is not a database" * 100)
    done = memdesk("hook", "pi", "prompt", FOLDER)
    assert done.returncode == 0 and done.stdout == b""
    log = (memdesk.data_dir / "logs" / "hooks.log").read_text()
    assert log.count("\n") == 1 and "hook pi prompt:" in log
