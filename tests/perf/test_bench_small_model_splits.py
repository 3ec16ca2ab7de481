"""Benchmark: a real small model on every scenario split of ``tests/data/updates``.

SmolLM2-135M-Instruct (``tests.support.local_model``) through the openai backend decides what
each conversation changes, and the proposal is applied as ``memdesk compact --yes`` applies it,
by the protocol of ``tests/data/updates/PROTOCOL.md`` (the measure of
``test_bench_update_splits``). This model over-updates and misquotes, so the figures with a goal
are the ones the checks keep: controls kept (≥ 95%) and collateral (0), each with ``MISS`` when
short of it; whatever the model gets right is printed without one. Per split it also prints how
many scenarios reached the model, what its changes replies held, how many of its edits the
evidence check, the grounding check and the suspicious-text screen refused and why, and the
mean time of a call; each stored line an applied edit hurt is listed with that edit.

Only the changes prompt goes to the model: the facts prompt of the same step (lasting facts to
append) is answered "no facts" without it, which halves the time. Appended facts change no
stored line and drop no control, so the figures with a goal do not depend on them.

Each call takes seconds to tens of seconds (a whole split is hours), so the bench runs an even
sample of each split: every k-th scenario, controls and updates alike, k = 1 / scale, with the
scale from ``MEMDESK_BENCH_SCALE`` or, unset, every 50th (``DEFAULT_SCALE``); and
``MEMDESK_BENCH_SPLIT`` picks one split by name (``e``, ``split-e`` or ``split-e.json``).
Skipped with one line when the model cannot run.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.support.local_model import MODEL_NAME, LocalModelServer, local_model_server, served_settings
from tests.support.updates import SPLITS, Outcome, Scenario, SettableClock, opener, report, score

from memdesk.llm import prompts
from memdesk.llm.base import Completion, build_completion
from memdesk.llm.openai_backend import OpenAIBackend
from memdesk.llm.replies import BadReply, parse_changes
from memdesk.services.compaction.model import Change
from memdesk.services.memdesk import Memdesk

MIN_KEPT = 0.95
MAX_TOKENS = 96  # room for a JSON list of an edit or two
CALL_TIMEOUT_S = 600
SHOWN_REPLIES, SHOWN_CHARS = 3, 160  # of the changes replies, to read what the model writes
FALLBACK = "the offline rules' changes are proposed instead"  # the changes step's note
_CANDIDATE = re.compile(r"^(\d+)\. \(", re.MULTILINE)
_QUOTED = re.compile(r"“[^”]*”")


def chosen_splits() -> list[Path]:
    name = os.environ.get("MEMDESK_BENCH_SPLIT", "")
    if not name:
        return SPLITS
    names = {split: (split.name, split.stem, split.stem.removeprefix("split-")) for split in SPLITS}
    chosen = [split for split in SPLITS if name in names[split]]
    if not chosen:
        names = ", ".join(split.stem for split in SPLITS)
        pytest.fail(f"MEMDESK_BENCH_SPLIT={name!r} names no split; there are {names}", pytrace=False)
    return chosen


DEFAULT_SCALE = 0.02  # `make bench` in minutes, not hours


def sample(scenarios: list[Scenario]) -> list[Scenario]:
    """Every k-th scenario, k = 1 / MEMDESK_BENCH_SCALE (all of them at 1; every 50th unset)."""
    scale = float(os.environ.get("MEMDESK_BENCH_SCALE", DEFAULT_SCALE))
    return scenarios[:: max(1, round(1 / scale))] if scale > 0 else scenarios


@dataclass(frozen=True)
class Call:
    scenario: str
    system: str
    user: str
    reply: str
    seconds: float


@dataclass
class Calls:
    """Every model call, with the scenario whose store made it."""

    scenario: str = ""
    made: list[Call] = field(default_factory=list)

    def of(self, scenario: str, system: str) -> list[Call]:
        return [call for call in self.made if call.scenario == scenario and call.system == system]


@pytest.fixture(scope="module")
def server() -> Iterator[LocalModelServer]:
    with local_model_server() as served:
        yield served


def recorded(monkeypatch: pytest.MonkeyPatch, calls: Calls) -> None:
    """Each call of the openai backend kept in ``calls``, with its reply and time; the facts
    prompt answered "no facts" without the model (see above)."""
    complete = OpenAIBackend.complete

    def timed(backend: OpenAIBackend, system: str, user: str, *, max_tokens: int | None = None) -> Completion:
        if system == prompts.FACTS_SYSTEM:
            return build_completion(prompts.NO_FACTS, system, user, None, None)
        started = time.perf_counter()
        reply = complete(backend, system, user, max_tokens=max_tokens)
        calls.made.append(Call(calls.scenario, system, user, reply.text, time.perf_counter() - started))
        return reply

    monkeypatch.setattr(OpenAIBackend, "complete", timed)


def refusal(change: Change) -> list[str]:
    """Why a model's edit was not applied, by family: the check and its reason, the quotes left out."""
    why = []
    if change.reason.startswith("Not applied:"):
        family = _QUOTED.sub("…", change.reason.removeprefix("Not applied:")).split(" — ")[0]
        why.append(f"evidence: {family.strip(' .:…')}")
    why += [f"grounding: {kind}" for kind in dict.fromkeys(mark.kind.value for mark in change.marks)]
    if change.suspicion:
        why.append("suspicious text")
    return why or [f"other: {change.reason}"]


