"""Language-model backends for compaction."""

BACKENDS = ("offline", "openai", "anthropic")
