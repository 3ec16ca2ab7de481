"""Token estimate shared by budgets, triggers and transcript splitting."""

from math import ceil

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """Rough token count: four characters per token, rounded up (no tokenizer needed)."""
    return ceil(len(text) / CHARS_PER_TOKEN)
