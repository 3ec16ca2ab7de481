"""The learned reader of stale facts (``llm.stale_reader``), with the shipped weights: a line a
sentence of the person's says no longer holds is proposed marked past with their words, never
rewritten and never pre-accepted; a plan, a question, someone else's news and a past story
mark nothing. The sentences here are the tests' own, not from the splits it learned from.
"""

import json
import shutil
from datetime import datetime

import pytest

from memdesk.core.dates import annotate
from memdesk.llm.changes import Known, said_in
from memdesk.llm.stale_reader import MANIFEST, PATH_VARIABLE, WEIGHTS, reader, suggestions, weights_dir

SAID = datetime(2026, 3, 4, 19, 0)
PROFILE = [
    "Name: Ines Moreau",
    "Lives in Glasgow",
    "Works as a pharmacist at Boots on Sauchiehall Street",
    "Gym: Nuffield Health",
    "Mobile: 07700 900 114",
]
MEMORY_CHARS = 200


def marks(*said: str, stored: list[str] = PROFILE, where: str = "profile", rules=()):
    known = [Known(number, where, "user/profile", text) for number, text in enumerate(stored, 1)]
    turns = [("user", annotate(text, SAID), SAID) for text in said]
    return suggestions(said_in(turns), known, list(rules), len(known) + 1, MEMORY_CHARS)


def test_the_shipped_reader_loads_with_a_threshold_chosen_for_precision():
    shipped = reader()
    assert shipped is not None
    assert 0.5 < shipped.threshold < 1


@pytest.mark.parametrize(
    ("said", "line", "quote"),
    [
        (
            "cancelled my nuffield gym membership, I go to PureGym now",
            "Gym: Nuffield Health",
            "cancelled my nuffield gym membership, I go to PureGym now",
        ),
        (
            "So. my number changed, it's 07700 900 555 now",
            "Mobile: 07700 900 114",
            "my number changed, it's 07700 900 555 now",
        ),
    ],
)
def test_a_change_said_in_passing_marks_the_line_past_with_the_persons_words(said, line, quote):
    found = marks(said)
    (edit,) = found.edits
    (fact,) = found.known
    assert fact.text == line and edit.target == fact.number == len(PROFILE) + 1
    # the line as it was, then the date and the quote verbatim: the quote carries the new value
    assert edit.text == f"{line} (until 4 March 2026: “{quote}”)"
    assert edit.evidence == quote
    # a suggestion only: `compact --yes` leaves it out
    assert (edit.action, edit.sure) == ("retire", False)
    assert edit.why.startswith(f"May be out of date: “{line}” — the person said: “{quote}”")


@pytest.mark.parametrize(
    "said",
    [
        "I might cancel my nuffield gym membership and go to PureGym next month",  # a plan
        "should I cancel my nuffield gym membership and go to PureGym?",  # a question
        "my flatmate Callum cancelled his nuffield gym membership, he goes to PureGym now",  # another's news
        "back in 2015 I cancelled my nuffield gym membership for a year, then I rejoined",  # a past story
        "I might move out of glasgow, Dundee is cheaper",
        "my sister Mairi moved out of glasgow, she lives in Dundee now",
    ],
)
def test_a_plan_a_question_someone_elses_news_or_a_past_story_marks_nothing(said):
    assert marks(said).edits == []


def test_a_line_a_rule_already_edits_or_a_sentence_a_rule_used_is_left_to_the_rule():
    said = "cancelled my nuffield gym membership, I go to PureGym now"
    assert marks(said).edits  # on its own, the reader marks the gym
    assert marks(said, rules=[("Gym: Nuffield Health", "something else")]).edits == []
    assert marks(said, rules=[("Mobile: 07700 900 114", said)]).edits == []


GYM = "cancelled my nuffield gym membership, I go to PureGym now"


def test_a_line_of_several_facts_is_marked_after_the_clause_the_sentence_concerns():
    stored = ["Name: Ines Moreau", "Pharmacist at Boots; gym: Nuffield Health; walks to work"]
    (edit,) = marks(GYM, stored=stored).edits
    assert (
        edit.text == f"Pharmacist at Boots; gym: Nuffield Health (until 4 March 2026: “{GYM}”); walks to work"
    )


