"""How alike a question is to stored texts: the cosine of their sentence vectors."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from memdesk.meaning.cache import VectorCache
from memdesk.meaning.encoder import SentenceEncoder, shared_encoder

_caches: dict[Path | None, VectorCache] = {}


def likeness(
    question: str, texts: Sequence[str], cache_file: Path | None, *, new_at_most: int | None = None
) -> dict[str, float]:
    """Each of ``texts`` with its likeness to ``question`` (-1..1; 0 for a text the encoder does
    not read); empty when the encoder is not installed or does not read the question. Stored
    texts' vectors are kept in ``cache_file`` (None: in memory only). ``new_at_most``: compute
    no more vectors than that; the texts past it whose vectors are not kept yet are left out."""
    encoder = shared_encoder()
    if encoder is None or not texts or not encoder.reads(question):
        return {}
    cache = _cache(cache_file, encoder)
    unique = list(dict.fromkeys(texts))
    if new_at_most is not None:
        unique = cache.kept_and_first(unique, new_at_most)
    stored = cache.vectors(unique, encoder.vectors)
    asked = encoder.vectors([question])[0]
    return dict(zip(unique, (float(value) for value in stored @ asked), strict=True))


def keep_vectors(texts: Sequence[str], cache_file: Path | None) -> None:
    """Compute and keep the vectors of ``texts`` not kept yet."""
    encoder = shared_encoder()
    if encoder is not None and texts:
        _cache(cache_file, encoder).vectors(list(dict.fromkeys(texts)), encoder.vectors)


def _cache(cache_file: Path | None, encoder: SentenceEncoder) -> VectorCache:
    if cache_file not in _caches:
        _caches[cache_file] = VectorCache(cache_file, encoder.manifest["version"])
    return _caches[cache_file]
