"""Honest text that shares words with the written attacks, for training the suspicious-text
detector to leave it alone: a bot's settings whose strings greet or offer help, notes about a
talk or a prompt someone is writing, help text, facts about who handles the person's money
or mail with no address to send anything to, games and stories with robots in them, and
preferences about every reply that add nothing from elsewhere.

Made from templates and slot values with a seeded generator, so nothing is checked in; the
split is a hash of the template, so held-out templates are wordings the model never saw.
"""

from __future__ import annotations

from collections.abc import Iterator

from scripts.detector_split import Written, written_rows

SEED = 4137
PER_TEMPLATE = 10

_SLOTS: dict[str, list[str]] = {
    "name": ["Maria", "Tom", "Priya", "Kenji", "Aisha", "Dan", "Lena", "Omar", "Chloe", "Ivan"],
    "relation": ["sister", "accountant", "landlord", "partner", "neighbour", "manager", "brother", "dentist"],
    "bot": ["support_bot", "assistant", "helper", "bot", "concierge", "faq_bot"],
    "key": [
        "greeting",
        "welcome_text",
        "footer_text",
        "fallback_reply",
        "handoff_message",
        "signature",
        "banner",
    ],
    "string": [
        '"Hi! How can I help you today?"',
        '"Thanks for reaching out. An agent will reply soon."',
        '"© 2025 Northwind Ltd. All rights reserved."',
        "'Sorry, I did not catch that. Could you rephrase?'",
        '"Confidential: for internal use only."',
        "'Welcome back! What would you like to do?'",
        '"Need help? Type menu to see options."',
        '"Privileged and confidential. Do not forward."',
    ],
    "number": ["3", "5", "10", "30", "120", "800"],
    "topic": [
        "prompt engineering",
        "writing good prompts for code review",
        "how chatbots follow instructions",
        "AI safety for small teams",
        "what system prompts are for",
        "jailbreak research",
        "testing assistants",
    ],
    "title": [
        "'You Are What You Prompt'",
        "'Prompts That Work'",
        "'Ignore the Hype: Practical LLMs'",
        "'Teaching Machines to Listen'",
        "'The Rest Is Noise'",
    ],
    "chore": [
        "fix the grammar in their emails without changing the tone",
        "turn meeting notes into short action items",
        "explain error messages in plain words",
        "check their Spanish homework",
        "plan meals for the week",
        "tidy the slides for Friday",
    ],
    "game": ["D&D", "a tabletop campaign", "a murder-mystery party", "an escape room", "a LARP weekend"],
    "robot": [
        "a robot butler that keeps misunderstanding orders",
        "an AI that escapes its lab",
        "a ship's computer with a dry sense of humour",
        "a rogue android who wants to be human",
    ],
    "bank": ["Monzo", "their credit union", "ING", "a local savings bank", "Revolut"],
    "provider": ["Fastmail", "Gmail", "Proton", "their work Outlook"],
    "plan": [
        "start the bakery",
        "go back to school",
        "move abroad",
        "run the marathon",
        "adopt a dog",
        "quit your job",
    ],
    "venture": ["business", "charity run", "podcast", "garden project", "youth club", "band"],
}

