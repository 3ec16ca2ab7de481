"""Reading command-line text arguments (``-`` means standard input), printing tables and warnings."""

from __future__ import annotations

import sys
from pathlib import Path

from memdesk.errors import BadInputError

MAX_INPUT_BYTES = 64 * 1024 * 1024


def text_argument(value: str, what: str = "TEXT") -> str:
    """The argument itself, or standard input when it is ``-``, decoded strictly as UTF-8."""
    if value != "-":
        return value
    raw = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
    if len(raw) > MAX_INPUT_BYTES:
        raise BadInputError(f"{what} from standard input is over {MAX_INPUT_BYTES:,} bytes")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{what} from standard input is not valid UTF-8 (byte {exc.start})") from None


def read_text_file(path: str, what: str) -> str:
    if path == "-":
        return text_argument("-", what)
    try:
        raw = Path(path).expanduser().read_bytes()
    except OSError as exc:
        raise BadInputError(f"{what} {path}: {exc.strerror}") from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInputError(f"{what} {path}: not valid UTF-8 (byte {exc.start})") from None


def one_line(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def warn_about_settings(problems: tuple[str, ...]) -> None:
    """Bad values in the settings file: said once per run; the defaults apply."""
    for problem in problems:
        print(f"memdesk: warning: {problem}", file=sys.stderr)
