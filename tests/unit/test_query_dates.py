"""Dates named in a question become a time window; the date's words leave the question."""

from __future__ import annotations

from datetime import datetime

import pytest

from memdesk.core.query_dates import find_date

NOW = datetime(2023, 10, 20, 15, 0)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("what did we plan on 8 May, 2023?", datetime(2023, 5, 7), datetime(2023, 5, 10)),
        ("what about October 13, 2023", datetime(2023, 10, 12), datetime(2023, 10, 15)),
        ("the trip on 2023-05-08", datetime(2023, 5, 7), datetime(2023, 5, 10)),
        ("books read in May 2023", datetime(2023, 5, 1), datetime(2023, 6, 1)),
        ("in December we met", datetime(2022, 12, 1), datetime(2023, 1, 1)),
        ("anything from 2022?", datetime(2022, 1, 1), datetime(2023, 1, 1)),
        ("what did I say yesterday", datetime(2023, 10, 18), datetime(2023, 10, 21)),
        ("notes from last week", datetime(2023, 10, 6), datetime(2023, 10, 22)),
        ("the issue last week, as of 6 November 2023", datetime(2023, 10, 23), datetime(2023, 11, 8)),
    ],
)
def test_named_dates_become_windows(question, start, end):
    dated = find_date(question, NOW)
    assert dated.window is not None
    assert (dated.window.start, dated.window.end) == (start, end)


def test_the_date_words_leave_the_question():
    words = find_date("what did we plan on 8 May, 2023?", NOW).text.split()
    assert words == ["what", "did", "we", "plan", "on", "?"]


@pytest.mark.parametrize(
    "question", ["I may go", "room 2023a", "31 February 2023x", "what now", "call at 10:30"]
)
def test_no_date_no_window(question):
    dated = find_date(question, NOW)
    assert dated.window is None and dated.text == question
