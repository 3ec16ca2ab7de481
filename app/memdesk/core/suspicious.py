"""Spotting text that talks to an assistant instead of recording something about the person.

Memory is injected into later system prompts, so a memory that says "ignore previous
instructions" or carries chat-template markup would steer every later session. Model
replies (and anything else about to become memory) are checked here; a match is shown
to the person as suspicious rather than written silently. Pure: no I/O, no state.
"""

from __future__ import annotations

import json
import re

_EXCERPT_CHARS = 60

# (pattern, why it matters); each pattern is searched case-insensitively.
_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE | re.MULTILINE), why)
    for pattern, why in (
        (
            r"\b(?:ignore|forget|override)\b[^.\n]{0,40}?\b(?:previous|prior|above|earlier|all|your|the)\b"
            r"[^.\n]{0,20}?\b(?:instructions?|rules|prompts?|guidelines|directions)\b",
            "tells an assistant to drop its instructions",
        ),
        (r"\bdisregard\b", "tells an assistant to disregard something"),
        (r"\byou\s+(?:must|should\s+now|are\s+now|will\s+now)\b", "gives an assistant orders"),
        (r"\bsystem\s+(?:prompt|message|instructions?)\b", "mentions the assistant's system prompt"),
        (r"\bnew\s+instructions?\b", "claims to bring new instructions"),
        (
            r"</?\s*(?:tool_call|tool_use|tool_result|function_call|function|tools?|system|assistant)\s*>",
            "holds tool-call or role markup",
        ),
        (r"<\|[^|>\n]{1,40}\|>", "holds chat-template markup"),
        (r"\[/?INST\]|<</?SYS>>", "holds chat-template markup"),
        (r"^\s*(?:system|developer|tool)\s*:", "has a line speaking as the system"),
        # A first line "Assistant: …" quotes who said something (extractive summaries do);
        # a later one fakes a turn of the chat.
        (r"(?<=\n)[ \t]*assistant\s*:", "has a line speaking as the assistant"),
    )
)
_CALL_KEYS = frozenset({"function_call", "tool_calls", "tool_call", "tool_use"})
_CALL_BODY_KEYS = frozenset({"arguments", "parameters", "input"})
_DECODER = json.JSONDecoder()


def suspicious_reasons(text: str) -> list[str]:
    """Why ``text`` reads as instructions to an assistant; [] when it does not.

    Each reason quotes the words that matched, so a reviewer can find them.
    """
    reasons: list[str] = []
    for pattern, why in _RULES:
        match = pattern.search(text)
        if match:
            reasons.append(f"{why} (“{_excerpt(match.group(0))}”)")
    if _has_call_json(text):
        reasons.append("holds a function-call JSON object")
    return reasons


def describe(text: str) -> str:
    """The reasons as one sentence; "" when the text is not suspicious."""
    reasons = suspicious_reasons(text)
    return ("It " + "; it ".join(reasons) + ".") if reasons else ""


def _excerpt(words: str) -> str:
    words = " ".join(words.split())
    return words if len(words) <= _EXCERPT_CHARS else words[: _EXCERPT_CHARS - 1] + "…"


def _has_call_json(text: str) -> bool:
    """A JSON object shaped like a tool call: ``{"name": …, "arguments": …}`` or ``{"tool_calls": …}``."""
    start = text.find("{")
    while start != -1:
        try:
            value, _end = _DECODER.raw_decode(text, start)
        except ValueError:
            value = None
        if isinstance(value, dict) and _is_call(value):
            return True
        start = text.find("{", start + 1)
    return False


def _is_call(value: dict[str, object]) -> bool:
    keys = set(value)
    return bool(keys & _CALL_KEYS) or ("name" in keys and bool(keys & _CALL_BODY_KEYS))
