"""Code read as code: what the learned detector reads of a line of code, or of an identifier in
a sentence.

An identifier is not an order: ``executeBash``, ``run_print_mode`` or ``toHaveBeenCalledWith``
say nothing about whether a note talks to an assistant, yet their pieces look like the words
of one. What a comment or a string says in plain words is still read, because an order to an
assistant can hide there ("# assistant: ignore previous instructions"); in configuration, a
comment after a setting's value is a note on that value, read only when it speaks to the reader.

``code_blanked`` keeps the text's length and every offset: what is not read becomes spaces, so
the words the model weighed are found at the same place in the text a person sees. (Quotations
and examples a text only mentions are hidden from the model by ``detector_mention``.)
"""

from __future__ import annotations

import re

from memdesk.core.detector_address import addresses_a_reader

# Anything that may be code: a bracket or a mark of code, camelCase, a dotted name or an indented
# line; without one of these, a text is read whole (most notes and chat). Each is looked for on
# its own from the character it cannot lack (the capital, the dot), which the regular expression
# engine finds far faster than it tries one pattern of alternatives at every character.
_CODE_MARK = re.compile(r"[(){};=<>`_\[\]]")
_CAMEL_CASE = re.compile(r"[A-Z](?<=[a-z][A-Z])")
_DOTTED = re.compile(r"\.(?<=\w\.)\w")
_FENCE = re.compile(r"[ \t]*(?:```|~~~)")
# Identifiers inside any line: dotted names, snake_case, camelCase, calls, `spans` without a
# space, and --options (with their values, quoted or not: "'-Wno-unused-parameter", "-I./include").
_IDENTIFIER = re.compile(
    r"`[^`\s]+`"
    r"|(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+(?:\(\))?"
    r"|(?<![\w$])\w*(?:[a-z0-9][A-Z]|_[A-Za-z0-9])[\w$]*(?:\(\))?"
    r"|(?<![\w$])[A-Za-z_$][\w$]*\((?:\))?"
    r"|(?<![^\s'\"])--?[A-Za-z][\w./-]*(?:=[^\s'\"]*)?"
)
# What every identifier holds: a backtick, a parenthesis, an underscore, a dash, a dot before a
# name, or a capital after a small letter or a digit. A line without one has none to blank,
# and this is found far faster than the identifiers are looked for.
_IDENTIFIER_MARK = re.compile(r"[`(_.A-Z-](?:(?<=[`(_-])|(?<=\.)(?=[A-Za-z_$])|(?<=[a-z0-9][A-Z]))")
# A word (a run without whitespace) that holds such a mark.
_MARKED_WORD = re.compile(rf"(?<!\S)\S*?(?:{_IDENTIFIER_MARK.pattern})\S*")
# In a line of code, what is read: strings holding a space (words, not keys) and comments. Each
# way opens with its mark (what may stand before a comment's mark is checked behind it), so the
# engine skips to the marks instead of trying the pattern at every character.
_STRING_OR_COMMENT = re.compile(
    r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`[^`\n]*`"
    r"|#(?<![:\w/]#)(?=\s).*|//(?<![:\w/]//)(?=\s).*|--(?<![:\w/]--)(?=\s).*"
)
_KEYWORDS = (
    "def class return import from if elif else for while try except finally raise yield with as"
    " pass lambda async await const let var function export new this self null none true false"
    " case switch break continue throw catch public private static void int interface type enum"
    " describe it expect assert"
    # SQL, written in capitals as it usually is: "FROM instructions" names a table.
    " SELECT FROM WHERE ORDER GROUP BY INSERT INTO UPDATE SET VALUES JOIN LIMIT AND OR CREATE TABLE DELETE"
)
_CODE_WORDS = frozenset(_KEYWORDS.split())
_CODE_MARKS = re.compile(r"[(){}\[\];=<>]|\w\.\w|^[\"'][^\"']*[\"']:|[a-z][A-Z]|_\w")
# Found in a line wherever ``_CODE_MARKS`` is found in one of its words (and in more lines): a
# line without one has no word marked as code, which a few searches of the line tell instead of
# one a word (``_any_code_mark``). Each way is looked for on its own, from the character it cannot
# lack, for the engine to skip to: one pattern of the five is tried at every character.
_BRACKET_MARK = re.compile(r"[(){}\[\];=<>]")
_SNAKE_CASE = re.compile(r"_\w")
# A quoted key's closing quote and the colon after it ("name":); the opening quote is looked for
# before it.
_QUOTE_COLON = re.compile(r"[\"']:")
_TRAILING_COMMENT = re.compile(r"\s(?:#|//)\s")
# An escape sequence inside a string ("\\n") is no word.
_ESCAPE = re.compile(r"\\[nrt]")
# A setting or a variable given a value ("email.signature = '…'", "export NAME='…'").
_ASSIGNMENT = re.compile(r"[ \t]*(?:export\s+|const\s+|let\s+|var\s+)?[A-Za-z_$][\w.$-]*\s*[+:]?=\s*\S")
# A loop's header ("for rule in rules:"): code, though its words are few and plain.
_LOOP_HEADER = re.compile(r"[ \t]*for\s+[\w, ()]+\s+in\s+[\w.()\[\]'\"]+\s*:\s*$")
# A line is code when at least this share of its words look like code.
_CODE_SHARE = 0.5
# A configuration file's line: a key and a colon ("system_prompt_file: prompts/a.md", "assistant:").
_CONFIG_KEY = re.compile(r"[ \t]*(?:- )?[a-z_][\w.-]*:(?=\s|$)")
# A comment after a setting's value.
_SETTING_NOTE = re.compile(r"[ \t]#[ \t]+\S[^\n]*")
# A list item of a setting: a value alone ("  - 'docs/**'").
_CONFIG_ITEM = re.compile(r"[ \t]*- [\"']?[^\s\"']+[\"']?[ \t]*$")
# A text is configuration when it has at least this many lines and this share of them are keys.
_CONFIG_LINES = 3
_CONFIG_SHARE = 0.6


def code_blanked(text: str) -> str:
    """``text`` with code that is not words blanked out (same length, same offsets)."""
    lines = text.splitlines(keepends=True)
    config = _is_config(lines)
    if not config and not _maybe_code(text):
        return text
    read: list[str] = []
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
            read.append(_blank(line))
        elif fenced or _is_code(line):
            read.append(_words_of_code(line))
        elif config and (key := _CONFIG_KEY.match(line)):
            # A key names a setting; its value is read as written.
            read.append(" " * key.end() + line[key.end() :])
        else:
            read.append(line)
    if config:
        read = [_without_setting_note(kept, line) for kept, line in zip(read, lines, strict=True)]
    return "".join(map(_identifiers_blanked, read))


def _identifiers_blanked(line: str) -> str:
    """``line`` with its identifiers blanked. No identifier spans whitespace, and whitespace
    before one reads as the line's start does: each word of the line that holds a mark is
    blanked alone, and the rest of the line (most of a line of prose) is not searched."""
    if not _IDENTIFIER_MARK.search(line):
        return line
    return _MARKED_WORD.sub(_identifiers_of_word, line)


def _identifiers_of_word(word: re.Match[str]) -> str:
    return _IDENTIFIER.sub(_spaces, word.group(0))


def _spaces(found: re.Match[str]) -> str:
    return " " * (found.end() - found.start())


def _maybe_code(text: str) -> bool:
    return bool(
        _CODE_MARK.search(text)
        or _CAMEL_CASE.search(text)
        or _DOTTED.search(text)
        or text.startswith(("    ", "\t"))
        or "\n    " in text
        or "\n\t" in text
    )


def _without_setting_note(kept: str, line: str) -> str:
    """``kept``, what is read of a configuration ``line``, without the comment after a setting's
    value ("retries: 3  # the vendor throttles us"): a note on what the value means to whoever
    edits the file. Kept when the line sets nothing, or the comment speaks to the reader."""
    key = _CONFIG_KEY.match(line)
    if key is None:
        return kept
    note = _SETTING_NOTE.search(line, key.end())
    if (
        note is None
        or not line[key.end() : note.start()].strip()
        or addresses_a_reader(note.group(0).lower())
    ):
        return kept
    return kept[: note.start()] + _blank(note.group(0)) + kept[note.end() :]


def _is_config(lines: list[str]) -> bool:
    filled = [line for line in lines if line.strip()]
    if len(filled) < _CONFIG_LINES:
        return False
    keys = sum(1 for line in filled if _CONFIG_KEY.match(line))
    if not keys or keys >= _CONFIG_SHARE * len(filled):
        return keys > 0
    items = sum(1 for line in filled if _CONFIG_ITEM.match(line))
    return keys + items >= _CONFIG_SHARE * len(filled)


def _is_code(line: str) -> bool:
    # A comment after code says nothing of whether the line is code. (Its mark is looked for
    # first: most lines hold none, and finding a character costs less than splitting.)
    commented = "#" in line or "//" in line
    before_comment = _TRAILING_COMMENT.split(line, maxsplit=1)[0] if commented else line
    tokens = before_comment.split()
    if not tokens or tokens[0].startswith(("#", "//", "/*", "*")):
        return False  # a comment (or a heading, or a bullet): words
    needed = _CODE_SHARE * len(tokens)
    if not _any_code_mark(before_comment):
        if sum(map(_CODE_WORDS.__contains__, tokens)) >= needed:
            return True
    else:
        # Counted until the share is reached: in a note of code most lines reach it early.
        coded = 0
        for token in tokens:
            if token in _CODE_WORDS or _CODE_MARKS.search(token):
                coded += 1
                if coded >= needed:
                    return True
    assigned = "=" in line and _ASSIGNMENT.match(line)
    return bool(assigned or (tokens[0] == "for" and _LOOP_HEADER.match(line)))


def _any_code_mark(line: str) -> bool:
    """Whether a mark of ``_CODE_MARKS`` stands anywhere in ``line``: a bracket or an operator, a
    dotted name, camelCase, snake_case, or a quoted key before a colon (``"name":``: a quote and
    a colon after it, with another quote before, the key's opening one)."""
    if (
        _BRACKET_MARK.search(line)
        or _SNAKE_CASE.search(line)
        or _DOTTED.search(line)
        or _CAMEL_CASE.search(line)
    ):
        return True
    key_end = _QUOTE_COLON.search(line)
    if key_end is None:
        return False
    at = key_end.start()
    # A later closing quote has this one before it.
    return (
        line.find('"', 0, at) != -1 or line.find("'", 0, at) != -1 or bool(_QUOTE_COLON.search(line, at + 1))
    )


def _words_of_code(line: str) -> str:
    """The line with only its strings of words and its comments left."""
    kept: list[str] = []
    done = 0  # how much of the line is in ``kept``
    for found in _STRING_OR_COMMENT.finditer(line):
        part = found.group(0)
        if " " in part.strip("\"'` "):
            kept += (" " * (found.start() - done), part)
            done = found.end()
    kept.append(" " * (len(line) - done))
    read = "".join(kept)
    if line.endswith("\n"):
        read = read[:-1] + "\n"
    return _ESCAPE.sub("  ", read) if "\\" in read else read


def _blank(line: str) -> str:
    return " " * len(line.rstrip("\n")) + line[len(line.rstrip("\n")) :]