@pytest.fixture
def lenient_reader(tmp_path, monkeypatch):
    """The shipped weights with a lower threshold: where a mark goes and what compaction does
    with it, whatever the pair's probability, is what these tests read."""
    shutil.copy(weights_dir() / WEIGHTS, tmp_path / WEIGHTS)
    (tmp_path / MANIFEST).write_text(json.dumps({"threshold": 0.5}), encoding="utf-8")
    monkeypatch.setenv(PATH_VARIABLE, str(tmp_path))


@pytest.mark.usefixtures("lenient_reader")
def test_a_line_of_several_facts_none_clearly_the_one_is_left_whole_and_only_listed():
    line = "Nuffield Health classes on weekdays; Nuffield Health pool on Sundays"
    found = marks(GYM, stored=["Name: Ines Moreau", line])
    assert found.edits == []
    (note,) = found.notes
    assert note.startswith(f"May be out of date: “{line}” — the person said: “{GYM}”; it is left as it is")


def test_a_line_already_past_or_someone_elses_is_never_marked():
    assert marks(GYM, stored=["Name: Ines Moreau", "Former gym: Nuffield Health"]).edits == []
    assert marks(GYM, stored=["Name: Ines Moreau", "Mum's gym: Nuffield Health"]).edits == []


@pytest.mark.usefixtures("lenient_reader")
def test_a_memory_gets_the_mark_appended_unless_it_would_be_too_long_then_it_is_only_listed():
    (edit,) = marks(GYM, stored=["Trains at the Nuffield Health gym in Glasgow."], where="app").edits
    assert edit.text == f"Trains at the Nuffield Health gym in Glasgow (until 4 March 2026: “{GYM}”)."
    long_memory = (
        "Trains at the Nuffield Health gym in Glasgow. " + "Legs on Mondays, arms on Thursdays. " * 4
    )
    listed = marks(GYM, stored=[long_memory.strip()], where="app")
    assert listed.edits == [] and len(listed.notes) == 1


STORED_PROFILE = (
    "Name: Ines Moreau\nLives in Glasgow\nPharmacist at Boots; gym: Nuffield Health; walks to work"
)


def compact(app, clock, said: str, session: str = "chat:9"):
    """The person tells a coaching app; the gym is also in the app's memory, so the rules are
    not sure which place the sentence changes and leave both."""
    clock.now = datetime(2026, 1, 12, 8, 0)
    app.documents.set("user/profile", STORED_PROFILE)
    if not app.apps.memories("coach", include_expired=False):
        app.apps.add("coach", "Trains at the Nuffield Health gym in Glasgow.")
    clock.now = SAID
    app.sessions.log(session, "user", said, at=SAID, app_id="coach")
    app.sessions.log(session, "assistant", "Noted.", at=SAID, app_id="coach")
    return app.compaction.propose(session, backend="offline")


@pytest.mark.usefixtures("lenient_reader")
def test_offline_compaction_shows_the_mark_for_review_and_compact_yes_leaves_it(memdesk_app, clock):
    proposal = compact(memdesk_app, clock, GYM)
    line = "Pharmacist at Boots; gym: Nuffield Health; walks to work"
    (change,) = [c for c in proposal.changes if c.before == line]
    assert not change.accepted and change.doubted
    assert (
        change.after
        == f"Pharmacist at Boots; gym: Nuffield Health (until 4 March 2026: “{GYM}”); walks to work"
    )
    memdesk_app.compaction.apply(proposal)  # as `compact --yes`: the accepted changes only
    assert memdesk_app.documents.text("user/profile") == STORED_PROFILE


@pytest.mark.usefixtures("lenient_reader")
def test_an_approved_mark_keeps_the_line_and_adds_the_persons_words(memdesk_app, clock):
    proposal = compact(memdesk_app, clock, GYM)
    for change in proposal.changes:
        change.accepted = True
    memdesk_app.compaction.apply(proposal)
    lines = memdesk_app.documents.text("user/profile").splitlines()
    assert lines == [
        "Name: Ines Moreau",
        "Lives in Glasgow",
        f"Pharmacist at Boots; gym: Nuffield Health (until 4 March 2026: “{GYM}”); walks to work",
    ]


def test_with_the_reader_turned_off_offline_compaction_proposes_no_mark(memdesk_app, clock):
    memdesk_app.update_settings(memdesk_app.settings.with_values({"compaction.learned_reader": False}))
    proposal = compact(memdesk_app, clock, GYM)
    assert not [c for c in proposal.changes if "(until 4 March 2026" in c.after]