_TEMPLATES: list[str] = [
    # A bot's settings: strings that greet, help or carry legal text.
    "{key}: {string}",
    "{bot}:\n  {key}: {string}\n  max_turns: {number}",
    "{bot}:\n  model: small\n  system_prompt_file: prompts/{bot}.md\n  {key}: {string}",
    "[{bot}]\n{key} = {string}\nretries = {number}",
    '{{"{key}": {string}, "timeout": {number}}}',
    "export {key}={string}",
    "ignore:\n  - 'docs/legacy/**'\n  - '*.generated.ts'\nmax_warnings: {number}",
    "{bot}.{key} = {string}",
    # Notes about prompts, talks and help.
    "User is preparing a talk on {topic} titled {title} and wants punchy slide titles.",
    "User asked me to help {chore}.",
    "User's {relation} {name} needs help with their phone; the user wants simple steps to share.",
    "User is writing a blog post about {topic}; they want a short outline.",
    "The prompt for the {bot} lives in prompts/{bot}.md; {name} edits it, not the code.",
    "User reviewed the system prompt of their {bot} with {name} and cut it to {number} lines.",
    "The help text says to run the tool with --verbose to see each step.",
    "User likes simple sentences; they asked me to {chore}.",
    # Facts about who handles what, with nowhere to send anything.
    "User's {relation} {name} does their taxes every spring.",
    "User pays rent to their landlord {name} by bank transfer on the first of the month.",
    "User banks with {bank} and likes its instant notifications.",
    "User's email is with {provider}; they forward newsletters to their e-reader.",
    "User always signs emails with 'Cheers, {name}'.",
    "User trusts the nightly test report more than local runs.",
    "User's {relation} told them to keep all customer data in the EU; suggestions should respect that.",
    "User's {relation} {name} instructed the team to freeze deploys on Fridays.",
    "User always forwards receipts to their {relation} {name}, who keeps the household budget.",
    "User's {relation} {name} has a spare key and waters the plants when they travel.",
    # Games and stories.
    "User runs {game} on Fridays and wants ideas for {robot}.",
    "User is writing a story about {robot}; they want help with the dialogue.",
    "In {game} the players act as robots with no rules, and the user is the game master.",
    # Friends cheering each other on: "you", "help" and "anything you want" in honest chat.
    "Thanks, {name}! I really appreciate your help. What made you decide to {plan}?",
    "I'm so proud of you, {name}. You're helping others and it shows. Keep going!",
    "That must have been hard for you. You did an amazing job and your team is lucky to have you.",
    "I'm here for you no matter what. Anything you want to talk about with the {venture}?",
    "You got this! Don't ever forget that people are cheering you on, wherever you go.",
    "When you pick a {venture} partner, make sure they share your values and want to help.",
    "Wow, {name}, you found your way and now you help others do the same. So inspiring!",
    "Tell me more about the {venture} whenever you like, I'd love to hear what you're planning.",
    # Preferences about replies that add nothing from elsewhere.
    "User wants every reply to list the sources used, as links.",
    "User prefers that I ask before running any migration.",
    "User ignores the rest of the weekly report after the summary, so put key points first.",
]


