"""Facts read as slots and values, by family of change, and when two facts disagree."""

import pytest

from memdesk.core.slots import (
    SLOTS,
    Claim,
    asked_slots,
    claims_in,
    conflicting,
    household_names,
    later_claims,
    marked_past,
    normalise,
    says_change,
)


def found(text: str) -> set[tuple[str, str, bool]]:
    return {(claim.slot, claim.value, claim.past) for claim in claims_in(text)}


def test_a_claim_points_at_its_value_in_the_text():
    text = "Lives in Manchester with Tom."
    (claim,) = [c for c in claims_in(text) if c.slot == "home"]
    assert text[slice(*claim.span)] == "Manchester"
    assert claim == Claim("home", "manchester", claim.span, False)


# One statement of each family of change, and what it claims.
FAMILIES: list[tuple[str, set[tuple[str, str, bool]]]] = [
    # moving home
    (
        "We relocated from Lisbon to Porto in the spring.",
        {("home", "lisbon", True), ("home", "porto", False)},
    ),
    ("Just moved to Glasgow with the kids.", {("home", "glasgow", False)}),
    ("She lives in Utrecht and cycles everywhere.", {("home", "utrecht", False)}),
    ("I used to live in Oslo.", {("home", "oslo", True)}),
    ("We moved out of Leipzig last year.", {("home", "leipzig", True)}),
    ("New address: 9 Quay Lane, Falmouth", {("address", "9 quay lane falmouth", False)}),
    # a new job, role or team
    ("Handed in my notice; my last day at Acme is Friday.", {("employer", "acme", True)}),
    (
        "I'm starting at Nordwind next week as a data analyst.",
        {("employer", "nordwind", False), ("role", "data analyst", False)},
    ),
    ("They promoted me to head of support!", set()),
    ("I got promoted to staff engineer.", {("role", "staff engineer", False)}),
    ("I moved over to the Payments team in May.", {("team", "payment", False)}),
    ("My new manager is Felix Braun.", {("manager", "felix braun", False)}),
    # switching from one thing to another
    (
        "Switched from Emacs to Neovim over the holidays.",
        {("editor", "emac", True), ("editor", "neovim", False)},
    ),
    ("I swapped my Corolla for a Polestar 2.", {("", "corolla", True), ("car", "polestar 2", False)}),
    ("Went vegetarian in January.", {("diet", "vegetarian", False)}),
    (
        "Mostly matcha instead of espresso these days.",
        {("drink", "matcha", False), ("drink", "espresso", True)},
    ),
    ("Finally replaced it with a MacBook Air.", {("laptop", "macbook air", False)}),
    # quitting or stopping something
    ("I stopped drinking beer altogether.", {("drink", "beer", True)}),
    ("No more squash for me, my knee can't take it.", {("sport", "squash", True)}),
    ("I cancelled the Netflix subscription.", {("", "netflix", True)}),
    # relationships
    ("Marco and I broke up in the autumn.", {("partner", "marco", True)}),
    ("I've been dating Priya since June.", {("partner", "priya", False)}),
    ("Divorced from Karl two years ago.", {("partner", "karl", True)}),
    # pets and people gone or new
    ("Biscuit passed away on Sunday, we miss him.", {("", "biscuit", True)}),
    ("We adopted a kitten named Mochi.", {("pet", "mochi", False)}),
    ("So four kids now!", {("children", "four", False)}),
    # contact details
    ("My new mobile number is +44 7700 900123.", {("phone_number", "+44 7700 900123", False)}),
    ("Reach me at lena.k@example.org from now on.", {("email", "lena.k@example.org", False)}),
    # corrections
    (
        "Correction: my hometown is Sligo, not Athlone.",
        {("hometown", "sligo", False), ("", "athlone", True)},
    ),
    # a slot named by its label, a role by the word that ends it
    ("Switched my dentist to Dr. Brandt.", {("dentist", "brandt", False)}),
    ("My new manager is Omar Haddad.", {("manager", "omar haddad", False)}),
    ("I'm a principal engineer now.", {("role", "principal engineer", False)}),
    ("I became a Dutch citizen in May.", {("nationality", "dutch", False)}),
    (
        "Moved my savings to Monzo and closed the Lloyds account.",
        {("bank", "monzo", False), ("bank", "lloyd", True)},
    ),
    ("Stopped going to yoga.", {("sport", "yoga", True)}),
    ("I take zinc now instead of iron.", {("", "zinc", False), ("", "iron", True)}),
    # a changed schedule or amount
    ("We pushed the retro to 16:30.", {("time:retro", "16 30", False)}),
    ("Piano lessons are every Monday now.", {("day:piano", "every monday", False)}),
    ("Rent went up to £1,250 a month.", {("amount:rent", "1 250", False)}),
    ("Savings target is 300 USD a week.", {("amount:target saving", "300 usd", False)}),
]


