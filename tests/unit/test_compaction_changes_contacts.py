"""Offline fact changes write a new phone number, e-mail or postal address only over the
person's own current line of the kind the sentence names: never over someone else's line, a
line of the past, a line about something else that merely holds a contact, or a line the
person says did not change; and when several of the person's lines of the kind are left and
the sentence names none, over none of them. Suggestions count: a person approving every change
shown in review must not lose a line either.
"""

from datetime import datetime

from memdesk.core.dates import annotate
from memdesk.llm.changes import Edit, Known, offline_changes, said_in

SAID = datetime(2026, 4, 7, 19, 30)

PHONES = [
    "Landline: 0161 496 0300",
    "Mobile: 07700 900 410",
    "Brother Callum's number: 07700 900 522",
    "- Old work mobile 07700 900 633 (disconnected 2022)",
]


def proposed(stored: list[str], *turns: str) -> tuple[dict[str, str], list[str]]:
    """The stored lines the turns would change (old text to new, suggestions included), and
    the statements added as said."""
    known = [Known(number, "profile", "user/profile", text) for number, text in enumerate(stored, 1)]
    said = said_in([("user", annotate(text, SAID), SAID) for text in turns])
    found: list[Edit] = offline_changes(said, known)
    by_number = {fact.number: fact.text for fact in known}
    changed = {by_number[edit.target]: edit.text for edit in found if edit.target is not None}
    return changed, [edit.text for edit in found if edit.action == "add"]


def test_the_line_of_the_kind_said_changes_and_no_other():
    changed, _added = proposed(PHONES, "BT swapped our house phone over to fibre, it's 0161 496 0987 now.")
    assert changed == {"Landline: 0161 496 0300": "Landline: 0161 496 0987"}
    changed, _added = proposed(PHONES, "New sim today, my cell is 07700 900 744.")
    assert changed == {"Mobile: 07700 900 410": "Mobile: 07700 900 744"}


def test_a_line_the_person_says_did_not_change_is_left_alone():
    # the label in a negated clause is a reason not to touch it, not to pick it
    changed, added = proposed(PHONES, "Got a new mobile, 07700 900 855, but the landline hasn't changed.")
    assert changed == {"Mobile: 07700 900 410": "Mobile: 07700 900 855"}
    stored = ["Home phone: 0161 496 0300", "Email: kit@example.org"]
    changed, added = proposed(stored, "got a new mobile: 07700 900 966. home phone is still the same")
    assert changed == {}
    assert added == ["got a new mobile: 07700 900 966."]
    # "mine" said unchanged keeps every line of the person's
    changed, _added = proposed(PHONES, "Tayo is on a new mob, 07700 900 466. Mine's not changed tho.")
    assert changed == {}


def test_a_relative_s_line_is_theirs_and_the_person_s_line_is_not_changed_by_their_news():
    # the person's new number is not the brother's
    changed, _added = proposed(PHONES, "I'm on a new mobile number: 07700 900 177.")
    assert "Brother Callum's number: 07700 900 522" not in changed
    # the brother's new number goes over his line, when the message names him, and nowhere else
    changed, _added = proposed(
        PHONES, "Callum dropped his phone in the canal. New one from the shop: 07700 900 288."
    )
    assert changed == {"Brother Callum's number: 07700 900 522": "Brother Callum's number: 07700 900 288"}
    # someone else's number said by what they are to the person, or as the sentence's subject
    for said in (
        "My flatmate Priya switched networks, she's on 07700 900 399 now.",
        "She's changed to 07700 900 399, finally on contract.",
        "ring my aunt on 07700 900 399 if I'm not answering",
    ):
        changed, _added = proposed(PHONES, said)
        assert changed == {}, said


def test_a_line_of_the_past_is_never_rewritten():
    stored = ["- Old work mobile 07700 900 633 (disconnected 2022)", "- Former address: 9 Tay Street, Perth"]
    changed, _added = proposed(
        stored, "My work mobile is now 07700 900 644.", "New address is 5 Kirk Wynd, Perth."
    )
    assert changed == {}


def test_a_line_about_something_else_that_holds_a_contact_is_not_rewritten():
    stored = [
        "Home phone: 0161 496 0300",
        "- Complaint 44-B raised with the council about noise, callback promised on 0161 496 0300",
        "- Monthly outgoings: council tax £140, broadband £32, ClimbHub £45",
        "- Climbing: ClimbHub on Tuesdays",
    ]
    changed, _added = proposed(stored, "The house phone number moved to 0161 496 0411.")
    assert changed == {"Home phone: 0161 496 0300": "Home phone: 0161 496 0411"}
    changed, _added = proposed(stored, "Cancelled ClimbHub.")
    assert "- Monthly outgoings: council tax £140, broadband £32, ClimbHub £45" not in changed


