"""corrections, list revisions and the audit log.

- corrections: one row per correction (a game's result, a replaced tournament, a merge);
- games: ``created_by`` and ``superseded_by`` (corrections): rows are replaced, never edited;
  the unique key becomes a partial unique index on the current rows;
- rating_lists: ``cause_correction_id`` (the correction a revision was published for) and
  ``corrections_applied`` (the last correction its inputs include);
- players: ``merged_into``;
- audit_log: every import, close, correction and merge.

On SQLite the games table is rebuilt under its own name (ratingdb.db.sqlite_rebuild), and
columns with a foreign key are added with ADD COLUMN ... REFERENCES.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 07:10:32.574462

"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import copy_table, rebuild_sqlite, sqlite

# revision identifiers, used by Alembic.
revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

GAME_KEY = ["tournament_id", "round", "white_id", "black_id"]
CURRENT = "superseded_by IS NULL"


def _games_versioned(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    sa.Table("corrections", metadata, autoload_with=op.get_bind())  # the new references
    new = copy_table(old, metadata)
    for constraint in list(new.constraints):
        if constraint.name == "uq_games_tournament_id_round_white_id_black_id":
            new.constraints.discard(constraint)
    for column, name in (
        ("created_by", "fk_games_created_by_corrections"),
        ("superseded_by", "fk_games_superseded_by_corrections"),
    ):
        new.append_column(sa.Column(column, sa.Integer(), nullable=True))
        new.append_constraint(sa.ForeignKeyConstraint([column], ["corrections.id"], name=name))
    sa.Index(
        "uq_games_current", *(new.c[c] for c in GAME_KEY), unique=True,
        sqlite_where=sa.text(CURRENT),
    )  # fmt: skip
    return new


def _games_unversioned(old: sa.Table, metadata: sa.MetaData) -> sa.Table:
    new = copy_table(old, metadata, drop=("created_by", "superseded_by"))
    for index in list(new.indexes):
        if index.name == "uq_games_current":
            new.indexes.discard(index)
    new.append_constraint(
        sa.UniqueConstraint(*GAME_KEY, name="uq_games_tournament_id_round_white_id_black_id")
    )
    return new


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False),
        sa.Column("file_digest", sa.String(length=64), nullable=True),
        sa.Column("counts", sa.JSON(), nullable=False),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
    )
    op.create_index(op.f("ix_audit_log_at"), "audit_log", ["at"], unique=False)
    op.create_table(
        "corrections",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("category", sa.String(length=20), nullable=True),
        sa.Column("tournament_id", sa.String(length=40), nullable=True),
        sa.Column("reason", sa.String(length=500), nullable=False),
        sa.Column("actor", sa.String(length=100), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.Column("before", sa.JSON(), nullable=False),
        sa.Column("after", sa.JSON(), nullable=False),
        sa.CheckConstraint(
            "kind IN ('game', 'tournament', 'merge')", name=op.f("ck_corrections_kind")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.tournament_id"],
            name=op.f("fk_corrections_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_corrections")),
    )
    op.add_column(
        "rating_lists",
        sa.Column("corrections_applied", sa.Integer(), server_default="0", nullable=False),
    )
    if sqlite():
        rebuild_sqlite("games", _games_versioned, revision="0003")
        op.execute(
            "ALTER TABLE players ADD COLUMN merged_into VARCHAR(20) "
            "CONSTRAINT fk_players_merged_into_players REFERENCES players (player_id)"
        )
        op.execute(
            "ALTER TABLE rating_lists ADD COLUMN cause_correction_id INTEGER "
            "CONSTRAINT fk_rating_lists_cause_correction_id_corrections "
            "REFERENCES corrections (id)"
        )
        return
    op.add_column("games", sa.Column("created_by", sa.Integer(), nullable=True))
    op.add_column("games", sa.Column("superseded_by", sa.Integer(), nullable=True))
    op.drop_constraint(
        op.f("uq_games_tournament_id_round_white_id_black_id"), "games", type_="unique"
    )
    op.create_index(
        "uq_games_current", "games", GAME_KEY, unique=True, postgresql_where=sa.text(CURRENT)
    )
    for column in ("superseded_by", "created_by"):
        op.create_foreign_key(
            op.f(f"fk_games_{column}_corrections"), "games", "corrections", [column], ["id"]
        )
    op.add_column("players", sa.Column("merged_into", sa.String(length=20), nullable=True))
    op.create_foreign_key(
        op.f("fk_players_merged_into_players"), "players", "players", ["merged_into"],
        ["player_id"],
    )  # fmt: skip
    op.add_column("rating_lists", sa.Column("cause_correction_id", sa.Integer(), nullable=True))
    op.create_foreign_key(
        op.f("fk_rating_lists_cause_correction_id_corrections"),
        "rating_lists",
        "corrections",
        ["cause_correction_id"],
        ["id"],
    )


def downgrade() -> None:
    # Revisions and corrected games go with the corrections that made them.
    revised = "SELECT id FROM rating_lists WHERE cause_correction_id IS NOT NULL"
    for table in ("calculations", "list_entries", "player_status"):
        op.execute(f"DELETE FROM {table} WHERE list_id IN ({revised})")
    op.execute("DELETE FROM rating_lists WHERE cause_correction_id IS NOT NULL")
    op.execute(
        "DELETE FROM calculations WHERE game_id IN "
        "(SELECT id FROM games WHERE created_by IS NOT NULL)"
    )
    op.execute("DELETE FROM games WHERE created_by IS NOT NULL")
    op.execute("UPDATE games SET superseded_by = NULL")
    op.execute("UPDATE players SET merged_into = NULL")
    if sqlite():
        rebuild_sqlite("games", _games_unversioned, revision="0003")
        rebuild_sqlite(
            "players", lambda old, m: copy_table(old, m, drop=("merged_into",)), revision="0003"
        )
        rebuild_sqlite(
            "rating_lists",
            lambda old, m: copy_table(old, m, drop=("cause_correction_id", "corrections_applied")),
            revision="0003",
        )
    else:
        op.drop_constraint(
            op.f("fk_rating_lists_cause_correction_id_corrections"),
            "rating_lists",
            type_="foreignkey",
        )
        op.drop_column("rating_lists", "cause_correction_id")
        op.drop_column("rating_lists", "corrections_applied")
        op.drop_constraint(op.f("fk_players_merged_into_players"), "players", type_="foreignkey")
        op.drop_column("players", "merged_into")
        for column in ("created_by", "superseded_by"):
            op.drop_constraint(op.f(f"fk_games_{column}_corrections"), "games", type_="foreignkey")
        op.drop_index("uq_games_current", table_name="games")
        op.create_unique_constraint(
            op.f("uq_games_tournament_id_round_white_id_black_id"), "games", GAME_KEY
        )
        op.drop_column("games", "superseded_by")
        op.drop_column("games", "created_by")
    op.drop_table("corrections")
    op.drop_index(op.f("ix_audit_log_at"), table_name="audit_log")
    op.drop_table("audit_log")
