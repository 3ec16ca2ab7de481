"""Typed settings: one TOML file, validated key by key, saved atomically.

Each key is described once in ``SPECS``; loading, validation, the Settings dialog and the
user guide's settings reference all read that one description. A bad value is reported with
its key and the allowed range, and the default applies instead.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdesk.core.backends import BACKEND_LABELS, BACKENDS
from memdesk.core.trust import DEFAULT_LEVEL, LEVEL_LABELS, LEVELS

if TYPE_CHECKING:
    from memdesk.paths import Paths

COMPACTION_STEPS = ("working", "timeline", "facts", "app")
COMPACTION_STEP_LABELS = ("Working memory", "Timeline", "Facts", "App memories")
DEFAULT_OPENAI_BASE_URL = "http://localhost:11434/v1"  # Ollama's OpenAI-compatible endpoint
# Keys renamed since a release: a settings file that still has the old name keeps working.
RENAMED_KEYS = {"llm.base_url": "llm.openai_base_url"}


@dataclass(frozen=True)
class SettingSpec:
    """One configurable key: where it lives, its type, its range and its default."""

    key: str  # "section.name"
    kind: str  # "int", "float", "bool", "str", "path", "paths", "choice", "subset", "url"
    default: Any
    label: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    # How the window names each choice (same order as ``choices``; empty: the value itself).
    choice_labels: tuple[str, ...] = ()
    help: str = ""  # a sentence for the window's tooltip, where the label alone says too little

    def choice_label(self, choice: str) -> str:
        if not self.choice_labels:
            return choice
        return self.choice_labels[self.choices.index(choice)]

    @property
    def section(self) -> str:
        return self.key.split(".", 1)[0]

    @property
    def name(self) -> str:
        return self.key.split(".", 1)[1]

    def describe_range(self) -> str:
        if self.kind == "int":  # as written in config.toml: 2000000, never 2e+06
            return f"a number from {self.minimum:.0f} to {self.maximum:.0f}"
        if self.kind == "float":
            return f"a number from {self.minimum:g} to {self.maximum:g}"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "subset":
            return "a list drawn from " + ", ".join(self.choices)
        if self.kind == "paths":
            return "a list of folders"
        if self.kind == "url":
            return "an http:// or https:// URL" + ("" if self.default else ", or empty")
        return "text"


SPECS: tuple[SettingSpec, ...] = (
    SettingSpec(
        "memory.user_namespace",
        "str",
        "user",
        "User namespace (empty: no profile; working memory per session)",
    ),
    SettingSpec("memory.working_memory_ttl_days", "int", 14, "Working memory lifetime (days)", 1, 365),
    SettingSpec("memory.working_memory_max_tokens", "int", 1000, "Working memory budget (tokens)", 100, 4000),
    SettingSpec("memory.proactive_session_greeting", "bool", False, "Proactive session greeting"),
    SettingSpec("memory.recall_limit", "int", 5, "Recalled items per prompt", 1, 50),
    SettingSpec("memory.recall_by_meaning", "bool", True, "Recall facts by meaning too"),
    SettingSpec("memory.timeline_retention_days", "int", 90, "Timeline retention (days)", 1, 3650),
    SettingSpec("memory.app_memory_cap", "int", 10, "Memories kept per app", 1, 1000),
    SettingSpec("memory.app_memory_max_chars", "int", 200, "Longest app memory (characters)", 50, 5000),
    SettingSpec("memory.trash_retention_days", "int", 30, "Days an item waits in Trash", 1, 3650),
    SettingSpec("compaction.turn_threshold", "int", 3, "Compact after this many turns", 1, 1000),
    SettingSpec("compaction.idle_minutes", "int", 10, "Compact after idle minutes", 1, 10080),
    SettingSpec(
        "compaction.context_window_tokens", "int", 128000, "Model context window (tokens)", 1000, 2000000
    ),
    SettingSpec(
        "compaction.max_failures_before_degrade",
        "int",
        3,
        "Failed runs before keeping the conversation as it is",
        1,
        100,
        help="After this many failed runs in a row on one session, its new messages are kept word "
        "for word as one timeline entry instead of a summary, so nothing waits for ever",
    ),
    # With a model: how many knowledge entries recall offers it, and app memories, to check
    # against a conversation for facts it changed (besides every profile and facts line).
    SettingSpec(
        "compaction.change_candidates", "int", 8, "Entries and app memories checked for changes", 1, 100
    ),
    # Offline: a learned reader also proposes, never pre-accepted, marking past a stored line a
    # sentence of the person's says no longer holds when no rule changed it.
    SettingSpec("compaction.learned_reader", "bool", True, "Offline: suggest facts read as out of date"),
    SettingSpec(
        "compaction.steps",
        "subset",
        list(COMPACTION_STEPS),
        "What compaction writes",
        choices=COMPACTION_STEPS,
        choice_labels=COMPACTION_STEP_LABELS,
        help="The parts of memory a compaction run may propose changes to; a part left unticked "
        "is never touched by compaction",
    ),
    SettingSpec(
        "llm.backend",
        "choice",
        "offline",
        "LLM backend",
        choices=BACKENDS,
        choice_labels=tuple(BACKEND_LABELS[name] for name in BACKENDS),
    ),
    SettingSpec("llm.openai_base_url", "url", DEFAULT_OPENAI_BASE_URL, "Server URL (OpenAI-compatible)"),
    SettingSpec("llm.anthropic_base_url", "url", "", "Server URL (Anthropic; empty: the official API)"),
    SettingSpec("llm.model", "str", "", "Model (empty: the backend's default)"),
    SettingSpec("llm.timeout_seconds", "float", 60, "Request timeout (seconds)", 1, 600),
    SettingSpec("llm.max_tokens", "int", 1024, "Longest reply (tokens)", 64, 32000),
    SettingSpec("files.enabled", "bool", False, "Inject MEMORY.md file scopes"),
    SettingSpec("files.global_dir", "path", "", "Global memory folder (empty: <data dir>/memory)"),
    SettingSpec("files.max_inject_lines", "int", 200, "MEMORY.md lines injected", 1, 10000),
    SettingSpec("files.max_inject_bytes", "int", 8192, "MEMORY.md bytes injected", 256, 1048576),
    SettingSpec(
        "files.trusted_projects",
        "paths",
        [],
        "Trusted projects (one folder a line)",
        help="Projects whose .pi/memory/MEMORY.md reaches the prompt of an assistant working in "
        "them (or in a folder of their repository); `memdesk files trust` adds one",
    ),
    SettingSpec("prompt.base_file", "path", "", "Base prompt file (empty: none)"),
    SettingSpec("agents.allow_writes", "bool", True, "Assistants may write memories"),
    SettingSpec("agents.allow_forget", "bool", True, "Assistants may delete memories"),
    SettingSpec(
        "agents.default_trust",
        "choice",
        DEFAULT_LEVEL.value,
        "Trust for a new assistant",
        choices=LEVELS,
        choice_labels=tuple(LEVEL_LABELS.values()),
        help="Which writes of an assistant wait for your review until you set its own level on "
        "the Assistants page",
    ),
    SettingSpec("agents.model_second_opinion", "bool", False, "Ask the LLM backend about unflagged writes"),
    SettingSpec(
        "agents.read_log_retention_days", "int", 90, "Days the log of assistants' reads keeps", 1, 3650
    ),
    SettingSpec("sources.claude_code", "bool", False, "Read Claude Code's transcripts"),
    SettingSpec("sources.codex", "bool", False, "Read Codex CLI's transcripts"),
    SettingSpec("sources.pi", "bool", False, "Read pi's session files"),
)
SPEC_BY_KEY = {spec.key: spec for spec in SPECS}


def validate_value(spec: SettingSpec, raw: Any) -> tuple[Any, str | None]:
    """Return the value converted to the key's type, or a problem sentence naming the key."""
    problem = f"{spec.key}: {raw!r} is not valid; expected {spec.describe_range()}"
    if spec.kind == "bool":
        return (raw, None) if isinstance(raw, bool) else (None, problem)
    if spec.kind in ("int", "float"):
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            return None, problem
        if spec.kind == "int" and isinstance(raw, float) and not raw.is_integer():
            return None, problem
        value = int(raw) if spec.kind == "int" else float(raw)
        assert spec.minimum is not None and spec.maximum is not None
        if not spec.minimum <= value <= spec.maximum:
            return None, problem
        return value, None
    if spec.kind == "choice":
        return (raw, None) if raw in spec.choices else (None, problem)
    if spec.kind == "subset":
        if not isinstance(raw, list | tuple) or any(item not in spec.choices for item in raw):
            return None, problem
        return tuple(item for item in spec.choices if item in raw), None
    if spec.kind == "paths":
        if not isinstance(raw, list | tuple) or not all(_is_path_text(item) for item in raw):
            return None, problem
        return tuple(dict.fromkeys(raw)), None
    if not _is_text(raw):
        return None, problem
    if spec.kind == "url" and not raw.startswith(("http://", "https://")) and (raw or spec.default):
        return None, problem
    return raw, None


