"""The offline backend on a realistic conversation: what it keeps, drops and decides."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memdesk.errors import BadInputError
from memdesk.llm.noise import is_narration
from memdesk.llm.offline import OFFLINE_MARK, OfflineSteps
from memdesk.llm.results import Decision
from memdesk.llm.sentences import clear_cache
from memdesk.llm.transcript import format_transcript

SESSION = (Path(__file__).parent / "data" / "planning_session.txt").read_text(encoding="utf-8")


def sections(summary: str) -> dict[str, str]:
    """Heading → the text under it."""
    out = {}
    for block in summary.split("## ")[1:]:
        heading, _, body = block.partition("\n")
        out[heading] = body
    return out


@pytest.fixture(scope="module")
def summary() -> str:
    return OfflineSteps().summarize(SESSION).value


def test_summary_keeps_decisions(summary):
    decisions = sections(summary)["Decisions"]
    assert "we'll use a systemd user timer" in decisions
    assert "Let's go with a 20 MB/s limit" in decisions


def test_summary_keeps_preferences(summary):
    preferences = sections(summary)["Preferences"]
    assert "I prefer systemd timers over cron" in preferences
    assert "never delete files on the NAS side" in preferences


def test_summary_keeps_file_paths_and_values_verbatim(summary):
    for path in (
        "~/projects/photosync/sync.py",
        "/mnt/photos",
        "~/.config/systemd/user/photosync.timer",
        "config/photosync.toml",
        "bandwidth_limit = 20000",
        "02:30",
    ):
        assert path in summary


def test_summary_keeps_open_questions_and_todos(summary):
    parts = sections(summary)
    assert "What would the email need, an SMTP password?" in parts["Open questions"]
    assert "Should the script email you when a run fails" in parts["Open questions"]
    assert "check whether the NAS supports SSH keys" in parts["To do"]
    assert "rename the old backups folder" in parts["To do"]


def test_summary_drops_small_talk_and_says_it_is_offline(summary):
    assert "that's all for today" not in summary
    assert "Morning!" not in summary
    assert summary.endswith(OFFLINE_MARK)
    # Statements, not a dialogue: no speaker labels.
    assert not any(line.startswith(("- User: ", "- Assistant: ")) for line in summary.splitlines())


def test_assistant_first_person_is_not_a_user_preference():
    transcript = format_transcript([("assistant", "I prefer to double-check before deleting anything.")])
    assert "## Preferences" not in OfflineSteps().summarize(transcript).value


def test_code_blocks_are_not_quoted():
    transcript = "user: Here is the log:\n```\nERROR at /var/log/x.py line 3\n```\nI prefer short logs."
    summary = OfflineSteps().summarize(transcript).value
    assert "/var/log/x.py" not in summary
    assert "I prefer short logs." in summary


def test_summary_fits_its_budget():
    turns = [
        (
            "user",
            f"I prefer option {n}. The entry point is src/module_{n}/main.py. We decided on {n}. Why {n}?",
        )
        for n in range(400)
    ]
    text = OfflineSteps(summary_max_chars=2000).summarize(format_transcript(turns)).value
    assert len(text) <= 2000
    assert set(sections(text)) == {"About", "Decisions", "Preferences", "Files and values", "Open questions"}


def test_empty_and_signal_free_transcripts():
    assert OfflineSteps().summarize("").value == "Nothing to summarise.\n\n" + OFFLINE_MARK
    plain = OfflineSteps().summarize("user: hello there friend\nassistant: hello back to you")
    assert "## Latest messages\n- hello there friend\n- hello back to you" in plain.value


def test_facts_are_the_users_durable_statements_deduplicated():
    transcript = format_transcript(
        [
            ("user", "I prefer dark mode in every editor. My editor is Neovim."),
            ("assistant", "I always keep backups, and I prefer YAML."),
            ("user", "i prefer dark mode in every editor!  Do I always need sudo here?"),
            ("user", "I'm tired today. Never push to main without a review."),
        ]
    )
    assert OfflineSteps().extract_facts(transcript).value == [
        "I prefer dark mode in every editor.",
        "My editor is Neovim.",
        "Never push to main without a review.",
    ]


def test_facts_from_the_session():
    facts = OfflineSteps().extract_facts(SESSION).value
    assert "I prefer systemd timers over cron, cron always bites me with PATH issues." in facts
    assert len(facts) == len({fact.lower() for fact in facts})


def test_app_memory_is_a_few_top_sentences_within_the_cap():
    memory = OfflineSteps(app_memory_max_chars=200).make_app_memory(SESSION).value
    assert memory is not None
    assert len(memory) <= 200
    assert memory == (
        "I prefer systemd timers over cron, cron always bites me with PATH issues. "
        "Let's go with a 20 MB/s limit then, the NAS is slow when it's busy."
    )


def test_app_memory_cut_at_a_word_boundary():
    transcript = "user: I prefer " + " ".join(f"word{n}" for n in range(100)) + "."
    memory = OfflineSteps(app_memory_max_chars=60).make_app_memory(transcript).value
    assert len(memory) <= 60
    assert memory.endswith("…")
    assert memory[:-1].split()[-1].startswith("word")  # whole words only
    assert memory[:-1] == memory[:-1].rstrip()


def test_app_memory_none_when_nothing_worth_keeping():
    assert OfflineSteps().make_app_memory("user: ok thanks\nassistant: you are welcome").value is None


def test_step_metadata_says_no_calls():
    result = OfflineSteps().summarize(SESSION)
    assert (result.calls, result.estimated) == (0, True)
    assert result.tokens_in == -(-len(SESSION) // 4)


EXISTING = [
    (3, "User prefers meetings after 2pm on weekdays."),
    (5, "Project Phoenix has a deadline of Nov 1."),
    (8, "User restarted the database service to fix connection errors."),
]


def test_decision_merges_a_new_near_duplicate_into_the_older_memory():
    new = "User prefers meetings after 3pm on weekdays."
    decision = OfflineSteps().decide_compaction(EXISTING, new, 11).value
    assert (decision.action, decision.target_id, decision.new_content) == ("edit", 3, new)
    assert not decision.fallback


def test_decision_deletes_the_older_of_two_existing_duplicates():
    existing = [*EXISTING, (9, "Project Phoenix has a deadline of November 1.")]
    decision = OfflineSteps().decide_compaction(existing, "User likes green tea.", 12).value
    assert (decision.action, decision.target_id, decision.fallback) == ("delete", 5, False)
    assert "newer memory 9" in decision.reason


def test_decision_falls_back_to_fifo_without_duplicates():
    decision = OfflineSteps().decide_compaction(EXISTING, "User likes green tea.", 12).value
    assert decision == Decision(
        "delete", 3, None, "Removed the oldest memory (3) because no memories were near-duplicates.", True
    )


def test_decision_needs_existing_memories():
    with pytest.raises(BadInputError):
        OfflineSteps().decide_compaction([], "new", 1)


def run_all(steps: OfflineSteps) -> list:
    return [
        steps.summarize(SESSION).value,
        steps.extract_facts(SESSION).value,
        steps.make_app_memory(SESSION).value,
        steps.decide_compaction(EXISTING, "Project Phoenix deadline is Nov 1.", 11).value.target_id,
    ]


def test_same_input_same_output():
    first = run_all(OfflineSteps())
    clear_cache()
    assert run_all(OfflineSteps()) == first


def test_same_output_in_other_processes():
    """Set and dict order must not leak into output, whatever the hash seed."""
    script = (
        "import json, sys\n"
        "from memdesk.llm.offline import OfflineSteps\n"
        "t = sys.stdin.read()\n"
        "s = OfflineSteps()\n"
        "print(json.dumps([s.summarize(t).value, s.extract_facts(t).value, s.make_app_memory(t).value]))\n"
    )
    expected = run_all(OfflineSteps())[:3]
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", script], input=SESSION, capture_output=True, text=True, env=env, check=True
        )
        assert json.loads(done.stdout) == expected


CODING_SESSION = format_transcript(
    [
        (
            "user",
            "I'm migrating the billing service from Flask to FastAPI this week. "
            "The invoice endpoint fails on startup:\n"
            "Traceback (most recent call last):\n"
            '  File "/srv/billing/app.py", line 12, in <module>\n'
            "    from billing.routes import invoices\n"
            "ImportError: cannot import name 'invoices'\n"
            '{"level":"error","ts":"2025-03-02T10:11:12Z","msg":"startup failed"}',
        ),
        (
            "assistant",
            "Let me check the routes package.\n"
            "Now I need to add the import for `APIRouter` to billing/routes/__init__.py:\n"
            "    at Object.<anonymous> (/srv/billing/node_modules/x.js:76:24)\n"
            "The router was never exported, so the import fails.",
        ),
        ("user", "We decided that Priya owns the database migration. Keep the old Flask app until April."),
        ("assistant", "Now update the tests to use the FastAPI client."),
        ("assistant", "Now WP3: Replace the session middleware. Next is WP4: Create main-new.py."),
        ("assistant", "Let's do WP5: Port the invoice templates."),
        ("assistant", "Now the invoice endpoint starts cleanly: the router is exported."),
    ]
)


@pytest.fixture(scope="module")
def coding_summary() -> str:
    return OfflineSteps().summarize(CODING_SESSION).value


def test_summary_says_what_the_conversation_is_about(coding_summary):
    about = sections(coding_summary)["About"]
    assert "I'm migrating the billing service from Flask to FastAPI this week." in about


def test_summary_keeps_who_owns_what(coding_summary):
    assert "Priya owns the database migration" in sections(coding_summary)["Decisions"]


def test_stack_traces_logs_and_json_are_not_quoted(coding_summary):
    for pasted in ("Traceback", "line 12", "ImportError", '"level"', "node_modules", "startup failed"):
        assert pasted not in coding_summary
    assert "Keep the old Flask app until April." in coding_summary


def test_the_assistant_narrating_its_steps_is_not_quoted(coding_summary):
    for narration in (
        "Let me check",
        "Now I need to add the import",
        "Now update the tests",
        "Now WP3",
        "Next is WP4",
        "Let's do WP5",
    ):
        assert narration not in coding_summary


@pytest.mark.parametrize(
    ("sentence", "narrates"),
    [
        ("Now WP16: Update main-new.ts to use InteractiveMode.", True),
        ("Next is step 4: wire the router.", True),
        ("Let's do WP14: Create main-new.ts.", True),
        ("Now the invoice endpoint starts cleanly: the router is exported.", False),
        ("Now Priya: she owns the migration.", False),
        ("Next week's release is on 4 March.", False),
    ],
)
def test_an_assistant_announcing_its_next_step_narrates(sentence, narrates):
    assert is_narration(sentence, "assistant") is narrates
    assert not is_narration(sentence, "user")


def test_facts_are_about_the_user_not_the_listener():
    transcript = format_transcript(
        [
            ("user", "I work as a nurse in Leeds. My daughter is 7. You always know what to say!"),
            ("user", "I'm always here for you. I love hiking in the Dales. Can you remind me?"),
            ("assistant", "I live in the cloud."),
        ]
    )
    assert OfflineSteps().extract_facts(transcript).value == [
        "I work as a nurse in Leeds.",
        "My daughter is 7.",
        "I love hiking in the Dales.",
    ]


def test_small_talk_is_neither_the_topic_nor_an_open_question():
    transcript = format_transcript(
        [
            ("user", "Hey Sam, how have you been? I started pottery classes in Bristol on Tuesday evenings."),
            ("assistant", "Wow, that's great! How did it feel?"),
        ]
    )
    parts = sections(OfflineSteps().summarize(transcript).value)
    assert parts["About"].startswith("- I started pottery classes in Bristol on Tuesday evenings.\n")
    assert "Open questions" not in parts


def test_a_small_working_memory_budget_is_kept_and_still_says_offline():
    summary = OfflineSteps(summary_max_chars=400).summarize(CODING_SESSION).value
    assert len(summary) <= 400
    assert summary.startswith("## About\n- I'm migrating the billing service")
    assert summary.endswith(OFFLINE_MARK)


def test_always_and_later_in_small_talk_are_not_preferences_or_tasks():
    transcript = format_transcript(
        [
            ("user", "They always look so relaxed outside. Always good to hear! See you later!"),
            ("assistant", "Any ideas for the next steps?"),
        ]
    )
    summary = OfflineSteps().summarize(transcript).value
    assert "## Preferences" not in summary and "## To do" not in summary
    assert OfflineSteps().extract_facts(transcript).value == []


def test_the_assistants_promise_is_not_the_persons_to_do():
    # Whose turn it was decides: the same wording in the assistant's turn is its own offer.
    transcript = format_transcript(
        [
            ("user", "The landlord Ferreira still has not fixed the boiler in the Alvalade flat."),
            ("assistant", "I'll remind you on Friday to call Ferreira, and follow up later with a letter."),
            ("user", "Please book the plumber Duarte for next Tuesday if Ferreira does nothing by Thursday."),
        ]
    )
    parts = sections(OfflineSteps().summarize(transcript).value)
    assert "Please book the plumber Duarte" in parts["To do"]
    assert "remind you on Friday" not in parts["To do"]
    assert "I'll remind you on Friday to call Ferreira" in parts["To do, from the assistant"]


def test_an_assistant_confirming_a_request_is_summarised_once():
    transcript = format_transcript(
        [
            ("user", "Summarise what changed in the onboarding flow review yesterday."),
            ("assistant", "Three changes: the permissions screen moves after sign-up, and the video is cut."),
            ("user", "Perfect. Add a note that Jonas owns the permissions change."),
            ("assistant", "Added to your notes: Jonas owns the permissions-screen change."),
        ]
    )
    summary = OfflineSteps().summarize(transcript).value
    assert summary.count("Jonas owns") == 1, summary
    assert "Add a note that Jonas owns the permissions change." in summary  # the person's words
