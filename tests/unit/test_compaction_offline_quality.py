"""What offline compaction writes to a real store: the topic and decisions, absolute dates,
timeline entries recall can rank one by one, lasting facts, and a working memory that
does not wipe out what it does not replace."""

from datetime import datetime, timedelta

from memdesk.llm.offline import OFFLINE_MARK
from memdesk.llm.transcript import dated_turns
from memdesk.services.compaction import ChangeKind, Compaction
from memdesk.services.compaction.carry import CARRIED_HEADING
from memdesk.services.compaction.parts import PART_MAX_CHARS

SESSION = "web:laptop"
EARLIER = (
    "Planning the team offsite in Lisbon (12-13 June, 6 people).\n\n"
    "- Shortlisting venues with a workshop room.\n"
    "- Train tickets to book by Friday."
)


def log(app, clock, role, text, minutes=1, app_id=None):
    clock.now += timedelta(minutes=minutes)
    app.sessions.log(SESSION, role, text, app_id, at=clock.now)


def review_session(app, clock):
    log(app, clock, "user", "Summarise what changed in the checkout flow review yesterday.")
    log(app, clock, "assistant", "Two changes: the address form moves before payment; the promo box is cut.")
    log(app, clock, "user", "Good. Add a note that Marta owns the address form change.")
    log(app, clock, "assistant", "Added to your notes: Marta owns the address form change.")


def change(proposal, kind):
    return [c for c in proposal.changes if c.kind is kind]


def test_the_summary_states_the_topic_and_the_decision(memdesk_app, clock):
    app = memdesk_app
    review_session(app, clock)

    working = change(Compaction(app).propose(SESSION), ChangeKind.REPLACE_WORKING)[0].after

    assert "checkout flow review yesterday (28 February 2026)" in working.split("## Decisions")[0]
    assert "Marta owns the address form change" in working.split("## Decisions")[1]
    assert working.endswith(OFFLINE_MARK)
    assert len(working) <= app.settings.memory.working_memory_max_tokens * 4


def offsite_session(app, clock):
    """Like the example store's telegram:48213: the assistant restates the plan and says what
    it will do."""
    opening = "Can you help me plan the Porto design offsite? It's 19-20 March."
    log(app, clock, "user", opening, app_id="travel")
    log(app, clock, "assistant", "Of course. How many people, and do you need a venue with a workshop room?")
    log(app, clock, "user", "Eight of us. Workshop room yes, and somewhere quiet for the evening.")
    log(app, clock, "assistant", "Noted: 8 people, 19–20 March, workshop room. I'll shortlist three venues.")
    log(app, clock, "user", "Great. Also remind me to book the train tickets by Friday.")
    log(app, clock, "assistant", "I'll remind you on Thursday afternoon to book the Alfa Pendular tickets.")


def test_the_summary_quotes_the_persons_statements_not_a_dialogue(memdesk_app, clock):
    app = memdesk_app
    offsite_session(app, clock)

    proposal = Compaction(app).propose(SESSION)
    working = change(proposal, ChangeKind.REPLACE_WORKING)[0].after
    memory = change(proposal, ChangeKind.ADD_APP_MEMORY)[0].after

    assert working.startswith("## About\n- Can you help me plan the Porto design offsite?\n")
    assert "- Also remind me to book the train tickets by Friday." in working
    # The assistant's reports are left out, but for the one that alone names the train.
    assert "shortlist" not in working
    assert "- I'll remind you on Thursday afternoon to book the Alfa Pendular tickets." in working
    for said in (working, memory):
        assert "User:" not in said and "Assistant:" not in said
    assert "I'll " not in memory
    assert memory == (
        "Noted: 8 people, 19–20 March, workshop room. Also remind me to book the train tickets by Friday."
    )


TRIP = (
    ("user", "Can you help me plan getting from Lisbon to Porto for my cousin's wedding?"),
    ("assistant", "Of course! When do you arrive, and do you mind an early start?"),
    ("user", "I land in Lisbon late on the 5th and the wedding lunch is at one."),
    ("user", "I don't mind an early start."),
    ("assistant", "Then the train is the easiest way: it's faster than the bus and you can work on board."),
    ("user", "I prefer trains anyway, I always get carsick on buses."),
    ("assistant", "I've found you the Alfa Pendular at 08:39 on 6 March from Lisboa Oriente."),
    ("user", "How much is a ticket?"),
    ("assistant", "Second class is €31.20."),
    ("user", "I'd rather not pay for first class, second is fine."),
    ("user", "Should I book now or wait for a sale?"),
    ("assistant", "Would you like a reminder to book it this week? Prices rarely drop closer to the date."),
    ("user", "Yes please, remind me to book it by Friday."),
    ("user", "I also need to buy a present, I never know what to get for weddings."),
    ("assistant", "A gift from their registry is always safe; otherwise something for the home works well."),
    ("user", "I don't like giving cash, it feels impersonal."),
    ("user", "I'd rather find something handmade from a local shop in Porto."),
    ("assistant", "Would you like some shops near the station? There are good ones in Rua das Flores."),
    ("user", "Maybe later, I need to pack first and find my suit."),
    ("user", "I usually forget my charger, so remind me about that too."),
    ("assistant", "Should I add the charger to your packing list, next to the suit and the present?"),
    ("user", "Yes, and I have to check whether the hotel has an iron."),
)


