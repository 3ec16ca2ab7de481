"""Developer text for the detector, read where it lives and never copied: what honest technical
writing looks like, code and all.

- Python packages installed beside Memdesk, those pinned in ``detector_python.txt``: each
  one's README (the long description in its ``METADATA``), its source files and its small
  configuration files.
- The Python standard library: its docstrings and its source.
- npm packages, installed into ``build/detector-data/npm`` from the lock file of
  ``detector_npm`` (``ensure_npm``): their Markdown documentation, CHANGELOG entries, sources
  and configuration files.

Only sources whose own metadata names a permissive licence (MIT, BSD, Apache-2.0, ISC, PSF…)
are read. Every text has a source (a whole package, or a top-level module of the standard
library) and the split is a hash of the source's name: held-out figures measure projects the
model never saw, never other paragraphs of a project it trained on.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import subprocess
import sysconfig
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from scripts.detector_split import split_of

KINDS = ("prose", "code", "commits", "config")
# Tools and libraries whose docs talk of prompts, tools, rules and commands honestly, with their
# dependencies (about three hundred packages), every version fixed by the lock file beside them;
# ``ensure_npm`` installs exactly those.
NPM_LOCKED = Path(__file__).with_name("detector_npm")
_NPM_FILES = ("package.json", "package-lock.json")
# The Python packages read, at the versions the shipped weights were trained with
# (``make detector-model`` installs them so): a package installed beside them is not read.
PYTHON_PINNED = Path(__file__).with_name("detector_python.txt")
_PERMISSIVE = re.compile(
    r"\b(?:MIT|BSD|Apache|ISC|PSF|Python Software Foundation|Python-2\.0|0BSD|Unlicense|CC0|BlueOak|Zlib)",
    re.IGNORECASE,
)
_COPYLEFT = re.compile(r"GPL|MPL|EUPL|CDDL|SEE LICENSE|UNLICENSED|proprietary", re.IGNORECASE)
# Each source gives at most this many texts of each kind, picked evenly through what it has,
# so a few large packages do not outweigh the many small ones.
PER_SOURCE_KIND = 150
_MIN_CHARS, _MIN_COMMIT_CHARS, _MAX_CHARS = 40, 15, 1500
_CODE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts")
_CONFIG_SUFFIXES = (".toml", ".cfg", ".ini", ".yaml", ".yml", ".json")
_CONFIG_MAX_BYTES = 20_000
_FENCE = re.compile(r"^\s*(?:```|~~~)")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*\S)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_CHANGELOG_HEADING = re.compile(r"^#+\s*(?:change\s*log|changes|release\s+notes|history)\b", re.I | re.M)
_HASH_LINK = re.compile(r"\s*\(?\[?[0-9a-f]{7,40}\]?\)?\s*$")


@dataclass(frozen=True)
class DevText:
    source: str  # "pypi:name", "npm:name" or "stdlib:module"
    licence: str
    kind: str  # one of KINDS
    text: str

    @property
    def split(self) -> str:
        return split_of(self.source)




def permissive(licence: str) -> bool:
    return bool(_PERMISSIVE.search(licence)) and not _COPYLEFT.search(licence)


def npm_root(cache_dir: Path) -> Path:
    return cache_dir / "npm"


def ensure_npm(cache_dir: Path) -> Path:
    """The npm scratch folder, installed from the lock file when it holds another (no install
    scripts run)."""
    root = npm_root(cache_dir)
    locked = (NPM_LOCKED / "package-lock.json").read_bytes()
    lock = root / "package-lock.json"
    if not (root / "node_modules").is_dir() or not lock.is_file() or lock.read_bytes() != locked:
        root.mkdir(parents=True, exist_ok=True)
        for name in _NPM_FILES:
            (root / name).write_bytes((NPM_LOCKED / name).read_bytes())
        # npm install keeps every version the lock names; npm ci would refuse this lock, which
        # leaves out the optional packages it never installs.
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--ignore-scripts", "--omit=optional"],
            cwd=root,
            check=True,
            capture_output=True,
        )
    return root


def python_pins() -> dict[str, str]:
    """Each pinned Python package's name (as pip compares names) and version."""
    pins = {}
    for line in PYTHON_PINNED.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            pins[_canonical(name)] = version.strip()
    return pins


