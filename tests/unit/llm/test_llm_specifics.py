"""The specifics the offline summary keeps: how they are found, and a long conversation
whose summary keeps them within its budget."""

from datetime import date

import pytest

from memdesk.core.grounding import Sources, check
from memdesk.llm.offline import OFFLINE_MARK, OfflineSteps
from memdesk.llm.specifics import Family, Specific, specifics
from memdesk.llm.transcript import format_transcript


def found(text: str) -> set[tuple[str, str]]:
    return {(specific.family.value, specific.key) for specific in specifics(text)}


def test_names_codes_dates_and_amounts_are_found_by_family():
    text = "I've found you the Alfa Pendular AP-131 at 08:39 on 6 March from Lisboa Oriente, €31.20."
    assert found(text) == {
        ("name", "alfa pendular"),
        ("code", "ap131"),
        ("date", "8:39"),
        ("date", "6 march"),
        ("name", "lisboa oriente"),
        ("amount", "31.2"),
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("on 6 March", "by March 6th"),
        ("at 8 pm", "at 20:00"),
        ("about €2,500", "2500 euros"),
        ("flight TP-1234", "flight tp1234"),
        ("with Inês", "Inês's sister"),
    ],
)
def test_the_same_specific_written_another_way_has_the_same_key(first, second):
    assert specifics(f"We said {first}.") == specifics(f"We said {second}.")


def test_a_word_capitalised_only_because_it_opens_a_sentence_is_no_name():
    assert found("Pack a jacket. Thanks, I will. - Book it now") == set()
    assert found("Porto Campanhã is busy; Jonas owns it.") == {("name", "campanhã")}


def test_a_weekday_alone_is_a_date_but_not_a_figure():
    (friday,) = specifics("See you on Friday!")
    assert friday == Specific(Family.DATE, "friday") and not friday.counted
    assert all(specific.counted for specific in specifics("Second class is €31.20 on 6 March."))


def long_trip() -> list[tuple[str, str]]:
    """Sixty days of a rail trip: each day's train, time, date and price said once, and
    lines that only name again what is known."""
    months = ("March", "April")
    turns = [("user", "Can you help me plan a rail trip around Portugal and Spain this spring?")]
    for day in range(60):
        month, number = months[day // 30], day % 30 + 1
        turns += [
            ("user", f"What about day {day + 1}? I want to be in the next city before dinner."),
            (
                "assistant",
                f"On {number} {month} take the IC{500 + day} at {7 + day % 10}:{day * 7 % 60:02d}, "
                f"second class €{12 + day}.",
            ),
            ("user", "The Alfa Pendular was comfortable again, and the Lisbon station was busy as usual."),
            ("assistant", "The Alfa Pendular is usually comfortable, and Lisbon stations are often busy."),
        ]
    return turns


@pytest.fixture(scope="module")
def trip() -> tuple[str, str]:
    transcript = format_transcript(long_trip())
    return transcript, OfflineSteps(summary_max_chars=2000).summarize(transcript).value


def test_a_long_conversation_keeps_to_the_budget_and_says_offline(trip):
    transcript, summary = trip
    assert len(transcript) > 5 * 2000
    assert len(summary) <= 2000
    assert summary.endswith(OFFLINE_MARK)


def test_a_long_conversation_quotes_new_figures_before_repeated_names(trip):
    _transcript, summary = trip
    quoted = [line[2:] for line in summary.splitlines() if line.startswith("- ")]
    trains = [line for line in quoted if line.startswith("On ")]
    assert len(trains) >= 10
    # Lines that only name the train and the city again wait while new figures fit.
    assert sum("Alfa Pendular" in line for line in quoted) <= 1


def test_the_summary_of_a_long_conversation_only_quotes_it(trip):
    transcript, summary = trip
    assert all(line[2:] in transcript for line in summary.splitlines() if line.startswith("- "))
    assert check(summary, Sources([(transcript, None)], date(2026, 3, 1))) == []
