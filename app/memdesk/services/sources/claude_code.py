"""Claude Code's transcripts: ``~/.claude/projects/<project>/<session>.jsonl``.

Each line is a record with a ``type``. Only ``user`` and ``assistant`` records carry the
conversation: ``message.content`` is a string or a list of blocks (``text``, ``tool_use``,
``tool_result``, ``thinking``, ``image``). Text is kept, a ``tool_use`` and its
``tool_result`` become one note, thinking and images are dropped. Left out: subagents'
sidechain records (``isSidechain``; their answer reaches the main conversation as a tool
result), meta records (``isMeta``), slash-command records, the summary Claude Code writes
when it compacts (``isCompactSummary``: the messages it summarises are already read), and
every other record type (attachments, queue operations, summaries, system records such as
compact boundaries, api-request*, cost-state, last-prompt…).
"""

from __future__ import annotations

from memdesk.services.sources.notes import Note, ToolCalls, record_time

# User text that is Claude Code talking to itself, not the person.
_NOT_SAID = (
    "<command-name>",
    "<command-message>",
    "<command-args>",
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<system-reminder>",
    "<bash-input>",
    "<bash-stdout>",
    "<bash-stderr>",
    "[Request interrupted by user",
)


class ClaudeCodeReader:
    def __init__(self, calls: ToolCalls) -> None:
        self.calls = calls
        self.cwd: str | None = None

    def read(self, record: dict) -> list[Note]:
        role = record.get("type")
        if role not in ("user", "assistant"):
            return []
        if isinstance(record.get("cwd"), str):
            self.cwd = record["cwd"]
        if record.get("isSidechain") or record.get("isMeta") or record.get("isCompactSummary"):
            return []
        message = record.get("message")
        if not isinstance(message, dict):
            return []
        at = record_time(record.get("timestamp"))
        content = message.get("content")
        if isinstance(content, str):
            return [Note(role, content.strip(), at)] if _said(content) else []
        if not isinstance(content, list):
            return []
        notes: list[Note] = []
        texts: list[str] = []
        for block in content:
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if kind == "text" and isinstance(block.get("text"), str) and _said(block["text"]):
                texts.append(block["text"].strip())
            elif kind == "tool_use":
                self.calls.called(block.get("id"), block.get("name"), block.get("input"))
            elif kind == "tool_result":
                notes.append(
                    self.calls.answered(
                        block.get("tool_use_id"), block.get("content"), at, bool(block.get("is_error"))
                    )
                )
        if texts:
            notes.insert(0, Note(role, "\n\n".join(texts), at))
        return notes


def _said(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith(_NOT_SAID)
