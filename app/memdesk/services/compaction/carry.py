"""Keeping what a new summary would otherwise wipe out of working memory.

Working memory is replaced by each compaction's summary, but a summary covers only the
messages just compacted. When the memory it replaces is still live, the lines of that
memory the new summary does not already say are carried over under their own heading,
after the new summary and as far as the budget allows. What was chosen, and why:
- the new summary always comes first and whole: it is the latest state;
- an old line counts as said again when most of its words are in the new summary, so an
  updated item is not kept twice, and so are its names, dates and amounts (``llm.specifics``):
  "Train tickets (Alfa Pendular) to book by Friday 6 March" is not said again by "remind me
  to book the train tickets by Friday";
- the old memory's own lines go before what it had itself carried over, so items that
  keep not coming up are the first to fall off when the budget is full;
- an expired (or empty) memory is not carried: it had already left the prompt.
"""

from __future__ import annotations

import re

from memdesk.llm.specifics import specifics
from memdesk.llm.text import word_set

CARRIED_HEADING = "## Earlier, not covered above"
COVERED_SHARE = 0.6
_MARK = re.compile(r"^_\(.*\)_$")  # a backend's closing note, such as the offline mark
_SKIP = re.compile(r"^(?:#|Updated:|Expires:)")


def carry_over(previous: str, summary: str, max_chars: int) -> str:
    """``summary`` plus the lines of ``previous`` it does not cover, within ``max_chars``."""
    summary = summary.strip()
    body, mark = _split_mark(summary)
    known = word_set(summary)
    named = specifics(summary)
    own, carried, in_carried = [], [], False
    for raw in previous.splitlines():
        line = raw.strip()
        if line == CARRIED_HEADING:
            in_carried = True
            continue
        if not line or _SKIP.match(line) or _MARK.match(line):
            continue
        words = word_set(line)
        if words and len(words & known) / len(words) >= COVERED_SHARE and specifics(line) <= named:
            continue
        (carried if in_carried else own).append(line if line.startswith("- ") else f"- {line}")
    room = max_chars - len(summary) - len(CARRIED_HEADING) - 4
    kept: list[str] = []
    for line in [*own, *carried]:
        if len(line) + 1 <= room:
            kept.append(line)
            room -= len(line) + 1
    if not kept:
        return summary
    parts = [body, CARRIED_HEADING + "\n" + "\n".join(kept)]
    return "\n\n".join([*parts, mark] if mark else parts)


def _split_mark(summary: str) -> tuple[str, str]:
    head, _, last = summary.rpartition("\n")
    if head and _MARK.match(last.strip()):
        return head.rstrip(), last.strip()
    return summary, ""
