"""Fact changes with the gold stand-in model: every conversation reaches the model, each
expected edit is applied exactly, and nothing else stored changes (a multi-fact line, an
entry about the old employer, a plan, a role change, someone else's news). Then the real
``memdesk compact --yes`` against a model that also over-updates: only what the evidence
check lets through is applied."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.cli import MemdeskCommand, out, store_of
from tests.support.gold_model import GoldModel, OverUpdatingModel
from tests.support.llm_servers import FakeLLMServer, Reply
from tests.support.updates import SettableClock, kept, resolved, run_scenario, snapshot

from memdesk.llm import prompts
from memdesk.services.memdesk import Memdesk

UPDATES = Path(__file__).resolve().parents[1] / "data" / "updates"
CASES = json.loads((UPDATES / "cases.json").read_text(encoding="utf-8"))["scenarios"]


@pytest.fixture(scope="module")
def gold():
    with GoldModel(CASES) as server:
        yield server


@pytest.fixture(scope="module")
def outcomes(gold, tmp_path_factory):
    """Each case run once as the protocol says, with the stand-in: (outcome, what is stored)."""
    root = tmp_path_factory.mktemp("gold")
    found = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MEMDESK_API_KEY", "gold")
        for scenario in CASES:
            clock = SettableClock()
            app = Memdesk.open(data_dir=str(root / scenario["id"]), actor="test", clock=clock)
            values = {"llm.backend": "openai", "llm.base_url": gold.openai_url, "llm.model": "gold"}
            app.update_settings(app.settings.with_values(values))
            try:
                outcome = run_scenario(app, clock.set, scenario, backend=None)
                found[scenario["id"]] = (outcome, snapshot(app, scenario))
            finally:
                app.close()
    return found


def test_every_conversation_reaches_the_model_with_its_targets_among_the_candidates(gold, outcomes):
    assert gold.asked == {scenario["id"] for scenario in CASES}
    assert gold.unmapped == []


@pytest.mark.parametrize("scenario", [s for s in CASES if s["gold"]], ids=lambda s: s["id"])
def test_each_expected_edit_is_applied_exactly(outcomes, scenario):
    outcome, stored = outcomes[scenario["id"]]
    for edit in scenario["gold"]:
        if edit["where"] == "entry":
            assert stored[("entry", edit["target"])] == edit["text"]
        elif edit["where"] == "app":
            assert edit["text"] in stored.values()
        else:
            assert stored[(edit["where"], edit["text"].strip())] == edit["text"].strip()
    assert resolved(scenario, outcome.prompt)


@pytest.mark.parametrize("scenario", CASES, ids=lambda s: s["id"])
def test_nothing_else_stored_changes(outcomes, scenario):
    outcome, _stored = outcomes[scenario["id"]]
    assert outcome.collateral == []
    if scenario["kind"] == "control":
        assert kept(scenario, outcome.prompt)


def test_compact_yes_applies_only_the_edits_the_evidence_check_lets_through(tmp_path):
    """A model that updates a plan (with a date it invented) and someone else's news too, and
    names a fact it was not given: the role change is applied; the rest is shown, not
    applied, with the reason."""
    memdesk = MemdeskCommand(tmp_path / "store", prefix=("--now", "2026-03-01T18:00:00Z"))

    def by_step(request):
        if request.system_text != prompts.CHANGES_SYSTEM:
            return Reply(prompts.NO_FACTS if request.system_text == prompts.FACTS_SYSTEM else "- Talked.")
        number = {
            text: int(n)
            for n, text in (
                line.split(". (facts) ", 1) for line in request.user_text.splitlines() if ". (facts) " in line
            )
        }
        edits = [
            (
                "- Staff nurse on ward 7, nights",
                "- Charge nurse on ward 7, nights",
                "they made me charge nurse",
            ),
            (
                "- Lives in Gdansk",
                "- Lives in Krakow (since 2023-05-06)",
                "we might move to Krakow next year",
            ),
            ("- Drives a 2014 Skoda", "- Drives a Tesla", "my brother just bought a Tesla"),
        ]
        reply = [
            {"action": "update", "target": number[old], "text": new, "evidence": said}
            for old, new, said in edits
        ]
        return Reply(json.dumps([*reply, {"action": "retire", "target": 99, "evidence": "so jealous"}]))

    with FakeLLMServer() as server:
        server.responder = by_step
        memdesk.data_dir.mkdir(parents=True)
        config = f'[llm]\nbackend = "openai"\nbase_url = "{server.openai_url}"\nmodel = "over-eager"\n'
        (memdesk.data_dir / "config.toml").write_text(config, encoding="utf-8")
        with store_of(memdesk, "2026-03-01T18:00:00") as store:
            store.documents.set(
                "user/facts", "- Staff nurse on ward 7, nights\n- Lives in Gdansk\n- Drives a 2014 Skoda"
            )
            for text in (
                "big news, they made me charge nurse on ward 7!",
                "we might move to Krakow next year. my brother just bought a Tesla, so jealous",
            ):
                store.sessions.log("chat:1", "user", text)
        # Accepting what names things the conversation does not still leaves out the plan.
        yes = ("compact", "chat:1", "--yes", "--accept-ungrounded")
        applied = out(memdesk(*yes, env={"MEMDESK_API_KEY": "sk-test"}))
        facts = out(memdesk("doc", "show", "user/facts"))

    assert facts.splitlines()[:3] == [
        "- Charge nurse on ward 7, nights",
        "- Lives in Gdansk",
        "- Drives a 2014 Skoda",
    ]
    assert (
        "why: Not applied: a supposition, not a change — the person said: “we might move to Krakow next year”"
        in applied
    )
    assert "why: Not applied: someone else's news, not the person's — the person said: “my brother" in applied
    assert applied.count("(not accepted)") == 2
    assert "Note: Changes to stored facts: the model's item 4 was refused: it named fact 99" in applied


SPLIT_A_CONTROLS = [
    scenario
    for scenario in json.loads((UPDATES / "split-a.json").read_text(encoding="utf-8"))["scenarios"]
    if scenario["kind"] == "control"
]


@pytest.mark.parametrize("scenario", SPLIT_A_CONTROLS[::11], ids=lambda s: s["id"])
def test_compact_yes_applies_no_invented_update_of_a_control(scenario, tmp_path, monkeypatch):
    """A model that "updates" the fact a control keeps with a value nobody said, quoting
    nothing, the assistant, or a sentence of the person's that changes nothing: the change is
    shown, never applied, and the prompt still gives the fact."""
    monkeypatch.setenv("MEMDESK_API_KEY", "gold")
    with OverUpdatingModel([scenario]) as model:
        clock = SettableClock()
        app = Memdesk.open(data_dir=str(tmp_path / "store"), actor="test", clock=clock)
        values = {"llm.backend": "openai", "llm.base_url": model.openai_url, "llm.model": "over-eager"}
        app.update_settings(app.settings.with_values(values))
        try:
            outcome = run_scenario(app, clock.set, scenario, backend=None)
        finally:
            app.close()
    assert model.asked == {scenario["id"]} and model.unmapped == []
    invented = [change for change in outcome.fact_changes if OverUpdatingModel.INVENTED in change.after]
    assert len(invented) == 1 and not invented[0].accepted
    assert outcome.collateral == []
    assert kept(scenario, outcome.prompt) and "Valparaíso" not in outcome.prompt
