"""What a memory should not quote: pasted machine output and an assistant narrating its steps.

Stack traces, log lines, JSON, code and shell prompts are output of the moment; an
assistant's "Now I need to add the import" describes its own work, not the person's.
Both are recognised line by line (or sentence by sentence) with plain patterns.
"""

from __future__ import annotations

import re

from memdesk.core.patterns import lowercase

_STACK = re.compile(
    r"^\s*(?:at\s+\S.*(?:\(.*\)|:\d+(?::\d+)?)\s*$"  # at fn (file.ts:76:24)
    r"|File \".*\", line \d+"  # Python frames
    r"|Traceback \(most recent call last\)"
    r"|\.{3} \d+ more"
    r"|\^+\s*$)"
)
_ERROR_DUMP = re.compile(
    r"^\s*(?:[A-Z]\w*(?:Error|Exception)\b|Error:|errno:|code: |syscall: |npm ERR!|panic:|FATAL\b)"
)
_LOG = re.compile(
    r"^\s*\[?(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d\d:\d\d:\d\d)"
    r"|^\s*\[?(?:INFO|DEBUG|WARN|WARNING|ERROR|TRACE|CRITICAL)\]?[\s:]",
)
_JSON = re.compile(r"^\s*(?:[{\[]\s*[\"{\[\]}]|[{\[]\s*$|[}\]],?\s*$|\"[^\"]+\"\s*:)")
_SHELL = re.compile(r"^\s*(?:\$ |➜|>>> |% |PS [A-Z]:\\)|^\S*[~/]\S* \([\w/.-]+\)\s*$|\bgit:\(")
_CODE = re.compile(
    r"^\s*(?:import |from \S+ import |export |const |let |var |def |class \w+[(:]|function\b|return\b|"
    r"if \(|for \(|while \(|#include|//|/\*|\*/|@\w+\(|\w+\s*\([^)]*\)\s*[{;]|[\w.]+\s*=\s*.+;)"
    r"|[;{]\s*$|^\s*[})\]];?\s*$|=>\s*[{(]?\s*$"
)
_OBJECT_FIELD = re.compile(r"^\s*\w+: (?:['\"\[{]|\d+,?$|true|false|null)")
_TABLE = re.compile(r"^\s*\|.*\|\s*$|^\s*#{1,6} ")  # tables, and headings of pasted documents
_NUMBERED_CODE = re.compile(r"^\s*\d+\s*[│|:]\s|^\s*[+-]\s*\d+\s|^@@ |^(?:diff --git|index [0-9a-f]+\.\.)")
_SYMBOLS = re.compile(r"[{}\[\]();=<>|&$\\]")
# One pass over the line instead of one per kind of output.
_NOISE = re.compile(
    "|".join(
        f"(?:{p.pattern})"
        for p in (_STACK, _ERROR_DUMP, _LOG, _JSON, _SHELL, _CODE, _OBJECT_FIELD, _TABLE, _NUMBERED_CODE)
    )
)

# An assistant talking about its own next step ("Now I need to add…", "Let me check…").
_NARRATION = lowercase(
    r"^(?:(?:now|next|first|then|ok(?:ay)?|good|great|perfect|alright|so|also)[,.!:]?\s+)*"
    r"(?:(?:I(?:'ll| will| need to| should| have to|'m going to| am going to)|let me|let's)"
    r"\s+(?:now\s+|also\s+|first\s+)?)?"
    r"(?:check|look|read|add|update|fix|run|find|create|edit|write|search|open|modify|implement|"
    r"test|verify|remove|replace|refactor|install|build|move|rename|change|inspect|examine|try|"
    r"start|call|see|handle|wire|commit|revert|grep|view|extract|split|clean|delete)\b"
    r"|^(?:checking|looking at|reading|updating|adding|running|searching|fixing|editing|"
    r"creating|writing|let me)\b"
    # announcing the next item of its own plan: "Now WP16: …", "Next is step 3", "Let's do WP14"
    r"|^(?:now|next)(?:\s+(?:is|up))?\s*:?\s*(?:(?:step|phase|part|task|item)\s+)?[\w.-]{0,12}\d[\w.-]{0,12}:"
    r"|^next (?:is|up)\b"
    r"|^let's (?:do|go|start|move|tackle|continue|proceed|begin|get)\b"
)
# An assistant speaking of itself: what it will do or did ("I'll shortlist three venues…");
# the person's own words say what they asked for. A restatement ("Noted: 8 people, 19–20
# March…", "Got it — Thursday 20:30–23:30 blocked") is kept: it states the plan.
_SELF_REPORT = lowercase(
    r"^(?:(?:ok(?:ay)?|sure|of course|great|perfect|alright|done|got it|noted)\b[,.!:—-]?\s*)*"
    r"(?:I\b|I'(?:ll|ve|m|d)\b|let me\b)"
)
TO_THE_LISTENER = lowercase(r"\b(?:you|your|yours)\b")


def is_noise_line(line: str) -> bool:
    """A line of pasted output: stack frame, error dump, log, JSON, code, shell or table."""
    stripped = line.strip()
    if not stripped:
        return False
    if _NOISE.search(stripped):
        return True
    # Dense punctuation with few spaces: minified code, a long key, an encoded blob.
    symbols = len(_SYMBOLS.findall(stripped))
    return (symbols >= 4 and symbols / len(stripped) > 0.08) or _longest_token(stripped) > 80


def is_narration(sentence: str, role: str) -> bool:
    """The assistant describing its own steps rather than telling the person something."""
    if role != "assistant":
        return False
    text = sentence.strip().lstrip("*_ ")
    if text.endswith(":"):
        return True  # introduces code or output that follows
    lower = text.lower()
    return bool(_NARRATION.match(lower)) and not TO_THE_LISTENER.search(lower)


def is_self_report(sentence: str, role: str) -> bool:
    """The assistant telling what it will do or did, rather than what was decided."""
    return role == "assistant" and bool(_SELF_REPORT.match(sentence.strip().lstrip("*_ ").lower()))


def _longest_token(text: str) -> int:
    return max(map(len, text.split()), default=0)
