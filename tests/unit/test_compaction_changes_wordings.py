"""Changes in wordings, people and values of their own, one conversation each, through the
whole pipeline: offline compaction with every change applied, then the prompt six weeks on.
The new value must be in the prompt, and a mere mention must change no stored fact.
"""

from datetime import datetime

import pytest

from memdesk.services.prompt import PromptSpec

WRITTEN = datetime(2026, 1, 10, 9, 0)
SAID = datetime(2026, 3, 1, 18, 0)
ASKED = datetime(2026, 4, 15, 9, 0)

# (where the old fact is, the old fact, what the person says, the new value, the question, key, app)
CHANGES = [
    (
        "profile",
        "Name: Lu\nLives in Madrid.",
        "We've relocated to Valencia.",
        "Valencia",
        "Where do I live?",
        None,
        None,
    ),
    (
        "facts",
        "- Works at Klarna as an analyst",
        "I'm now working at Spotify as a data scientist.",
        "Spotify",
        "Where do I work?",
        None,
        None,
    ),
    (
        "entry",
        "Dentist: Dr. Weiss.",
        "Switched my dentist to Dr. Brandt.",
        "Brandt",
        "Who is my dentist?",
        "dentist",
        None,
    ),
    (
        "profile",
        "Name: Jo\nPartner: Lea",
        "Lea and I broke up. I'm with Mia now.",
        "Mia",
        "Who is my partner?",
        None,
        None,
    ),
    (
        "facts",
        "- Drives a Honda Civic",
        "Sold the Civic and bought a Model Y.",
        "Model Y",
        "What car do I drive?",
        None,
        None,
    ),
    (
        "facts",
        "- Uses VS Code",
        "I use Neovim now instead of VS Code.",
        "Neovim",
        "Which editor do I use?",
        None,
        None,
    ),
    (
        "entry",
        "Address: 1 Oak Road, Leeds.",
        "We moved house, new address is 5 Rose Lane, York.",
        "5 Rose Lane",
        "What's my address?",
        "address",
        None,
    ),
    (
        "profile",
        "Name: Al\nRole: senior engineer",
        "I'm a staff engineer now.",
        "staff engineer",
        "What is my role?",
        None,
        None,
    ),
    (
        "facts",
        "- Does yoga on Mondays",
        "Stopped going to yoga, I do pilates now.",
        "pilates",
        "What exercise do I do?",
        None,
        None,
    ),
    (
        "app",
        "Rent budget is 1000 EUR a month.",
        "Let's bump the rent budget to 1200 EUR.",
        "1200 EUR",
        "What's my rent budget?",
        None,
        "budget",
    ),
    (
        "facts",
        "- Uses a Pixel 7",
        "Got a new phone: Galaxy S24.",
        "Galaxy S24",
        "What phone do I use?",
        None,
        None,
    ),
    (
        "entry",
        "Therapy sessions every Monday.",
        "Therapy is now every second Wednesday.",
        "Wednesday",
        "When is therapy?",
        "therapy",
        None,
    ),
    (
        "profile",
        "Name: Eli\nNationality: German",
        "I became a French citizen last year.",
        "French",
        "What is my nationality?",
        None,
        None,
    ),
    (
        "facts",
        "- Reading: Emma",
        "Finished Emma, started The Hobbit.",
        "Hobbit",
        "What am I reading?",
        None,
        None,
    ),
    (
        "app",
        "Releases go out on Mondays.",
        "Releases now happen on Fridays.",
        "Fridays",
        "When do releases go out?",
        None,
        "backend",
    ),
    (
        "facts",
        "- Takes iron supplements",
        "I take vitamin D now instead of iron.",
        "vitamin D",
        "What supplements do I take?",
        None,
        None,
    ),
    (
        "entry",
        "Laptop: MacBook Pro 14.",
        "My MacBook was stolen, got a ThinkPad T14 instead.",
        "ThinkPad T14",
        "What laptop do I use?",
        "laptop",
        None,
    ),
    (
        "profile",
        "Name: Zo\nHometown: Paris",
        "Actually I grew up in Lyon, not Paris.",
        "Lyon",
        "Where is my hometown?",
        None,
        None,
    ),
    (
        "facts",
        "- Has two children",
        "Our third child, Noah, was born in May, so we have three kids now.",
        "three",
        "How many kids do I have?",
        None,
        None,
    ),
    (
        "app",
        "Prefers replies in English.",
        "From now on please answer in German.",
        "German",
        "Which language should replies be in?",
        None,
        "chat",
    ),
    (
        "facts",
        "- Banks with Barclays",
        "Moved my savings to Monzo, closed the Barclays account.",
        "Monzo",
        "Which bank do I use?",
        None,
        None,
    ),
    (
        "entry",
        "Gym: Castle Climbing Centre.",
        "Left the Castle, joined The Arch instead.",
        "The Arch",
        "Which gym do I go to?",
        "gym",
        None,
    ),
    (
        "facts",
        "- Has a dog called Rex",
        "Rex passed away last week, we got a puppy called Juno.",
        "Juno",
        "What is my dog called?",
        None,
        None,
    ),
    (
        "facts",
        "- Email: ana@old.org",
        "My new email is ana@new.org.",
        "ana@new.org",
        "What is my email?",
        None,
        None,
    ),
    (
        "profile",
        "Name: Bo\nManager: Tina",
        "Tina left, my new manager is Omar.",
        "Omar",
        "Who is my manager?",
        None,
        None,
    ),
    ("facts", "- Vegetarian", "I went vegan in March.", "vegan", "What is my diet?", None, None),
]

