"""What a stored record may hold: entry categories, message roles, text limits and importance scales.

Declared once here; the services check them and the MCP tools' input schemas carry them.
"""

from __future__ import annotations

from memdesk.core.lifetime import TIMELINE

KNOWLEDGE = "knowledge"
CATEGORIES = (KNOWLEDGE, TIMELINE)
ROLES = ("user", "assistant", "system")

MAX_DOCUMENT_CHARS = 1_000_000  # a document, working memory, a logged message
MAX_ENTRY_CHARS = 100_000  # an entry, an app memory, a message a prompt recalls for
MAX_NAME_CHARS = 300  # an entry's key, a session id, a namespace: their columns' width
# Importance: an entry's weighs it in recall, an app memory's orders the app's memories.
ENTRY_IMPORTANCE_SCALE = "a number from 0 to 1"
APP_IMPORTANCE_SCALE = "a whole number from 0 to 10"
