"""Offline fact changes, precision first: a change is pre-accepted only when the rules are
sure of the whole edit; otherwise it is a suggestion, or the statement is added and Memory
health lists the conflict.
"""

from datetime import datetime

import pytest

from memdesk.core.dates import annotate
from memdesk.llm.changes import Edit, Known, offline_changes, said_in

SAID = datetime(2026, 2, 20, 18, 0)
PROFILE = [
    "- Product designer at Northwind Studio, leads the mobile app team (six people).",
    "- Lives in Lisbon (UTC+0 in winter, UTC+1 in summer); grew up in Uppsala, Sweden.",
    "- Vegetarian. Allergic to cashews.",
]


def edits(stored: list[str], *said: str, where: str = "profile", at: datetime = SAID) -> list[Edit]:
    known = [Known(number, where, "user/profile", text) for number, text in enumerate(stored, 1)]
    turns = [("user", annotate(text, at), at) for text in said]
    return offline_changes(said_in(turns), known)


def changes(found: list[Edit]) -> list[Edit]:
    return [edit for edit in found if edit.action != "add"]


def added(found: list[Edit]) -> list[str]:
    return [edit.text for edit in found if edit.action == "add"]


def test_a_line_of_several_facts_keeps_the_ones_that_did_not_end():
    (edit,) = changes(edits(PROFILE, "Oh and I stopped being vegetarian, I eat fish now."))
    assert (edit.action, edit.target, edit.sure) == ("retire", 3, True)
    assert edit.text == "- Vegetarian (until February 2026). Allergic to cashews."
    assert edit.evidence == "Oh and I stopped being vegetarian, I eat fish now."


def test_an_old_employer_inside_a_longer_name_is_marked_past_never_pieced_with_the_new_one():
    found = edits(
        PROFILE,
        "I accepted the offer from Farfetch, I start as design director there on Monday. "
        "Last day at Northwind was Friday.",
    )
    (edit,) = changes(found)
    assert (edit.target, edit.sure) == (1, False)
    assert edit.text == (
        "- Product designer at Northwind Studio (until February 2026), "
        "leads the mobile app team (six people)."
    )
    assert edit.why.startswith("May be out of date: “- Product designer at Northwind Studio")
    # what the person said is kept in their words
    assert added(found) == [
        "I accepted the offer from Farfetch, I start as design director there on Monday.",
        "Last day at Northwind was Friday.",
    ]


def test_a_text_about_the_old_employer_stays_as_it_is():
    said = "Last day at Northwind was Friday, I work at Farfetch now."
    entry = "Northwind's design tokens live in the `ds-tokens` repository; colours are named by role."
    assert changes(edits([entry], said, where="entry")) == []
    assert changes(edits(["- Northwind's design tokens live in the ds-tokens repository."], said)) == []
    # a name before what it belongs to is only suggested as past, never rewritten
    (edit,) = changes(
        edits(["Lunch with the Todoist team on Fridays."], "I stopped using Todoist, it's all Notion now.")
    )
    assert (edit.action, edit.sure) == ("retire", False) and "Notion" not in edit.text


def test_a_new_employer_with_a_new_role_is_only_suggested_where_the_old_role_cannot_be_read():
    said = "I accepted the offer from Farfetch, I start as design director there on Monday."
    (edit,) = changes(edits(["- Works at Northwind."], said))
    assert (edit.text, edit.sure) == ("- Works at Farfetch.", False)
    assert edit.why == f"May be out of date: “- Works at Northwind.” — the person said: “{said}”"
    # the statement is added too, so a run that applies only what is sure loses nothing
    assert added(edits(["- Works at Northwind."], said)) == [said]
    # a role the rules read is replaced with the employer, for sure
    (edit,) = changes(
        edits(
            ["Works for Acme as a support agent"], "I left Acme and started at Borealis as a product owner."
        )
    )
    assert (edit.text, edit.sure) == ("Works for Borealis as a product owner", True)


@pytest.mark.parametrize(
    ("said", "at"),
    [
        ("Also we're moving to Porto in March, Tomás got a job at the university there.", SAID),
        ("We're moving to Porto in March.", datetime(2026, 11, 2, 9, 0)),  # next March
        ("We're moving to Porto next summer.", SAID),
        ("We're moving to Porto next month.", SAID),
    ],
)
def test_a_plan_or_a_later_date_never_changes_the_current_fact(said, at):
    found = edits(PROFILE, said, at=at)
    assert changes(found) == []
    (dated,) = [edit for edit in found if edit.action == "add"]
    assert dated.text.startswith(said.rstrip(".")) and "holds until then" in dated.why


