"""Transcript files: JSONL, pi session files and plain ``role: text``; errors name the line."""

import json
from datetime import datetime

import pytest

from memdesk.errors import BadInputError
from memdesk.services.compaction import ChangeKind, Compaction
from memdesk.services.transcripts import parse_transcript, read_transcript


def jsonl(*objects) -> str:
    return "\n".join(json.dumps(obj) for obj in objects) + "\n"


def messages(transcript):
    return [(m.role, m.content, m.at) for m in transcript.messages]


def test_jsonl_with_timestamps_and_text_parts():
    text = jsonl(
        {"role": "user", "content": "Hello", "timestamp": "2026-05-01T09:30:00Z"},
        {"role": "assistant", "content": [{"type": "text", "text": "Hi"}, {"type": "image", "url": "x"}]},
        {"role": "tool", "content": "ls output"},
        {"role": "assistant", "content": None},
        {"role": "System", "content": "Be brief.", "timestamp": 1_777_627_800_000},
    )
    transcript = parse_transcript(text, "chat")
    assert (transcript.name, transcript.format) == ("chat", "jsonl")
    assert messages(transcript) == [
        ("user", "Hello", datetime(2026, 5, 1, 9, 30)),
        ("assistant", "Hi", None),
        ("system", "Be brief.", datetime(2026, 5, 1, 9, 30)),
    ]


def test_pi_session_file_keeps_text_and_skips_tools_and_other_events():
    text = jsonl(
        {"type": "session", "version": 3, "id": "abc", "timestamp": "2026-05-01T09:00:00.000Z", "cwd": "/p"},
        {
            "type": "message",
            "id": "a1",
            "timestamp": "2026-05-01T09:00:01.000Z",
            "message": {"role": "user", "content": "Fix the build", "timestamp": 1},
        },
        {
            "type": "message",
            "id": "b2",
            "timestamp": "2026-05-01T09:00:02.000Z",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm"},
                    {"type": "text", "text": "Running make."},
                    {"type": "toolCall", "id": "c", "name": "bash", "arguments": {"command": "make"}},
                ],
            },
        },
        {
            "type": "message",
            "id": "c3",
            "message": {"role": "toolResult", "content": [{"type": "text", "text": "ok"}]},
        },
        {"type": "message", "id": "d4", "message": {"role": "assistant", "content": [{"type": "toolCall"}]}},
        {"type": "model_change", "id": "e5", "provider": "openai", "modelId": "gpt"},
        {
            "type": "message",
            "id": "f6",
            "message": {"role": "assistant", "content": "Fixed.", "timestamp": 1777626000000},
        },
    )
    transcript = parse_transcript(text)
    assert transcript.format == "pi"
    assert messages(transcript) == [
        ("user", "Fix the build", datetime(2026, 5, 1, 9, 0, 1)),
        ("assistant", "Running make.", datetime(2026, 5, 1, 9, 0, 2)),
        ("assistant", "Fixed.", datetime(2026, 5, 1, 9, 0)),
    ]


def test_plain_text_with_continuation_lines():
    text = (
        "\n"
        "User: Here is my plan:\n"
        "- step one\n"
        "\n"
        "- step two\n"
        "assistant:Looks good.\n"
        "note: this line continues the assistant's message\n"
        "system: \n"
    )
    transcript = parse_transcript(text)
    assert transcript.format == "text"
    assert messages(transcript) == [
        ("user", "Here is my plan:\n- step one\n\n- step two", None),
        ("assistant", "Looks good.\nnote: this line continues the assistant's message", None),
    ]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"role": "user", "content": "a"}\n\n{"role": "user", "content": "b",}\n', "line 3: not valid JSON"),
        ('{"role": "user", "content": "a"}\n[1, 2]\n', "line 2: expected a JSON object, not list"),
        ('{"role": "user", "content": "a"}\n{"content": "b"}\n', 'line 2: expected an object with "role"'),
        (
            '{"role": "user", "content": "a"}\n{"role": "robot", "content": "b"}\n',
            "line 2: unknown role 'robot'",
        ),
        ('{"role": "user", "content": 5}\n', "line 1: content must be text"),
        ('{"role": "user", "content": "a", "timestamp": "yesterday"}\n', "line 1: timestamp 'yesterday'"),
        ('{"type": "session"}\n{"type": "message", "message": "hi"}\n', "line 2: a message event without"),
        ("Hello there\nuser: hi\n", "line 1: expected a line starting with user:"),
        ("   \n\n", "is empty"),
        ('{"type": "session"}\n', "holds no user or assistant messages"),
    ],
)
def test_bad_input_names_the_line(text, words):
    with pytest.raises(BadInputError) as caught:
        parse_transcript(text, where="chat.jsonl")
    assert words in caught.value.message and caught.value.message.startswith("chat.jsonl")