def _is_text(raw: Any) -> bool:
    """A text value a settings file can hold: a string of at most 4096 characters, no NUL."""
    return isinstance(raw, str) and len(raw) <= 4096 and "\x00" not in raw


def _is_path_text(raw: Any) -> bool:
    return _is_text(raw) and bool(raw.strip())


def _default(key: str) -> Any:
    """The default ``SPECS`` declares for ``key``, in the type the settings classes hold."""
    spec = SPEC_BY_KEY[key]
    value, problem = validate_value(spec, spec.default)
    assert problem is None, problem
    return value


@dataclass(frozen=True)
class MemorySettings:
    user_namespace: str = _default("memory.user_namespace")
    working_memory_ttl_days: int = _default("memory.working_memory_ttl_days")
    working_memory_max_tokens: int = _default("memory.working_memory_max_tokens")
    proactive_session_greeting: bool = _default("memory.proactive_session_greeting")
    recall_limit: int = _default("memory.recall_limit")
    recall_by_meaning: bool = _default("memory.recall_by_meaning")
    timeline_retention_days: int = _default("memory.timeline_retention_days")
    app_memory_cap: int = _default("memory.app_memory_cap")
    app_memory_max_chars: int = _default("memory.app_memory_max_chars")
    trash_retention_days: int = _default("memory.trash_retention_days")


