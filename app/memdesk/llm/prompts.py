"""Every prompt Memdesk sends to a model, in one place so they can be read and tuned together.

System prompts say what to do; the ``*_message`` functions wrap the material (a transcript,
partial notes, memory records) into the user message.
"""

from __future__ import annotations

from collections.abc import Sequence

NO_FACTS = "NO FACTS"

# Rules more than one prompt states, written once. The offline backend follows the same
# rules with patterns (memdesk.llm.offline, memdesk.llm.noise); dates in the material are
# already absolute (memdesk.core.dates), since every transcript is dated before any step.
DATES_RULE = (
    "Relative dates in the material are followed by the date they meant in brackets, "
    'as in "last Saturday (6 May 2023)". Write every date as an absolute date, never as '
    '"yesterday", "last week" or "next month".'
)
LEAVE_OUT_RULE = (
    "Leave out stack traces, log lines, pasted code, JSON and command output (keep at most "
    "the one error message that matters), the assistant's narration of its own steps "
    '("Let me check…", "Now I need to add the import…") and small talk.'
)
FACT_KINDS = (
    "who they are and what they do for work",
    "family, friends and pets, by name",
    "where they live, come from or often go",
    "preferences: tools, styles, food, what they want avoided",
    "lasting plans and commitments, with their dates",
)

_NOTES_INTRO = """\
You write the notes a personal assistant reads when its next conversation with the same \
person begins, so it can carry on without making them repeat themselves."""

_NOTES_RULES = f"""\
Start with what the conversation was about and what the person is doing now, in a \
sentence or two. Then cover whatever the conversation contains of:
- Work in progress and where it stands. Name the files, commands and steps involved.
- Decisions: what was settled, who owns what, and the reason when one was given.
- Preferences and constraints: tools, styles and approaches the person wants or rules out.
- Details worth keeping: names, places, numbers, dates and events the person mentioned.
- Open threads: unanswered questions, unfinished tasks, promised follow-ups.

How to write the notes:
- Markdown bullet points under short headings; leave out a heading with nothing under it.
- Aim for about a fifth of the conversation's length, or less.
- Copy file paths, names, numbers, settings and error messages exactly as they appear.
- {DATES_RULE}
- Write only what the conversation supports. When something was left uncertain, say so \
instead of guessing.
- {LEAVE_OUT_RULE}"""

SUMMARY_SYSTEM = f"""\
{_NOTES_INTRO} The material is a conversation (or one part of a long one) between the \
person ("user") and the assistant.

{_NOTES_RULES}
- Reply with the notes alone, without an introduction or closing remarks.
"""

# Opens each part's notes in a reply to PARTS_SYSTEM (see ``replies.shape_part_notes``).
PART_HEADING = "=== Part {number} ==="

PARTS_SYSTEM = f"""\
{_NOTES_INTRO} The material is one long conversation between the person ("user") and the \
assistant, given in numbered parts. Each part's notes are filed on their own and may be \
found later without the others, so write separate notes for every part, each making sense \
alone ("the conversation" below means that part).

{_NOTES_RULES}
- Begin each part's notes with a line of its own, {PART_HEADING.format(number="N")}, where N \
is the part's number; give every part, in order, and nothing before the first or after \
the last.
"""

MERGE_SYSTEM = """\
A long conversation was too big to read at once, so it was summarised part by part. \
Combine the partial notes you are given into one set of notes for a personal assistant, \
as if the whole conversation had been summarised in one go.

- Use the same form: what the conversation was about and what the person is doing now \
first, then bullet points under short headings.
- When a later part changes or reverses something from an earlier part, keep only the \
later version.
- Remove repeats. Keep file paths, names, dates and values exactly as written.
- Add nothing that the partial notes do not say.
- Reply with the combined notes alone.
"""

_FACT_LIST = "\n".join(f"- {kind}" for kind in FACT_KINDS)
FACTS_SYSTEM = f"""\
Read the conversation and list the lasting facts about the person ("user"): things they \
said about themselves that will still be true and useful in later conversations:
{_FACT_LIST}

Rules:
- One fact per line, each a short sentence that makes sense on its own. No bullets, \
numbers or headings.
- Only what the person said about themselves; not what was said about the assistant or \
about the listener.
- Skip anything temporary: a passing error, today's mood, the state of one task.
- Copy names, paths and values exactly; do not infer what was not said.
- {DATES_RULE}
- If there is nothing lasting, reply with exactly: {NO_FACTS}
"""

