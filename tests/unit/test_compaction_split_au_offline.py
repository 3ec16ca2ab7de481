"""Split AU's offline misses, through the whole protocol with ``--yes`` (``tests.support.updates``):
a count written in the line's own word, a duration said in the singular that is no new value,
and a note of a repair done in March that a new car does not rewrite."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from tests.support.updates import run_scenario, unresolved_because

SPLIT = Path(__file__).resolve().parents[1] / "data" / "updates" / "split-au.json"


def scenario(scenario_id: str) -> dict:
    scenarios = json.loads(SPLIT.read_text(encoding="utf-8"))["scenarios"]
    return next(s for s in scenarios if s["id"] == scenario_id)


def applied(memdesk_app, clock, scenario_id: str):
    def set_now(moment: datetime) -> None:
        clock.now = moment

    return run_scenario(memdesk_app, set_now, scenario(scenario_id), backend="offline")


@pytest.mark.engines("sqlite")
def test_a_count_said_in_the_singular_is_written_in_the_lines_plural(memdesk_app, clock):
    outcome = applied(memdesk_app, clock, "au2-001")
    assert unresolved_because(scenario("au2-001"), outcome.prompt) == ""
    assert "95 hives" in outcome.prompt


@pytest.mark.engines("sqlite")
@pytest.mark.parametrize("scenario_id", ["au2-002", "au2-030"])
def test_a_note_the_conversation_did_not_change_stays_as_it_was(memdesk_app, clock, scenario_id):
    assert applied(memdesk_app, clock, scenario_id).collateral == []
