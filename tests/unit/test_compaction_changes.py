"""Compaction finds what a conversation changes in stored facts, offline, by family of change:
each change is a reviewable replacement, applied as one history step that one undo reverts.
"""

from datetime import datetime, timedelta

import pytest

from memdesk.services.compaction import ChangeKind
from memdesk.services.compaction.render import format_proposal
from memdesk.services.prompt import PromptSpec

SESSION = "chat:7"
WRITTEN = datetime(2026, 1, 12, 8, 0)
SAID = datetime(2026, 3, 4, 19, 0)  # a Wednesday


def say(app, clock, *turns, app_id=None):
    clock.now = SAID
    for number, text in enumerate(turns):
        role = "user" if number % 2 == 0 else "assistant"
        app.sessions.log(SESSION, role, text, app_id=app_id, at=SAID + timedelta(seconds=number))


def propose(app):
    return app.compaction.propose(SESSION, backend="offline")


def fact_changes(proposal):
    kinds = {kind for kind in ChangeKind if kind.value.startswith(("update_", "retire_"))}
    return [change for change in proposal.changes if change.kind in kinds]


@pytest.fixture
def app(memdesk_app, clock):
    clock.now = WRITTEN
    return memdesk_app


@pytest.mark.parametrize(
    ("stored", "said", "after"),
    [
        # moving home, dated from "last month"
        (
            "Lives in Norwich with Jo.",
            "We relocated to Exeter last month.",
            "Lives in Exeter (since February 2026) with Jo.",
        ),
        # a new job and role at once
        (
            "Works for Acme as a support agent",
            "I left Acme and started at Borealis as a product owner.",
            "Works for Borealis as a product owner",
        ),
        # switching tools
        ("Edits code in Emacs", "I switched from Emacs to Helix over the winter.", "Edits code in Helix"),
        # a diet
        ("Eats a vegetarian diet", "Went fully vegan after the new year.", "Eats a vegan diet"),
        # a relationship ending and another starting
        ("Partner: Tomasz", "Tomasz and I split up. I'm dating Lior now.", "Partner: Lior"),
        # a correction
        ("Hometown: Leiden", "Correction: my hometown is Delft, not Leiden.", "Hometown: Delft"),
        # a changed schedule
        (
            "Choir practice is at 19:00 on Tuesdays.",
            "They moved choir practice to 19:45.",
            "Choir practice is at 19:45 on Tuesdays.",
        ),
        # a changed amount
        ("Rent is 900 GBP a month.", "Our rent went up to 975 GBP now.", "Rent is 975 GBP a month."),
        # new contact details
        (
            "Email: sam@old.example",
            "My new email is sam@new.example, please use that.",
            "Email: sam@new.example",
        ),
    ],
)
@pytest.mark.engines("sqlite")  # what the rules read in the words; applying runs on both engines below
def test_each_family_updates_the_profile_line_it_changes(app, clock, stored, said, after):
    app.documents.set("user/profile", f"Name: Sam\n{stored}")
    say(app, clock, said, "Noted.")

    (change,) = fact_changes(propose(app))

    assert (change.kind, change.target, change.before, change.after) == (
        ChangeKind.UPDATE_LINE,
        "user/profile",
        stored,
        after,
    )
    assert said.split(".")[0] in change.reason


def test_a_quit_habit_is_replaced_by_what_followed_it_in_the_facts(app, clock):
    app.documents.set("user/facts", "- Drinks espresso after lunch\n- Likes hiking")
    say(app, clock, "Gave up espresso, it's green tea instead now.", "Good call.")

    proposal = propose(app)
    (change,) = fact_changes(proposal)
    assert change.after == "- Drinks green tea after lunch"
    # The statement that made the change is not added to the facts as well.
    assert not [c for c in proposal.changes if c.kind is ChangeKind.APPEND_FACTS]
    text = format_proposal(proposal)
    assert "  - - Drinks espresso after lunch" in text and "  + - Drinks green tea after lunch" in text


def test_a_pet_gone_retires_its_entry_to_trash_and_undo_brings_it_back_exactly(app, clock):
    app.entries.upsert("pet", "Our cat: Miso, a grey tabby.", "knowledge")
    say(app, clock, "Miso passed away on Sunday, we buried her in the garden.", "I'm so sorry.")

    proposal = propose(app)
    (change,) = fact_changes(proposal)
    assert (change.kind, change.after) == (ChangeKind.RETIRE_ENTRY, "")
    step = app.compaction.apply(proposal)
    assert [item.label for item in app.trash.list()] == ["knowledge pet"]

    app.history.undo(step)
    assert app.entries.get("pet").content == "Our cat: Miso, a grey tabby."