def test_a_month_gone_by_dates_a_change_that_happened():
    (edit,) = changes(edits(PROFILE, "We moved to Porto in January, finally.", at=datetime(2026, 3, 2)))
    assert edit.text.startswith("- Lives in Porto") and edit.sure


@pytest.mark.parametrize(
    "said",
    [
        "Should I move to Porto?",
        "My brother just moved to Porto, he loves it.",
        "We might move to Porto next year.",
    ],
)
def test_a_question_someone_else_s_news_or_a_supposition_changes_nothing(said):
    assert changes(edits(PROFILE, said)) == []


@pytest.mark.parametrize(
    "said",
    [
        "Mudámos para o Porto no mês passado, já não vivemos em Lisboa.",
        "Wir sind jetzt in Porto, nicht mehr in Lissabon. Ich arbeite jetzt bei Farfetch.",
    ],
)
def test_another_language_rewrites_nothing_offline(said):
    stored = [*PROFILE, "- Gym: Fitness Hut Alcântara"]
    assert [edit for edit in changes(edits(stored, said)) if edit.sure] == []


def test_a_stored_value_followed_by_another_fact_is_not_rewritten_but_named_as_a_conflict():
    stored = ["- Gym: Fitness Hut Alcântara, membership renews every April."]
    found = edits(stored, "And I switched gyms, I go to Solinca now.", where="facts")
    assert changes(found) == []
    (addition,) = [edit for edit in found if edit.action == "add"]
    assert addition.text == "And I switched gyms, I go to Solinca now."
    assert addition.conflict.endswith("“- Gym: Fitness Hut Alcântara, membership renews every April.”")


def test_a_value_the_rules_read_alone_in_a_line_is_replaced_for_sure():
    (edit,) = changes(edits(["- Gym: Fitness Hut Alcântara"], "I switched gyms, I go to Solinca now."))
    assert (edit.text, edit.sure) == ("- Gym: Solinca", True)


def test_a_value_that_ends_a_line_of_one_clause_is_replaced_and_one_inside_it_marked_past():
    (edit,) = changes(
        edits(["- Allergic to peanuts"], "Correction: it's tree nuts I'm allergic to, not peanuts.")
    )
    assert (edit.text, edit.sure) == ("- Allergic to tree nuts", True)
    found = edits(["- Takes iron supplements"], "I take vitamin D now instead of iron.")
    (edit,) = changes(found)
    assert (edit.text, edit.sure) == ("- Takes iron supplements (until February 2026)", False)
    assert added(found) == ["I take vitamin D now instead of iron."]


def test_a_relative_s_line_and_a_third_person_s_news_are_not_the_person_s():
    stored = ["- Lives in Lisbon", "- Sister Zanele lives in Durban", "- Best friend Awa still lives in Lyon"]
    (edit,) = changes(edits(stored, "No, we're in Porto now, moved in over the long weekend."))
    assert (edit.target, edit.text) == (1, "- Lives in Porto")
    assert changes(edits(["- Drives a 2015 Toyota Yaris"], "megs just sent pics of her new tesla lol")) == []
    said = "Marta finally moved, their new flat in Alvalade is gorgeous."
    assert changes(edits(["- Lives in Porto (Bonfim)"], said)) == []
    # the person as the object before the other's possessive does not make it theirs
    said = "old Mr Osei retired last month so he handed us over to his wife Abena at the same surgery"
    assert changes(edits(["- Wife Grace teaches year 4"], said)) == []


def test_a_correction_rewrites_only_its_sentence_of_a_line():
    said = "just to fix something, it's pistachios I'm allergic to, not cashews."
    (edit,) = changes(edits(PROFILE, said))
    assert (edit.target, edit.text, edit.sure) == (3, "- Vegetarian. Allergic to pistachios.", True)


def test_a_detail_that_ended_never_removes_the_labelled_note_it_closes():
    reminder = "Weekly reminder: Thursday 16:00 pay the crew (3 rapaces) in cash"
    said = "so no more cash, everything with transfer for the papers."
    (edit,) = changes(edits([reminder], said, where="app"))
    assert edit.action == "retire" and edit.text.startswith(reminder + " (until")
    # a value the label opens with is the note's own, and still ends it whole
    (cat,) = changes(edits(["Our cat: Miso"], "Miso passed away last night."))
    assert (cat.action, cat.text, cat.sure) == ("retire", "", True)


