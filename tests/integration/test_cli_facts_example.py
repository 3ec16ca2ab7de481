"""The example store and one conversation that changes several facts, through the real
`memdesk` command: offline compaction changes only what it is sure of, keeps what the person
said in their words, and Memory health lists what it adds against what is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.cli import out

from memdesk.resources import resource_path

NOW = "2026-02-27T10:05:00"  # a Friday; the example store was written the week before
NEWS = [
    "I accepted the offer from Farfetch, I start as design director there on Monday. "
    "Last day at Northwind was Friday.",
    "Also we're moving to Porto in March, Tomás got a job at the university there. "
    "And I switched gyms, I go to Solinca now.",
]
GYM = "Gym: Fitness Hut Alcântara, membership renews every April."
SOLINCA = "And I switched gyms, I go to Solinca now."


def transcript(folder: Path, *said: str) -> str:
    path = folder / "conversation.jsonl"
    lines = []
    for number, text in enumerate(said):
        at = f"2026-02-27T10:0{number}:00Z"
        lines += [
            {"role": "user", "content": text, "timestamp": at},
            {"role": "assistant", "content": "Noted."},
        ]
    path.write_text("\n".join(json.dumps(line) for line in lines), encoding="utf-8")
    return str(path)


@pytest.mark.engines("sqlite")
def test_the_example_conversation_changes_only_what_it_is_sure_of_and_health_lists_the_gym(memdesk, tmp_path):
    out(memdesk("import", str(resource_path("example", "example-store.json"))))
    conversation = transcript(tmp_path, *NEWS)

    proposal = out(memdesk("--now", NOW, "compact", "--transcript", conversation, "--dry-run"))
    # no name pieced from two employers, no entry about the old one rewritten, no plan taken as done
    for wrong in ("Farfetch Studio", "Farfetch's", "design-system-tokens", "+ - Lives in Porto"):
        assert wrong not in proposal
    # what was said of the new job and the new gym is kept in the person's words
    assert "+ - I accepted the offer from Farfetch" in proposal and f"+ - {SOLINCA}" in proposal
    assert f"Conflict: “{SOLINCA}” disagrees with a line of user/facts: “- {GYM}”" in proposal

    out(memdesk("--now", NOW, "compact", "--transcript", conversation, "--yes"))
    assert "- Lives in Lisbon" in out(memdesk("doc", "show", "user/profile"))
    findings = json.loads(out(memdesk("health", "--json")))
    # the move in March is added with when it was said, and conflicts with nothing yet
    assert "home" not in {finding["slot"] for finding in findings}
    [gym] = [finding for finding in findings if finding["slot"] == "gym"]
    assert gym["kind"] == "conflict"
    assert {gym["first"]["text"], gym["second"]["text"]} == {SOLINCA, GYM}
    keep = "first" if gym["first"]["text"] == SOLINCA else "second"
    out(memdesk("health", "keep", str(gym["id"]), keep))
    facts = out(memdesk("doc", "show", "user/facts"))
    assert SOLINCA in facts and "Fitness Hut" not in facts


@pytest.mark.engines("sqlite")
def test_an_ended_diet_keeps_the_allergy_on_its_line(memdesk, tmp_path):
    out(memdesk("import", str(resource_path("example", "example-store.json"))))
    conversation = transcript(tmp_path, "Oh and I stopped being vegetarian, I eat fish now.")

    proposal = out(memdesk("--now", NOW, "compact", "--transcript", conversation, "--yes"))
    assert "Remove a line of user/profile" not in proposal
    assert "- Vegetarian (until February 2026). Allergic to cashews." in out(
        memdesk("doc", "show", "user/profile")
    )