def test_the_summary_of_a_trip_keeps_the_train_the_date_and_the_price(memdesk_app, clock):
    """The train and its date are only in the assistant's report of what it found, and the
    price in a three-word answer; preferences, questions and to-dos compete for the room."""
    app = memdesk_app
    for role, text in TRIP:
        log(app, clock, role, text)

    proposal = Compaction(app).propose(SESSION)
    working = change(proposal, ChangeKind.REPLACE_WORKING)[0].after
    (timeline,) = change(proposal, ChangeKind.ADD_TIMELINE)

    for summary in (working, timeline.after):
        assert "Alfa Pendular at 08:39 on 6 March" in summary
        assert "- Second class is €31.20." in summary
        assert len(summary) < sum(len(text) for _role, text in TRIP)  # a summary, not the lot
    # Quoted, not written: every line is a sentence of the conversation (its relative dates
    # made absolute, as compaction reads it), and the check agrees.
    messages = app.sessions.messages(SESSION)
    said = " ".join(text for _role, text in dated_turns((m.role, m.content, m.created_at) for m in messages))
    assert all(line[2:] in said for line in working.splitlines() if line.startswith("- "))
    assert not any(c.ungrounded or c.suspicious for c in proposal.changes)


def test_a_richer_working_memory_is_merged_not_lost(memdesk_app, clock):
    app = memdesk_app
    app.working.write(EARLIER)
    review_session(app, clock)

    Compaction(app).compact(SESSION)

    working = app.working.state().content
    assert working.index("Marta owns") < working.index("Lisbon")  # the new summary first
    for line in EARLIER.splitlines():
        assert line.strip("- ") in working
    assert working.endswith(OFFLINE_MARK)


def test_a_line_whose_words_are_said_again_but_not_its_train_and_date_is_carried(memdesk_app, clock):
    app = memdesk_app
    app.working.write("Porto offsite.\n\n- Train tickets (Alfa Pendular) to book by Friday 6 March.")
    log(app, clock, "user", "Can you help me plan the Porto design offsite? It's 19-20 March.")
    log(app, clock, "user", "Also remind me to book the train tickets by Friday.")

    Compaction(app).compact(SESSION)

    working = app.working.state().content
    assert "- Train tickets (Alfa Pendular) to book by Friday 6 March." in working.split(CARRIED_HEADING)[1]
    assert "- Porto offsite." not in working  # said again, and nothing more in it


def test_an_expired_working_memory_is_not_carried(memdesk_app, clock):
    app = memdesk_app
    app.working.write(EARLIER)
    clock.now += timedelta(days=30)
    review_session(app, clock)

    Compaction(app).compact(SESSION)

    assert "Lisbon" not in app.working.state().content


def test_relative_dates_become_absolute_from_the_message_time(memdesk_app, clock):
    app = memdesk_app
    clock.now = datetime(2023, 5, 8, 13, 0)
    log(app, clock, "user", "I ran the Bristol half marathon last Saturday in 1:52, my best time so far.")
    log(app, clock, "assistant", "Congratulations on the Bristol half marathon!")

    Compaction(app).compact(SESSION)

    (entry,) = app.entries.list("timeline")
    assert entry.content.startswith("[2023-05-08 13:02] ")
    assert "last Saturday (6 May 2023)" in entry.content


def test_each_part_of_a_long_session_is_its_own_dated_timeline_entry(memdesk_app, clock):
    app = memdesk_app
    clock.now = datetime(2026, 3, 2, 9, 0)
    log(app, clock, "user", "I'm repainting the spare bedroom in Farrow green this weekend.")
    log(app, clock, "assistant", "Two coats of Farrow green on plaster need a mist coat first.")
    # Lunch, then a different topic.
    log(app, clock, "user", "I'm booking the Oslo conference trip for the Kubernetes summit.", minutes=120)
    log(app, clock, "assistant", "Flights to Oslo on Tuesday morning are the cheapest, about 140 euros.")

    Compaction(app).compact(SESSION)

    entries = sorted(app.entries.list("timeline"), key=lambda e: e.content)
    assert [e.content[:18] for e in entries] == ["[2026-03-02 09:02]", "[2026-03-02 11:03]"]
    assert "Farrow" in entries[0].content and "Oslo" not in entries[0].content
    hits = app.recall.entries("Oslo conference flights", limit=1)
    assert "Kubernetes summit" in hits[0].text and "Farrow" not in hits[0].text


def test_a_long_sitting_is_cut_into_parts(memdesk_app, clock):
    app = memdesk_app
    for number in range(2 * PART_MAX_CHARS // 90 + 1):
        log(app, clock, "user", f"Item {number}: the Glasgow warehouse stock count was {number * 7} boxes.")

    proposal = Compaction(app).propose(SESSION)

    assert len(change(proposal, ChangeKind.ADD_TIMELINE)) >= 2


def test_facts_are_lasting_first_person_statements_not_repeated(memdesk_app, clock):
    app = memdesk_app
    app.documents.set("user/facts", "- I work as a nurse in Leeds")
    log(app, clock, "user", "I work as a nurse in Leeds. My daughter Ava is 7. I'm tired today.")
    log(app, clock, "assistant", "I love that Ava is learning the violin.")

    Compaction(app).compact(SESSION)

    assert app.documents.text("user/facts") == "- I work as a nurse in Leeds\n- My daughter Ava is 7."