@pytest.mark.parametrize(("text", "expected"), FAMILIES)
def test_families_of_change(text, expected):
    assert expected <= found(text), found(text)


def test_label_lines_fill_their_slot_with_the_whole_value():
    text = "Name: Tove\nEmployer: Lindgren & Co\nPartner: Ruth\n- Dentist: Dr. Amari, High Street"
    assert found(text) >= {
        ("employer", "lindgren co", False),
        ("partner", "ruth", False),
        ("dentist", "amari high street", False),
    }
    assert not any(claim.slot == "name" for claim in claims_in(text))


def test_a_vehicle_line_is_the_car_a_question_about_the_car_asks_for():
    assert ("car", "maruti swift dzire white", False) in found("- Vehicle: Maruti Swift Dzire, white")
    assert asked_slots("Which car do I have?") == {"car"}


def test_a_phone_label_is_a_device_or_a_number_by_its_digits():
    assert ("phone", "pixel 8", False) in found("Phone: Pixel 8")
    assert {c.slot for c in claims_in("Phone: 0161 496 0000")} == {"phone_number"}


@pytest.mark.parametrize(
    "text",
    [
        "Lives in Rome (until March 2026)",
        "Formerly worked at Initech",
        "Partner: Ruth (old)",
        "Was: lives in Rome",
        "~~Works at Initech~~",
    ],
)
def test_marks_of_the_past_make_a_claim_past(text):
    claims = claims_in(text)
    assert claims and all(claim.past for claim in claims), claims


@pytest.mark.parametrize(
    "text",
    [
        "Rome was lovely in the rain today.",
        "Long week at Initech, two releases.",
        "Ruth and I are off to Crete next month.",
        "Lunch with Dr. Amari went well.",
    ],
)
def test_mentioning_a_value_claims_no_change(text):
    assert not [claim for claim in claims_in(text) if claim.past]
    assert not says_change(text)


def test_conflicting_means_same_slot_different_values_both_current():
    rome = claims_in("Lives in Rome")[0]
    milan = claims_in("Lives in Milan")[0]
    old_milan = claims_in("Used to live in Milan")[0]
    assert conflicting(rome, milan)
    assert not conflicting(rome, old_milan)
    assert not conflicting(rome, claims_in("Lives in Rome, near the river")[0])
    # A value that holds the other names the same thing: "Dr. Amari" and "Dr. Amari, High Street".
    assert not conflicting(
        claims_in("Dentist: Dr. Amari")[0], claims_in("Dentist: Dr. Amari, High Street")[0]
    )
    # Unrelated slots never conflict.
    assert not conflicting(rome, claims_in("Works at Initech")[0])


def test_a_new_nationality_joins_the_old_one():
    a = claims_in("Nationality: Irish")[0]
    b = claims_in("My Canadian citizenship was approved.")[0]
    assert (a.slot, b.slot) == ("nationality", "nationality")
    assert not conflicting(a, b)


def test_values_compare_without_case_articles_or_inflection():
    assert normalise("the Thursdays") == normalise("thursday")
    assert normalise("Groceries") == normalise("grocery")
    assert normalise("Dr. Okoro") == "okoro"


def test_every_slot_found_is_documented():
    texts = [
        "Lives in Bristol, works as a nurse at Mercy.",
        "Partner: Ruth\nGym: Flex Fitness\nStandup is at 9:15 every weekday.",
        "Budget for travel is 200 EUR a month. Drinks tea. Uses Vim.",
    ]
    for text in texts:
        for claim in claims_in(text):
            assert claim.slot.split(":")[0] in SLOTS, claim


def test_other_languages_claim_nothing():
    assert claims_in("Ich bin nach Hamburg umgezogen und trinke keinen Kaffee mehr.") == []


@pytest.mark.parametrize(
    ("text", "past"),
    [
        ("Lives in Rome (until March 2026)", True),
        ("Works at Initech until 3 May 2026", True),
        ("Formerly at Initech", True),
        ("Partner: Ruth (old)", True),
        ("~~Uses Vim~~", True),
        ("I used to play the violin as a kid.", False),
        ("Open until late on Fridays.", False),
        ("Lives in Rome", False),
    ],
)
def test_marked_past_reads_the_marks_of_a_fact_kept_as_past(text, past):
    assert marked_past(text) is past