def test_an_app_memory_is_updated_and_one_undo_restores_it(app, clock):
    memory = app.apps.add("work", "Retro is every other Friday.").memory
    say(app, clock, "Retros are every Monday now.", "Updated.", app_id="work")

    proposal = propose(app)
    (change,) = fact_changes(proposal)
    assert (change.kind, change.memory_id, change.after) == (
        ChangeKind.UPDATE_MEMORY,
        memory.id,
        "Retro is every Monday.",
    )
    step = app.compaction.apply(proposal)
    assert app.apps.get(memory.id).content == "Retro is every Monday."
    app.history.undo(step)
    assert app.apps.get(memory.id).content == "Retro is every other Friday."


def test_an_ended_part_of_a_line_is_marked_past_and_the_rest_kept(app, clock):
    app.documents.set("user/profile", "Lives in Graz, works at Voestalpine.")
    say(app, clock, "My last day at Voestalpine was yesterday.", "Congratulations on the next step.")

    (change,) = fact_changes(propose(app))
    assert change.after == "Lives in Graz, works at Voestalpine (until 3 March 2026)."


def test_a_line_that_only_held_what_ended_is_removed(app, clock):
    app.documents.set("user/facts", "- Plays squash on Thursdays\n- Has a bike")
    say(app, clock, "I quit squash, my knee can't take it any more.", "Take care.")

    proposal = propose(app)
    (change,) = fact_changes(proposal)
    assert (change.kind, change.after) == (ChangeKind.RETIRE_LINE, "")
    app.compaction.apply(proposal)
    assert app.documents.text("user/facts") == "- Has a bike"


def test_mentioning_a_stored_fact_changes_nothing(app, clock):
    app.documents.set("user/profile", "Lives in Graz, works at Voestalpine.")
    app.entries.upsert("dentist", "Dentist: Dr. Ferreira on Elm Street.", "knowledge")
    say(app, clock, "Graz was sunny today. Saw Dr. Ferreira, all fine.", "Good.")

    assert fact_changes(propose(app)) == []


def test_a_statement_of_change_that_touches_nothing_is_added_to_the_facts(app, clock):
    say(app, clock, "We moved to Tromsø in January.", "Brr!")

    proposal = propose(app)
    (append,) = [c for c in proposal.changes if c.kind is ChangeKind.APPEND_FACTS]
    assert "We moved to Tromsø in January." in append.after


def test_an_amount_from_a_later_date_is_added_as_a_dated_fact_and_the_current_one_stays(app, clock):
    app.entries.upsert("rent", "Rent is £1,100 a month.", "knowledge")
    say(app, clock, "The letting agent wrote: from next April the rent will be £1,200.", "Noted.")

    proposal = propose(app)
    assert fact_changes(proposal) == []
    (append,) = [c for c in proposal.changes if c.kind is ChangeKind.APPEND_FACTS]
    assert "from next April the rent will be £1,200. (said in March 2026)" in append.after


def test_a_household_member_s_change_is_theirs_not_the_person_s(app, clock):
    app.documents.set("user/profile", "Name: Priya\nPartner: Dev\nDrives a 2018 Skoda Octavia.")
    say(app, clock, "Dev traded his Golf for a Polestar 2 last week.", "Nice!")
    assert fact_changes(propose(app)) == []


def test_the_person_s_own_change_by_name_is_still_theirs(app, clock):
    app.documents.set("user/profile", "Name: Priya\nPartner: Dev\nLives in Leeds.")
    say(app, clock, "Priya lives in Paris now, Dev is joining her in May.", "Exciting!")
    (change,) = fact_changes(propose(app))
    assert change.after == "Lives in Paris."


@pytest.mark.parametrize(
    ("said", "after"),
    [
        ("I also started drinking green tea in the evenings.", None),
        ("I quit coffee, only tea now.", "Drinks tea every morning"),
        ("Switched to tea in the mornings.", "Drinks tea every morning"),
    ],
)
@pytest.mark.engines("sqlite")  # what the rules read in the words; applying runs on both engines below
def test_a_slot_of_several_values_gains_one_unless_it_replaced_another(app, clock, said, after):
    app.documents.set("user/facts", "- Drinks coffee every morning")
    say(app, clock, said, "Okay.")
    changes = fact_changes(propose(app))
    assert [change.after.removeprefix("- ") for change in changes] == ([after] if after else [])