@dataclass(frozen=True)
class CompactionSettings:
    turn_threshold: int = _default("compaction.turn_threshold")
    idle_minutes: int = _default("compaction.idle_minutes")
    context_window_tokens: int = _default("compaction.context_window_tokens")
    max_failures_before_degrade: int = _default("compaction.max_failures_before_degrade")
    change_candidates: int = _default("compaction.change_candidates")
    learned_reader: bool = _default("compaction.learned_reader")
    steps: tuple[str, ...] = _default("compaction.steps")


@dataclass(frozen=True)
class LLMSettings:
    backend: str = _default("llm.backend")
    openai_base_url: str = _default("llm.openai_base_url")
    anthropic_base_url: str = _default("llm.anthropic_base_url")
    model: str = _default("llm.model")
    timeout_seconds: float = _default("llm.timeout_seconds")
    max_tokens: int = _default("llm.max_tokens")


@dataclass(frozen=True)
class FilesSettings:
    enabled: bool = _default("files.enabled")
    global_dir: str = _default("files.global_dir")
    max_inject_lines: int = _default("files.max_inject_lines")
    max_inject_bytes: int = _default("files.max_inject_bytes")
    trusted_projects: tuple[str, ...] = _default("files.trusted_projects")


@dataclass(frozen=True)
class PromptSettings:
    base_file: str = _default("prompt.base_file")


@dataclass(frozen=True)
class AgentsSettings:
    allow_writes: bool = _default("agents.allow_writes")
    allow_forget: bool = _default("agents.allow_forget")
    default_trust: str = _default("agents.default_trust")
    model_second_opinion: bool = _default("agents.model_second_opinion")
    read_log_retention_days: int = _default("agents.read_log_retention_days")


@dataclass(frozen=True)
class SourcesSettings:
    """Which assistants' own transcripts are read into sessions (``memdesk sources``)."""

    claude_code: bool = _default("sources.claude_code")
    codex: bool = _default("sources.codex")
    pi: bool = _default("sources.pi")


