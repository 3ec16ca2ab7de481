"""Recall by meaning: a small learned sentence encoder (Universal Sentence Encoder Lite,
Apache-2.0, fetched by ``scripts/fetch_meaning_model.py``) that tells how close a question is
to a stored fact when they share no word ("Which gym am I at?" and "Goes to Planet Fitness").

``graph`` runs the model's TensorFlow.js graph with numpy, ``pieces`` splits text into its
vocabulary's word pieces, ``encoder`` turns texts into vectors, ``cache`` keeps the vectors
of stored texts on disk so a prompt computes only its question's, and ``likeness`` says how
alike a question and stored texts are.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from memdesk.meaning.encoder import SentenceEncoder

_log = logging.getLogger(__name__)

# Paragraphs of the recall documents read by meaning. Their vectors are kept beside the store,
# so a prompt reads them and runs the model on its question only.
MEANING_PIECES = 1000

# One thread for numpy's OpenBLAS, set before numpy loads: the encoder's products are small,
# and on a busy machine OpenBLAS's threads spin against the other work (a question took 21 ms
# instead of 6 at a load of 4 on 2 cores).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def encoder_or_none() -> SentenceEncoder | None:
    """The shipped encoder, or None when it is not installed or numpy cannot load: recall is
    then by words alone, and the reason is logged. Imports numpy only when called."""
    try:
        from memdesk.meaning.encoder import shared_encoder
    except ImportError as error:
        _log.warning("recall by meaning is off: %s", error)
        return None
    return shared_encoder()
