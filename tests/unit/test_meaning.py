"""Recall by meaning's parts: the word pieces, the graph runner against the encoder's reference
implementation, the vector cache beside the store, and what happens when the model is absent."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from memdesk.core.privacy import ReadScope
from memdesk.meaning import encoder as encoder_module
from memdesk.meaning import encoder_or_none
from memdesk.meaning.cache import VectorCache
from memdesk.meaning.encoder import shared_encoder
from memdesk.meaning.graph import GraphError, GraphModel
from memdesk.meaning.likeness import likeness

REFERENCE = json.loads((Path(__file__).parents[1] / "data" / "meaning" / "reference.json").read_text("utf-8"))


@pytest.fixture(scope="module")
def encoder():
    loaded = shared_encoder()
    assert loaded is not None, "the sentence encoder is not installed: run `make install`"
    return loaded


@pytest.mark.parametrize("case", REFERENCE["cases"], ids=lambda case: case["text"][:20])
def test_pieces_and_vectors_are_the_reference_implementations(encoder, case):
    assert encoder.vocabulary.ids(case["text"]) == case["ids"]
    vector = encoder.run_pieces([case["ids"]])[0]
    assert np.abs(vector - np.array(case["vector"], dtype=np.float32)).max() < 1e-5


def test_a_batch_gives_each_text_the_vector_it_gets_alone(encoder):
    texts = [case["text"] for case in REFERENCE["cases"]] + ["", "   "]
    together = encoder.vectors(texts)
    for text, row in zip(texts, together, strict=True):
        assert np.allclose(row, encoder.vectors([text])[0], atol=1e-5)
    assert not together[-2].any()  # nothing to encode: a row of zeros, not an error


def test_a_question_is_closest_to_the_fact_that_answers_it_when_no_word_is_shared(encoder):
    facts = [
        "- Goes to Planet Fitness in Burbank, usually 6am before call",
        "- Pays $1,475/mo for half of a 2br in Los Feliz",
        "- Sister Ana lives in Sacramento",
    ]
    scores = likeness("which gym am i at again?", facts, None)
    assert max(scores, key=scores.__getitem__) == facts[0]
    scores = likeness("how much is my share of the rent?", facts, None)
    assert max(scores, key=scores.__getitem__) == facts[1]


def test_text_in_a_script_the_encoder_never_learned_is_alike_nothing(encoder):
    # Every such text would be the same run of unknown pieces, and so the same vector.
    assert not encoder.reads("コーヒーは好きですか")
    assert likeness("コーヒーは好きですか", ["- Drinks coffee every morning"], None) == {}
    assert likeness("Do I drink coffee?", ["- 私は毎朝コーヒーを飲みます"], None) == {
        "- 私は毎朝コーヒーを飲みます": 0.0
    }
    assert encoder.reads("Onde eu trabalho agora?")  # other languages in its letters are read


def test_stored_vectors_are_read_back_from_the_file_not_computed_again(encoder, tmp_path):
    computed: list[str] = []

    def compute(texts):
        computed.extend(texts)
        return encoder.vectors(texts)

    path = tmp_path / "vectors.sqlite3"
    first = VectorCache(path, "test").vectors(["a fact", "another fact"], compute)
    again = VectorCache(path, "test").vectors(["another fact", "a fact"], compute)
    assert computed == ["a fact", "another fact"]
    assert np.array_equal(first[::-1], again)  # the same numbers, from the model or the file


def test_a_budget_of_new_vectors_measures_the_kept_texts_and_the_first_new_ones(encoder, tmp_path):
    path = tmp_path / "vectors.sqlite3"
    texts = ["Cycle repairs at Spokes & Co", "Dentist is Dr Amoah", "Gym: PureGym Leeds"]
    first = likeness("where do I get my bike fixed?", texts, path, new_at_most=1)
    assert list(first) == texts[:1]  # the others' vectors wait
    second = likeness("where do I get my bike fixed?", texts, path, new_at_most=1)
    assert list(second) == texts[:2]  # the kept one, and one more
    assert second[texts[0]] == pytest.approx(first[texts[0]], abs=1e-6)
    assert list(likeness("where do I get my bike fixed?", texts, path)) == texts


def test_a_damaged_or_unwritable_cache_only_costs_time(encoder, tmp_path):
    damaged = tmp_path / "vectors.sqlite3"
    VectorCache(damaged, "test")  # names its own file after the model
    (tmp_path / "vectors-test.sqlite3").write_bytes(b"not a database" * 100)
    assert VectorCache(damaged, "test").vectors(["a fact"], encoder.vectors).shape == (1, 512)
    # ... and it is started again, so the next process reads what this one computed
    assert VectorCache(damaged, "test").vectors(["a fact"], lambda texts: pytest.fail("computed again")).any()
    blocked = tmp_path / "file" / "vectors.sqlite3"
    (tmp_path / "file").write_text("a file where the folder should be")
    assert VectorCache(blocked, "test").vectors(["a fact"], encoder.vectors).shape == (1, 512)


def test_without_the_model_files_there_is_no_encoder_and_no_likeness(tmp_path, monkeypatch):
    monkeypatch.setattr(encoder_module, "resources_root", lambda: tmp_path)
    shared_encoder.cache_clear()
    try:
        assert shared_encoder() is None
        assert likeness("which gym?", ["- Goes to Planet Fitness"], None) == {}
    finally:
        shared_encoder.cache_clear()


def test_when_numpy_cannot_load_recall_is_by_words_alone(memdesk_app, monkeypatch):
    monkeypatch.setitem(sys.modules, "memdesk.meaning.encoder", None)  # its import now fails
    assert encoder_or_none() is None
    memdesk_app.documents.set("user/facts", "- Goes to Planet Fitness in Burbank\n- Sister lives in Lyon")
    hits, _hidden = memdesk_app.recall.for_prompt(
        "where does my sister live?", "user", 5, memdesk_app.now(), ReadScope()
    )
    assert [hit.text for hit in hits] == ["Sister lives in Lyon"]


def test_a_damaged_model_is_refused_with_a_clear_error(tmp_path):
    (tmp_path / "model.json").write_text("{not json")
    with pytest.raises(GraphError, match="cannot read the model"):
        GraphModel(tmp_path)
    model = {
        "modelTopology": {
            "node": [{"name": "x", "op": "Placeholder"}, {"name": "y", "op": "Einsum", "input": ["x"]}]
        },
        "weightsManifest": [{"paths": [], "weights": []}],
    }
    (tmp_path / "model.json").write_text(json.dumps(model))
    with pytest.raises(GraphError, match="Einsum"):
        GraphModel(tmp_path)