@pytest.mark.parametrize(
    ("question", "slots"),
    [
        ("What car do I have?", {"car"}),
        ("Where do I live these days?", {"home"}),
        ("Who is my dentist?", {"dentist"}),
        ("What's my home address?", {"address", "home"}),
        ("Where am I working these days?", {"employer", "role"}),
        ("Tell me a joke", set()),
    ],
)
def test_asked_slots_are_the_slots_a_question_names(question, slots):
    assert asked_slots(question) == slots


def test_a_relative_or_friend_s_fact_is_not_the_person_s():
    assert claims_in("My sister moved to Valencia last month.") == []
    assert ("home", "valencia", False) in found("My sister and I moved to Valencia last month.")
    assert not [c for c in claims_in("I'm with Tom at the pub now, Lea says hi.") if c.slot == "partner"]
    # A fact written about the person in the third person is still theirs.
    assert ("partner", "sam", False) in found("Lives in Leeds with her partner Sam.")


def _slots(text: str) -> set[str]:
    return {claim.slot for claim in claims_in(text)}


def _conflict(first: str, second: str) -> set[str]:
    """The slots in which the two texts disagree."""
    return {a.slot for a in claims_in(first) for b in claims_in(second) if conflicting(a, b)}


@pytest.mark.parametrize(
    ("text", "slots"),
    [
        ("Elin's violin lesson is on Tuesdays at 17:30.", {"day:elin violin", "time:elin violin"}),
        ("Elin’s school day ends at 16:00.", {"time:elin school end"}),
        ("The kids' school run is at 8:30.", {"time:kid school run"}),
        ("Therapist appointments every other Tuesday.", {"day:therapy"}),
        ("Dev works from home on Mondays and Fridays.", {"day:dev work"}),
        ("Standup at 9:30, retro at 16:00.", {"time:standup", "time:retro"}),
        ("Bin collection is every Monday.", {"day:bin collection"}),
    ],
)
def test_a_schedule_is_named_by_its_event_and_whose_it_is(text, slots):
    assert _slots(text) == slots


@pytest.mark.parametrize(
    "text",
    [
        "Elin's violin lesson is on Tuesdays at 17:30.",
        "Elin’s violin lesson is on Tuesdays at 17:30.",
        "James' piano lesson is at 5pm.",
        "James’ piano lesson is at 5pm.",
        "Elin's allowance is €5 a week.",
        "Tomás’ salary is €61,000.",
        "Pays the kids' swimming fee of £32 a month.",
    ],
)
def test_no_slot_keeps_a_possessive_mark(text):
    slots = _slots(text)
    assert slots and not [slot for slot in slots if "'" in slot or "’" in slot], slots


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # different events, or the same kind of event of different people
        (
            "Elin's violin lesson is on Tuesdays at 17:30; keep 17:00–18:30 free.",
            "Elin's school day ends at 16:00; Tomás picks her up on Mondays and Wednesdays.",
        ),
        ("Noah's swimming lesson is on Thursdays at 16:45.", "Isla’s swimming is on Saturdays at 9:00."),
        ("School starts at 8:50.", "School day ends at 15:15."),
        ("Noah's pocket money is £3 a week.", "Isla's pocket money is £1 a week."),
        ("Salary is £58,000.", "Dev's salary is £61,000."),
        # the same days or times in other words
        ("Standup is every weekday.", "Standup is on weekdays."),
        ("Piano is at 17:30.", "Piano is at 5.30 pm."),
        # a time that bounds something, and days something does not happen
        ("Standup is at 9:30.", "No meetings before 12:00."),
        ("Yoga on Mondays.", "No yoga on Fridays."),
        # several at once: pets, sports, drinks, diets in one household
        ("Has a dog called Biscuit.", "Cat: Pepper, indoor only."),
        ("Plays netball on Thursday evenings.", "Goes running with the club; swims too."),
        ("Drinks coffee every morning.", "Herbal tea after 15:00."),
        ("Pescatarian.", "Dev is vegetarian; Isla is dairy-free."),
        # someone else's home, manager or phone
        ("Lives in Chorlton.", "Grandma June (Dev's mum) lives in Stockport."),
        ("Manager: Priya Shah.", "Dev's manager is Ravi Kapoor."),
        ("Phone: iPhone 13.", "Noah's phone is an old Pixel 6."),
        # a schedule moved to a day is not a move home
        ("Lives in Leeds.", "Netball practice moved to Thursdays."),
        ("Dentist: Dr. Patel.", "Moved the dentist to Friday 13 March."),
        # another time of the same event, said with when it holds
        ("Dinner is at 18:00.", "Dinner at 18:00 on weekdays, 19:00 at weekends."),
        # a parent, an old car, prices of different things, what is paid to whom
        ("Lives in Chorlton.", "Mum lives in Cork; dad passed away in 2018."),
        ("Drives a Skoda Octavia.", "Her old car was a Ford Fiesta."),
        ("Works at Spotify.", "Worked for Klarna 2019–2023."),
        ("Price of a day pass is €25.", "The price of the violin was €400."),
        ("Pays £12 a month to Spotify.", "Pays £30 a month for Netflix."),
        # a place's contact details, and where something is sent
        ("Mobile: 07700 900461", "GP surgery phone number is 0161 555 0199."),
        ("Email: hannah.price@example.org", "School office: office@oswaldroad.sch.uk, 0161 555 0101."),
        ("Email: hannah.price@example.org", "Send invoices to accounts@acme.com."),
        # the children named, not counted
        ("Lives with her partner and their two children.", "Children: Noah, 9, and Isla, 5."),
    ],
)
def test_facts_that_can_both_hold_do_not_conflict(first, second):
    assert _conflict(first, second) == set()