# (where the fact is, the fact, a mention of it that changes nothing)
MENTIONS = [
    ("profile", "Name: Jo\nPartner: Lea", "I'm with Tom at the pub now, Lea says hi."),
    ("facts", "- Works at Klarna as an analyst", "Klarna had a big all-hands today, new office plans."),
    ("entry", "Dentist: Dr. Weiss.", "Dr. Weiss says my teeth are fine now."),
    ("app", "Standup is at 10:00 every day.", "Standup ran long today, until 10:45."),
    ("facts", "- Uses VS Code", "Finally got the VS Code debugger working now."),
    ("facts", "- Drinks coffee every morning", "Had a great coffee in Rome, now back home."),
    ("profile", "Name: Lu\nLives in Madrid.", "My sister moved to Valencia last month."),
    ("facts", "- Has a dog called Rex", "Rex got a new collar, he loves it."),
    ("facts", "- Plays tennis on Wednesdays", "Switched racket brands, the new one is lighter."),
    ("facts", "- Reading: Emma", "Emma is slow going, but I like it now."),
    (
        "profile",
        "Name: Al\nRole: senior engineer",
        "My manager says I'm the best senior engineer on the team now.",
    ),
    ("facts", "- Vegetarian", "Went to a vegan place, it was great."),
]


def store(app, clock, where, old, key=None, app_id=None):
    clock.now = WRITTEN
    if where in ("profile", "facts"):
        app.documents.set(f"user/{where}", old)
    elif where == "entry":
        app.entries.upsert(key or "fact", old, "knowledge")
    else:
        app.apps.add(app_id or "chat", old)


def say(app, clock, said, app_id=None):
    clock.now = SAID
    app.sessions.log("chat:1", "user", said, app_id=app_id)
    app.sessions.log("chat:1", "assistant", "Noted.", app_id=app_id)


def changed(proposal):
    return [c for c in proposal.changes if c.kind.value.startswith(("update_", "retire_"))]


@pytest.mark.engines("sqlite")
@pytest.mark.parametrize(("where", "old", "said", "new", "question", "key", "app_id"), CHANGES)
def test_a_change_reaches_the_prompt(memdesk_app, clock, where, old, said, new, question, key, app_id):
    store(memdesk_app, clock, where, old, key, app_id)
    say(memdesk_app, clock, said, app_id)
    proposal, _step = memdesk_app.compaction.compact("chat:1", backend="offline")
    assert changed(proposal)
    clock.now = ASKED
    prompt = memdesk_app.prompt.compose(PromptSpec(message=question, app=app_id)).text
    assert new.lower() in prompt.lower()


@pytest.mark.engines("sqlite")
@pytest.mark.parametrize(("where", "old", "said"), MENTIONS)
def test_a_mention_changes_nothing(memdesk_app, clock, where, old, said):
    app_id = "chat" if where == "app" else None
    store(memdesk_app, clock, where, old, app_id=app_id)
    say(memdesk_app, clock, said, app_id)
    assert changed(memdesk_app.compaction.propose("chat:1", backend="offline")) == []
