"""A schedule's days changed as a whole, offline (``memdesk.llm.day_sets``): the new days take
the old ones' place written as the line writes days, and a plan, a later date, someone else's
days, the same days again or a line with other days besides change nothing."""

from __future__ import annotations

from datetime import datetime

import pytest

from memdesk.core.dates import annotate
from memdesk.llm.changes import Edit, Known, said_in
from memdesk.llm.day_sets import day_sets, written_as
from memdesk.llm.sure import offline_edits

SAID = datetime(2026, 3, 1, 18, 0)
COACHING = "- Coaches under-12s training at Riverside Park, Tuesdays and Thursdays 5-7pm"


def edited(line: str, *messages: str) -> Edit | None:
    """The edit of ``line`` that offline compaction would apply unasked, beside another line."""
    known = [Known(1, "facts", "user/facts", line), Known(2, "facts", "user/facts", "- Allergic to wasps")]
    turns = []
    for message in messages:
        turns += [("user", annotate(message, SAID), SAID), ("assistant", "Noted.", SAID)]
    edits = [edit for edit in offline_edits(said_in(turns), known) if edit.target == 1 and edit.sure]
    return edits[0] if edits else None


@pytest.mark.parametrize(
    ("stored", "said", "written"),
    [
        ("Tuesdays and Thursdays", "thursdays n saturdays", "Thursdays and Saturdays"),
        ("Mon/Wed/Fri", "Tuesday and Thursday", "Tue/Thu"),
        ("Mon–Fri", "tue to sat", "Tue–Sat"),
        ("Sat–Mon", "Wednesday to Friday", "Wed–Fri"),
        ("mon, wed", "Tuesdays, Fridays and Sundays", "tue, fri, sun"),
    ],
)
def test_new_days_are_written_the_way_the_line_writes_days(stored: str, said: str, written: str):
    (old,) = day_sets(stored)
    (new,) = day_sets(said)
    assert written_as(new, old) == written


def test_a_range_holds_the_days_it_runs_through_past_the_weeks_end():
    (days,) = day_sets("nights Fri–Mon")
    assert days.days == (4, 5, 6, 0)


def test_a_schedules_new_days_replace_the_old_ones():
    edit = edited(
        COACHING,
        "club moved our training to mondays n wednesdays, same time, the pitch is relaid tuesdays",
    )
    assert edit is not None
    assert edit.text == "- Coaches under-12s training at Riverside Park, Mondays and Wednesdays 5-7pm"


@pytest.mark.parametrize(
    "said",
    [
        "might move training to mondays n wednesdays",  # a supposition
        "from next month training goes to mondays and wednesdays",  # a later date
        "my brother's training is mondays and wednesdays now",  # someone else's
        "training still tuesdays and thursdays, same as ever",  # the same days
        "training now mondays and wednesdays. On fridays I coach the seniors",  # another day besides
        "what if training went to mondays and wednesdays?",  # a question
    ],
)
def test_days_not_said_as_the_schedule_now_change_nothing(said: str):
    assert edited(COACHING, said) is None