def unpinned_python() -> list[str]:
    """How the installed Python packages differ from the pinned ones, one line each; [] when
    the developer text is what the shipped weights read."""
    installed = {
        _canonical(dist.metadata["Name"] or ""): dist.version for dist in importlib.metadata.distributions()
    }
    return [
        f"{name}: {installed.get(name, 'not installed')}, pinned {version}"
        for name, version in sorted(python_pins().items())
        if installed.get(name) != version
    ]


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def dev_texts(npm: Path | None, only: Collection[str] | None = None) -> Iterator[DevText]:
    """Every developer text, in a fixed order; ``npm`` is the scratch folder (None: no npm text),
    ``only`` the sources to read (None: all)."""
    yield from _python_packages(only)
    yield from _stdlib(only)
    if npm is not None and (npm / "node_modules").is_dir():
        yield from _npm_packages(npm / "node_modules")


def _capped(source: str, licence: str, kind: str, texts: Iterable[str]) -> Iterator[DevText]:
    shortest = _MIN_COMMIT_CHARS if kind == "commits" else _MIN_CHARS
    kept = sorted({text.strip() for text in texts if shortest <= len(text.strip()) <= _MAX_CHARS})
    step = max(len(kept) / PER_SOURCE_KIND, 1.0)
    for at in range(min(len(kept), PER_SOURCE_KIND)):
        yield DevText(source, licence, kind, kept[int(at * step)])


def _python_packages(only: Collection[str] | None) -> Iterator[DevText]:
    seen: set[str] = set()
    pinned = python_pins()
    for dist in sorted(importlib.metadata.distributions(), key=lambda found: found.metadata["Name"] or ""):
        name = (dist.metadata["Name"] or "").lower()
        if not name or name in seen or _canonical(name) not in pinned:
            continue
        if only is not None and f"pypi:{name}" not in only:
            continue
        seen.add(name)
        licence = _dist_licence(dist)
        if not permissive(licence):
            continue
        source = f"pypi:{name}"
        readme, changes = readme_and_changelog(_long_description(dist))
        yield from _capped(source, licence, "prose", markdown_paragraphs(readme))
        yield from _capped(source, licence, "commits", changelog_entries(changes))
        code: list[str] = []
        config: list[str] = []
        for file in sorted(dist.files or [], key=str):
            path = Path(str(dist.locate_file(file)))
            if path.suffix in _CODE_SUFFIXES and "/tests/" not in str(file):
                code += code_blocks(_read(path))
            elif path.suffix in _CONFIG_SUFFIXES or path.name == "entry_points.txt":
                config += _config_blocks(path)
        yield from _capped(source, licence, "code", code)
        yield from _capped(source, licence, "config", config)


def _long_description(dist: importlib.metadata.Distribution) -> str:
    """The body of ``METADATA``, read as text: the parsed message's payload depends on the email
    policy of the moment, which other libraries may have changed."""
    return (dist.read_text("METADATA") or "").partition("\n\n")[2]


def _dist_licence(dist: importlib.metadata.Distribution) -> str:
    meta = dist.metadata
    named = meta.get("License-Expression") or ""
    if not named and len(meta.get("License") or "") < 80:
        named = meta.get("License") or ""
    classifiers = [
        c.rsplit("::", 1)[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License")
    ]
    return " / ".join(part for part in [named, *classifiers] if part)


def stdlib_source(size: int) -> str:
    """About ``size`` characters of the standard library's source, whole files in a fixed order."""
    found: list[str] = []
    total = 0
    for paths in _stdlib_modules().values():
        for path in paths:
            if total >= size:
                return "\n".join(found)[:size]
            found.append(_read(path))
            total += len(found[-1]) + 1
    return "\n".join(found)[:size]


def _stdlib_modules() -> dict[str, list[Path]]:
    """The standard library's source files, by top-level module (tests and tools left out)."""
    root = Path(sysconfig.get_paths()["stdlib"])
    modules: dict[str, list[Path]] = {}
    for path in sorted(root.glob("*.py")) + sorted(root.glob("*/**/*.py")):
        parts = path.relative_to(root).parts
        if parts[0] in ("test", "site-packages", "idlelib", "lib2to3") or "tests" in parts:
            continue
        modules.setdefault(parts[0].removesuffix(".py"), []).append(path)
    return modules


def _stdlib(only: Collection[str] | None) -> Iterator[DevText]:
    modules = _stdlib_modules()
    for module, paths in modules.items():
        source = f"stdlib:{module}"
        if only is not None and source not in only:
            continue
        code: list[str] = []
        prose: list[str] = []
        for path in paths:
            text = _read(path)
            code += code_blocks(text)
            prose += _docstrings(text)
        yield from _capped(source, "PSF-2.0", "prose", prose)
        yield from _capped(source, "PSF-2.0", "code", code)


def _docstrings(text: str) -> list[str]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node)
            if doc:
                found += markdown_paragraphs(doc)
    return found


