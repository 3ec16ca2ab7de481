"""LLMSteps against a local server: prompts sent, replies read, long transcripts split."""

import dataclasses

import pytest
from tests.support.llm_servers import Reply, Status

from memdesk.config import LLMSettings, MemorySettings, Settings
from memdesk.core.tokens import estimate_tokens
from memdesk.errors import LLMError
from memdesk.llm import prompts
from memdesk.llm.chunking import group_to_fit, split_to_fit
from memdesk.llm.offline import OfflineSteps
from memdesk.llm.openai_backend import OpenAIBackend
from memdesk.llm.steps import LLMSteps, make_steps
from memdesk.llm.transcript import format_transcript, split_turns

SHORT = format_transcript([("user", "I use Fedora."), ("assistant", "Noted.")])


def steps_for(server, window: int = 8000, max_tokens: int = 256, app_chars: int = 200) -> LLMSteps:
    backend = OpenAIBackend(
        base_url=server.openai_url, model="m", api_key="k", timeout_seconds=5, max_tokens=max_tokens
    )
    return LLMSteps(backend, context_window_tokens=window, app_memory_max_chars=app_chars)


def long_transcript(turns: int = 40) -> str:
    return format_transcript(
        (("user" if n % 2 == 0 else "assistant"), f"Message {n}: " + "details about the backup plan " * 12)
        for n in range(turns)
    )


def test_summary_is_one_call_with_the_summary_prompt(llm_server):
    llm_server.script(Reply("## Work\n- Fedora setup", usage=False))
    result = steps_for(llm_server).summarize(SHORT)
    assert result.value == "## Work\n- Fedora setup"
    assert (result.calls, result.estimated) == (1, True)
    assert result.tokens_out == estimate_tokens("## Work\n- Fedora setup")
    request = llm_server.requests[0]
    assert request.system_text == prompts.SUMMARY_SYSTEM
    assert request.user_text == f"<conversation>\n{SHORT}\n</conversation>"


def test_long_transcript_is_split_and_merged(llm_server):
    def answer(request):
        if request.system_text == prompts.MERGE_SYSTEM:
            return Reply("MERGED SUMMARY")
        part = request.user_text.split("This is part ")[1].split(" of ")[0]
        return Reply(f"notes for part {part}")

    llm_server.responder = answer
    steps = steps_for(llm_server, window=1500, max_tokens=64)
    transcript = long_transcript()
    budget = steps.part_tokens(prompts.SUMMARY_SYSTEM)
    parts = len(split_to_fit(transcript, budget))
    assert parts > 3

    result = steps.summarize(transcript)

    assert result.value == "MERGED SUMMARY"
    assert result.calls == parts + 1 == len(llm_server.requests)
    assert (result.tokens_in, result.tokens_out) == (11 * (parts + 1), 7 * (parts + 1))
    *part_requests, merge = llm_server.requests
    for number, request in enumerate(part_requests, 1):
        assert f"This is part {number} of {parts}" in request.user_text
        assert estimate_tokens(request.user_text) <= budget + 50
        assert request.body["max_tokens"] == 64
    # Every part was sent, in order, and nothing else.
    sent = "".join(
        r.user_text.split("<conversation>\n")[1].split("\n</conversation>")[0] for r in part_requests
    )
    assert sent == transcript
    # The merge call carries every partial summary, in order.
    assert merge.system_text == prompts.MERGE_SYSTEM
    positions = [merge.user_text.index(f"notes for part {n}\n") for n in range(1, parts + 1)]
    assert positions == sorted(positions)


def test_many_partial_summaries_merge_in_rounds(llm_server):
    llm_server.responder = lambda request: Reply("x" * 1200)  # each reply ~300 tokens
    steps = steps_for(llm_server, window=1500, max_tokens=64)
    result = steps.summarize(long_transcript(60))
    merges = [r for r in llm_server.requests if r.system_text == prompts.MERGE_SYSTEM]
    assert len(merges) > 1
    assert result.calls == len(llm_server.requests)


def test_a_failed_part_fails_the_step(llm_server):
    llm_server.script(Reply("notes"), Status(500))
    with pytest.raises(LLMError) as caught:
        steps_for(llm_server, window=1500, max_tokens=64).summarize(long_transcript())
    assert "HTTP 500" in caught.value.message


def test_context_too_small_for_prompt_and_reply(llm_server):
    with pytest.raises(LLMError) as caught:
        steps_for(llm_server, window=1000, max_tokens=900).summarize(SHORT)
    assert "compaction.context_window_tokens" in caught.value.hint
    assert llm_server.requests == []


def test_facts_one_per_line(llm_server):
    llm_server.script(Reply("Here are the facts:\n- Uses Fedora.\n2. Prefers tabs.\n\n* uses fedora"))
    result = steps_for(llm_server).extract_facts(SHORT)
    assert result.value == ["Uses Fedora.", "Prefers tabs."]
    assert llm_server.requests[0].system_text == prompts.FACTS_SYSTEM