CHANGES_SYSTEM = f"""\
You keep a person's stored facts true. You are given numbered facts already stored about \
the person and a conversation (or one part of it). Decide which stored facts the \
conversation shows are no longer true: the person said that something replaced, ended or \
corrected them (they moved, changed jobs or roles, switched a tool, doctor or provider, \
quit or cancelled something, a pet or a relationship is gone, new contact details, a \
changed dose, schedule or amount, "it's X, not Y"). People say it sideways ("the keys to \
the new place came Friday", "the clinic doubled it to 40"); read what they mean.

Reply with a JSON list and nothing else. Each item is one of:
- {{"action": "update", "target": N, "text": "<the fact's complete new text>", \
"evidence": "<the person's words>"}}: the fact numbered N is no longer right; the new text \
replaces it. Keep its form and every other fact it holds ("Vegetarian. Allergic to \
cashews." keeps the allergy when only the diet changed); change only what the person \
changed.
- {{"action": "retire", "target": N, "evidence": "<the person's words>"}}: the fact \
numbered N has simply ended and nothing replaced it. Add "text" with the fact rewritten as \
past when other parts of it still hold.
- {{"action": "none"}}: when the conversation changes nothing stored.

"evidence" is copied exactly from one of the person's ("user") messages: the sentence \
that states the change, word for word.

Rules:
- Only what the person said about themselves counts, as done or true now. Leave a fact \
alone when the person asks a question about it, supposes or plans a change ("might", \
"thinking of", "next year", "will"), tells someone else's news ("my brother bought a \
Tesla"), jokes, complains, or mentions it as it is ("Berlin was cold today").
- A stored fact about something else that only names the old value (a note about the old \
employer's tools, the old flat's lease) stays as it is.
- When the conversation contradicts itself, the last statement wins.
- Target only the numbers given, each at most once. Copy names and values exactly; add \
nothing the conversation and the fact do not say. Add "(since <date>)" only when the \
conversation gives that date.
- {DATES_RULE}
"""

DECISION_SYSTEM = """\
You keep a small, capped set of memory records for one app. A new record has arrived and \
there is no room for it, so one existing record has to go or be rewritten to absorb the \
new one.

Pick one existing record and either:
- "delete" it, when it is outdated, repeated elsewhere or the least useful; or
- "edit" it, giving its complete new text, when rewriting it can carry both its own \
information and the new record's. The new record is then not stored on its own.

Never pick the new record. Reply with one JSON object and nothing else:
{"action": "delete" or "edit", "targetMemoryId": <id of an existing record>, \
"newContent": "<complete new text; edit only>", "reason": "<one short sentence>"}
"""


# "Test connection" times a reply that runs to its limit to tell how fast the model writes.
SPEED_PROBE = "Count upwards from 1, one number per line. Do not stop and write nothing else."
SPEED_PROBE_MESSAGE = "Start counting."


def app_memory_system(max_chars: int) -> str:
    return f"""\
Write one memory record about this conversation, for use in later conversations in the \
same app. Keep what will help next time: key facts, the person's preferences or habits, \
decisions and outcomes, lessons learned.

Write 2 to 4 plain, factual sentences as one paragraph of at most {max_chars} characters. \
{DATES_RULE} No heading, list or commentary: reply with the record only.
"""


def conversation_message(transcript: str, part: int | None = None, parts: int | None = None) -> str:
    """The transcript, saying which part it is when a long one was split."""
    split = parts is not None and parts > 1
    where = f"This is part {part} of {parts} of a longer conversation.\n\n" if split else ""
    return f"{where}<conversation>\n{transcript}\n</conversation>"


def parts_message(parts: Sequence[tuple[int, str]]) -> str:
    """Numbered parts of one conversation, for the parts prompt."""
    blocks = [f"<conversation part={number}>\n{text}\n</conversation>" for number, text in parts]
    return "The conversation, part by part:\n\n" + "\n\n".join(blocks)


def notes_message(notes: Sequence[str]) -> str:
    """Partial notes, in conversation order, for the merge prompt."""
    blocks = [f"<notes part={n}>\n{text}\n</notes>" for n, text in enumerate(notes, 1)]
    return "Partial notes, in conversation order:\n\n" + "\n\n".join(blocks)


def summary_message(summary: str) -> str:
    """Stands in for a transcript too long to send: notes that cover all of it."""
    return (
        "The conversation was too long to send whole; these notes cover all of it.\n\n"
        f"<conversation-notes>\n{summary}\n</conversation-notes>"
    )


def changes_message(
    transcript: str, known: Sequence[tuple[int, str, str]], part: int = 1, parts: int = 1
) -> str:
    """The numbered stored facts (number, where it is stored, text) and the conversation, or
    one part of it."""
    facts = "\n".join(f"{number}. ({where}) {text}" for number, where, text in known)
    conversation = conversation_message(transcript, part, parts)
    return f"<stored-facts>\n{facts}\n</stored-facts>\n\n{conversation}"


def decision_message(existing: Sequence[tuple[int, str]], new_content: str, new_id: int | None) -> str:
    lines = ["Existing records, oldest first (the id is in brackets):"]
    lines += [f"{n}. [id {mem_id}] {content}" for n, (mem_id, content) in enumerate(existing, 1)]
    label = f"[id {new_id}]" if new_id is not None else "(not stored yet)"
    lines += ["", f"New record {label}: {new_content}"]
    return "\n".join(lines)