def test_a_value_in_a_story_of_one_occasion_is_not_the_usual_one():
    route = "Usual route to Maseru: Mokhotlong – Butha-Buthe – Maseru on the A1, about 5 hours by taxi."
    story = "This week the taxi went round by Thaba-Tseka, rockfalls at the pass. Eish 8 hours, my back!"
    assert changes(edits([route], story, where="app")) == []
    # the same number said as the trip's length now is its new value
    (edit,) = changes(edits([route], "They widened the A1, the taxi is only 4 hours now."))
    assert "about 4 hours by taxi" in edit.text


def test_a_thing_talked_about_is_no_value_of_the_person_s():
    friend = "Evans the coal is an old friend; they argue about football, he supports Porthmadog FC."
    said = "So no more Evans the coal, we used to have a good argument about the football every three weeks."
    assert changes(edits([friend], said, where="entry")) == []
    (edit,) = changes(edits(["- Plays football on Sundays"], "I stopped playing football, my knee is done."))
    assert edit.action == "retire"


def test_an_amount_said_right_after_another_thing_s_name_is_that_thing_s():
    line = "Blood pressure: takes Lisinopril 10 mg every morning; measures in the evening."
    said = "the Lisinopril made me cough all night, now I take Amlodipine 5 mg, also in the morning."
    assert [edit.text for edit in changes(edits([line], said, where="app"))] != [
        line.replace("10 mg", "5 mg")
    ]
    # the same thing's new amount is its new dose, whatever word comes right before it
    (edit,) = changes(edits([line], "the doctor bumped my Lisinopril to 20 mg now.", where="app"))
    assert "Lisinopril 20 mg" in edit.text
    (edit,) = changes(edits([line], "she change dose, now I drink 20 mg, still in morning", where="app"))
    assert "Lisinopril 20 mg" in edit.text


def test_a_new_number_is_not_written_beside_the_old_person_when_another_is_named():
    vet = "Vet for the dog: Dr. Halász Péter, Kalocsa, +36 78 462 115"
    said = (
        "Doctor Halász went to pension. The new vet is Doctor Kovács Anna in Foktő. "
        "Number is +36 30 998 4410."
    )
    assert all(
        "Halász Péter, Kalocsa, +36 30" not in edit.text for edit in changes(edits([vet], said, where="app"))
    )
    # with the same vet named, the new number is theirs
    (edit,) = changes(edits([vet], "Dr. Halász has a new number now: +36 30 998 4410.", where="app"))
    assert edit.text.endswith("+36 30 998 4410")


def test_a_value_the_person_says_stays_is_kept_whatever_else_is_named():
    rent = "Landlord: Mr Feraday; rent £2,150 per month, due on the 1st."
    said = (
        "Mr Feraday has served a notice proposing to increase the rent to £2,300 per month. "
        "I dispute it, and the rent payable remains £2,150 per month as before."
    )
    assert changes(edits([rent], said, where="entry")) == []
    # …in a later message too
    tacos = "The new truck across Commerce St is charging $5.50 for brisket tacos, FIVE FIFTY."
    assert changes(edits(["- Brisket tacos $4.50"], tacos, "No way, mine stay $4.50.")) == []


def test_a_value_marked_past_is_marked_after_its_whole_word():
    transfer = "Auto e-transfer $600/mo to Kyle for NAIT tuition, on the 1st."
    (edit,) = changes(edits([transfer], "kyle done at NAIT. stop the 600 to him", where="app"))
    assert edit.text.startswith("Auto e-transfer $600/mo (until ")


def test_a_year_a_line_is_bounded_by_is_no_number_of_its_own():
    rent = "Standing order: 850 € rent to Mme Kirsch for the flat, on the 1st of each month."
    lease = "Flat: 2 rooms, lease with Mme Kirsch since 2021."
    said = "Because of the index the rent is now 890, from this month already, Mme Kirsch says."
    (edit,) = changes(edits([rent, lease], said, where="app"))
    assert (edit.target, edit.text) == (1, rent.replace("850 €", "890 €"))


def test_a_line_of_one_amount_is_the_things_record_and_ends_with_it():
    loan = "Monthly transfer of 350 € to Caixa Geral for the boat loan, on the 5th."
    (edit,) = changes(
        edits([loan], "I paid the last one of the boat loan. finished, no more transfer.", where="app")
    )
    assert edit.action == "retire" and "(until " in edit.text
