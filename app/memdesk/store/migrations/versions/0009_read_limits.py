"""Schema 9: ``private_items``, what no assistant reads, and ``assistant_apps``, the apps
each assistant is limited to."""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("private_items"):  # safe to run twice
        op.create_table(
            "private_items",
            sa.Column("target", sa.String(320), primary_key=True),
            sa.Column("created_at", sa.DateTime, nullable=False),
        )
    if not inspector.has_table("assistant_apps"):
        op.create_table(
            "assistant_apps",
            sa.Column("actor", sa.String(40), primary_key=True),
            sa.Column("app_id", sa.String(200), primary_key=True),
            sa.Column("updated_at", sa.DateTime, nullable=False),
        )