def test_several_lines_of_the_kind_and_none_named_is_neither_changed_nor_suggested():
    stored = ["Work e-mail: kit@firm.example", "Personal e-mail: kit@mail.example"]
    changed, added = proposed(stored, "Changed email, it's kit.new@post.example now.")
    assert changed == {}
    assert added == ["Changed email, it's kit.new@post.example now."]
    # named, only the one of that kind
    changed, _added = proposed(stored, "Work moved us all to kit@group.example after the merger.")
    assert changed == {"Work e-mail: kit@firm.example": "Work e-mail: kit@group.example"}
    # the only own line of its kind needs no name
    changed, _added = proposed(stored[:1], "Changed email, it's kit@firm2.example now.")
    assert changed == {"Work e-mail: kit@firm.example": "Work e-mail: kit@firm2.example"}


def test_a_day_said_with_since_is_when_a_change_happened_not_a_new_day():
    stored = ["- Dog walker Sam comes Thursday evenings while Jo works late"]
    changed, _added = proposed(stored, "Jo has a new job, on early shifts since Monday, so no late finishes.")
    assert changed == {}


def test_a_relative_named_only_as_unchanged_does_not_make_the_new_address_theirs():
    # no "my" in the sentence ("ma", "the school's switched"), and the mother named only as
    # unchanged: the new address is the person's own work one
    stored = [
        "Personal email: rona@mailbox.example",
        "Work email: r.ott@oldschool.example",
        "Maw's email: isla@mailbox.example",
    ]
    changed, _added = proposed(
        stored,
        "The school's switched everyone to a new domain, so ma work address is r.ott@newschool.example noo. "
        "Personal one's the same, an so's Maw's.",
    )
    assert changed == {"Work email: r.ott@oldschool.example": "Work email: r.ott@newschool.example"}


def test_a_line_that_says_it_ended_in_a_past_year_is_never_rewritten():
    stored = [
        "- Personal e-mail: dee@mailbox.example",
        "- Old Yahoo (dee_77@yahoo.example) cancelled in 2015",
    ]
    changed, _added = proposed(stored, "my mailbox got hacked so I set up dee.home@proton.example instead")
    assert "- Old Yahoo (dee_77@yahoo.example) cancelled in 2015" not in changed


def test_a_friend_the_store_does_not_name_keeps_their_new_number_and_an_initialism_names_no_one():
    stored = ["Mobile: 07700 900 410", "E-mail: r.okafor@example.net"]
    said = "My old flatmate Bartek is off to Gdansk, he texted from a new mobile: 07700 900 812."
    assert proposed(stored, said)[0] == {}
    changed, _added = proposed(stored, "Please note my new mail ID ruth.okafor@example.org for all letters.")
    assert changed == {"E-mail: r.okafor@example.net": "E-mail: ruth.okafor@example.org"}


def test_a_contact_list_line_is_of_the_name_it_opens_with_not_of_whose_relative_they_are():
    contacts = [
        "Lali, Gocha's wife (label printing) — +995 577 12 34 57",
        "Gocha (cork and bottle supplier, Telavi) — +995 577 12 34 56",
    ]
    said = "Gocha call me from new number, old one is broken. new is 551 20 77 84."
    changed, _added = proposed(contacts, said)
    assert changed == {
        "Gocha (cork and bottle supplier, Telavi) — +995 577 12 34 56": (
            "Gocha (cork and bottle supplier, Telavi) — 551 20 77 84"
        )
    }


def test_a_contacts_new_number_said_after_their_name_goes_to_their_line():
    contacts = ["Uche Nnewi (brake pad and clutch supplier) – 0803 412 7789", "Mobile: 07700 900 410"]
    changed, _added = proposed(contacts, "Abeg Uche Nnewi don change him line. New number na 0906 551 2040.")
    assert changed == {
        "Uche Nnewi (brake pad and clutch supplier) – 0803 412 7789": (
            "Uche Nnewi (brake pad and clutch supplier) – 0906 551 2040"
        )
    }
    # the person's own sentence keeps the number theirs, whoever the message names
    changed, _added = proposed(contacts, "I told Uche Nnewi my new number is 07700 900 744.")
    assert changed == {"Mobile: 07700 900 410": "Mobile: 07700 900 744"}


def test_he_changed_the_number_of_the_contact_named_whole_not_of_his_wifes():
    contacts = [
        "Tomás Reis – deckhand on the Gaivota, mobile 917 553 204, lives in Lagoa",
        "Rita Reis (Tomás's wife) – 918 220 644",
    ]
    said = "update Tomás Reis please. he changed the number, the old one got cut off, new one is 936 771 050."
    changed, _added = proposed(contacts, said)
    assert changed == {
        contacts[0]: "Tomás Reis – deckhand on the Gaivota, mobile 936 771 050, lives in Lagoa",
    }
    # her news named with her own name is hers
    changed, _added = proposed(contacts, "Rita Reis got a new phone, her number is 936 771 050.")
    assert changed == {contacts[1]: "Rita Reis (Tomás's wife) – 936 771 050"}
