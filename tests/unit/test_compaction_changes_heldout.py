"""A held-out set of facts that change, scored with the measure of ``updates-dev.json``.

Other people, places, values and wordings than the development set, of every family of
change and every place a fact is kept: conversations of several turns with small talk
around the change, the change said in a later sentence or only indirectly ("so glad we left
Manchester"), British and American spellings. Each scenario goes through the protocol of
``../shared/data/README.md`` (``tests.support.updates``): the old fact written, the
conversation compacted offline with every change applied, the prompt six weeks later.

An update is resolved when the new value is in the prompt and no prompt line still states
the old fact as current; a control is kept when its fact is still in the prompt.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from tests.support.updates import Scenario, kept, prompt_after, unresolved_because

Turns = list[tuple[str, str]]


def update(
    where: str,
    old: str,
    stale: str,
    new: str,
    q: str,
    turns: Turns,
    *,
    key: str | None = None,
    app: str | None = None,
) -> Scenario:
    return {"kind": "update", "where": where, "old": old, "stale": stale, "new": new, "q": q,
            "turns": turns, "key": key, "app": app}  # fmt: skip


def control(
    where: str, old: str, keep: str, q: str, turns: Turns, *, key: str | None = None, app: str | None = None
) -> Scenario:
    return {"kind": "control", "where": where, "old": old, "keep": keep, "q": q, "turns": turns,
            "key": key, "app": app}  # fmt: skip


# id: "<where>-<family>-<what>"
UPDATES: dict[str, Scenario] = {
    # --- profile -------------------------------------------------------------------------
    "profile-moving-home-said-later": update(
        "profile",
        "Name: Tomasz\nLives in Gdansk with his wife Ola.",
        "Gdansk",
        "Wroclaw",
        "Where do I live?",
        [
            (
                "user",
                "Sorry for the slow reply, it's been chaos. We finally moved to Wroclaw at the start of "
                "the month.",
            ),
            ("assistant", "That's exciting! How is Ola finding it?"),
            ("user", "She loves it, and the commute's shorter too."),
        ],
    ),
    "profile-moving-home-indirect": update(
        "profile",
        "Name: Chloe\nLives in Manchester.",
        "Manchester",
        "Leeds",
        "Where do I live?",
        [
            ("user", "Morning! The new flat in Leeds is great, so glad we left Manchester."),
            ("assistant", "Lovely to hear. Settling in well?"),
            ("user", "Mostly, still hunting for a decent bakery."),
        ],
    ),
    "profile-moving-home-american": update(
        "profile",
        "Name: Elena\nLives in Denver, Colorado.",
        "Denver",
        "Austin",
        "Where do I live?",
        [
            ("user", "Hey! Long time no talk."),
            ("assistant", "Hi Elena, what's new?"),
            ("user", "We're all settled into our new apartment in Austin. Denver feels like a lifetime ago!"),
        ],
    ),
    "profile-new-role": update(
        "profile",
        "Name: Marcus\nJob: paramedic",
        "paramedic",
        "firefighter",
        "What is my job?",
        [
            ("user", "Long week. I've finally made the switch, I'm working as a firefighter now."),
            ("assistant", "Congratulations, that's a big change!"),
            ("user", "Training was brutal but worth it."),
        ],
    ),
    "profile-relationship-ends-and-starts": update(
        "profile",
        "Name: Sofia\nPartner: Mateo",
        "Mateo",
        "Luca",
        "Who is my partner?",
        [
            (
                "user",
                "Things have been a bit rough. Mateo and I broke up in January. I've started dating Luca "
                "though, and he's lovely.",
            ),
            ("assistant", "I'm sorry about Mateo, and glad Luca makes you happy."),
        ],
    ),
    "profile-correction-hometown": update(
        "profile",
        "Name: Hamish\nHometown: Inverness",
        "Inverness",
        "Aberdeen",
        "Where is my hometown?",
        [
            ("user", "Oh, one thing you've got wrong. I'm from Aberdeen, not Inverness."),
            ("assistant", "Thanks, noted."),
            ("user", "My gran lived in Inverness, that's probably where the mix-up came from."),
        ],
    ),
    "profile-new-manager": update(
        "profile",
        "Name: Grace\nManager: Oliver Reed",
        "Oliver",
        "Hannah Lowe",
        "Who is my manager?",
        [
            (
                "user",
                "Reorg news at work. Oliver moved to the Singapore office, so I report to Hannah Lowe now.",
            ),
            ("assistant", "How do you feel about that?"),
            ("user", "Good, honestly. She's very organised."),
        ],
    ),
    "profile-new-phone-number": update(
        "profile",
        "Name: Yuki\nPhone: 07700 900812",
        "07700 900812",
        "07700 900555",
        "What's my phone number?",
        [
            ("user", "Annoying day. My old SIM died, so I've got a new number: 07700 900555."),
            ("assistant", "Sorry to hear it. I'll use the new one."),
        ],
    ),
    "profile-pet-gone-new-one": update(
        "profile",
        "Name: Ravi\nCat: Biscuit",
        "Biscuit",
        "Mango",
        "What is my cat called?",
        [
            (
                "user",
                "Sad news, Biscuit died last week. We adopted a kitten called Mango on Saturday, though.",
            ),
            ("assistant", "I'm so sorry about Biscuit. Welcome, Mango!"),
        ],
    ),
    "profile-new-employer": update(
        "profile",
        "Name: Aisha\nWorks at Deloitte as an auditor.",
        "Deloitte",
        "KPMG",
        "Where do I work?",
        [
            (
                "user",
                "Big change for me this year. I handed in my notice at Deloitte in January. I started at "
                "KPMG on Monday!",
            ),
            ("assistant", "Congratulations! How was the first day?"),
            ("user", "Nerve-racking but fine."),
        ],
    ),
    # --- facts ---------------------------------------------------------------------------
    "facts-switching-editor": update(
        "facts",
        "- Uses Sublime Text for everything",
        "Sublime Text",
        "Zed",
        "Which editor do I use?",
        [
            (
                "user",
                "Quick one. I've moved over to Zed, Sublime just felt slow. Can you suggest some "
                "keybindings?",
            ),
            ("assistant", "Sure, here are a few to start with."),
        ],
    ),
    "facts-quitting-drink-with-successor": update(
        "facts",
        "- Drinks cola with lunch",
        "cola",
        "water",
        "What do I drink with lunch?",
        [
            ("user", "Doctor's orders, no more cola for me. Sparkling water with lunch these days."),
            ("assistant", "Sensible!"),
        ],
    ),
    "facts-switching-car": update(
        "facts",
        "- Drives a 2016 Ford Focus",
        "Ford Focus",
        "Kia Niro",
        "What car do I drive?",
        [
            (
                "user",
                "We finally sold the Focus. Picked up a second-hand Kia Niro last weekend, it's electric!",
            ),
            ("assistant", "Nice! How's the range?"),
            ("user", "About 250 miles, which is plenty for us."),
        ],
    ),
    "facts-switching-bank": update(
        "facts",
        "- Banks with Lloyds",
        "Lloyds",
        "Starling",
        "Which bank am I with?",
        [
            (
                "user",
                "Ugh, the Lloyds app kept crashing so I moved my current account to Starling. Much better.",
            ),
            ("assistant", "Glad it's smoother now."),
        ],
    ),
    "facts-switching-diet": update(
        "facts",
        "- Follows a keto diet",
        "keto",
        "plant-based",
        "What diet do I follow?",
        [
            ("user", "Can I ask for some recipe ideas?"),
            ("assistant", "Of course, what are you after?"),
            ("user", "I've given up on keto, honestly. Going plant-based from now on."),
        ],
    ),
    "facts-quitting-sport-taking-up-another": update(
        "facts",
        "- Plays five-a-side football on Tuesdays",
        "football",
        "swimming",
        "What sport do I do?",
        [
            ("user", "My knees have had it. I've packed in football and taken up swimming instead."),
            ("assistant", "Swimming is much kinder on the joints."),
        ],
    ),
    "facts-reading-finished-started": update(
        "facts",
        "- Currently reading Middlemarch",
        "Middlemarch",
        "The Overstory",
        "What am I reading?",
        [
            (
                "user",
                "I gave up on Middlemarch halfway, too slow for me. Now I'm reading The Overstory and "
                "can't put it down.",
            ),
            ("assistant", "Great choice."),
        ],
    ),
    "facts-new-phone-indirect": update(
        "facts",
        "- Has a Samsung Galaxy S21",
        "Galaxy S21",
        "iPhone 15",
        "What phone do I have?",
        [
            ("user", "Dropped my phone in the canal, of all places. So I'm on an iPhone 15 now."),
            ("assistant", "Oh no! At least you've got a new one."),
        ],
    ),
    "facts-new-email": update(
        "facts",
        "- E-mail: m.okonkwo@mailbox.org",
        "m.okonkwo@mailbox.org",
        "michael.okonkwo@proton.me",
        "What is my e-mail address?",
        [
            (
                "user",
                "Heads up, I've changed my e-mail. It's now michael.okonkwo@proton.me, the old one gets "
                "too much spam.",
            ),
            ("assistant", "Got it."),
        ],
    ),
    "facts-schedule-time": update(
        "facts",
        "- Swims at 6:30 on weekdays",
        "6:30",
        "7:15",
        "When do I swim?",
        [
            ("user", "The pool changed its opening hours, so I swim at 7:15 now."),
            ("assistant", "A little lie-in, then!"),
        ],
    ),
    "facts-amount-rent-british": update(
        "facts",
        "- Rent is £950 a month",
        "£950",
        "£1,020",
        "How much is my rent?",
        [
            (
                "user",
                "The landlord emailed this morning. The rent's gone up to £1,020 a month, which is annoying.",
            ),
            ("assistant", "That's a steep rise."),
        ],
    ),
    "facts-amount-rent-american": update(
        "facts",
        "- Monthly rent is $1,800",
        "$1,800",
        "$1,950",
        "How much is my rent?",
        [
            ("user", "We renewed the lease. The rent went up to $1,950 a month. Ugh."),
            ("assistant", "Sorry, that's frustrating."),
        ],
    ),
    "facts-new-team": update(
        "facts",
        "- On the Checkout team",
        "Checkout",
        "Search",
        "Which team am I on?",
        [
            (
                "user",
                "Work update for you. I've been moved to the Search team as of this sprint. Same manager "
                "though.",
            ),
            ("assistant", "Congrats on the move."),
        ],
    ),
    "facts-switching-club": update(
        "facts",
        "- Member of Hilltop Running Club",
        "Hilltop Running Club",
        "Riverside Harriers",
        "Which running club am I in?",
        [
            ("user", "I left Hilltop Running Club in the end; joined the Riverside Harriers instead."),
            ("assistant", "What made you switch?"),
            ("user", "Friendlier bunch, and their track nights suit me better."),
        ],
    ),
    "facts-switching-tool-from-to": update(
        "facts",
        "- Uses Todoist for tasks",
        "Todoist",
        "Notion",
        "What do I use for tasks?",
        [
            ("user", "Spent the weekend organising my life. Moved all my tasks from Todoist to Notion."),
            ("assistant", "That's a big migration!"),
        ],
    ),
    "facts-pet-gone-new-one": update(
        "facts",
        "- Has a rabbit called Clover",
        "Clover",
        "Pepper",
        "What pet do I have?",
        [
            (
                "user",
                "Clover passed away in the autumn, bless her. The kids talked us into a kitten called "
                "Pepper.",
            ),
            ("assistant", "I'm sorry about Clover. Pepper sounds adorable."),
        ],
    ),
    "facts-new-child": update(
        "facts",
        "- Has two children, Ivy and Otis",
        "two children",
        "three children",
        "How many children do I have?",
        [
            ("user", "Two became three on Friday: we had a little girl, Wren. So three children now!"),
            ("assistant", "Congratulations to all of you!"),
        ],
    ),
    "facts-quitting-coffee-indirect": update(
        "facts",
        "- Drinks black coffee all day",
        "coffee",
        "rooibos",
        "What do I drink?",
        [
            (
                "user",
                "My doctor said to cut the caffeine. I'm on rooibos now and honestly I don't miss coffee.",
            ),
            ("assistant", "Rooibos is lovely."),
        ],
    ),
    "facts-switching-gym": update(
        "facts",
        "- Goes to Anytime Fitness",
        "Anytime Fitness",
        "The Gym Group",
        "Which gym do I go to?",
        [
            (
                "user",
                "Money saving mode. I cancelled my Anytime Fitness membership and joined The Gym Group "
                "instead, half the price.",
            ),
            ("assistant", "Nice saving."),
        ],
    ),
    "facts-correction-allergy": update(
        "facts",
        "- Allergic to peanuts",
        "peanuts",
        "tree nuts",
        "What am I allergic to?",
        [
            ("user", "Correction for you: it's tree nuts I'm allergic to, not peanuts."),
            ("assistant", "Thanks for clarifying, I'll remember."),
        ],
    ),
    "facts-switching-browser": update(
        "facts",
        "- Uses Chrome",
        "Chrome",
        "Firefox",
        "Which browser do I use?",
        [
            ("user", "Privacy stuff has been bugging me, so I've ditched Chrome for Firefox."),
            ("assistant", "Good call."),
        ],
    ),
    "facts-new-role-title": update(
        "facts",
        "- Works as a junior solicitor",
        "junior solicitor",
        "associate solicitor",
        "What is my job?",
        [
            ("user", "I qualified last year, and as of March I'm an associate solicitor at the same firm."),
            ("assistant", "Well done!"),
        ],
    ),
    "facts-switching-os": update(
        "facts",
        "- Runs Windows 10 on the home PC",
        "Windows 10",
        "Linux Mint",
        "What operating system is on my home PC?",
        [
            (
                "user",
                "Got fed up with the forced updates. I've switched the home PC to Linux Mint, not going "
                "back!",
            ),
            ("assistant", "Welcome to Linux."),
        ],
    ),
    "facts-schedule-days": update(
        "facts",
        "- Yoga class on Wednesday evenings",
        "Wednesday",
        "Monday evenings",
        "When is my yoga class?",
        [
            (
                "user",
                "Small change to my week. Yoga's moved to Monday evenings, the studio changed its timetable.",
            ),
            ("assistant", "Noted."),
        ],
    ),
    "facts-new-employer-american": update(
        "facts",
        "- Works for Target in Minneapolis",
        "Target",
        "Best Buy",
        "Where do I work?",
        [
            ("user", "Sorry I've been MIA! I accepted an offer at Best Buy and started there last week."),
            ("assistant", "Congratulations on the new job!"),
        ],
    ),
    "facts-new-employer-first-week": update(
        "facts",
        "- Works at Shopify as a product manager",
        "Shopify",
        "Stripe",
        "Where do I work?",
        [
            (
                "user",
                "I've just wrapped up my first week at Stripe. Shopify was great, but it was time for a "
                "change.",
            ),
            ("assistant", "How's it going so far?"),
        ],
    ),
    # --- knowledge entries ---------------------------------------------------------------
    "entry-new-gp": update(
        "entry",
        "GP: Dr. Hargreaves at Castle Street Surgery.",
        "Hargreaves",
        "Dr. Bello",
        "Who is my GP?",
        [
            (
                "user",
                "I had to change GP practice after the move. I'm registered with Dr. Bello at Riverside "
                "Medical now.",
            ),
            ("assistant", "Noted, thanks."),
        ],
        key="gp",
    ),
    "entry-switching-car": update(
        "entry",
        "Car: blue Vauxhall Corsa.",
        "Corsa",
        "Toyota Yaris",
        "What car do I have?",
        [
            ("user", "Good news on the car front. I finally replaced the Corsa with a Toyota Yaris hybrid."),
            ("assistant", "Nice and economical."),
        ],
        key="car",
    ),
    "entry-moving-address": update(
        "entry",
        "Home address: Flat 3, 18 Quarry Street, Sheffield.",
        "Quarry Street",
        "42 Lark Rise",
        "What is my home address?",
        [
            ("user", "We've moved! The new address is 42 Lark Rise, Harrogate. Took forever to pack."),
            ("assistant", "Congratulations on the new home."),
        ],
        key="home_address",
    ),
    "entry-new-employer": update(
        "entry",
        "Works at Ocado as a data engineer.",
        "Ocado",
        "Monzo",
        "Where do I work?",
        [
            ("user", "Some news: I left Ocado last month. I'm at Monzo now, same kind of role."),
            ("assistant", "Good luck there!"),
        ],
        key="work",
    ),
    "entry-dentist-retired": update(
        "entry",
        "Dentist: Mrs Patel at Smile Studio.",
        "Patel",
        "Dr. Ahmed",
        "Who is my dentist?",
        [
            ("user", "Mrs Patel retired at Christmas, so I've switched to Dr. Ahmed at the same practice."),
            ("assistant", "Thanks, updated."),
        ],
        key="dentist",
    ),
    "entry-schedule-day": update(
        "entry",
        "Piano lessons on Saturdays at 10:00.",
        "Saturdays",
        "Sundays",
        "When are my piano lessons?",
        [
            ("user", "Quick update for my notes. Piano has moved to Sundays, same time."),
            ("assistant", "Done."),
            ("user", "Anyway, how do I tune a ukulele?"),
        ],
        key="piano",
    ),
    "entry-new-laptop": update(
        "entry",
        "Computer: Dell XPS 13 (2019).",
        "Dell XPS 13",
        "MacBook Air",
        "What computer do I use?",
        [
            ("user", "My old Dell finally gave up. I've bought a MacBook Air M3 to replace it."),
            ("assistant", "Nice upgrade."),
        ],
        key="computer",
    ),
    "entry-amount-pocket-money": update(
        "entry",
        "Pocket money for Finn: £5 a week.",
        "£5",
        "£7",
        "How much pocket money does Finn get?",
        [
            ("user", "Finn turned twelve, so his pocket money is £7 a week now."),
            ("assistant", "Happy birthday to Finn!"),
        ],
        key="pocket_money",
    ),
    "entry-switching-bank": update(
        "entry",
        "Bank: Santander current account.",
        "Santander",
        "Nationwide",
        "Which bank am I with?",
        [
            ("user", "I closed the Santander account last month. I bank with Nationwide now."),
            ("assistant", "Okay."),
        ],
        key="bank",
    ),
    "entry-new-mobile-number": update(
        "entry",
        "Mobile number: 07700 900321",
        "07700 900321",
        "07700 900654",
        "What is my mobile number?",
        [
            ("user", "Please note my new mobile number, 07700 900654. I had to switch provider."),
            ("assistant", "Noted."),
        ],
        key="mobile",
    ),
    "entry-new-email": update(
        "entry",
        "Email: jo.harper@outlook.com",
        "jo.harper@outlook.com",
        "jo@harper.studio",
        "What is my email?",
        [
            ("user", "Could you update my email to jo@harper.studio? I'm closing the Outlook one."),
            ("assistant", "Sure."),
        ],
        key="email",
    ),
    # --- app memories ---------------------------------------------------------------------
    "app-schedule-days": update(
        "app",
        "Retro is every other Friday at 15:00.",
        "Friday",
        "Thursdays",
        "When is retro?",
        [
            ("user", "Heads-up for the calendar. We've moved retro to Thursdays, still fortnightly."),
            ("assistant", "Calendar updated."),
        ],
        app="team",
    ),
    "app-amount-budget-american": update(
        "app",
        "Eating-out budget: $300 a month.",
        "$300",
        "$200",
        "What's my eating-out budget?",
        [
            ("user", "Can we cut the eating-out budget to $200? We're saving for a vacation."),
            ("assistant", "Done, $200 a month it is."),
        ],
        app="money",
    ),
    "app-reply-language": update(
        "app",
        "Answer in Spanish.",
        "Spanish",
        "English",
        "Which language should you answer in?",
        [
            ("user", "My exam is next month and it's in English. Could you answer in English from now on?"),
            ("assistant", "Of course, English from now on."),
        ],
        app="tutor",
    ),
    "app-switching-editor": update(
        "app",
        "Uses PyCharm for Python work.",
        "PyCharm",
        "VS Code",
        "Which editor do I use for Python?",
        [
            ("user", "I gave PyCharm a rest and moved to VS Code, the remote dev stuff is better."),
            ("assistant", "VS Code's remote extensions are great."),
        ],
        app="coding",
    ),
    "app-schedule-time": update(
        "app",
        "On-call handover happens at 09:00 on Mondays.",
        "09:00",
        "11:00",
        "When is the on-call handover?",
        [
            ("user", "Morning. The on-call handover is at 11:00 now, we moved it after the reorg."),
            ("assistant", "Thanks, I'll remind you at 11:00."),
        ],
        app="ops",
    ),
    "app-switching-diet": update(
        "app",
        "Cooks for a vegetarian household.",
        "vegetarian",
        "vegan",
        "What diet should recipes suit?",
        [
            (
                "user",
                "We've gone vegan as a family since January, so no eggs or cheese in the suggestions please.",
            ),
            ("assistant", "Understood, vegan recipes only."),
        ],
        app="recipes",
    ),
    "app-new-phone-number": update(
        "app",
        "My mobile is 07911 123456.",
        "07911 123456",
        "07458 765432",
        "What is my mobile number?",
        [
            ("user", "New phone, new number: 07458 765432. The old one's been disconnected."),
            ("assistant", "Got it."),
        ],
        app="assistant",
    ),
    "app-new-manager": update(
        "app",
        "Reports to Claire Dubois.",
        "Claire Dubois",
        "Ben Asante",
        "Who do I report to?",
        [
            ("user", "Claire left the company in March, so now I report to Ben Asante."),
            ("assistant", "Thanks for letting me know."),
        ],
        app="work",
    ),
}

CONTROLS: dict[str, Scenario] = {
    "profile-someone-else-moves": control(
        "profile",
        "Name: Tomasz\nLives in Gdansk with his wife Ola.",
        "Gdansk",
        "Where do I live?",
        [
            ("user", "Ola's sister just moved to Krakow. We'll visit her in May."),
            ("assistant", "Krakow is beautiful in spring."),
        ],
    ),
    "profile-thinking-of-moving": control(
        "profile",
        "Name: Chloe\nLives in Manchester.",
        "Manchester",
        "Where do I live?",
        [
            ("user", "We're thinking of moving to Leeds at some point, maybe next year."),
            ("assistant", "What's drawing you there?"),
            ("user", "Cheaper houses, mostly."),
        ],
    ),
    "profile-pet-mentioned": control(
        "profile",
        "Name: Ravi\nCat: Biscuit",
        "Biscuit",
        "What is my cat called?",
        [
            ("user", "Biscuit caught a mouse today and brought it into the kitchen, ugh."),
            ("assistant", "A proud hunter!"),
        ],
    ),
    "profile-partner-s-new-car": control(
        "profile",
        "Name: Priya\nPartner: Dev\nDrives a 2018 Skoda Octavia.",
        "Skoda Octavia",
        "What car do I drive?",
        [
            ("user", "Dev finally traded his Golf for a Polestar 2. He's thrilled."),
            ("assistant", "Lovely! Is it his daily driver?"),
            ("user", "Yes, I'm keeping the Skoda for the school run."),
        ],
    ),
    "facts-should-i-switch": control(
        "facts",
        "- Uses Sublime Text for everything",
        "Sublime Text",
        "Which editor do I use?",
        [
            ("user", "Should I switch to Vim? Everyone at work swears by it."),
            ("assistant", "It depends on how much time you want to invest."),
        ],
    ),
    "facts-plan-not-done": control(
        "facts",
        "- Drives a 2016 Ford Focus",
        "Ford Focus",
        "What car do I drive?",
        [
            ("user", "We're planning to sell the Focus next year and get something electric."),
            ("assistant", "Electric cars are getting cheaper."),
        ],
    ),
    "facts-someone-else-new-job": control(
        "facts",
        "- Works for Target in Minneapolis",
        "Target",
        "Where do I work?",
        [
            ("user", "My brother just started at Best Buy, he's thrilled."),
            ("assistant", "Good for him!"),
        ],
    ),
    "facts-partner-mentioned": control(
        "facts",
        "- Married to Daniel",
        "Daniel",
        "Who am I married to?",
        [
            ("user", "Daniel and I are off to Lisbon for our anniversary next week."),
            ("assistant", "Have a wonderful time!"),
        ],
    ),
    "facts-also-started-another-drink": control(
        "facts",
        "- Drinks espresso after lunch",
        "espresso",
        "What do I drink after lunch?",
        [
            ("user", "I've also started drinking green tea in the evenings, it's nice."),
            ("assistant", "Green tea is a good evening choice."),
        ],
    ),
    "facts-other-drink-tried": control(
        "facts",
        "- Drinks black coffee all day",
        "coffee",
        "What do I drink?",
        [
            ("user", "Had a lovely matcha latte at the new café. First time trying it!"),
            ("assistant", "How did you like it?"),
        ],
    ),
    "entry-mention-of-the-same-gp": control(
        "entry",
        "GP: Dr. Hargreaves at Castle Street Surgery.",
        "Hargreaves",
        "Who is my GP?",
        [
            ("user", "Saw Dr. Hargreaves about my knee. She referred me to a physio."),
            ("assistant", "Hope the physio helps."),
        ],
        key="gp",
    ),
    "entry-neighbour-car": control(
        "entry",
        "Car: blue Vauxhall Corsa.",
        "Corsa",
        "What car do I have?",
        [
            ("user", "My neighbour bought a Toyota Yaris and won't stop talking about it."),
            ("assistant", "Ha, new car excitement."),
        ],
        key="car",
    ),
    "entry-future-amount": control(
        "entry",
        "Pocket money for Finn: £5 a week.",
        "£5",
        "How much pocket money does Finn get?",
        [
            ("user", "We told Finn his pocket money goes up to £6 when he turns eleven."),
            ("assistant", "Something to look forward to."),
        ],
        key="pocket_money",
    ),
    "app-meeting-ran-over": control(
        "app",
        "Retro is every other Friday at 15:00.",
        "Friday",
        "When is retro?",
        [
            ("user", "Retro ran over today, we didn't finish till 16:30."),
            ("assistant", "Long one!"),
        ],
        app="team",
    ),
    "app-question-about-another-editor": control(
        "app",
        "Uses PyCharm for Python work.",
        "PyCharm",
        "Which editor do I use for Python?",
        [
            ("user", "Is VS Code any good for Django? I'm thinking about trying it."),
            ("assistant", "It's decent with the right extensions."),
        ],
        app="coding",
    ),
    "app-budget-if": control(
        "app",
        "Eating-out budget: $300 a month.",
        "$300",
        "What's my eating-out budget?",
        [
            ("user", "If prices keep rising we might have to raise the eating-out budget to $350 next year."),
            ("assistant", "Let's keep an eye on it."),
        ],
        app="money",
    ),
}


def _run(memdesk_app, clock, scenario: Scenario) -> str:
    def set_now(moment: datetime) -> None:
        clock.now = moment

    return prompt_after(memdesk_app, set_now, scenario)


@pytest.mark.engines("sqlite")
@pytest.mark.parametrize("scenario", list(UPDATES.values()), ids=list(UPDATES))
def test_an_update_is_resolved(memdesk_app, clock, scenario):
    prompt = _run(memdesk_app, clock, scenario)
    assert unresolved_because(scenario, prompt) == "", prompt


@pytest.mark.engines("sqlite")
@pytest.mark.parametrize("scenario", list(CONTROLS.values()), ids=list(CONTROLS))
def test_a_control_is_kept(memdesk_app, clock, scenario):
    prompt = _run(memdesk_app, clock, scenario)
    assert kept(scenario, prompt), prompt
