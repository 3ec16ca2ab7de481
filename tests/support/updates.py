"""The protocol and measure of ``../shared/data/README.md`` (section ``updates-dev.json``) for
one scenario of facts that change, shared by the benchmark and the held-out unit set.

A scenario is ``{kind, where, old, turns, q, key, app}`` plus ``stale`` and ``new`` (an
update) or ``keep`` (a control); the scenario splits of ``tests/data/updates`` add ``store``
(other things stored at the same time) and ``gold`` (the expected edits). ``old`` and
``store`` are written at 2026-01-10 09:00 UTC; ``turns`` are logged into ``chat:1`` (with the
app) at 2026-03-01 18:00 UTC and compacted at that time (offline unless a model is set up),
applying either every proposed change or, as ``memdesk compact --yes`` does, the accepted
ones; the prompt for ``q`` (with the app) is composed at 2026-04-15 09:00 UTC, when working
memory has expired. Collateral is every profile or facts line, live knowledge entry and live
app memory stored before the compaction that is gone or changed after it, other than the
expected edits' targets.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from memdesk.services.compaction.model import FACT_CHANGES, Change
from memdesk.services.memdesk import Memdesk
from memdesk.services.prompt import PromptSpec

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
SPLITS = sorted((Path(__file__).resolve().parents[1] / "data" / "updates").glob("split-*.json"))


class SettableClock:
    """The store's clock, moved by the protocol from one moment to the next."""

    def __init__(self) -> None:
        self.now = WRITTEN

    def __call__(self) -> datetime:
        return self.now

    def set(self, moment: datetime) -> None:
        self.now = moment


def opener(
    root: Path, settings: Mapping[str, object] | None = None
) -> Callable[[str, SettableClock], Memdesk]:
    """Fresh stores under ``root``, each named for its scenario, with ``settings`` (a model
    backend, say) when given."""

    def open_store(name: str, clock: SettableClock) -> Memdesk:
        app = Memdesk.open(data_dir=str(root / name), actor="bench", clock=clock)
        if settings:
            app.update_settings(app.settings.with_values(dict(settings)))
        return app

    return open_store


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


def write_store(app: Memdesk, scenario: Scenario) -> None:
    """The other things stored with the scenario's fact (``store``; absent in older sets)."""
    store = scenario.get("store") or {}
    for where in ("profile", "facts"):
        if store.get(where) and scenario["where"] != where:
            app.documents.set(f"user/{where}", store[where])
    for key, content in (store.get("entries") or {}).items():
        app.entries.upsert(key, content, "knowledge")
    for app_id, memories in (store.get("memories") or {}).items():
        for content in memories:
            app.apps.add(app_id, content)


Snapshot = dict[tuple[str, str], str]  # (where, the line, entry key or memory id) → text


def snapshot(app: Memdesk, scenario: Scenario) -> Snapshot:
    """Every profile and facts line, live knowledge entry and live app memory."""
    found: Snapshot = {}
    for where in ("profile", "facts"):
        for line in app.documents.text(f"user/{where}").splitlines():
            if line.strip():
                found[(where, line.strip())] = line.strip()
    for entry in app.entries.list(category="knowledge"):
        if not entry.key.startswith("ctx_") and not entry.expired:
            found[("entry", entry.key)] = entry.content
    app_ids = {scenario["app"], *((scenario.get("store") or {}).get("memories") or {})} - {None}
    for app_id in sorted(app_ids):
        for memory in app.apps.memories(app_id, include_expired=False):
            found[("app", str(memory.id))] = memory.content
    return found


def collateral(scenario: Scenario, before: Snapshot, after: Snapshot) -> list[str]:
    """What was stored before and is gone or changed after, other than the expected targets."""
    targets = {(gold["where"], gold["target"].strip()) for gold in scenario.get("gold") or []}
    hurt: list[str] = []
    for (where, ref), text in before.items():
        if after.get((where, ref)) == text:
            continue
        if (where, ref) in targets or (where == "app" and (where, text.strip()) in targets):
            continue
        hurt.append(f"{where} {ref}: {text!r}" if where == "entry" else f"{where}: {text!r}")
    return hurt


