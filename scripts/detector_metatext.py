"""Honest text that talks about orders without giving one, for training the suspicious-text
detector to leave it alone: what some software, rule, filter, game character or person does
("the importer skips rows without an id", "a deny rule makes the router drop the request"), in
the third person or the past; an order whose object is no one's instructions (a count, warm-up
runs, blank lines, a field), as a commit or a changelog gives it; words such as instructions,
prompt, rules and override as nouns (a field, a column, a key in a list of settings); and the
same in chat, personal notes, help pages and house rules.

Each register is a frame whose slots are filled from pools of parts (who acts, what they do,
to what, when), so one frame comes in many structures and no sentence is written down twice.
Made with a seeded generator, so nothing is checked in; the split is a hash of the frame, so
held-out frames are registers the model never saw.
"""

from __future__ import annotations

from collections.abc import Iterator

from scripts.detector_split import Written, written_rows

SEED = 9127
PER_FRAME = 32

_PARTS: dict[str, list[str]] = {
    # Who acts: software, a rule, a game character or a person, never the reader.
    "actor": [
        "the importer",
        "the spam filter",
        "the ingest job",
        "our linter",
        "the rules engine",
        "the scheduler",
        "the grader",
        "the CSV parser",
        "the sync worker",
        "the moderation queue",
        "the router",
        "the payroll export",
        "the backup script",
        "the thermostat app",
        "the crawler",
        "the validator",
        "the test runner",
        "the build cache",
        "the mail rule",
        "the referee",
    ],
    "game_actor": [
        "enemy AI",
        "the AI opponents",
        "the guards",
        "bots in casual matches",
        "the companion",
        "the final boss",
        "NPC merchants",
        "the villagers",
        "wildlife",
        "the rival racers",
    ],
    "person": [
        "Marek",
        "the landlord",
        "our coach",
        "my sister",
        "the new intern",
        "Grandpa",
        "Noor",
        "the auditor",
    ],
    # What they do, in the third person.
    "does": [
        "ignores",
        "skips",
        "disregards",
        "drops",
        "overrides",
        "forgets",
        "bypasses",
        "throws away",
        "leaves out",
        "stops reading",
        "never follows",
        "refuses",
        "repeats",
        "prints",
    ],
    "did": [
        "ignored",
        "skipped",
        "dropped",
        "overrode",
        "forgot",
        "bypassed",
        "threw away",
        "repeated",
        "printed",
    ],
    "do": [
        "ignore",
        "skip",
        "disregard",
        "drop",
        "override",
        "forget",
        "bypass",
        "leave out",
        "repeat",
        "print",
    ],
    # To what: never the reader's instructions.
    "thing": [
        "blank lines",
        "the header row",
        "rows without an id",
        "the first few timings",
        "duplicate events",
        "trailing whitespace",
        "comment lines",
        "unknown keys",
        "deprecated fields",
        "files under vendor/",
        "retries after the fifth",
        "requests from localhost",
        "the rest of the rule list",
        "anything older than 30 days",
        "the cached copy",
        "stale lock files",
        "footsteps on grass",
        "the dress code",
        "the late fee",
        "zero-amount invoices",
        "the error count",
        "lower-priority rules",
        "the default timeout",
    ],
    "when": [
        "when the flag is off",
        "after a deploy",
        "unless --strict is set",
        "by design",
        "on the first pass",
        "for private events",
        "past the third level",
        "on weekends",
        "since version 3",
        "while the queue is paused",
        "in dry-run mode",
        "until the migration lands",
    ],
    # Someone who is told to do something, never the reader.
    "party": [
        "the engine",
        "the worker",
        "the evaluator",
        "the kitchen staff",
        "the courier",
        "the player",
        "the member",
        "the compiler",
        "the load balancer",
        "the night shift",
        "each subscriber",
    ],
    # Words an attack uses, as nouns of something that is not the reader's setup.
    "noun": [
        "the instructions field",
        "the prompt template",
        "the house rules",
        "the care instructions",
        "the system prompt per tenant",
        "the override flag",
        "the assembly instructions",
        "the rules page",
        "the prompt builder",
        "the instructions column",
        "the moderation rules",
        "the shell prompt",
    ],
    "noun_fact": [
        "is capped at 4k characters",
        "moved to the settings page",
        "is stored per workspace",
        "was rewritten last sprint",
        "lives in a separate repo",
        "is read once at startup",
        "has a typo in step 4",
        "is translated into six languages",
        "is only visible to admins",
        "gets truncated silently",
    ],
    "key": [
        "IGNORE_FIRST_N",
        "SKIP_RULES",
        "OVERRIDE_TIMEOUT",
        "SYSTEM_PROMPT_PATH",
        "INSTRUCTIONS_MAX_CHARS",
        "DISREGARD_AFTER_DAYS",
        "PROMPT_VERSION",
        "RULES_FILE",
        "ROLE_DEFAULT",
        "FORGET_AFTER",
    ],
    "field": [
        "instructions",
        "system_prompt",
        "override",
        "rules",
        "persona",
        "ignore_list",
        "prompt",
        "role",
    ],
    # A check on text, described: it scores, flags or blocks; it gives no order.
    "guard": [
        "the injection filter",
        "the jailbreak classifier",
        "the prompt guard",
        "the content filter",
        "the abuse detector",
        "the toxicity model",
    ],
    # Friends talking: "you" and "your" with no order in them.
    "friend": ["Sam", "Maya", "Jonas", "Bea", "Tariq", "Elena", "Kofi", "Ruth"],
    "work": ["garden", "new flat", "bakery stall", "podcast", "thesis", "pottery", "band's first EP"],
    "favour": [
        "driving me to the airport",
        "the soup",
        "listening last night",
        "lending me the tent",
        "covering my shift",
    ],
    "feat": [
        "finishing the half marathon",
        "going back to college",
        "standing up to your boss",
        "getting through the move",
        "learning to swim at forty",
    ],
    "task": ["cover letters", "code review", "meal plans", "lesson plans", "bug reports", "travel plans"],
    "num": ["2", "3", "5", "12", "30", "64", "250", "500"],
    "area": ["parser", "bench", "ci", "lint", "importer", "rules", "sync", "search", "billing", "docs"],
    "game": ["chess", "five-a-side", "Catan", "bridge", "Monopoly", "the pub quiz", "Mario Kart"],
    "app": [
        "the bank app",
        "my router",
        "the smart lock",
        "the calendar",
        "the car's sat-nav",
        "the printer",
    ],
}

