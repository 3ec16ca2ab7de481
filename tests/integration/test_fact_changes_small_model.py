"""Fact changes through a real small model: SmolLM2-135M-Instruct served OpenAI-style on
127.0.0.1 (``tests.support.local_model``), asked about every stored fact of a conversation
that changes none of them (a plan, someone else's news, a question). After ``--yes`` the controls are kept and
nothing else stored changes: what the model writes is applied only when it quotes the
person and holds up to the evidence and grounding checks, and a reply that is not a list
of edits (this model mostly repeats the facts it was shown) leaves the offline rules'
proposal. ``test_fact_changes_gold`` shows the check refusing a model that does over-update.
Each call takes tens of seconds on a busy machine, so one conversation holds the three; the
run prints its wall time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.local_model import TEST_THREADS, local_model_server, served_settings
from tests.support.updates import SettableClock, kept, opener, run_scenario

pytestmark = [pytest.mark.wall_time, pytest.mark.slow]

CONTROLS = [
    scenario
    for scenario in json.loads(
        (Path(__file__).resolve().parents[1] / "data" / "updates" / "cases.json").read_text(encoding="utf-8")
    )["scenarios"]
    if scenario["id"] == "case-three-controls"
]
MAX_TOKENS = 64  # room for a JSON list of one or two edits
RUN_TIMEOUT_S = 300


def test_controls_are_kept_and_nothing_else_changes_after_yes(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMDESK_API_KEY", "none")
    outcomes = []
    with local_model_server(TEST_THREADS) as server:
        for scenario in CONTROLS:
            clock = SettableClock()
            # the facts step, with the changes step in it
            values = {**served_settings(server, MAX_TOKENS, RUN_TIMEOUT_S), "compaction.steps": ["facts"]}
            app = opener(tmp_path, values)(scenario["id"], clock)
            try:
                outcomes.append((scenario, run_scenario(app, clock.set, scenario, backend=None)))
            finally:
                app.close()

    assert [scenario["id"] for scenario, outcome in outcomes if not kept(scenario, outcome.prompt)] == []
    assert [hurt for _scenario, outcome in outcomes for hurt in outcome.collateral] == []
    # Whatever was proposed to change in these stored facts is shown with why, not applied.
    proposed = [change for _scenario, outcome in outcomes for change in outcome.fact_changes]
    assert all(not change.accepted and (change.reason or change.marks) for change in proposed)
    print(f"\nSmolLM2: {len(proposed)} fact changes proposed in {len(CONTROLS)} controls; none applied:")
    for change in proposed:
        print(f"  {change.before!r} → {change.after!r}: {change.reason} {change.grounding}".rstrip())
