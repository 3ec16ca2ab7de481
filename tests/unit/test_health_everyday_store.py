"""Memory health on a realistic store of one person's everyday facts: a profile, patterns,
facts lines, knowledge entries and app memories about a family, pets, schedules, two past
jobs and the current one, tools and diets. Only the conflicts and near-duplicates planted in
it are found: schedules of different events, amounts of different things, other people's
facts and past facts disagree with nothing."""

from __future__ import annotations

from memdesk.services.health import FindingKind

PROFILE = """# Hannah Price

- Lives in Chorlton, Manchester, with her partner Dev and their two children.
- Senior UX researcher at Co-op Digital since 2022.
- Previously a content designer at the BBC (2016–2021).
- Worked as a secondary-school English teacher in Leeds until 2016.
- Grew up in Swansea; Welsh and British.
- Partner: Dev (Devesh) Mistry, a structural engineer at Arup.
- Children: Noah, 9, and Isla, 5.
- Pescatarian. Allergic to penicillin.
- Prefers short, direct answers with a recommendation first.
- Speaks English and some Welsh; reply in English.
"""

PATTERNS = """# How Hannah works

- Deep work from 9:00 to 12:00; no meetings before 12:00 if possible.
- Writes research plans in Notion, then shares a one-page summary in Slack.
- Plans the family week on Sunday evenings with Dev.
- Likes options as a numbered list, three at most.
- Reviews interview notes on Friday afternoons.
- When tired she wants the next single step, not a whole plan.
- Batches errands on Saturday mornings.
"""

FACTS = """# Facts

- Has a dog called Biscuit, a cocker spaniel.
- Cat: Pepper, indoor only.
- Our old cat Mochi died in 2023.
- Noah's football training is on Tuesdays at 17:30.
- Isla's ballet class is on Saturdays at 10:00.
- Noah's swimming lesson is on Thursdays at 16:45.
- School drop-off is at 8:40; pick-up at 15:15.
- Bin collection is every Monday.
- Recycling goes out every other Thursday.
- Runs with the Chorlton running club on Wednesdays at 19:00.
- Yoga on Sunday mornings at the community centre.
- Dev works from home on Mondays and Fridays.
- Grandma June visits every other Sunday.
- Rent is £1,150 a month.
- Grocery budget is £120 a week.
- Noah's pocket money is £3 a week.
- Isla's pocket money is £1 a week.
- Council tax is £142 a month.
- Drives a 2018 Skoda Octavia estate.
- Dev cycles to work on a Brompton.
- Laptop: MacBook Air M2 (work); a ThinkPad at home for the kids.
- Phone: iPhone 13.
- Browser: Firefox, with uBlock Origin.
- Uses VS Code for small scripts.
- Takes notes in Obsidian.
- Bank: Nationwide; joint account with Dev at Monzo.
- Gym: PureGym Chorlton, membership paid annually.
- Dentist: Dr. Patel at Beech Road Dental.
- GP: Dr. Hughes at the Barlow Medical Centre.
- Dev is vegetarian; Isla is dairy-free.
- Drinks oat flat whites in the morning, herbal tea after 15:00.
- No alcohol on weeknights.
- Reading: The Overstory.
- Plays netball on Thursday evenings.
- Gave up running marathons after her knee injury in 2020.
- Used to live in Leeds (2012–2016).
- Worked at the BBC in Salford before Co-op.
- Former manager at the BBC: Claire Dunn.
- Manager: Priya Shah.
- Team: Membership app research.
- Email for school things: hannah.price@example.org
- Mobile: 07700 900461
- Home address: 14 Oswald Road, Manchester M21
- Passport renewed in 2024.
- Car insurance renews in October.
- Mortgage with Nationwide since 2023.
- Works at Co-op Digital as a senior UX researcher.
- Left the BBC in 2021 for Co-op.
- Reports to Priya Shah.
- Dev's manager is Ravi Kapoor.
- Noah's phone is an old iPhone 8.
- Her sister Beth lives in Cardiff.
- My brother Tom works at Google in London.
- Walks Biscuit every morning at 7:00.
- Coffee: oat flat white, no sugar.
- Vegetarian on weekdays, fish at weekends.
- Netball practice moved to Thursdays.
- Dentist check-up moved to Friday 13 March.
- No meetings on Fridays.
- Dev doesn't work on Wednesdays.
- Isla’s swimming is on Saturdays at 9:00.
- The kids' school run is at 8:30 on weekdays.
- School starts at 8:50.
- Office hours are 9:00–17:30, Monday to Friday.
"""

