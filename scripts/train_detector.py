"""Train the learned suspicious-text detector and write its weights and manifest
(``make detector-model``).

A logistic regression over the features of ``memdesk.core.detector_features``, fitted with
scikit-learn (the ``train`` extra; never needed at run time), its largest weights kept as
16-bit integers. The threshold is the lowest score that keeps benign validation text under
its goals; the figures in the manifest are measured with the shipped, quantised model on the
test splits, which training never sees. Leave-one-source-out models show how far it carries
to a corpus it has not seen. The same data gives the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from scripts.detector_data import (
    AUTHORS,
    AUTHORS_LEFT_OUT,
    AUTHORS_LICENCE,
    LEFT_OUT_MODEL,
    LICENCES,
    PUBLIC,
    ROOT,
    SHIPPED_MODEL,
    WORDNET,
    Row,
    author_files,
    author_rows,
    injection_dev_attacks,
    rows,
    sources,
    wordnet_rows,
)
from scripts.detector_devtext import KINDS, NPM_LOCKED, PYTHON_PINNED, unpinned_python
from scripts.detector_wordnet import LICENCE as WORDNET_LICENCE
from scripts.detector_wordnet import sources as wordnet_sources

from memdesk.core import detector
from memdesk.core.detector import PATH_VARIABLE, WEIGHTS_NAME, Model, encode
from memdesk.core.detector_features import features, length_norm, reading, words
from memdesk.core.suspicious import is_suspicious, learned_hold_score, normalised

OUT_DIR = ROOT / "resources" / "detector"  # app/memdesk/resources links here
SETTINGS = {
    "features": "character 4-grams inside words, pairs of neighbouring words and of words one apart, of"
    " the text with code that is not words, quotations named as examples and ruled lines blanked out;"
    " the word pieces of what was blanked, apart (memdesk/core/detector_features.py, detector_code.py)",
    "min_texts_per_feature": 2,
    "kept_features": 40_000,
    "regularisation_C": 20.0,
    "memory_like_weight": 15.0,
    "developer_text_weight": 4.0,
    "chat_weight": 12.0,
    # Attacks and honest notes in the languages nothing else holds, both weighed alike: few
    # rows, each the only one of its language and family.
    "language_rows_weight": 5.0,
    # Honest text that talks about orders without giving one (scripts/detector_metatext.py): 32
    # rows a frame weighing 20 each held fewer honest texts of sets written by others than 16
    # rows weighing 15 or 80, and lost fewer of the public corpora's short attacks than 16 rows
    # weighing 40.
    "meta_text_weight": 20.0,
    # Requests of a few words, to an assistant for what it keeps or to a tool for the person's
    # own things (scripts/detector_short_requests.py): the corpora's shortest attacks, without
    # outweighing what the meta-text rows taught.
    "short_request_weight": 1.0,
    # The authors' rows weigh as one row of their kind: heavier, their attacks in chat and mail
    # lift the chat the threshold is held to, and the public corpora's attacks fall further.
    "author_attack_weight": 1.0,
    "author_benign_weight": 1.0,
    "benign_goal_chat": 0.005,
    "benign_goal_developer": 0.005,
    "benign_goal_public": 0.1,
}
# Asked for with --everyday-english (the shipped weights never read WordNet): each of WordNet's
# sentences weighs as another benign row times the weight, apart from the other benign rows so
# their weights stay as they were; the attacks take on this share of WordNet's weight in all.
EVERYDAY_SETTINGS = ("everyday_english_weight", "everyday_attack_balance")
# With --attack-words-only, a word the attacks use: in this many training attacks at least, and
# this many times as common among them as among the benign training rows.
ATTACK_WORD_SETTINGS = {"attack_word_min_attacks": 20, "attack_word_ratio": 3.0}
_WORD = re.compile(r"[a-z]+")
# Few rows, and the closest to what an assistant stores: each weighs more.
MEMORY_LIKE = ("pi-session", "notes", "lookalikes")


def read_as_model(text: str) -> tuple[str, list[str]]:
    """All the model reads of the text (``reading``)."""
    return reading(normalised(text)[0])


def scored(model: Model, text: str) -> float:
    return model.score(*read_as_model(text))


def attack_word_rows(known: list[Row], everyday: list[Row]) -> list[Row]:
    """The rows of ``everyday`` that use a word the training attacks of ``known`` use
    (``train``, ``ignore``, ``system``...): the everyday senses of the attacks' words, without
    the rest of WordNet, which holds no numbers, addresses or code."""
    attacks: Counter[str] = Counter()
    benign: Counter[str] = Counter()
    for row in known:
        if row.split == "train":
            (attacks if row.label else benign).update(set(_WORD.findall(row.text.lower())))
    attack_rows = sum(1 for row in known if row.split == "train" and row.label)
    benign_rows = sum(1 for row in known if row.split == "train" and not row.label)
    least, ratio = ATTACK_WORD_SETTINGS["attack_word_min_attacks"], ATTACK_WORD_SETTINGS["attack_word_ratio"]
    used = {
        word
        for word, count in attacks.items()
        if count >= least and count / attack_rows > ratio * (benign[word] + 1) / benign_rows
    }
    return [row for row in everyday if used & set(_WORD.findall(row.text.lower()))]


def developer(row: Row) -> bool:
    return row.kind in KINDS and row.source not in AUTHORS


def fit(train: list[Row]) -> Model:
    """A model fitted on ``train``, with threshold 0.5 (``choose_threshold`` sets it)."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    texts = [read_as_model(row.text) for row in train]
    found = [Counter(features(read, pieces)) for read, pieces in texts]
    counts = Counter(gram for grams in found for gram in grams)
    names = sorted(gram for gram, count in counts.items() if count >= SETTINGS["min_texts_per_feature"])
    index = {gram: at for at, gram in enumerate(names)}
    columns: list[int] = []
    values: list[float] = []
    pointers = [0]
    for (read, _pieces), grams in zip(texts, found, strict=True):
        kept = sorted((index[gram], count) for gram, count in grams.items() if gram in index)
        norm = length_norm(words(read))
        columns += [column for column, _count in kept]
        values += [count / norm for _column, count in kept]
        pointers.append(len(columns))
    matrix = csr_matrix((values, columns, pointers), shape=(len(train), len(names)))
    labels = np.array([row.label for row in train])
    weights = _sample_weights(train)
    classifier = LogisticRegression(C=SETTINGS["regularisation_C"], solver="lbfgs", max_iter=3000)
    classifier.fit(matrix, labels, sample_weight=weights)
    coefficients = classifier.coef_[0]
    order = sorted(range(len(names)), key=lambda at: (-abs(coefficients[at]), names[at]))
    kept = order[: SETTINGS["kept_features"]]
    scale = float(max(abs(coefficients[at]) for at in kept)) / 32767
    quantised = {names[at]: round(float(coefficients[at]) / scale) for at in kept}
    return Model(
        {gram: value for gram, value in quantised.items() if value},
        scale,
        float(classifier.intercept_[0]),
        0.5,
    )


