"""Alembic's environment: upgrades run on the connection (and in the transaction) the store
opened, which holds the write lock."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
# SQLite cannot alter most of a table in place; batch mode copies it through a new one.
context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