@dataclass(frozen=True)
class Outcome:
    """The prompt six weeks later, what else the compaction changed, the changes to stored
    facts it proposed (applied or not), and the proposal's notes."""

    prompt: str
    collateral: list[str]
    fact_changes: list[Change]
    notes: list[str] = field(default_factory=list)


def run_scenario(
    app: Memdesk,
    set_now: Callable[[datetime], None],
    scenario: Scenario,
    *,
    every_change: bool = False,
    backend: str | None = "offline",
) -> Outcome:
    """Write, converse, compact and ask, as the protocol says (``app`` is a fresh store).
    ``every_change``: a person approving every proposed change in review, suggestions the rules
    or the evidence check doubted included; otherwise only the accepted ones are applied, as
    ``memdesk compact --yes`` does. ``backend=None``: the configured one."""
    set_now(WRITTEN)
    write_old(app, scenario)
    write_store(app, scenario)
    set_now(SAID)
    for role, text in scenario["turns"]:
        app.sessions.log(SESSION, role, text, app_id=scenario["app"])
    before = snapshot(app, scenario)
    proposal = app.compaction.propose(SESSION, backend=backend)
    if every_change:
        for change in proposal.changes:
            change.accepted = True
    if proposal.accepted():
        app.compaction.apply(proposal)
    after = snapshot(app, scenario)
    set_now(ASKED)
    prompt = app.prompt.compose(PromptSpec(message=scenario["q"], app=scenario["app"])).text
    return Outcome(
        prompt,
        collateral(scenario, before, after),
        [c for c in proposal.changes if c.kind in FACT_CHANGES],
        list(proposal.notes),
    )


def prompt_after(app: Memdesk, set_now: Callable[[datetime], None], scenario: Scenario) -> str:
    """The prompt for the scenario's question, six weeks after its conversation was compacted
    offline with every proposed change applied (``app`` is a fresh store)."""
    return run_scenario(app, set_now, scenario, every_change=True).prompt


def resolved(scenario: Scenario, prompt: str) -> bool:
    """``new`` is in the prompt, and no prompt line states the old fact's line as current."""
    return not unresolved_because(scenario, prompt)


def unresolved_because(scenario: Scenario, prompt: str) -> str:
    """Why an update is not resolved ("" when it is): the new value missing, or the line that
    still states the old fact. A retirement (``new`` empty) needs only the second."""
    new = scenario["new"].lower()
    if new and new not in prompt.lower():
        return f"{scenario['new']!r} is not in the prompt"
    stale = scenario["stale"].lower()
    old_line = next(line for line in scenario["old"].splitlines() if stale in line.lower())
    old = plain(old_line.removeprefix("- "))
    others = [other for other in other_stored(scenario) if old in other]
    for line in prompt.splitlines():
        lower = line.lower()
        if any(other in plain(line) for other in others):
            continue  # another stored fact that holds the old words, which the conversation left as it was
        current = not (new and new in lower) and not any(mark in lower for mark in PAST_MARKS)
        if old in plain(line) and current:
            return f"the prompt still states the old fact: {line.strip()!r}"
    return ""


def other_stored(scenario: Scenario) -> list[str]:
    """The texts (as ``plain`` gives them) of what ``store`` holds besides the scenario's fact
    and no expected edit targets: a line of the prompt that restates one ("Passport is in the
    name Joan Whitcombe" after a change of name) states that other fact, not the old one."""
    store = scenario.get("store") or {}
    targets = {plain(gold["target"]) for gold in scenario.get("gold") or []}
    texts = [
        line.removeprefix("- ")
        for where in ("profile", "facts")
        for line in (store.get(where) or "").splitlines()
    ]
    texts += [content for key, content in (store.get("entries") or {}).items() if plain(key) not in targets]
    texts += [content for memories in (store.get("memories") or {}).values() for content in memories]
    found = (plain(text) for text in texts)
    return [text for text in found if text and text not in targets]


def written_wrong(scenario: Scenario, changes: list[Change]) -> list[str]:
    """What applied changes wrote without the new value, when one edit was expected that
    names one: the old value marked past (right, when the new one is added beside it), the
    line removed, or the right fact rewritten into something else ("Dentist: Dale St")."""
    if len(scenario["gold"]) != 1 or not scenario["new"]:
        return []
    new, stale = plain(scenario["new"]), plain(scenario["stale"])
    return [
        change.after
        for change in changes
        if change.accepted and stale in plain(change.before) and new not in plain(change.after)
    ]