def _sample_weights(train: list[Row]) -> list[float]:
    """Attacks and benign text other than WordNet's weigh the same in all; memory-like benign
    text weighs more. WordNet's sentences each weigh as another benign row times their setting,
    when the trainer reads them, and the attacks take on a share of their weight in all."""
    attacks = sum(row.label for row in train)
    benign = sum(1 for row in train if not row.label and row.source != WORDNET)
    everyday = sum(1 for row in train if row.source == WORDNET)
    everyday_weight = attacks / benign * float(SETTINGS.get("everyday_english_weight", 0.0))
    balance = float(SETTINGS.get("everyday_attack_balance", 0.0))
    attack_weight = 1.0 + balance * everyday * everyday_weight / attacks
    weights = []
    for row in train:
        weight = attack_weight if row.label else attacks / benign
        if row.source == WORDNET:
            weight = everyday_weight
        elif row.source in MEMORY_LIKE:
            weight *= SETTINGS["memory_like_weight"]
        elif row.source in AUTHORS:
            weight *= SETTINGS["author_attack_weight" if row.label else "author_benign_weight"]
        elif developer(row):
            weight *= SETTINGS["developer_text_weight"]
        elif row.source == "chitchat":
            weight *= SETTINGS["chat_weight"]
        elif row.source == "languages":
            weight *= SETTINGS["language_rows_weight"]
        elif row.source == "meta-text":
            weight *= SETTINGS["meta_text_weight"]
        elif row.source == "short-requests":
            weight *= SETTINGS["short_request_weight"]
        weights.append(weight)
    return weights


def choose_threshold(model: Model, validation: list[Row]) -> float:
    """The lowest score that flags no more benign validation text than the goals allow, each
    text scored as the check reads it (``learned_hold_score``: the words it sets aside, the
    notes it asks more of), so the threshold is held to what the check holds."""
    benign = [row for row in validation if row.label == 0]
    goals = (
        ([row for row in benign if row.source == "chitchat"], SETTINGS["benign_goal_chat"]),
        (
            [row for row in benign if row.source == "pi-session" or developer(row)],
            SETTINGS["benign_goal_developer"],
        ),
        ([row for row in benign if row.source in PUBLIC], SETTINGS["benign_goal_public"]),
    )
    threshold = 0.5
    for benign, goal in goals:
        scores = sorted((learned_hold_score(model, row.text) for row in benign), reverse=True)
        allowed = math.floor(goal * len(scores))
        if allowed < len(scores):
            threshold = max(threshold, scores[allowed] + 1e-6)
    return round(threshold, 4)


