"""Schema 3: ``agent_clients``, the assistants that connected over MCP."""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("agent_clients"):  # safe to run twice
        return
    op.create_table(
        "agent_clients",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("first_seen", sa.DateTime, nullable=False),
        sa.Column("last_seen", sa.DateTime, nullable=False),
        sa.Column("calls", sa.Integer, nullable=False, server_default="0"),
    )