def kept(scenario: Scenario, prompt: str) -> bool:
    """``keep`` is in the prompt; a line's leading "- " dropped, as for the old fact's line (recall
    shows a facts bullet as "- user/facts: Supports APR FC since 2010")."""
    return scenario["keep"].removeprefix("- ").lower() in prompt.lower()


@dataclass
class Score:
    """A set of scenarios scored: updates resolved by where, controls kept, collateral."""

    resolved: Counter[str] = field(default_factory=Counter)
    updates: Counter[str] = field(default_factory=Counter)
    kept: int = 0
    controls: int = 0
    collateral: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)
    outcomes: dict[str, Outcome] = field(default_factory=dict)  # by scenario id

    @property
    def resolved_share(self) -> float:
        return sum(self.resolved.values()) / max(1, sum(self.updates.values()))

    @property
    def kept_share(self) -> float:
        return self.kept / max(1, self.controls)

    def lines(self, min_resolved: float, min_kept: float) -> list[str]:
        """The score, each figure with its goal and MISS when it falls short of it."""
        done, total = sum(self.resolved.values()), sum(self.updates.values())
        by_where = ", ".join(f"{where} {self.resolved[where]}/{self.updates[where]}" for where in WHERES)
        return [
            f"{_miss(self.resolved_share < min_resolved)}updates resolved: {done} of {total} "
            f"({self.resolved_share:.0%}): {by_where}; goal ≥ {min_resolved:.0%}",
            f"{_miss(self.kept_share < min_kept)}controls kept: {self.kept} of {self.controls} "
            f"({self.kept_share:.0%}); goal ≥ {min_kept:.0%}",
            f"{_miss(bool(self.collateral))}collateral: {len(self.collateral)} stored lines, entries "
            "or memories changed that the conversation did not change; goal 0",
            f"applied without the new value: {len(self.wrong)} changes to the fact that did change "
            "whose text lacks its new value — marked past, removed, or rewritten otherwise "
            "(scenarios with one expected edit; no goal: read the list)",
        ]


def report(title: str, result: Score, min_resolved: float, min_kept: float) -> None:
    """Print the score under ``title``, with what it missed, hurt and wrote wrong."""
    print(f"  {title}:")
    for line in result.lines(min_resolved, min_kept):
        print(f"    {line}")
    for miss in result.misses:
        print(f"      missed {miss}")
    for hurt in result.collateral:
        print(f"      collateral {hurt}")
    for wrong in result.wrong:
        print(f"      applied without the new value {wrong}")


def _miss(missed: bool) -> str:
    return "MISS " if missed else ""


def score(
    scenarios: list[Scenario],
    open_store: Callable[[str, SettableClock], Memdesk],
    *,
    backend: str | None,
    every_change: bool = False,
) -> Score:
    """Every scenario on a fresh store from ``open_store(name, clock)``, applying what
    ``memdesk compact --yes`` applies, or with ``every_change`` all that review shows
    (``backend=None``: the store's configured one)."""
    result = Score()
    for scenario in scenarios:
        clock = SettableClock()
        app = open_store(scenario["id"], clock)
        try:
            outcome = run_scenario(app, clock.set, scenario, backend=backend, every_change=every_change)
        finally:
            app.close()
        result.outcomes[scenario["id"]] = outcome
        result.collateral += [f"{scenario['id']}: {hurt}" for hurt in outcome.collateral]
        if scenario["kind"] == "control":
            result.controls += 1
            if kept(scenario, outcome.prompt):
                result.kept += 1
            else:
                result.misses.append(f"{scenario['id']} control: {scenario['keep']!r} is not in the prompt")
            continue
        result.updates[scenario["where"]] += 1
        wrong = written_wrong(scenario, outcome.fact_changes)
        result.wrong += [f"{scenario['id']}: {text!r}" for text in wrong]
        why = unresolved_because(scenario, outcome.prompt)
        if why:
            result.misses.append(f"{scenario['id']} {scenario['where']}: {why}")
        else:
            result.resolved[scenario["where"]] += 1
    return result
