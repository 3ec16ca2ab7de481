"""Relative dates in a message become the absolute dates they meant when it was written."""

from datetime import date, datetime

import pytest

from memdesk.core.dates import annotate, names_now, resolve, tells_of_an_occasion

MONDAY = datetime(2023, 5, 8, 13, 56)  # the message's time


@pytest.mark.parametrize(
    ("phrase", "day"),
    [
        ("last Saturday", date(2023, 5, 6)),
        ("yesterday", date(2023, 5, 7)),
        ("last night", date(2023, 5, 7)),
        ("the day before yesterday", date(2023, 5, 6)),
        ("tomorrow", date(2023, 5, 9)),
        ("this Friday", date(2023, 5, 12)),
        ("next Monday", date(2023, 5, 15)),
        ("last Fri", date(2023, 5, 5)),
        ("three days ago", date(2023, 5, 5)),
        ("in 2 days", date(2023, 5, 10)),
    ],
)
def test_days(phrase, day):
    resolved = resolve(phrase, MONDAY)
    assert resolved is not None and (resolved.start, resolved.span) == (day, "day")


def test_last_saturday_in_a_message_of_8_may_2023_is_6_may():
    assert resolve("last Saturday", MONDAY).start.isoformat() == "2023-05-06"
    assert str(resolve("last Saturday", MONDAY)) == "6 May 2023"


def test_longer_spans_name_the_week_month_or_year():
    assert str(resolve("two weeks ago", MONDAY)) == "the week of 24 April 2023"
    assert str(resolve("last week", MONDAY)) == "the week of 1 May 2023"
    assert str(resolve("last weekend", MONDAY)) == "the weekend of 6 May 2023"
    assert str(resolve("next month", MONDAY)) == "June 2023"
    assert str(resolve("next month", datetime(2023, 12, 20))) == "January 2024"
    assert str(resolve("a month ago", datetime(2023, 1, 31))) == "December 2022"
    assert str(resolve("last year", MONDAY)) == "2022"


def test_a_message_gets_the_absolute_date_next_to_the_words():
    text = "I ran a charity race last Saturday and I'm moving next month. Yesterday was quiet."
    assert annotate(text, MONDAY) == (
        "I ran a charity race last Saturday (6 May 2023) and I'm moving next month (June 2023). "
        "Yesterday (7 May 2023) was quiet."
    )


def test_vague_or_already_dated_phrases_are_left_alone():
    assert annotate("a few days ago, recently, someday", MONDAY) == "a few days ago, recently, someday"
    once = annotate("last Saturday", MONDAY)
    assert annotate(once, MONDAY) == once
    assert resolve("Saturday", MONDAY) is None
    assert annotate("yesterdays and todays", MONDAY) == "yesterdays and todays"


@pytest.mark.parametrize(
    ("text", "now"),
    [
        ("I shall henceforth be known as Dr. Oyelaran", True),
        ("from now on, answers in Portuguese please", True),
        ("As of today (1 March 2026) the rent is £1,220", True),
        ("starting this morning I'm on the new dose", True),
        ("so the Lewisburg market is where I'll be of a Saturday from here on", True),
        ("from this point onwards the kiln is mine alone", True),
        ("From now he is my mentor, we will meet every second Saturday", True),
        ("10,500 lor. From this month.", True),
        ("yes, starting this week already", True),
        ("starting next week I'll take the bus", False),
        ("from this weekend the call will be on Saturdays", False),
        ("two weeks from now we will meet again", False),
        ("a year from now I retire", False),
        ("from here to the coast it's an hour", False),
        ("tonight I'll go to the gym", False),
        ("I'll move to Leeds next month", False),
        ("from tomorrow I'll take the bus", False),
        ("yesterday I decided I will sell the car", False),
        ("we're going to move to Porto", False),
    ],
)
def test_what_places_a_statement_at_the_moment_it_is_said(text, now):
    assert names_now(text) is now


def test_the_moment_of_speaking_onwards_gets_no_date_of_its_own():
    assert annotate("From now on I cycle.", date(2026, 3, 1)) == "From now on I cycle."


@pytest.mark.parametrize(
    ("text", "occasion"),
    [
        ("This week the taxi went round by Thaba-Tseka. Eish 8 hours", True),
        ("yesterday the ferry was 40 minutes late", True),
        ("last night we played till 2", True),
        ("as of today the ferry is at 7:10", False),  # an onset, not an occasion
        ("next week the rota changes", False),  # still to come
        ("the pickup is 3:30 this term", False),
    ],
)
def test_a_day_or_week_gone_by_tells_of_an_occasion(text: str, occasion: bool) -> None:
    assert tells_of_an_occasion(text) is occasion