@dataclass
class Replies:
    """What the model's changes replies held, in one split."""

    lists: int = 0
    unusable: Counter[str] = field(default_factory=Counter)
    edits: int = 0
    additions: int = 0
    refused_items: Counter[str] = field(default_factory=Counter)

    def read(self, call: Call) -> None:
        try:
            parsed = parse_changes(call.reply, [int(n) for n in _CANDIDATE.findall(call.user)])
        except BadReply as exc:
            self.unusable[exc.reason] += 1
            return
        self.lists += 1
        self.edits += sum(edit.target is not None for edit in parsed.edits)
        self.additions += sum(edit.target is None for edit in parsed.edits)
        self.refused_items.update(re.sub(r"\d+", "N", re.sub(r"'[^']*'", "…", why)) for why in parsed.refused)


def model_edits(outcome: Outcome) -> list[Change]:
    """The proposal's changes to stored facts that came from the model, not the offline rules."""
    return [] if any(FALLBACK in note for note in outcome.notes) else outcome.fact_changes


@pytest.mark.slow
@pytest.mark.parametrize("split", chosen_splits(), ids=[path.stem for path in chosen_splits()])
def test_a_split_with_a_real_small_model(
    split: Path, server: LocalModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MEMDESK_API_KEY", "none")
    every = json.loads(split.read_text(encoding="utf-8"))["scenarios"]
    scenarios = sample(every)
    calls = Calls()
    recorded(monkeypatch, calls)
    # The facts step, with the changes step in it: the steps that write stored facts.
    values = {**served_settings(server, MAX_TOKENS, CALL_TIMEOUT_S), "compaction.steps": ["facts"]}
    open_store = opener(tmp_path, values)

    def open_named(name: str, clock: SettableClock) -> Memdesk:
        calls.scenario = name
        return open_store(name, clock)

    result = score(scenarios, open_named, backend=None)

    replies = Replies()
    refused: Counter[str] = Counter()
    proposed = applied = 0
    for scenario in scenarios:
        for call in calls.of(scenario["id"], prompts.CHANGES_SYSTEM):
            replies.read(call)
        for change in model_edits(result.outcomes[scenario["id"]]):
            proposed += 1
            applied += change.accepted
            refused.update(refusal(change) if not change.accepted else [])
    reached = sum(bool(calls.of(scenario["id"], prompts.CHANGES_SYSTEM)) for scenario in scenarios)
    fell_back = sum(any(FALLBACK in note for note in result.outcomes[s["id"]].notes) for s in scenarios)
    seconds = [call.seconds for call in calls.made]
    changes_calls = sum(call.system == prompts.CHANGES_SYSTEM for call in calls.made)

    print(
        f"\n{split.name}, {len(scenarios)} of {len(every)} scenarios (MEMDESK_BENCH_SCALE), "
        f"with {MODEL_NAME}, applied as `memdesk compact --yes` applies them:"
    )
    report(MODEL_NAME, result, 0.0, MIN_KEPT)
    for scenario in scenarios:
        outcome = result.outcomes[scenario["id"]]
        if outcome.collateral:
            for change in outcome.fact_changes:
                if change.accepted:
                    print(f"      applied in {scenario['id']}: {change.before!r} → {change.after!r}")
                    print(f"        because {change.reason}")
    print(f"    scenarios whose changes prompt reached the model: {reached} of {len(scenarios)}")
    print(
        f"    model calls: {len(seconds)} ({changes_calls} changes prompts), "
        f"mean {sum(seconds) / max(1, len(seconds)):.1f} s per call"
    )
    print(
        f"    changes replies: {replies.lists} JSON lists of edits, {sum(replies.unusable.values())} "
        f"unusable (the offline rules' changes proposed instead in {fell_back} scenarios)"
    )
    for reason, count in replies.unusable.most_common():
        print(f"      unusable, {reason}: {count}")
    for call in [call for call in calls.made if call.system == prompts.CHANGES_SYSTEM][:SHOWN_REPLIES]:
        print(f"      a reply ({call.scenario}): {' '.join(call.reply.split())[:SHOWN_CHARS]!r}")
    print(
        f"    edits the model proposed: {replies.edits} to stored facts, {replies.additions} new facts; "
        f"{sum(replies.refused_items.values())} items refused as read"
    )
    for reason, count in replies.refused_items.most_common():
        print(f"      refused as read, {reason}: {count}")
    print(
        f"    the model's changes to stored facts in proposals: {proposed}; applied by --yes {applied}, "
        f"refused by the checks {proposed - applied}"
    )
    for reason, count in refused.most_common():
        print(f"      {reason}: {count}")
    for scenario in scenarios:
        for change in model_edits(result.outcomes[scenario["id"]]):
            if change.accepted:
                where = f"{scenario['id']}, {scenario['kind']}"
                print(f"      applied in {where}: {change.before!r} → {change.after!r}")
    assert len(result.outcomes) == len(scenarios)