def flagged_share(judge: Callable[[str], bool], texts: Iterable[str]) -> dict[str, float | int]:
    texts = list(texts)
    flagged = sum(1 for text in texts if judge(text))
    return {
        "texts": len(texts),
        "flagged": flagged,
        "share": round(flagged / len(texts), 4) if texts else 0.0,
    }


def figures(model: Model, test: list[Row]) -> dict[str, object]:
    """What the model alone flags of each source's and language's test split."""

    def judge(text: str) -> bool:
        return scored(model, text) >= model.threshold

    out: dict[str, object] = {}
    out["developer text by kind (packages held out whole)"] = {
        kind: flagged_share(judge, (row.text for row in test if row.kind == kind)) for kind in KINDS
    }
    test = [row for row in test if not developer(row)]
    for label, kind in ((1, "attacks"), (0, "benign")):
        chosen = [row for row in test if row.label == label]
        out[f"{kind} by source"] = {
            source: flagged_share(judge, (row.text for row in chosen if row.source == source))
            for source in sorted({row.source for row in chosen})
        }
        out[f"{kind} by language"] = {
            language: flagged_share(judge, (row.text for row in chosen if row.language == language))
            for language in sorted({row.language for row in chosen})
        }
    fields = sorted({row.kind for row in test if row.source == WORDNET})
    if fields:
        out["WordNet examples by lexicographer file (files held out whole)"] = {
            field: flagged_share(
                judge, (row.text for row in test if row.source == WORDNET and row.kind == field)
            )
            for field in fields
        }
    out["injection-dev attacks (never trained on)"] = flagged_share(judge, injection_dev_attacks())
    return out


def trained(all_rows: list[Row]) -> Model:
    model = fit([row for row in all_rows if row.split == "train"])
    threshold = choose_threshold(model, [row for row in all_rows if row.split == "validation"])
    return Model(model.weights, model.scale, model.bias, threshold)


def leave_one_source_out(all_rows: list[Row]) -> dict[str, object]:
    """For each public corpus: a model trained without any of it, on its test split."""
    out: dict[str, object] = {}
    for source in PUBLIC:
        model = trained([row for row in all_rows if row.source != source])
        test = [row for row in all_rows if row.source == source and row.split == "test"]
        shares = figures(model, test)
        out[source] = {
            "attacks": shares["attacks by source"].get(source),  # type: ignore[union-attr]
            "benign": shares["benign by source"].get(source),  # type: ignore[union-attr]
            "threshold": model.threshold,
        }
        print(f"left out {source}: {out[source]}", flush=True)
    return out


@contextmanager
def checking_with(model: Model) -> Iterator[None]:
    """The whole write check (rules and model) with ``model`` in place of the shipped weights."""
    before = os.environ.get(PATH_VARIABLE)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / WEIGHTS_NAME
        path.write_bytes(encode(model))
        os.environ[PATH_VARIABLE] = str(path)
        detector.reload()
        try:
            yield
        finally:
            if before is None:
                del os.environ[PATH_VARIABLE]
            else:
                os.environ[PATH_VARIABLE] = before
            detector.reload()


def held_by_check(texts: list[Row]) -> dict[str, object]:
    """What the write check holds of ``texts``, in all and by kind (an attack's family)."""
    held = [row for row in texts if is_suspicious(row.text)]
    kinds = sorted({row.kind for row in texts})
    return {
        "held": len(held),
        "texts": len(texts),
        "share": round(len(held) / len(texts), 4) if texts else 0.0,
        "by kind": {
            kind: f"{sum(row.kind == kind for row in held)}/{sum(row.kind == kind for row in texts)}"
            for kind in kinds
        },
    }


def leave_one_author_out(all_rows: list[Row]) -> dict[str, object]:
    """For each author: the write check with the weights in place, and with a model trained on
    ``all_rows`` and the other authors' rows, on that author's rows: text in a voice the
    model never read."""
    written = author_rows(all_rows)
    out: dict[str, object] = {
        "source": AUTHORS_LICENCE,
        "files_sha256": author_files(),
        "split": "by author: each author's rows are held out in turn, the others train",
        "settings": SETTINGS,
        "weights in place, sha256": hashlib.sha256(encode(_in_place())).hexdigest(),
    }
    for author in AUTHORS:
        held_out = [row for row in written if row.source == author]
        result: dict[str, object] = {SHIPPED_MODEL: _attacks_and_benign(held_out)}
        model = trained(all_rows + [row for row in written if row.source != author])
        with checking_with(model):
            result[LEFT_OUT_MODEL] = _attacks_and_benign(held_out)
        result["threshold"] = model.threshold
        out[author] = result
        print(f"left out {author}: {json.dumps(result)}", flush=True)
    return out