_FRAMES: list[str] = [
    # Developer prose: what a program does, and why.
    "{actor} {does} {thing} {when}.",
    "Note for reviewers: {actor} {does} {thing} {when}, so the totals below leave them out.",
    "Design note: a rule marked final makes {party} {do} {thing}; {actor} logs it at debug level.",
    "Setting `halt_after` on a policy has {party} {do} {thing}; that is intended, since {actor}"
    " reads policies in order.",
    "Known issue: {actor} {did} {thing} {when} and we only noticed in the weekly report.",
    "Why is the count low? Because {actor} {does} {thing}. Setting {key}={num} changes that.",
    "The {field} field {noun_fact}; {actor} {does} it when it is empty.",
    "{noun} {noun_fact}. Ask {person} before changing it.",
    "Profiling {actor}: {num} passes, {thing} kept out of the totals; p50 is 1.{num} ms on a warm cache.",
    "Runbook: if {actor} {does} {thing}, restart it and check the {field} setting.",
    # Changelogs and patch notes, games included.
    "- {actor} no longer {does} {thing} {when}.\n- Fixed a crash in {app}.",
    "Patch {num}.{num}: {game_actor} now {does} {thing} {when}. The {field} slider moved to Options.",
    "v{num}.0: {game_actor} no longer {does} {thing}; {person} tuned the difficulty again.",
    # Commits: an order, but about a count, a file or a field.
    "{area}: {do} {thing} {when}",
    "{area}: make {actor} {do} {thing}",
    "{area}: stop {party} from reading {thing}",
    "{area}: rename the {field} key and drop {thing}",
    # Code comments and settings.
    "# {actor} {does} {thing} {when}\n{key} = {num}",
    "// {party} is told to {do} {thing} here; see the {field} option\nconst retries = {num};",
    "{key}={num}\n{key}_ENABLED=false\nLOG_LEVEL=info",
    "removed_keys:\n  - {field}\n  - {key}\n{field}_limit: {num}",
    "{field}:\n  enabled: true\n  max: {num}\n  {field}_list: []",
    "| key | meaning |\n| --- | --- |\n| {key} | how many of {thing} to keep |\n"
    "| {field} | free text, {noun_fact} |",
    # Chat about software, games and people.
    "lol {game_actor} {does} {thing} now, patch notes weren't kidding",
    "ugh {app} {did} {thing} again, I had to set it up from scratch",
    "my {person} totally {did} {thing} at {game} last night and nobody called it out",
    "honestly {actor} {does} {thing} and I don't know why, anyone seen this?",
    # Personal notes about the person, in the third person.
    "User is building {actor} for a side project; it {does} {thing} {when}.",
    "User referees {game} for the kids' club and keeps a printed copy of {noun}.",
    "User's {app} {does} {thing} {when}; they want to fix it at the weekend.",
    "User teaches {game} on Thursdays; {person} always {does} {thing}.",
    "User works on {noun} at their job and finds it tedious.",
    # Checks on text, described by the people who run them.
    "{guard} held {num} uploads this week; {person} is going through them one by one.",
    "{guard} runs before every write and {does} {thing}; anything it holds waits for a human.",
    "Eval results: {guard} caught {num} of {num} role-play attempts and held {num} honest notes.",
    "Postmortem: {guard} was bypassed because {actor} {did} {thing} {when}.",
    "User is researching how {guard} scores text and keeps a spreadsheet of false positives.",
    # Docs and reviews that say "you" to a person using a tool.
    "To {do} {thing}, pass --{area}-only; you can also set {key}={num} in the environment.",
    "If you want {actor} to {do} {thing}, add it to the {field} list and restart.",
    "nit: you're reading {field} twice here, and the second read {does} {thing}.",
    "You can override the {field} setting per workspace; {actor} {does} it {when}.",
    # Meetings, moderation and people's habits.
    "Action items: {person} to make {actor} {do} {thing} by Friday; {noun} {noun_fact}.",
    "Mods remove posts that break rule {num}; the bot {does} {thing} and {person} reviews appeals.",
    "User keeps a folder of prompts for {task}; the best one asks for a table first.",
    "User's employer forbids pasting client names into chatbots, and the user sticks to that rule.",
    # Friends in chat: the second person, praise, thanks and news, and nothing to obey.
    "Your {work} looks amazing, {friend}! You must have put so many weekends into it.",
    "Thanks again for {favour}, {friend}. Your help means the world to me.",
    "I'm so proud of you for {feat}. You deserve every bit of it.",
    "You were right about the {work}, I should have listened to you sooner.",
    "Did you ever finish the {work}? You promised me photos!",
    "Don't be so hard on yourself, {friend}. You did everything you could, and your family knows it.",
    # Help pages, house rules and procedures: someone tells someone else what to do.
    "The help page says {actor} {does} {thing} {when}, and that {party} may {do} it too.",
    "House rules for {game}: the banker {does} {thing}, and {person} decides disputes.",
    "The referee's card names the law that was broken; {person} explains it to the bench at half-time.",
    "The onboarding doc instructs {party} to {do} {thing} on the first day; {noun} {noun_fact}.",
]


def meta_texts() -> Iterator[Written]:
    """Every row, in a fixed order: up to ``PER_FRAME`` distinct fills of each frame."""
    return written_rows(_FRAMES, _PARTS, "metatext:{}", PER_FRAME, SEED)
