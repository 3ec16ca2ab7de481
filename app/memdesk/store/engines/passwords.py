"""A database password from the system keyring, never from the config file.

A URL without a password is completed from the keyring entry for its user, host, port and
database. With no entry, libpq's own sources still apply: ``PGPASSFILE`` (``~/.pgpass``),
``PGPASSWORD`` and service files (``?service=name``).
"""

from __future__ import annotations

from sqlalchemy import URL


def keyring_name(url: URL) -> str:
    """The keyring entry that holds the password for ``url``."""
    return f"db:{url.username or ''}@{url.host or 'localhost'}:{url.port or 5432}/{url.database or ''}"


def with_password(url: URL) -> URL:
    if url.password is not None or url.query.get("service"):
        return url
    from memdesk.errors import MemdeskError
    from memdesk.secrets import keyring_usable, read_secret

    if not keyring_usable():
        return url
    try:
        password = read_secret(keyring_name(url), "the database password")
    except MemdeskError:
        # A locked or failing keyring: libpq's own sources may still have it, and if not,
        # the server's refusal says where to put it.
        return url
    return url.set(password=password) if password else url
