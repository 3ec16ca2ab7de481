"""pi's session files: ``~/.pi/agent/sessions/<folder>/<time>_<id>.jsonl``.

The first line is the header ``{"type": "session", "id", "cwd"}``; ``{"type": "message",
"message": {...}}`` lines carry messages: ``user`` and ``assistant`` (text parts kept,
``toolCall`` parts held for their result, ``thinking`` dropped) and ``toolResult`` (with
its call, one note). Model changes, compactions, labels and other types are skipped.
"""

from __future__ import annotations

from memdesk.services.sources.notes import Note, ToolCalls, record_time


class PiReader:
    def __init__(self, calls: ToolCalls) -> None:
        self.calls = calls
        self.cwd: str | None = None

    def read(self, record: dict) -> list[Note]:
        kind = record.get("type")
        if kind == "session" and isinstance(record.get("cwd"), str):
            self.cwd = record["cwd"]
        message = record.get("message")
        if kind != "message" or not isinstance(message, dict):
            return []
        at = record_time(record.get("timestamp", message.get("timestamp")))
        role = message.get("role")
        content = message.get("content")
        if role == "toolResult":
            return [self.calls.answered(message.get("toolCallId"), content, at, bool(message.get("isError")))]
        if role not in ("user", "assistant"):
            return []
        if isinstance(content, str):
            return [Note(role, content.strip(), at)] if content.strip() else []
        texts = []
        for part in content if isinstance(content, list) else []:
            if not isinstance(part, dict):
                continue
            if part.get("type") == "text" and isinstance(part.get("text"), str) and part["text"].strip():
                texts.append(part["text"].strip())
            elif part.get("type") == "toolCall":
                self.calls.called(part.get("id"), part.get("name"), part.get("arguments"))
        return [Note(role, "\n\n".join(texts), at)] if texts else []
