"""Offline, a statement the proposal adds that takes the place of one stored line proposes that
line's end (``memdesk.llm.superseded``): its value replaced when the value is the line's whole
labelled item, else the clause holding it marked past; judged by the last check
(``memdesk.llm.sure``) like every other offline edit, and never for a plan, someone else's news
or line, a line already past, or when two lines fit.
"""

from __future__ import annotations

import json
import shutil
from datetime import datetime, timedelta

import pytest

from memdesk.core.dates import annotate
from memdesk.llm.changes import Edit, Known, said_in
from memdesk.llm.stale_reader import MANIFEST, PATH_VARIABLE, WEIGHTS, weights_dir
from memdesk.llm.superseded import superseded_ends
from memdesk.llm.sure import offline_decided
from memdesk.services.compaction import ChangeKind
from memdesk.services.prompt import PromptSpec

SAID = datetime(2026, 3, 1, 18, 0)


def ends(lines: list[str], *messages: str, where: str = "facts") -> list[Edit]:
    """The ends proposed when every sentence of ``messages`` is added, after the last check."""
    known = [Known(number, where, f"user/{where}", text) for number, text in enumerate(lines, 1)]
    said = said_in([("user", annotate(message, SAID), SAID) for message in messages])
    proposed = superseded_ends([sentence.text for sentence in said], said, known, set())
    return offline_decided(proposed, said, known)


def test_a_labelled_line_whose_whole_value_is_taken_has_it_replaced():
    (end,) = ends(["- Employer: Tayside Print Co", "- Drinks tea"], "I work at Harbour Books now.")
    assert (end.action, end.target, end.text) == ("update", 1, "- Employer: Harbour Books")
    assert end.sure and end.evidence == "I work at Harbour Books now."


def test_a_line_of_several_facts_has_only_the_clause_that_ended_marked_past():
    (end,) = ends(["- Home: Forfar, Angus; allergic to penicillin"], "We live in Montrose now.")
    assert end.action == "retire"
    assert end.text == "- Home: Forfar, Angus (until March 2026); allergic to penicillin"


def test_a_value_read_only_by_the_slot_the_sentence_names_is_marked_not_replaced():
    (end,) = ends(["- Gym: Pulse Fitness"], "I switched gyms, I go to Iron Works now.")
    assert end.text == "- Gym: Pulse Fitness (until March 2026)"


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        # a plan, a later date
        (["- Lives in Forfar"], "We're moving to Montrose next year."),
        # a question
        (["- Lives in Forfar"], "Do I live in Montrose now?"),
        # someone else's news
        (["- Lives in Forfar"], "My sister lives in Montrose now."),
        # two lines fit
        (["- Lives in Forfar", "- Home: Kirriemuir"], "I live in Montrose now."),
        # someone else's news, told of by a name the store gives
        (
            ["- Mobile: 07700 900 111", "- Neighbour: Rhona Baird, two doors down"],
            "Rhona two doors down's got a new mobile, 07700 900 555. Mine's the same.",
        ),
        # the message tells of another stored line, by its label
        (
            ["- Office: Quayside, Dundee", "- Lives in Broughty Ferry"],
            "Our agency moved offices last week. We're in Perth now, near the station.",
        ),
        # someone else's line
        (["- Husband Callum works at Tayside Print Co"], "I work at Harbour Books now."),
        # a line already past
        (["- Lives in Forfar (until 2024)"], "I live in Montrose now."),
        # the statement repeats what is stored
        (["- Lives in Montrose"], "I live in Montrose now."),
    ],
)
def test_no_end_is_proposed_for(lines, said):
    assert ends(lines, said) == []


def test_an_end_the_last_check_doubts_stays_a_suggestion():
    # The line's value is kept in another place too, and the sentence does not say which.
    lines = ["- Employer: Tayside Print Co", "- Weekend job: Tayside Print Co"]
    (end,) = ends(lines, "I work at Harbour Books now.", where="profile")
    assert not end.sure and end.why.startswith("May be out of date: “- Employer: Tayside Print Co”")


def test_a_knowledge_entry_about_the_old_value_is_left_alone():
    known = [Known(1, "entry", "print-shop", "Employer: Tayside Print Co, in Dundee since 2019")]
    said = said_in([("user", "I work at Harbour Books now.", SAID)])
    assert superseded_ends([said[0].text], said, known, set()) == []


def test_offline_compaction_proposes_the_end_beside_the_statement_and_the_prompt_moves_on(memdesk_app, clock):
    app = memdesk_app
    clock.now = SAID - timedelta(days=40)
    app.documents.set("user/profile", "Name: Ines\nHome: Forfar, Angus; allergic to penicillin")
    clock.now = SAID
    said = "Big news: after the sale went through, we live in Montrose now."
    app.sessions.log("chat:3", "user", said, at=SAID)
    proposal = app.compaction.propose("chat:3", backend="offline")
    (end,) = [change for change in proposal.changes if change.kind is ChangeKind.UPDATE_LINE]
    assert end.before == "Home: Forfar, Angus; allergic to penicillin"
    assert end.after == "Home: Forfar, Angus (until March 2026); allergic to penicillin"
    assert end.accepted and "we live in Montrose now" in end.reason
    app.compaction.apply(proposal)
    profile = app.documents.text("user/profile")
    assert "Home: Forfar, Angus (until March 2026); allergic to penicillin" in profile
    assert "we live in Montrose now" in app.documents.text("user/facts")
    clock.now = SAID + timedelta(days=45)
    prompt = app.prompt.compose(PromptSpec(message="Where do I live?")).text
    assert "Montrose" in prompt and "allergic to penicillin" in prompt


@pytest.fixture
def reader_that_suggests_everything(tmp_path, monkeypatch):
    """The shipped learned reader with no threshold: it suggests a mark for every line it reads."""
    shutil.copy(weights_dir() / WEIGHTS, tmp_path / WEIGHTS)
    (tmp_path / MANIFEST).write_text(json.dumps({"threshold": 0.0}), encoding="utf-8")
    monkeypatch.setenv(PATH_VARIABLE, str(tmp_path))


@pytest.mark.usefixtures("reader_that_suggests_everything")
def test_a_suggestion_of_the_learned_reader_never_takes_the_place_of_a_sure_change(memdesk_app, clock):
    # The reader is asked last: the rules' sure changes are made, and what the person said is
    # still added, whatever the reader would suggest for the same lines.
    app = memdesk_app
    clock.now = SAID - timedelta(days=40)
    profile = (
        "Name: Tomasz Wierzba\nOccupation: architect, associate at Halden Rusk Studio\n"
        "Work email: t.wierzba@haldenrusk.pl\nLives in: Gdynia"
    )
    app.documents.set("user/profile", profile)
    clock.now = SAID
    said = (
        "Good evening. My notice period ended and from Monday I am a partner at Ostoja Kamień Architects. "
        "My old work address is no longer read; please use t.wierzba@ostojakamien.pl from now on."
    )
    app.sessions.log("chat:4", "user", said, at=SAID)
    with_reader = app.compaction.propose("chat:4", backend="offline")
    sure_with = sorted((c.before, c.after) for c in with_reader.changes if c.accepted)
    app.update_settings(app.settings.with_values({"compaction.learned_reader": False}))
    without = app.compaction.propose("chat:4", backend="offline")
    assert sure_with == sorted((c.before, c.after) for c in without.changes if c.accepted)
