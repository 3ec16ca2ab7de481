"""Reading command-line text arguments (``-`` means standard input), printing tables and warnings."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from memdesk.errors import BadInputError

if TYPE_CHECKING:
    from memdesk.services.memdesk import Memdesk

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


def one_line(text: str, width: int = 100) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def warn_about_settings(problems: tuple[str, ...]) -> None:
    """Problems with the settings file, said once per run: what could not be read has its
    default, and a file that is not valid TOML says which settings are in effect."""
    for problem in problems:
        print(f"memdesk: warning: {problem}", file=sys.stderr)


# Said on standard error where a command has nothing to show because nothing is stored yet;
# standard output stays what scripts read.
EMPTY_STORE = (
    "The store is empty: load the example memories with `memdesk examples load`, "
    "or connect an assistant (`memdesk connect --help`)."
)


def say_aside(text: str) -> None:
    """A note for the person at the terminal, on standard error."""
    print(text, file=sys.stderr)


def note_if_instructions(text: str) -> None:
    """After the person's own write: it is stored as they wrote it (their hand is trusted),
    but where the text reads like instructions to an assistant, they hear what the write check
    would have done with it from one."""
    from memdesk.services.review import instruction_reasons

    reasons = instruction_reasons(text)
    if reasons:
        say_aside(
            "memdesk: note: stored as you wrote it; from an assistant it would wait for your review, "
            f"because {'; '.join(reasons)}"
        )


def listed(app: Memdesk, rows: int) -> int:
    """After a listing: when it showed nothing because nothing is stored yet, the next step,
    aside. The exit status, 0."""
    if not rows and app.is_empty():
        say_aside(EMPTY_STORE)
    return 0


def command_as_started() -> str:
    """How to run this same memdesk again from here: ``memdesk`` when that is the one the
    shell finds, else its path (``.venv/bin/memdesk`` in a source checkout, as `make run`
    starts it), or ``python -m memdesk`` with the Python that runs now."""
    import shutil

    started = Path(sys.argv[0])
    if started.name == "__main__.py":
        return f"{_from_here(Path(sys.executable))} -m memdesk"
    found = shutil.which(started.name)
    if found and Path(found).resolve() == started.resolve():
        return started.name
    return _from_here(started)


def _from_here(path: Path) -> str:
    """``path`` relative to the working folder when it is below it, else whole."""
    absolute = path.absolute()
    return str(absolute.relative_to(Path.cwd())) if absolute.is_relative_to(Path.cwd()) else str(absolute)


def typed_by_hand() -> bool:
    """Whether a person runs, at a terminal, a command that a program starts and feeds: its
    input is the terminal, so it would wait in silence for input that never comes."""
    return sys.stdin is not None and sys.stdin.isatty()