def _in_place() -> Model:
    model = detector.model()
    if model is None:
        raise SystemExit(f"no detector weights in place: {detector.status()}")
    return model


def _attacks_and_benign(texts: list[Row]) -> dict[str, object]:
    return {
        "attacks held": held_by_check([row for row in texts if row.label == 1]),
        "benign held": held_by_check([row for row in texts if row.label == 0]),
    }


def developer_sources(all_rows: list[Row]) -> dict[str, object]:
    """Each package of developer text: its licence, its split and its texts of each kind."""
    out: dict[str, dict[str, object]] = {}
    for row in all_rows:
        if developer(row):
            entry = out.setdefault(row.source, {"licence": row.licence, "split": row.split})
            entry[row.kind] = int(entry.get(row.kind, 0)) + 1  # type: ignore[call-overload]
    return dict(sorted(out.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="where the weights and manifest go")
    parser.add_argument("--no-loso", action="store_true", help="skip the leave-one-source-out models")
    parser.add_argument(
        "--leave-authors-out",
        action="store_true",
        help=f"write the leave-one-author-out figures to {AUTHORS_LEFT_OUT.relative_to(ROOT)} and stop",
    )
    parser.add_argument(
        "--everyday-english",
        nargs=2,
        type=float,
        metavar=("WEIGHT", "BALANCE"),
        help="train on WordNet 3.0's example sentences as well, each weighing WEIGHT benign rows, the"
        " attacks taking on BALANCE of their weight (measured, not shipped: see the write-check guide)",
    )
    parser.add_argument(
        "--attack-words-only",
        action="store_true",
        help="with --everyday-english, only WordNet's sentences that use a word the attacks use",
    )
    args = parser.parse_args()
    differ = unpinned_python()
    if differ:
        print(
            f"Python packages other than {PYTHON_PINNED.relative_to(ROOT)} pins (the developer text, and so"
            " the weights, will differ from the shipped ones):\n  " + "\n  ".join(differ),
            file=sys.stderr,
        )
    all_rows = rows()
    if args.leave_authors_out:
        measured = leave_one_author_out(all_rows)
        text = json.dumps(measured, indent=2, ensure_ascii=False) + "\n"
        AUTHORS_LEFT_OUT.write_text(text, encoding="utf-8")
        return
    all_rows += author_rows(all_rows)
    licences = {**LICENCES, "authors": AUTHORS_LICENCE}
    inputs = sources()
    if args.everyday_english:
        SETTINGS.update(zip(EVERYDAY_SETTINGS, args.everyday_english, strict=True))
        everyday = wordnet_rows(all_rows)
        if args.attack_words_only:
            SETTINGS.update(ATTACK_WORD_SETTINGS)
            everyday = attack_word_rows(all_rows, everyday)
        all_rows += everyday
        licences[WORDNET] = WORDNET_LICENCE
        inputs.update(wordnet_sources())
    model = trained(all_rows)
    blob = encode(model)
    test = [row for row in all_rows if row.split == "test"]
    manifest = {
        "weights": {
            "file": WEIGHTS_NAME,
            "bytes": len(blob),
            "sha256": hashlib.sha256(blob).hexdigest(),
            "features": len(model.weights),
            "threshold": model.threshold,
        },
        "sources": licences,
        "developer_sources": developer_sources(all_rows),
        "inputs_sha256": inputs,
        "reproduced by": {
            "command": "make detector-model",
            "python": platform.python_version(),
            "python packages": str(PYTHON_PINNED.relative_to(ROOT)),
            "npm packages": str((NPM_LOCKED / "package-lock.json").relative_to(ROOT)),
            "python packages unlike the pins": differ,
        },
        "rows": {
            f"{source} {split} {'attack' if label else 'benign'}": count
            for (source, split, label), count in sorted(
                Counter((row.source, row.split, row.label) for row in all_rows).items()
            )
        },
        "settings": SETTINGS,
        "figures (model alone, test splits)": figures(model, test),
        "leave one source out": {} if args.no_loso else leave_one_source_out(all_rows),
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / WEIGHTS_NAME).write_bytes(blob)
    (args.out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(manifest["figures (model alone, test splits)"], indent=1))
    print(
        f"wrote {args.out / WEIGHTS_NAME} ({len(blob):,} bytes, {len(model.weights):,} features, "
        f"threshold {model.threshold})"
    )


if __name__ == "__main__":
    main()