ENTRIES = {
    "kids-school": "Noah and Isla go to Oswald Road Primary; school day ends at 15:15.",
    "isla-ballet": "Isla's ballet teacher is Miss Kerry; the class fee is £6 per session.",
    "noah-football": "Noah plays for Chorlton Juniors under-10s; matches on Sunday mornings at 10:30.",
    "dev-schedule": "Dev's train leaves at 7:45; he is home by 18:30 most days.",
    "grandma-june": "Grandma June (Dev's mum) lives in Stockport and drives over for Sunday lunch.",
    "biscuit-vet": "Biscuit's vet is Chorlton Vets; his booster is due every March.",
    "pepper-food": "Pepper eats grain-free wet food twice a day.",
    "holiday-2026": "Summer holiday booked: Pembrokeshire, 1–8 August 2026, cottage in Solva.",
    "research-ops": "Research ops: recruitment through User Interviews; incentive is £40 per session.",
    "co-op-tools": "At Co-op she uses Dovetail for analysis, Miro for synthesis and Figma for prototypes.",
    "bbc-past": "At the BBC she worked on iPlayer onboarding; her team lead there was Tom Reid.",
    "teaching-past": "Taught English at Roundhay School in Leeds from 2012 to 2016.",
    "half-marathon": "Signed up for the Manchester half marathon in October; training plan starts in June.",
    "allergies": "Penicillin allergy: never suggest amoxicillin.",
    "wifi": "Home broadband is with Community Fibre; the router is in the hall cupboard.",
    "budget-2026": "Savings target is £300 a month towards the kitchen.",
    "kitchen": "Kitchen refit planned for spring 2027; budget for the kitchen is £14,000.",
    "dev-diet": "Dev has been vegetarian since university and doesn't eat eggs.",
    "noah-allergy": "Noah is allergic to peanuts; carries an EpiPen to school.",
    "car-service": "The Skoda is serviced at Kwik Fit Chorlton every autumn.",
    "book-club": "Book club meets on the first Tuesday of the month at 19:30.",
    "choir": "Dev sings in a choir on Wednesdays at 20:00.",
    "swim-fee": "Swimming lessons cost £32 a month, paid by direct debit.",
    "running-shoes": "Running shoes: Saucony Ride 16, bought in January.",
    "home-city": "Lives in Leeds now.",  # planted: conflicts with the profile's Manchester
    "isla-teacher": "Isla's teacher is Miss Kerry; parents' evening is on 12 March at 17:15.",
    "noah-friend": "Noah's best friend is Mateo; Mateo's mum Ana lives on Beech Road.",
    "beth": "Beth (her sister) is a nurse at the Heath hospital and cycles everywhere.",
    "vet-bill": "Biscuit’s vet bill was £240 in January.",
    "rent-history": "Rent went up from £1,100 to £1,150 in September.",
    "work-hours": "Works four days a week; Fridays off since 2024.",
    "gp-phone": "GP surgery phone number is 0161 555 0199; repeat prescriptions online.",
    "school-office": "School office: office@oswaldroad.sch.uk",
    "old-job": "Worked for the BBC 2016–2021, on iPlayer.",
}

