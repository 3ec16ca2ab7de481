"""Offline fact changes leave alone what the conversation did not change: not even a suggestion
(shown in review, where a person might approve it) touches a fact whose value is someone
else's, already past, or only named in passing.
"""

from datetime import datetime

from memdesk.core.dates import annotate
from memdesk.llm.changes import Edit, Known, offline_changes, said_in

SAID = datetime(2026, 3, 2, 18, 0)


def proposed(stored: dict[str, list[str]], *said: str) -> dict[str, str]:
    """The stored lines the person's turns would change, old text to new, suggestions included."""
    known = [
        Known(number, where, f"user/{where}", text)
        for number, (where, text) in enumerate(
            ((where, text) for where, lines in stored.items() for text in lines), 1
        )
    ]
    turns = [("user", annotate(text, SAID), SAID) for text in said]
    found: list[Edit] = offline_changes(said_in(turns), known)
    by_number = {fact.number: fact.text for fact in known}
    return {by_number[edit.target]: edit.text for edit in found if edit.target is not None}


def test_a_label_said_in_another_sentence_or_after_the_value_fills_nothing():
    stored = {
        "profile": ["Mobile: 07700 900 112", "Home phone: 0131 496 0201", "Husband: Callum", "Bank: Halifax"]
    }
    changed = proposed(
        stored,
        "My mobile drowned in the bath so I'm on a new one now: 07700 900 655. "
        "The home phone hasn't changed at all.",
        "Wages now land in Starling, which felt like leaving my husband after twenty years.",
    )
    assert changed["Mobile: 07700 900 112"] == "Mobile: 07700 900 655"
    assert "Home phone: 0131 496 0201" not in changed
    assert "Husband: Callum" not in changed


def test_a_relative_named_with_their_stored_name_keeps_what_follows_theirs():
    stored = {"profile": ["Nephew: Arjun (in Leeds)"], "facts": ["- Car insured with Aviva"]}
    changed = proposed(
        stored,
        "On my nephew Arjun's say-so I moved the car cover to Direct Line instead, starting on the 3rd.",
    )
    assert "Nephew: Arjun (in Leeds)" not in changed


def test_a_fact_that_says_it_is_past_is_never_rewritten():
    stored = {
        "profile": ["Previous employer: Rolls-Royce, Derby (1990-2012)", "Lives: Matlock"],
        "facts": ["- Studied music in York (1984–1987)"],
    }
    changed = proposed(
        stored,
        "To be clear, I left Derby in 2012 and I've been in Matlock since 1995.",
        "I left York for good when the course ended.",
    )
    assert "Previous employer: Rolls-Royce, Derby (1990-2012)" not in changed
    assert "- Studied music in York (1984–1987)" not in changed


def test_a_word_the_stored_fact_itself_puts_before_the_value_is_not_an_ending():
    stored = {"facts": ["- Left hip replaced 2019", "- Cycles 60 km a week"]}
    changed = proposed(stored, "Cutting back to 40 km a week. Cause: left hip, says the surgeon.")
    assert "- Left hip replaced 2019" not in changed


def test_passed_with_an_object_is_no_death():
    stored = {"profile": ["Kids: Amira (9), Idris (5)"]}
    changed = proposed(stored, "Amira has passed Grade 2 piano, so she moves up to Grade 3 now.")
    assert "Kids: Amira (9), Idris (5)" not in changed


def test_a_move_of_a_relative_named_with_what_they_are_to_the_person_is_their_news():
    stored = {"profile": ["Next of kin: Tobias Brandt (brother), +49 151 2345 6789", "Home: Hamburg, Altona"]}
    changed = proposed(stored, "(Tobias relocated to Munich last month; he's too far away to help now.)")
    assert "Home: Hamburg, Altona" not in changed


def test_a_number_in_a_message_quoted_from_someone_else_is_theirs():
    stored = {"profile": ["Phone: +33 6 12 34 56 78"]}
    changed = proposed(
        stored,
        "saw this in the climbing chat:\n\n> Julien: changed phones, old number is gone, "
        "use +33 6 98 76 54 32 from now\n\nadd him to the saturday list pls",
    )
    assert "Phone: +33 6 12 34 56 78" not in changed


def test_anything_in_a_message_forwarded_from_someone_else_is_theirs():
    """Not only a number: a move, a rent or a time on a forwarded line is the sender's news."""
    stored = {
        "profile": ["Lives in Lisbon", "Rent: £1,100 a month"],
        "patterns": ["Gym at 06:30 on weekdays"],
    }
    changed = proposed(
        stored,
        "look what Priya sent:\n\n> Priya: I moved to Porto last week, rent is £950 now\n"
        "> gym is at 07:15 now too\n\nwild right",
    )
    assert changed == {}


def test_an_ended_name_that_describes_another_thing_or_did_a_past_deed_ends_nothing_there():
    stored = {
        "facts": [
            "- Still wears the old Anytime Fitness vest to bed",
            "- Bridge fitted in 2020 by Dr. Moreau",
            "- Nurse Okoro suggested the walking group",
        ],
        "patterns": ["Trains at Anytime Fitness Leith, mornings"],
    }
    changed = proposed(
        stored,
        "cancelled anytime fitness, joined the council gym",
        "Dr. Moreau retired. Nurse Okoro retired.",
    )
    assert "- Still wears the old Anytime Fitness vest to bed" not in changed
    assert "- Bridge fitted in 2020 by Dr. Moreau" not in changed
    assert "- Nurse Okoro suggested the walking group" not in changed
    # the fact about the gym itself is the one the ending is for
    assert "Trains at Anytime Fitness Leith, mornings" in changed
