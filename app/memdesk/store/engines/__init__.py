"""The engine-specific halves of a store: SQLite (one machine) and PostgreSQL (shared)."""