def test_a_conversation_that_contradicts_itself_keeps_the_last_statement_and_says_so(app, clock):
    app.documents.set("user/profile", "Lives in Porto.")
    say(
        app,
        clock,
        "We moved to Braga.",
        "Nice.",
        "Sorry, I misspoke: we moved to Coimbra, not Braga.",
        "Got it.",
    )

    (change,) = fact_changes(propose(app))
    assert change.after == "Lives in Coimbra."
    assert "the last statement wins" in change.reason


def test_a_target_changed_before_apply_refuses_only_that_change(app, clock):
    app.documents.set("user/profile", "Lives in Porto.")
    app.entries.upsert("gym", "Gym: FitHub Centro.", "knowledge")
    say(app, clock, "We moved to Braga. Cancelled FitHub, joined Atlas Gym instead.", "Noted.")
    proposal = propose(app)
    assert len(fact_changes(proposal)) == 2

    app.entries.upsert("gym", "Gym: FitHub Centro (pool on Fridays).", "knowledge")
    app.compaction.apply(proposal)

    assert app.documents.text("user/profile") == "Lives in Braga."
    assert app.entries.get("gym").content == "Gym: FitHub Centro (pool on Fridays)."
    assert proposal.refused == [
        "Not applied: “Update knowledge entry gym”: entry gym was edited after the proposal was made."
    ]


def test_facts_in_other_languages_retire_nothing(app, clock):
    app.documents.set("user/facts", "- Wohnt in Hamburg\n- Trinkt Kaffee")
    say(app, clock, "Ich bin nach Köln umgezogen und trinke keinen Kaffee mehr.", "Alles klar.")

    proposal = propose(app)
    assert fact_changes(proposal) == []
    app.compaction.apply(proposal)
    assert app.documents.text("user/facts").startswith("- Wohnt in Hamburg\n- Trinkt Kaffee")


def test_after_the_update_the_prompt_states_the_new_fact_not_the_old(app, clock):
    app.documents.set("user/profile", "Name: Priya\nLives in Leeds with her partner Sam.")
    say(app, clock, "Finally unpacked the last boxes, we moved to Bristol two weeks ago.", "Welcome!")
    app.compaction.compact(SESSION, backend="offline")

    clock.now = SAID + timedelta(weeks=6)
    prompt = app.prompt.compose(PromptSpec(message="Where does Priya live now?")).text
    assert "Lives in Bristol (since the week of 16 February 2026) with her partner Sam." in prompt
    assert "Leeds" not in prompt


def test_an_entry_filed_under_a_slot_s_name_is_found_by_its_key(app, clock):
    # Nothing of the new address is in the old one: the key says what the entry holds.
    app.entries.upsert("address", "Address: 1 Oak Road, Leeds.", "knowledge")
    say(app, clock, "We moved house, my new address is 5 Rose Lane, York.", "Noted.")

    (change,) = fact_changes(propose(app))
    assert (change.kind, change.after) == (ChangeKind.UPDATE_ENTRY, "Address: 5 Rose Lane, York.")


def test_an_ended_value_that_describes_a_thing_marks_the_clause_and_leaves_a_note_about_it(app, clock):
    app.documents.set(
        "user/facts", "- Plays in company basketball team, Thursdays 19:00\n- Drinks coffee black"
    )
    app.entries.upsert(
        "company_team", "Baltic Longhaul basketball team, captain Darius, Thursdays 19:00", "knowledge"
    )
    say(app, clock, "Quit basketball. Knee. Team plays without me, Darius is captain now.", "Take care.")

    (change,) = fact_changes(propose(app))
    assert change.after == "- Plays in company basketball team (until March 2026), Thursdays 19:00"


def test_the_person_s_i_is_no_name_of_a_husband(app, clock):
    app.documents.set("user/facts", "- Husband Salvatore was lost at sea in 2009")
    say(app, clock, "A boy! They call him Salvatore like my husband, I cry so much.", "Congratulations!")

    assert fact_changes(propose(app)) == []