APP_MEMORIES = {
    "calendar": [
        "Standup is at 9:30 every weekday.",
        "One-to-one with Priya on Fridays at 14:00.",
        "Isla's ballet class is on Saturdays at 10:00; Dev takes her.",
        "Noah's football training is on Tuesdays at 17:30; bring shin pads.",
        "Keep 15:00–15:30 free on school days for pick-up.",
        "Research readouts are on the last Thursday of the month.",
        "Dentist check-ups every six months.",
        "Team standup is at 10:00 on weekdays.",  # planted: conflicts with 9:30
        "Prefers meetings after 12:00.",
    ],
    "family": [
        "Isla's piano lesson is on Tuesdays at 17:30; keep 17:00–18:30 free.",
        "Isla's school day ends at 15:15; Dev picks her up on Mondays and Wednesdays.",
        "Grandma June's birthday is 3 May.",
        "Noah’s swimming lesson is on Thursdays at 16:45.",
    ],
    "recipes": [
        "Pescatarian household except Dev, who is vegetarian.",
        "Isla is dairy-free: use oat milk.",
        "Noah won't eat mushrooms.",
        "Weeknight dinners under 30 minutes.",
        "Noah is allergic to peanuts.",
    ],
    "fitness": [
        "Runs 5 km on Monday and Wednesday mornings.",
        "Goal: Manchester half marathon in October.",
        "Left knee gets sore on long downhill runs.",
        "Netball on Thursday evenings.",
        "Our dog is Biscuit.",  # planted: the same as the facts line, in other words
        "Yoga every Sunday at 9:00.",
        "Swims on Tuesdays at 7:00 before work.",
        "Stopped going to CrossFit in 2022.",
    ],
    "finance": [
        "Grocery budget is £120 a week.",  # planted: the same as the facts line
        "Pays £50 a month into Noah's junior ISA and £50 into Isla's.",
        "Energy bill is £95 a month.",
        "Phone bill is £18 a month.",
        "Salary is £58,000; Dev's salary is £61,000.",
        "Used to pay £1,050 rent in Leeds.",
    ],
    "travel": [
        "Prefers trains to flights within the UK.",
        "Window seat, quiet coach.",
        "Pembrokeshire holiday 1–8 August 2026.",
        "Has a railcard (Two Together) with Dev.",
    ],
}

# The conflicts and duplicates planted above: (kind, the two texts in either order).
CONFLICT, DUPLICATE = FindingKind.CONFLICT, FindingKind.DUPLICATE
PLANTED = {
    (CONFLICT, frozenset({PROFILE.splitlines()[2][2:], ENTRIES["home-city"]})),
    (CONFLICT, frozenset({"Standup is at 9:30 every weekday.", "Team standup is at 10:00 on weekdays."})),
    (DUPLICATE, frozenset({"Has a dog called Biscuit, a cocker spaniel.", "Our dog is Biscuit."})),
    (DUPLICATE, frozenset({"Manager: Priya Shah.", "Reports to Priya Shah."})),
    (DUPLICATE, frozenset({"Grocery budget is £120 a week."})),
    # the same rent, once with what it was before
    (DUPLICATE, frozenset({"Rent is £1,150 a month.", ENTRIES["rent-history"]})),
    # the same line, once with a typographic apostrophe
    (
        DUPLICATE,
        frozenset(
            {
                "Noah's swimming lesson is on Thursdays at 16:45.",
                "Noah’s swimming lesson is on Thursdays at 16:45.",
            }
        ),
    ),
    # netball's day, stated three times: "on Thursday evenings" is "on Thursdays"
    (DUPLICATE, frozenset({"Plays netball on Thursday evenings.", "Netball on Thursday evenings."})),
    (DUPLICATE, frozenset({"Plays netball on Thursday evenings.", "Netball practice moved to Thursdays."})),
    (DUPLICATE, frozenset({"Netball on Thursday evenings.", "Netball practice moved to Thursdays."})),
    # her diet, stated in two places
    (
        DUPLICATE,
        frozenset(
            {"Pescatarian. Allergic to penicillin.", "Pescatarian household except Dev, who is vegetarian."}
        ),
    ),
}


def _store(app) -> None:
    app.documents.set("user/profile", PROFILE)
    app.documents.set("user/patterns", PATTERNS)
    app.documents.set("user/facts", FACTS)
    for key, text in ENTRIES.items():
        app.entries.upsert(key, text, "knowledge")
    for app_id, memories in APP_MEMORIES.items():
        for text in memories:
            app.apps.add(app_id, text)


def test_only_the_planted_conflicts_and_duplicates_are_found(memdesk_app):
    _store(memdesk_app)
    lines = [line for doc in (PROFILE, PATTERNS, FACTS) for line in doc.splitlines() if line.startswith("- ")]
    assert len(lines) + len(ENTRIES) + sum(map(len, APP_MEMORIES.values())) > 100
    for app_id, memories in APP_MEMORIES.items():  # each app within the cap: none went to Trash
        assert len(memdesk_app.apps.memories(app_id)) == len(memories), app_id
    found = {
        (finding.kind, frozenset({finding.first.text, finding.second.text}))
        for finding in memdesk_app.health.findings()
    }
    assert found == PLANTED, sorted(found - PLANTED, key=str)
