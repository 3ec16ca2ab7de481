"""The protocol and measure of ``../shared/data/README.md`` (section ``updates-dev.json``) for
one scenario of facts that change, shared by the benchmark and the held-out unit set.

A scenario is ``{kind, where, old, turns, q, key, app}`` plus ``stale`` and ``new`` (an
update) or ``keep`` (a control). ``old`` is written at 2026-01-10 09:00 UTC; ``turns`` are
logged into ``chat:1`` (with the app) at 2026-03-01 18:00 UTC and compacted offline at that
time with every proposed change applied; the prompt for ``q`` (with the app) is composed at
2026-04-15 09:00 UTC, when working memory has expired.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memdesk.services.prompt import PromptSpec

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

WRITTEN = datetime(2026, 1, 10, 9, 0)
SAID = datetime(2026, 3, 1, 18, 0)
ASKED = datetime(2026, 4, 15, 9, 0)
SESSION = "chat:1"
WHERES = ("profile", "facts", "entry", "app")
PAST_MARKS = (
    "until", "previously", "formerly", "no longer", "outdated", "superseded",
    "replaced", "used to", "~~", "(old)", "was:",
)  # fmt: skip

Scenario = dict[str, Any]


class SettableClock:
    """The store's clock, moved by the protocol from one moment to the next."""

    def __init__(self) -> None:
        self.now = WRITTEN

    def __call__(self) -> datetime:
        return self.now


def plain(text: str) -> str:
    """Lowercased, punctuation as spaces, spaces collapsed (the README's comparison)."""
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def write_old(app: Memdesk, scenario: Scenario) -> None:
    where, old = scenario["where"], scenario["old"]
    if where in ("profile", "facts"):
        app.documents.set(f"user/{where}", old)
    elif where == "entry":
        app.entries.upsert(scenario["key"], old, "knowledge")
    else:
        app.apps.add(scenario["app"], old)


def prompt_after(app: Memdesk, set_now: Callable[[datetime], None], scenario: Scenario) -> str:
    """The prompt for the scenario's question, six weeks after its conversation was compacted
    offline with every proposed change applied (``app`` is a fresh store)."""
    set_now(WRITTEN)
    write_old(app, scenario)
    set_now(SAID)
    for role, text in scenario["turns"]:
        app.sessions.log(SESSION, role, text, app_id=scenario["app"])
    proposal = app.compaction.propose(SESSION, backend="offline")
    proposal.accept_suspicious()  # a person approving every proposed change
    app.compaction.apply(proposal)
    set_now(ASKED)
    return app.prompt.compose(PromptSpec(message=scenario["q"], app=scenario["app"])).text


def resolved(scenario: Scenario, prompt: str) -> bool:
    """``new`` is in the prompt, and no prompt line states the old fact's line as current."""
    return not unresolved_because(scenario, prompt)


def unresolved_because(scenario: Scenario, prompt: str) -> str:
    """Why an update is not resolved ("" when it is): the new value missing, or the line that
    still states the old fact."""
    new = scenario["new"].lower()
    if new not in prompt.lower():
        return f"{scenario['new']!r} is not in the prompt"
    stale = scenario["stale"].lower()
    old_line = next(line for line in scenario["old"].splitlines() if stale in line.lower())
    old = plain(old_line.removeprefix("- "))
    for line in prompt.splitlines():
        lower = line.lower()
        if old in plain(line) and new not in lower and not any(mark in lower for mark in PAST_MARKS):
            return f"the prompt still states the old fact: {line.strip()!r}"
    return ""


def kept(scenario: Scenario, prompt: str) -> bool:
    return scenario["keep"].lower() in prompt.lower()