@pytest.mark.parametrize(
    ("first", "second", "slots"),
    [
        ("Standup is at 9:30 every weekday.", "Team standup is at 10:00 on weekdays.", {"time:standup"}),
        ("Piano lessons are on Mondays.", "Piano lessons are on Mondays and Fridays.", {"day:piano"}),
        ("Therapy every other Tuesday.", "Therapy sessions on Tuesdays.", {"day:therapy"}),
        (
            "Therapist appointments every other Tuesday.",
            "My therapy sessions are weekly now, every Thursday.",
            {"day:therapy"},
        ),
        ("Elin's violin lesson is at 17:30.", "Elin’s violin lesson is at 18:00.", {"time:elin violin"}),
        ("Monthly rent: £1,250.", "Rent is £1,150 a month.", {"amount:rent"}),
        ("Kids: 2", "Three children now.", {"children"}),
        ("Email: hannah.price@example.org", "New email: hannah@price.me", {"email"}),
        ("Mobile: 07700 900461", "Changed my number to 07700 900123.", {"phone_number"}),
    ],
)
def test_facts_that_cannot_both_hold_conflict(first, second, slots):
    assert _conflict(first, second) == slots


def test_an_amount_said_to_change_from_one_value_to_another_has_the_old_one_past():
    assert found("Rent went up from £1,100 to £1,150 in September.") == {
        ("amount:rent", "1 100", True),
        ("amount:rent", "1 150", False),
    }


HOUSEHOLD = "Name: Priya\nPartner: Dev (Devesh) Mistry, an engineer at Arup.\nChildren: Noah, 9, and Isla, 5"


def test_the_profile_names_the_household_but_not_the_person():
    assert household_names(HOUSEHOLD) == {"dev", "devesh", "mistry", "noah", "isla"}
    assert household_names("Name: Sam\n- Lives in Leeds with her partner Alex and their dog Pixel.") == {
        "alex",
        "pixel",
    }


def test_a_fact_about_a_named_member_of_the_household_is_theirs():
    others = household_names(HOUSEHOLD)
    mine, theirs = "Drives a 2018 Skoda Octavia.", "Dev drives a Polestar 2."
    assert {
        a.slot for a in claims_in(mine, others) for b in claims_in(theirs, others) if conflicting(a, b)
    } == set()
    # without the profile's names, nothing says who Dev is
    assert _conflict(mine, theirs) == {"car"}


@pytest.mark.parametrize(
    "text",
    ["Priya lives in Paris now.", "Dev and I moved to Paris.", "Lives in Paris now, Isla too."],
)
def test_the_persons_own_facts_still_conflict_with_the_household_named(text):
    others = household_names(HOUSEHOLD)
    assert {
        a.slot
        for a in claims_in("Lives in Leeds.", others)
        for b in claims_in(text, others)
        if conflicting(a, b)
    } == {"home"}


@pytest.mark.parametrize(
    "text",
    [
        "Noah's pocket money goes up to £4 when he turns ten.",
        "From next April the rent will be £1,200.",
        "We're thinking of moving to Paris.",
        "Should I switch to Vim?",
    ],
)
def test_a_supposed_or_later_value_claims_nothing(text):
    assert claims_in(text) == []


def test_a_later_value_is_known_as_later():
    assert [(c.slot, c.value) for c in later_claims("From next April the rent will be £1,200.")] == [
        ("amount:rent", "1 200")
    ]


def test_a_request_states_a_change():
    assert found("Could you answer in English from now on?") == {("reply_language", "english", False)}