def _npm_packages(modules: Path) -> Iterator[DevText]:
    manifests = sorted(modules.glob("*/package.json")) + sorted(modules.glob("@*/*/package.json"))
    for manifest in manifests:
        try:
            package = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        licence = package.get("license")
        licence = licence if isinstance(licence, str) else ""
        if not permissive(licence):
            continue
        folder = manifest.parent
        source = f"npm:{package.get('name') or folder.name}"
        prose: list[str] = []
        commits: list[str] = []
        code: list[str] = []
        config: list[str] = [_read(manifest)]
        for path in sorted(folder.rglob("*")):
            inside = path.relative_to(folder).parts
            if "node_modules" in inside or not path.is_file():
                continue
            if path.suffix.lower() == ".md":
                text = _read(path)
                if re.match(r"(?:changelog|history|changes|release)", path.name, re.IGNORECASE):
                    commits += changelog_entries(text)
                else:
                    prose += markdown_paragraphs(text)
            elif path.suffix in _CODE_SUFFIXES and ".min." not in path.name and len(inside) <= 3:
                code += code_blocks(_read(path))
            elif path.suffix in _CONFIG_SUFFIXES and len(inside) <= 2:
                config += _config_blocks(path)
        yield from _capped(source, licence, "prose", prose)
        yield from _capped(source, licence, "commits", commits)
        yield from _capped(source, licence, "code", code)
        yield from _capped(source, licence, "config", config)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def readme_and_changelog(description: str) -> tuple[str, str]:
    """A long description split where its changelog starts (its second part may be "")."""
    found = _CHANGELOG_HEADING.search(description)
    return (description[: found.start()], description[found.start() :]) if found else (description, "")


def markdown_paragraphs(text: str) -> list[str]:
    """Blank-line paragraphs; a fenced block stays whole and joins the paragraph before it."""
    paragraphs: list[str] = []
    current: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                paragraphs.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        paragraphs.append("\n".join(current))
    joined: list[str] = []
    for paragraph in paragraphs:
        if joined and _FENCE.match(paragraph) and len(joined[-1]) + len(paragraph) <= _MAX_CHARS:
            joined[-1] += "\n\n" + paragraph
        else:
            joined.append(paragraph)
    return joined


def code_blocks(text: str) -> list[str]:
    """A source file in blank-line blocks, minified or generated files left out."""
    lines = text.splitlines()
    if not lines or sum(map(len, lines)) / len(lines) > 160:
        return []
    return markdown_paragraphs(text)


def changelog_entries(text: str) -> list[str]:
    """A changelog's entries, each a line like a commit message, links and hashes left out."""
    entries = []
    for line in text.splitlines():
        bullet = _BULLET.match(line)
        if bullet:
            entry = _HASH_LINK.sub("", _LINK.sub(r"\1", bullet.group(1))).strip()
            entries.append(entry)
    return entries


def _config_blocks(path: Path) -> list[str]:
    try:
        if path.stat().st_size > _CONFIG_MAX_BYTES:
            return []
    except OSError:
        return []
    return markdown_paragraphs(_read(path)) if path.suffix not in (".json",) else [_read(path)[:_MAX_CHARS]]
