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
The downgrade makes each such revision whole again (in SQL: the rows and calculations of the
revision it replaces that it does not store are copied to it, and its parent becomes the
previous period's list), then drops the table.
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
    """Each revision that stores only its changes made whole again, oldest first (so that the
    revision it replaces is whole when it is reached): its parent becomes that revision's
    parent (the previous period's list), it gains the replaced revision's rows and
    calculations of the players it does not store, and revised_players is dropped. The
    entries every list shows are the same; a revision's rows may then hold entries equal to
    the previous list's carried forward (`ratingdb periods rebuild-changes` drops them)."""
    bind = op.get_bind()
    revisions = bind.execute(
        sa.text(
            "SELECT r.id, r.parent_list_id, p.parent_list_id FROM rating_lists AS r "
            "JOIN rating_lists AS p ON p.id = r.parent_list_id "
            "WHERE p.list_date = r.list_date ORDER BY r.id"
        )
    ).all()
    for list_id, replaced, parent in revisions:
        values = {"list_id": list_id, "replaced": replaced}
        bind.execute(
            sa.text(
                "INSERT INTO list_entries (list_id, player_id, rating, previous_rating, change, "
                "games, k_factor, k_used, sum_delta, rated_games, peak_rating, last_rated, "
                "active) SELECT :list_id, e.player_id, e.rating, e.previous_rating, e.change, "
                "e.games, e.k_factor, e.k_used, e.sum_delta, e.rated_games, e.peak_rating, "
                "e.last_rated, e.active FROM list_entries AS e WHERE e.list_id = :replaced "
                "AND e.player_id NOT IN "
                "(SELECT player_id FROM list_entries WHERE list_id = :list_id)"
            ),
            values,
        )
        bind.execute(
            sa.text(
                "INSERT INTO calculations (list_id, player_id, game_id, tournament_id, "
                "rating_used, opponent_id, opponent_rating_used, difference, difference_used, "
                "expected, score, delta, rated, reason, rule_version) SELECT :list_id, "
                "c.player_id, c.game_id, c.tournament_id, c.rating_used, c.opponent_id, "
                "c.opponent_rating_used, c.difference, c.difference_used, c.expected, c.score, "
                "c.delta, c.rated, c.reason, c.rule_version FROM calculations AS c "
                "WHERE c.list_id = :replaced AND c.player_id NOT IN "
                "(SELECT player_id FROM revised_players WHERE list_id = :list_id)"
            ),
            values,
        )
        bind.execute(
            sa.text("UPDATE rating_lists SET parent_list_id = :parent WHERE id = :list_id"),
            {"list_id": list_id, "parent": parent},
        )
    op.drop_table("revised_players")
