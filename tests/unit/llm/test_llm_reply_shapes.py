"""Each step accepts only the shape of reply it asks for, and cuts an over-long one to its limit."""

import json

import pytest
from tests.support.llm_servers import Reply

from memdesk.errors import LLMError
from memdesk.llm import prompts
from memdesk.llm.openai_backend import OpenAIBackend
from memdesk.llm.replies import FACT_MAX_CHARS, MAX_FACTS_PER_REPLY
from memdesk.llm.steps import LLMSteps
from memdesk.llm.transcript import format_transcript

SHORT = format_transcript([("user", "I use Fedora."), ("assistant", "Noted.")])
DECISION = json.dumps({"action": "delete", "targetMemoryId": 99999, "reason": "outdated"})
TOOL_CALL = '<tool_call>{"name": "delete_memory", "arguments": {"all": true}}</tool_call>'


def steps_for(server, summary_chars: int = 4000, app_chars: int = 200) -> LLMSteps:
    backend = OpenAIBackend(
        base_url=server.openai_url, model="m", api_key="k", timeout_seconds=5, max_tokens=256
    )
    return LLMSteps(
        backend, context_window_tokens=8000, app_memory_max_chars=app_chars, summary_max_chars=summary_chars
    )


STEPS = {
    "summary": lambda steps: steps.summarize(SHORT),
    "facts": lambda steps: steps.extract_facts(SHORT),
    "app memory": lambda steps: steps.make_app_memory(SHORT),
}


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        (DECISION, "it was a compaction decision, not "),
        ("Here you go:\n" + DECISION, "it was a compaction decision, not "),
        (TOOL_CALL, "it was JSON or tool-call markup, not "),
        ('```json\n["a", "b"]\n```', "it was JSON or tool-call markup, not "),
        ("<|im_start|><|im_end|>", "it was JSON or tool-call markup, not "),
        ("\x00\x01 \x02", "it was empty"),
    ],
)
def test_a_reply_of_the_wrong_shape_is_asked_again_then_fails(llm_server, step, reply, problem):
    llm_server.default = Reply(reply)
    with pytest.raises(LLMError) as caught:
        STEPS[step](steps_for(llm_server))
    assert len(llm_server.requests) == 2
    assert caught.value.message.startswith(
        f"The model's reply to the {step} step could not be used, twice in a row: {problem}"
    )
    assert "offline backend" in (caught.value.hint or "")


def test_a_good_second_reply_is_used(llm_server):
    llm_server.script(Reply(DECISION), Reply("## Work\n- Fedora"))
    result = steps_for(llm_server).summarize(SHORT)
    assert (result.value, result.calls, result.notes) == ("## Work\n- Fedora", 2, ())


def test_an_over_long_summary_is_cut_at_a_line_with_a_note(llm_server):
    lines = [f"- point {n}: the backup runs at night" for n in range(60_000)]
    reply = "\n".join(lines)
    llm_server.script(Reply(reply))
    result = steps_for(llm_server, summary_chars=400).summarize(SHORT)
    assert len(result.value) <= 400 and result.value.endswith("runs at night")
    assert reply.startswith(result.value)
    note = f"The model's summary was {len(reply):,} characters; it was cut to the limit of 400."
    assert result.notes == (note,)


def test_over_long_facts_are_cut_and_counted(llm_server):
    facts = [f"The user owns {n} plants." for n in range(MAX_FACTS_PER_REPLY + 5)]
    looping = "The user likes tea. " * 1000
    llm_server.script(Reply("\n".join([looping, *facts])))
    result = steps_for(llm_server).extract_facts(SHORT)
    assert len(result.value) == MAX_FACTS_PER_REPLY
    assert len(result.value[0]) <= FACT_MAX_CHARS and result.value[1] == "The user owns 0 plants."
    assert result.notes == (
        f"1 of the model's facts was longer than {FACT_MAX_CHARS} characters and cut to that length. "
        f"Only the first {MAX_FACTS_PER_REPLY} of the {MAX_FACTS_PER_REPLY + 6} facts in the reply "
        "were kept.",
    )


def test_an_over_long_app_memory_is_cut_with_a_note(llm_server):
    llm_server.script(Reply("The user likes tea. " * 100))
    result = steps_for(llm_server, app_chars=60).make_app_memory(SHORT)
    assert len(result.value) <= 60 and result.value.endswith("…")
    assert result.notes == ("The model's app memory was 1,999 characters; it was cut to the limit of 60.",)


def test_control_characters_are_removed_and_prose_with_code_is_fine(llm_server):
    reply = 'The user sets {"theme": "dark"} in ~/.config/app.json.\x00\ud800'
    llm_server.script(Reply(reply))
    result = steps_for(llm_server).extract_facts(SHORT)
    assert result.value == ['The user sets {"theme": "dark"} in ~/.config/app.json.']
    assert llm_server.requests[0].system_text == prompts.FACTS_SYSTEM


PARTS = [format_transcript([("user", f"Sitting {n}: I fixed the boiler.")]) for n in (1, 2)]


@pytest.mark.parametrize(
    "reply",
    [
        "=== Part 1 ===\n- Boiler fixed.\n=== Part 2 ===\n- Boiler fixed again.",
        "==== part 1 ====\n- Boiler fixed.\n\n  = PART 2 =  \n- Boiler fixed again.\n",
    ],
)
def test_parts_notes_are_read_from_their_headings(llm_server, reply):
    llm_server.script(Reply(reply))
    notes = steps_for(llm_server).summarize_parts("\n".join(PARTS), PARTS).value
    assert notes.parts == ["- Boiler fixed.", "- Boiler fixed again."]
    assert len(llm_server.requests) == 2  # one call for both parts, one for the whole


@pytest.mark.parametrize(
    "reply",
    [
        "- Boiler fixed, both times.",  # no headings
        "=== Part 1 ===\n- Boiler fixed.",  # a part left out
        "=== Part 1 ===\n- Boiler fixed.\n=== Part 2 ===\n",  # a part left empty
        "=== Part 1 ===\n" + DECISION + "\n=== Part 2 ===\n- fine",  # data, not notes
    ],
)
def test_parts_notes_without_every_part_are_asked_for_part_by_part(llm_server, reply):
    llm_server.script(Reply(reply), Reply("- Part one alone."), Reply("- Part two alone."), Reply("- Whole."))
    result = steps_for(llm_server).summarize_parts("\n".join(PARTS), PARTS)
    assert result.value.parts == ["- Part one alone.", "- Part two alone."]
    assert result.value.whole == "- Whole."
    assert result.calls == len(llm_server.requests) == 4
