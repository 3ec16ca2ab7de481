"""Codex CLI's rollout files: ``~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``.

Each line is ``{"timestamp", "type", "payload"}``. ``session_meta`` gives the session's
folder (``cwd``); ``response_item`` carries the conversation: a ``message`` (role ``user``
or ``assistant``, parts ``input_text``/``output_text``), a ``function_call`` or
``custom_tool_call`` and its ``*_output`` (one note), ``reasoning`` (dropped).
``event_msg`` repeats the messages for the terminal and is skipped, as are
``turn_context``, ``compacted`` and any other type. The instructions and environment
Codex sends as user messages are left out.
"""

from __future__ import annotations

import json

from memdesk.services.sources.notes import Note, ToolCalls, record_time, text_of

_NOT_SAID = ("<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<INSTRUCTIONS>")


class CodexReader:
    def __init__(self, calls: ToolCalls) -> None:
        self.calls = calls
        self.cwd: str | None = None

    def read(self, record: dict) -> list[Note]:
        payload = record.get("payload")
        if not isinstance(payload, dict):
            return []
        kind = record.get("type")
        if kind in ("session_meta", "turn_context") and isinstance(payload.get("cwd"), str):
            self.cwd = payload["cwd"]
            return []
        if kind != "response_item":
            return []
        at = record_time(record.get("timestamp"))
        item = payload.get("type")
        if item == "message" and payload.get("role") in ("user", "assistant"):
            text = text_of(payload.get("content")).strip()
            if text and not text.startswith(_NOT_SAID):
                return [Note(payload["role"], text, at)]
        elif item in ("function_call", "custom_tool_call"):
            self.calls.called(
                payload.get("call_id"), payload.get("name"), payload.get("arguments", payload.get("input"))
            )
        elif item in ("function_call_output", "custom_tool_call_output"):
            return [self.calls.answered(payload.get("call_id"), _output(payload.get("output")), at)]
        return []


def _output(output: object) -> object:
    """A call's output: plain text, or text inside ``{"output": ...}``."""
    if isinstance(output, dict):
        return output.get("output", output.get("content", ""))
    if isinstance(output, str) and output.startswith("{"):
        try:
            decoded = json.loads(output)
        except ValueError:
            return output
        return decoded.get("output", output) if isinstance(decoded, dict) else output
    return output
