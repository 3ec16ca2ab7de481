"""The schema version this Memdesk writes, apart from the upgrades so that reading it loads
no SQLAlchemy (the window checks it before its first page)."""

SCHEMA_VERSION = 12