@pytest.mark.parametrize("reply", ["NO FACTS", "  no facts.  ", "NO FACTS\n"])
def test_no_facts(llm_server, reply):
    llm_server.script(Reply(reply))
    assert steps_for(llm_server).extract_facts(SHORT).value == []


def test_facts_from_split_parts_are_deduplicated(llm_server):
    llm_server.responder = lambda request: Reply("Uses Fedora.\nPrefers tabs.")
    result = steps_for(llm_server, window=1500, max_tokens=64).extract_facts(long_transcript())
    assert result.value == ["Uses Fedora.", "Prefers tabs."]
    assert result.calls == len(llm_server.requests) > 1
    assert all(r.system_text == prompts.FACTS_SYSTEM for r in llm_server.requests)


def test_app_memory(llm_server):
    llm_server.script(Reply('"User runs Fedora and wants short answers."'))
    result = steps_for(llm_server, app_chars=150).make_app_memory(SHORT)
    assert result.value == "User runs Fedora and wants short answers."
    assert "at most 150 characters" in llm_server.requests[0].system_text


def test_app_memory_shorter_than_ten_characters_is_dropped(llm_server):
    llm_server.script(Reply("None."))
    assert steps_for(llm_server).make_app_memory(SHORT).value is None


def test_app_memory_of_a_long_transcript_uses_merged_notes(llm_server):
    def answer(request):
        if request.system_text == prompts.MERGE_SYSTEM:
            return Reply("MERGED NOTES")
        if request.system_text == prompts.SUMMARY_SYSTEM:
            return Reply("part notes")
        return Reply("The user plans nightly backups.")

    llm_server.responder = answer
    result = steps_for(llm_server, window=1500, max_tokens=64).make_app_memory(long_transcript())
    assert result.value == "The user plans nightly backups."
    last = llm_server.requests[-1]
    assert "MERGED NOTES" in last.user_text
    assert result.calls == len(llm_server.requests)


def test_make_steps_follows_the_backend_setting(llm_server):
    offline = make_steps(
        dataclasses.replace(
            Settings(), memory=MemorySettings(app_memory_max_chars=80, working_memory_max_tokens=500)
        ),
        None,
    )
    assert isinstance(offline, OfflineSteps)
    assert (offline.app_memory_max_chars, offline.summary_max_chars) == (80, 2000)

    online = make_steps(
        dataclasses.replace(
            Settings(), llm=LLMSettings(backend="openai", openai_base_url=llm_server.openai_url)
        ),
        "k",
    )
    assert isinstance(online, LLMSteps)
    assert (online.name, online.context_window_tokens) == ("openai", 128000)
    assert online.summarize(SHORT).calls == 1


def test_split_to_fit_keeps_every_character_and_prefers_line_ends():
    text = "".join(f"line {n:03d} " + "x" * 30 + "\n" for n in range(100)) + "y" * 500
    parts = split_to_fit(text, 100)
    assert "".join(parts) == text
    assert all(len(part) <= 400 for part in parts)
    assert all(part.endswith("\n") for part in parts[:-3])
    assert split_to_fit("short", 100) == ["short"]


def test_group_to_fit_always_makes_progress():
    assert group_to_fit(["a" * 40] * 4, 25) == [["a" * 40] * 2, ["a" * 40] * 2]  # pairs even if too big
    assert group_to_fit(["a" * 40] * 5, 25) == [["a" * 40] * 2] * 2 + [["a" * 40]]
    assert group_to_fit(["a" * 40, "b" * 40, "c" * 400], 25) == [["a" * 40, "b" * 40], ["c" * 400]]


def test_transcript_round_trip():
    text = format_transcript([("user", "Hi\nsecond line"), ("assistant", "  Hello  ")])
    assert text == "user: Hi\nsecond line\n\nassistant: Hello"
    assert split_turns(text) == [("user", "Hi\nsecond line"), ("assistant", "Hello")]
    assert split_turns("pasted note\nUser: question") == [("user", "pasted note"), ("user", "question")]


def test_a_long_app_memory_reuses_a_summary_it_is_given(llm_server):
    llm_server.responder = lambda request: Reply("Plans a trip to Porto in March with a team of eight.")
    steps = steps_for(llm_server, window=1500, max_tokens=64)
    given = steps.make_app_memory(long_transcript(), summary="- planning the Porto offsite")
    assert given.calls == 1 == len(llm_server.requests)
    assert "planning the Porto offsite" in llm_server.requests[0].user_text
    alone = steps.make_app_memory(long_transcript())
    assert alone.calls > 1


def test_a_reply_stopped_by_the_token_limit_is_noted_once_per_step(llm_server):
    looping = "- The user likes tea.\n" * 20
    llm_server.responder = lambda request: Reply(looping, cut_off=True)
    result = steps_for(llm_server, max_tokens=64).summarize(SHORT)
    assert result.notes == (
        "The model's reply reached the limit of 64 tokens (llm.max_tokens) and was cut there, "
        "so its end is missing.",
    )
    llm_server.responder = lambda request: Reply(looping)
    assert steps_for(llm_server, max_tokens=64).summarize(SHORT).notes == ()