def test_invalid_utf8_is_a_clear_error(tmp_path):
    path = tmp_path / "chat.txt"
    path.write_bytes(b"user: fine\nassistant: caf\xe9\n")
    with pytest.raises(BadInputError, match=r"not valid UTF-8 text \(line 2, byte 25\)"):
        read_transcript(path)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(BadInputError, match="No such file"):
        read_transcript(tmp_path / "gone.jsonl")


def test_reading_a_file_uses_its_stem(tmp_path):
    path = tmp_path / "Team chat.txt"
    path.write_text("\ufeffuser: hi\nassistant: hello\n", encoding="utf-8")
    transcript = read_transcript(path)
    assert transcript.name == "Team chat" and len(transcript.messages) == 2


def test_import_logs_into_a_new_session_each_time(memdesk_app, clock):
    app = memdesk_app
    transcript = parse_transcript(
        jsonl(
            {"role": "user", "content": "Hi", "timestamp": "2026-02-01T08:00:00Z"},
            {"role": "assistant", "content": "Yo"},
        ),
        "Team chat",
    )
    steps = len(app.history.list(1000))

    first = app.transcripts.import_messages(transcript)
    second = app.transcripts.import_messages(transcript)
    into = app.transcripts.import_messages(transcript, "web:mine")

    assert (first, second, into) == ("import:Team-chat", "import:Team-chat-2", "web:mine")
    assert len(app.history.list(1000)) == steps + 3
    logged = app.sessions.messages(first)
    assert [(m.role, m.content, m.created_at) for m in logged] == [
        ("user", "Hi", datetime(2026, 2, 1, 8, 0)),
        ("assistant", "Yo", clock.now),  # no time in the file: the moment of import
    ]
    app.history.undo()
    assert {s.id for s in app.sessions.list()} == {first, second}
    with pytest.raises(BadInputError, match="CHANNEL:ID"):
        app.transcripts.import_messages(transcript, "no colon")


def test_a_transcript_preview_writes_nothing_and_cannot_be_applied(memdesk_app):
    app = memdesk_app
    transcript = parse_transcript("user: I prefer tea.\nassistant: Noted.\n", "notes")
    steps = len(app.history.list(1000))

    proposal = Compaction(app).propose(transcript, dry_run=True)

    assert proposal.preview_only and proposal.session_id == "import:notes"
    assert proposal.changes[-1].kind is ChangeKind.ADVANCE_POINTER
    assert len(app.history.list(1000)) == steps and app.sessions.list() == []
    with pytest.raises(BadInputError, match="not been imported"):
        Compaction(app).apply(proposal)


def test_a_preview_into_an_existing_session_includes_its_new_messages(memdesk_app):
    app = memdesk_app
    app.sessions.log("web:a", "user", "I use Fedora.", app_id="cal")
    transcript = parse_transcript("user: I prefer tea.\n", "more")

    proposal = Compaction(app).propose(transcript, session_id="web:a", dry_run=True)

    assert (proposal.message_count, proposal.app_id) == (2, "cal")
    facts = next(c for c in proposal.changes if c.kind is ChangeKind.APPEND_FACTS)
    assert facts.after == "I use Fedora.\nI prefer tea."