@dataclass(frozen=True)
class Settings:
    memory: MemorySettings = field(default_factory=MemorySettings)
    compaction: CompactionSettings = field(default_factory=CompactionSettings)
    llm: LLMSettings = field(default_factory=LLMSettings)
    files: FilesSettings = field(default_factory=FilesSettings)
    prompt: PromptSettings = field(default_factory=PromptSettings)
    agents: AgentsSettings = field(default_factory=AgentsSettings)
    sources: SourcesSettings = field(default_factory=SourcesSettings)

    def get(self, key: str) -> Any:
        section, name = key.split(".", 1)
        return getattr(getattr(self, section), name)

    def with_values(self, values: dict[str, Any]) -> Settings:
        """A copy with some keys changed; raises BadInputError naming the first bad key."""
        from memdesk.errors import BadInputError

        sections: dict[str, dict[str, Any]] = {}
        for key, raw in values.items():
            spec = SPEC_BY_KEY.get(RENAMED_KEYS.get(key, key))
            if spec is None:
                raise BadInputError(f"unknown setting {key!r}")
            value, problem = validate_value(spec, raw)
            if problem:
                raise BadInputError(problem)
            sections.setdefault(spec.section, {})[spec.name] = value
        updated = {
            name: dataclasses.replace(getattr(self, name), **changes) for name, changes in sections.items()
        }
        return dataclasses.replace(self, **updated)

    def to_toml_dict(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for spec in SPECS:
            value = self.get(spec.key)
            out.setdefault(spec.section, {})[spec.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class LoadedSettings:
    settings: Settings
    problems: tuple[str, ...]


def load_settings(path: Path) -> LoadedSettings:
    """Read settings; a missing file means defaults, and no bad value is ever fatal."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return LoadedSettings(Settings(), ())
    except (OSError, UnicodeDecodeError) as exc:
        said = f"{path}: could not be read ({exc}); every setting has its default"
        return LoadedSettings(Settings(), (said,))
    import tomllib  # only a file that exists needs the parser, which takes a while to import

    try:
        return _settings_from(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        # Most often a table pasted in twice: what the person turned on elsewhere in the file
        # must not quietly go back to its default, so the rest of the file is still read.
        from memdesk.toml_text import read_tables, value_text

        salvaged = read_tables(text)
        loaded = _settings_from(salvaged.data)
        in_effect = [
            f"{spec.key} = {value_text(loaded.settings.get(spec.key))}"
            for spec in SPECS
            if loaded.settings.get(spec.key) != Settings().get(spec.key)
        ]
        said = (
            f"{path} is not valid TOML ({exc}); each table was read on its own instead, the later "
            "value winning where a table is given twice",
            *(f"{path}, {problem}" for problem in salvaged.problems),
            *loaded.problems,
            f"{path}: in effect: {', '.join(in_effect) or 'no key'}; every other setting has its default",
        )
        return LoadedSettings(loaded.settings, said)


def _settings_from(data: dict[str, Any]) -> LoadedSettings:
    problems: list[str] = []
    accepted: dict[str, Any] = {}
    for section, body in data.items():
        if not isinstance(body, dict):
            problems.append(f"{section}: expected a [{section}] table; ignored")
            continue
        for name, raw in body.items():
            key = f"{section}.{name}"
            if key in RENAMED_KEYS and RENAMED_KEYS[key] in accepted:
                continue  # the new name was given too, and wins
            key = RENAMED_KEYS.get(key, key)
            spec = SPEC_BY_KEY.get(key)
            if spec is None:
                problems.append(f"{key}: unknown setting; ignored")
                continue
            value, problem = validate_value(spec, raw)
            if problem:
                problems.append(f"{problem}; using the default {spec.default!r}")
            else:
                accepted[key] = value
    return LoadedSettings(Settings().with_values(accepted), tuple(problems))


def save_settings(path: Path, values: dict[str, Any]) -> None:
    """Set the keys of ``values`` in the settings file and change nothing else in it (the
    person's comments, order and other keys stay). Written atomically: readers see the old
    file or the new one, never half. A file that is not valid TOML is not changed."""
    import tomllib

    from memdesk.errors import BadInputError
    from memdesk.toml_text import NotEditable, set_keys, value_text

    settings = [f"{key} = {value_text(value)}" for key, value in values.items()]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path} could not be read ({exc}); nothing changed") from None
    try:
        new = set_keys(text, {tuple(key.split(".")): value for key, value in values.items()})
    except tomllib.TOMLDecodeError as exc:
        raise BadInputError(
            f"{path} is not valid TOML ({exc}); nothing changed",
            f"mend that line, or set {' and '.join(settings)} in it by hand",
        ) from None
    except NotEditable:
        raise BadInputError(
            f"{path} gives {', '.join(values)} in a form Memdesk does not edit (an inline table or "
            "dotted keys); nothing changed",
            f"set {' and '.join(settings)} in it by hand",
        ) from None
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(new.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def global_folder(settings: Settings, paths: Paths) -> Path:
    """The global scope's folder: ``files.global_dir``, or one in the data folder."""
    configured = settings.files.global_dir
    return Path(configured).expanduser() if configured else paths.default_files_dir
