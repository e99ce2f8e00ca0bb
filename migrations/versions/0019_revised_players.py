"""revised players: a correction's revision stores only the players it recomputed

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-04 16:30:00

Issue 30, item 1. A correction twelve periods back wrote, for each revision, every entry's
chunk and every game's calculation again, though it reaches a few players. A revision now
names the revision it replaces as its parent (a list of the same date): its rows in
``list_entries`` are its changes against it, and ``revised_players`` names the players whose
calculations it stores; everyone else's are read through the revision it replaces. The lists
written before this revision are computed whole and have no rows here; nothing is rewritten.
The downgrade drops the table: refused while a revision depends on it (its players'
calculations would read as missing).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "revised_players",
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=20), nullable=False),
        sa.ForeignKeyConstraint(
            ["list_id"], ["rating_lists.id"], name=op.f("fk_revised_players_list_id_rating_lists")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.player_id"],
            name=op.f("fk_revised_players_player_id_players"),
        ),
        sa.PrimaryKeyConstraint("list_id", "player_id", name=op.f("pk_revised_players")),
    )


def downgrade() -> None:
    bind = op.get_bind()
    held = bind.execute(sa.text("SELECT count(*) FROM revised_players")).scalar_one()
    if held:
        raise RuntimeError(
            f"revised_players holds {held} rows: revisions written since 0019 store only the "
            "players they recomputed, and 0018 cannot read them; downgrade refused"
        )
    op.drop_table("revised_players")
