"""The language-model backends compaction can use, as people see them named."""

from __future__ import annotations

BACKEND_LABELS = {
    "offline": "Offline (no model, no network)",
    "openai": "OpenAI-compatible server",
    "anthropic": "Anthropic",
}
BACKENDS = tuple(BACKEND_LABELS)
