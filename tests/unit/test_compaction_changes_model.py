"""The changes step with a model: one call with the conversation and the numbered stored
facts, its JSON list validated, and the offline rules' result when the reply or the call
fails. Replies come from stand-in OpenAI and Anthropic servers on 127.0.0.1.
"""

import json
import re

import pytest
from tests.support.llm_servers import FakeLLMServer, Malformed, Reply, Status

from memdesk.llm import prompts
from memdesk.services.compaction import ChangeKind

SESSION = "chat:9"
PROFILE = "Name: Noor\nLives in Ghent, works at Barco."
SAID = "We moved to Antwerp last month (February 2026), still at Barco."


@pytest.fixture(params=["openai", "anthropic"])
def backend(request, memdesk_app, monkeypatch):
    monkeypatch.setenv("MEMDESK_API_KEY", "test-key")
    with FakeLLMServer() as server:
        url = server.openai_url if request.param == "openai" else server.anthropic_url
        key = "base_url" if request.param == "openai" else "anthropic_base_url"
        memdesk_app.update_settings(
            memdesk_app.settings.with_values(
                {"llm.backend": request.param, f"llm.{key}": url, "llm.model": "m", "llm.timeout_seconds": 5}
            )
        )
        yield server


def respond(server, changes_reply):
    """Plain replies for the other steps; ``changes_reply`` for the changes step."""

    def reply(request):
        system = request.system_text
        if system == prompts.CHANGES_SYSTEM:
            return changes_reply(request) if callable(changes_reply) else changes_reply
        if system == prompts.FACTS_SYSTEM:
            return Reply(prompts.NO_FACTS)
        if system == prompts.SUMMARY_SYSTEM:
            return Reply("## About\n- Moving house")
        return Reply("The person moved to Antwerp and still works at Barco.")

    server.responder = reply


def run(app):
    app.documents.set("user/profile", PROFILE)
    app.sessions.log(SESSION, "user", SAID)
    app.sessions.log(SESSION, "assistant", "Congratulations!")
    return app.compaction.propose(SESSION)


def line_changes(proposal):
    return [c for c in proposal.changes if c.kind in (ChangeKind.UPDATE_LINE, ChangeKind.RETIRE_LINE)]


def test_the_model_sees_numbered_candidates_and_its_update_is_proposed(memdesk_app, backend):
    seen = {}

    def changes(request):
        seen["message"] = request.user_text
        number = re.search(r"^(\d+)\. \(profile\) Lives in Ghent", request.user_text, re.M).group(1)
        return Reply(
            json.dumps(
                [
                    {
                        "action": "update",
                        "target": int(number),
                        "text": "Lives in Antwerp (since February 2026), works at Barco.",
                    },
                    {"action": "none"},
                ]
            )
        )

    respond(backend, changes)
    proposal = run(memdesk_app)

    # Only stored facts that share a slot or a word with what was said are candidates.
    assert seen["message"].startswith("<stored-facts>\n1. (profile) Lives in Ghent, works at Barco.\n")
    assert "<conversation>" in seen["message"] and "Name: Noor" not in seen["message"]
    (change,) = line_changes(proposal)
    assert (change.before, change.after) == (
        "Lives in Ghent, works at Barco.",
        "Lives in Antwerp (since February 2026), works at Barco.",
    )
    assert change.reason == "The model found that the conversation changes it."
    assert not any("offline rules" in note for note in proposal.notes)


def test_a_model_retirement_and_addition_are_proposed(memdesk_app, backend):
    respond(
        backend,
        Reply(
            '```json\n[{"action": "retire", "target": 1, "text": "Lived in Ghent (until February 2026)."},'
            ' {"action": "add", "text": "Moved to Antwerp in February 2026."}]\n```'
        ),
    )
    proposal = run(memdesk_app)
    (change,) = line_changes(proposal)
    assert (change.kind, change.after) == (ChangeKind.UPDATE_LINE, "Lived in Ghent (until February 2026).")
    (append,) = [c for c in proposal.changes if c.kind is ChangeKind.APPEND_FACTS]
    assert "Moved to Antwerp in February 2026." in append.after


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        (
            Reply('[{"action": "update", "target": 99, "text": "Lives on the Moon."}]'),
            "fact 99, which was not among",
        ),
        (Reply("Noor moved to Antwerp."), "held no JSON list"),
        (Reply('[{"action": "update", "target": 1}]'), "asked to update without the text"),
        (Reply('[{"action": "merge", "target": 1}]'), "unknown action 'merge'"),
        (Malformed(), "the model call failed"),
        (Status(500, "overloaded"), "the model call failed"),
    ],
)
def test_an_unusable_reply_or_a_failed_call_falls_back_to_the_offline_rules(memdesk_app, backend, reply, why):
    respond(backend, reply)
    proposal = run(memdesk_app)

    (change,) = line_changes(proposal)  # what the offline rules propose
    assert change.after == "Lives in Antwerp (since February 2026), works at Barco."
    (note,) = [note for note in proposal.notes if note.startswith("Changes to stored facts:")]
    assert why in note and note.endswith("the offline rules' changes are proposed instead.")
    # Nothing was lost: the messages are still there and the proposal can be applied.
    assert memdesk_app.compaction.apply(proposal) is not None
    assert "Lives in Antwerp" in memdesk_app.documents.text("user/profile")
