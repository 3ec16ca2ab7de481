"""Recall quality on LoCoMo: every turn stored as a knowledge entry, questions recalled.

Run with ``make bench`` (pytest -s). Reads ``../shared/data/locomo-dev.json`` when present
(see that folder's README for the data and the metrics) and skips otherwise. Prints;
never fails on the figures.
"""

from __future__ import annotations

import statistics
import time

import pytest
from tests.perf import conversation_data

from memdesk.core.tokens import estimate_tokens
from memdesk.services.prompt import PromptSpec

pytestmark = pytest.mark.skipif(
    not conversation_data.DATA_FILE.exists(), reason=f"LoCoMo data not found at {conversation_data.DATA_FILE}"
)
KS = (5, 10)


def test_locomo_recall_quality(tmp_path):
    conversations = conversation_data.load()
    found = dict.fromkeys(KS, 0)
    wanted = 0
    answers = answered = 0
    prompt_hits = 0
    prompt_tokens: list[int] = []
    timings: list[float] = []
    for conversation in conversations:
        folder = tmp_path / conversation.sample_id
        app, _clock = conversation_data.store_turns_as_entries(folder, conversation)
        try:
            for question in conversation.questions:
                started = time.perf_counter()
                hits = app.recall.entries(question.question, limit=max(KS))
                timings.append((time.perf_counter() - started) * 1000)
                keys = [hit.ref for hit in hits]
                for k in KS:
                    found[k] += conversation_data.evidence_recall(keys[:k], question.evidence)[0]
                wanted += len(set(question.evidence))
                if question.category not in conversation_data.ANSWER_CATEGORIES:
                    continue
                answers += 1
                answered += conversation_data.answer_found(question.answer, [hit.text for hit in hits[:5]])
                composed = app.prompt.compose(PromptSpec(message=question.question))
                prompt_hits += conversation_data.answer_found(question.answer, [composed.text])
                prompt_tokens.append(estimate_tokens(composed.text))
        finally:
            app.close()
    questions = sum(len(c.questions) for c in conversations)
    print(f"\nLoCoMo dev: {len(conversations)} conversations, {questions} questions (categories 1-4)")
    for k in KS:
        print(f"evidence recall@{k}: {found[k] / wanted:.3f} ({found[k]} of {wanted} evidence turns)")
    print(f"answer in recall top-5 (raw turns, categories 1, 2, 4): {answered / answers:.3f} of {answers}")
    print(
        f"answer in composed prompt: {prompt_hits / answers:.3f}; "
        f"prompt tokens mean {statistics.mean(prompt_tokens):.0f}"
    )
    print(f"recall time: p50 {statistics.median(timings):.2f} ms")
    assert wanted and answers