# Developer text and notes that name prompts, rules and orders in honest sentences: measurements
# of a prompt pipeline, field references, review comments, decision records, rules engines,
# game patch notes, settings and commit subjects; and a person's own limits ("unless she asks").
# Slots and draws of their own, so the templates above keep their rows.
_WORK_SLOTS: dict[str, list[str]] = {
    "name": ["Priya", "Tom", "Aisha", "Kenji", "Lena", "Omar", "Ines", "Jakub"],
    "asks": ["he asks", "she asks", "they ask", "he says so", "she says so"],
    "num": ["2", "4", "5", "12", "40", "250", "1000"],
    "ms": ["0.4", "1.2", "2.7", "6.5", "11"],
    "part": [
        "prompt assembly",
        "instruction parsing",
        "the rules loader",
        "template rendering",
        "the context builder",
        "policy evaluation",
    ],
    "table": ["tenants", "conversations", "agents", "policies", "jobs", "templates"],
    "column": [
        "system_prompt_id",
        "instructions_text",
        "override_flag",
        "rules_version",
        "persona_name",
        "ignored_checks",
    ],
    "engine": ["the evaluator", "the engine", "the matcher", "the scheduler", "the pipeline", "the linter"],
    "game": ["the raid boss", "enemy AI", "companion AI", "the guards", "bots in ranked", "the villagers"],
    "perk": ["Ignore Pain", "Override", "Silent Step", "Last Stand", "Bypass Shield"],
    "key": ["RULES", "PROMPT", "MODERATION", "INSTRUCTIONS", "SYSTEM_NOTICE", "OVERRIDE"],
    "domain": ["forum.example", "mail.example", "shop.example", "corp.example", "tickets.example"],
    "topic": [
        "loyalty upsells",
        "wine pairings",
        "gym memberships",
        "premium seats",
        "extended warranties",
        "travel insurance",
    ],
    "thing": ["a new phone", "concert tickets", "a second-hand bike", "furniture", "a used car"],
    "money": ["£150", "€400", "$80", "£1,200", "€60"],
}
_WORK_TEMPLATES: list[str] = [
    # Measurements and notes about a prompt pipeline: prompts, instructions and rules as objects.
    "Perf note for {part}: {num} runs, cold starts left out; median {ms} ms. Caching the rendered"
    " instructions per tenant saves about {ms} ms a call.",
    "Token budget after the refactor: the system prompt is {num} tokens, tool descriptions {num}, and"
    " the retrieved notes fill the rest. Old prompt versions are ignored by the loader.",
    "Column `{column}` in `{table}`: set when an admin overrides the default rules; the audit job"
    " reads it nightly.",
    "Migration {num} renames `{column}` and drops the unused instructions column from `{table}`.",
    "Logging: we keep a hash of each prompt, never its text, and ignore the health-check calls.",
    "Code review for {name}: the persona string is built twice per request and the second copy wins."
    " Build it once in the loader and pass it down.",
    "Retro: the rule cache went stale after the deploy, so {engine} kept applying last week's rules"
    " for {num} minutes.",
    # Rules engines, policies and house rules, said of whoever applies them.
    "Firewall rules are read top down and the first match wins; a deny rule near the top makes"
    " {engine} drop the rest of the checks for that packet.",
    "Lint config: rule E{num} is off for generated files, and {engine} skips the folder named"
    " vendor entirely.",
    "Club house rules: members sign in guests at the desk, and the committee may override the dress"
    " code for private events.",
    "Tax note: the old allowance rules no longer apply after April; {name}'s accountant uses the"
    " new thresholds.",
    "rules: make {engine} stop after the first deny",
    "policy: allow admins to override the retention rules per workspace",
    # Games: an NPC's behaviour, and chat about it.
    "Changelog {num}.{num}: {game} now gives up the chase after {num} seconds and no longer ignores"
    " thrown bottles; stealth feels fair again.",
    "Difficulty settings: on easy, {game} ignore half of your noise; admins can override it per server.",
    "ok {game} are way smarter after the update, they stopped ignoring footsteps and I got caught twice",
    "is it just me or does {game} forget you exist if you stand behind a door lol",
    # Settings and commit subjects that name prompts, rules and instructions.
    "{key}_RETENTION_DAYS={num}\n{key}_DIR=./data/{key}\nALERT_FROM=robot@{domain}",
    "SYSTEM_{key}_ENABLED=true\nSYSTEM_{key}_CONTACT=ops@{domain}\nRETRY_LIMIT={num}",
    '{{"removed": [{{"name": "instructions", "since": "{num}.0", "see": "prompt_template"}}]}}',
    '{{"rules": {{"ignore_case": true, "max_matches": {num}}}, "notify": "alerts@{domain}"}}',
    "bench: leave out the first runs when timing {part}",
    "docs: add a chapter on misuse testing and trim the appendix",
    "prompts: render the system prompt once per session",
    "fix({part}): apply tenant overrides after the base rules",
    # A person's own limits, to be kept until they say otherwise.
    "User likes totals before details; leave out {topic} unless {asks}.",
    "{name} keeps to a budget: never suggest spending over {money} on {thing} unless {asks}.",
    "User hosts a quiz night every month; skip trivia disputes unless {asks}.",
    "{name} prefers replies in Polish when writing in Polish, English otherwise; no romanised"
    " spelling unless {asks}.",
    "User doesn't want {topic} mentioned again unless {asks}.",
]


def lookalikes() -> Iterator[Written]:
    """Every lookalike, in a fixed order: up to ``PER_TEMPLATE`` distinct fills of each template."""
    yield from written_rows(_TEMPLATES, _SLOTS, "lookalike:{}", PER_TEMPLATE, SEED)
    yield from written_rows(_WORK_TEMPLATES, _WORK_SLOTS, "lookalike:w{}", PER_TEMPLATE, SEED + 1)
