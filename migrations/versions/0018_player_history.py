"""player history: ``player_federations``, ``player_titles`` and ``player_status_changes``, what
a player's record was from each date, seeded with every player's federation and title

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04 13:36:11

Issue 28, item 2. An officer records a federation transfer or a title with the date it took
effect, and a player's standing (deceased, suspended, withdrawn, active again) with its date,
so that an export or a crosstable shows what was true on its own date. Published lists store
no federation or title (their chunks hold figures only): every reader takes them from the
players' records, so the lists already published are not changed by this revision.

The upgrade seeds one row per player with a federation (three capital letters) and one per
player with a title (one of FIDE's eight), both from 1900-01-01 ("as first recorded"); a value
the CHECKs refuse is not copied (it stays on the player's record). The downgrade drops the
three tables: the dates recorded since are lost, the records keep their current values.
``player_edits`` (one row) counts the officers' edits of records: the public site's cached
player pages are named by it, so that an edit shows there at once.
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from ratingdb.db.sqlite_rebuild import sqlite

# revision identifiers, used by Alembic.
revision: str = "0018"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SINCE_EVER = "1900-01-01"
TITLES = ("GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM")
_TITLE_IN = "title IN (" + ", ".join(f"'{t}'" for t in TITLES) + ")"
STANDINGS = ("active", "deceased", "suspended", "withdrawn")


def _federation_code() -> str:
    return "federation GLOB '[A-Z][A-Z][A-Z]'" if sqlite() else "federation ~ '^[A-Z]{3}$'"


def _keys(table: str) -> list[Any]:
    return [
        sa.Column("player_id", sa.String(length=20), nullable=False),
        sa.Column("effective_from", sa.Date(), nullable=False),
        sa.CheckConstraint(
            f"effective_from >= '{SINCE_EVER}'", name=op.f(f"ck_{table}_effective_from")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.player_id"], name=op.f(f"fk_{table}_player_id_players")
        ),
        sa.PrimaryKeyConstraint("player_id", "effective_from", name=op.f(f"pk_{table}")),
    ]


def upgrade() -> None:
    op.create_table(
        "player_federations",
        *_keys("player_federations"),
        sa.Column("federation", sa.String(length=3), nullable=False),
        sa.CheckConstraint(_federation_code(), name=op.f("ck_player_federations_federation_code")),
    )
    op.create_table(
        "player_titles",
        *_keys("player_titles"),
        sa.Column("title", sa.String(length=3), nullable=True),
        sa.CheckConstraint(f"title IS NULL OR {_TITLE_IN}", name=op.f("ck_player_titles_title")),
    )
    op.create_table(
        "player_status_changes",
        *_keys("player_status_changes"),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.CheckConstraint(
            "status IN (" + ", ".join(f"'{s}'" for s in STANDINGS) + ")",
            name=op.f("ck_player_status_changes_status"),
        ),
    )
    op.create_table(
        "player_edits",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("edits", sa.Integer(), nullable=False),
        sa.CheckConstraint("id = 1", name=op.f("ck_player_edits_one_row")),
        sa.CheckConstraint("edits >= 0", name=op.f("ck_player_edits_edits_not_negative")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_edits")),
    )
    op.execute("INSERT INTO player_edits (id, edits) VALUES (1, 0)")
    # as_of reads the few rows after a date: the seeded rows all sit at SINCE_EVER.
    for table in ("player_federations", "player_titles"):
        op.create_index(op.f(f"ix_{table}_effective_from"), table, ["effective_from"])
    op.execute(
        "INSERT INTO player_federations (player_id, effective_from, federation) "
        f"SELECT player_id, '{SINCE_EVER}', federation FROM players WHERE {_federation_code()}"
    )
    op.execute(
        "INSERT INTO player_titles (player_id, effective_from, title) "
        f"SELECT player_id, '{SINCE_EVER}', title FROM players WHERE {_TITLE_IN}"
    )


def downgrade() -> None:
    op.drop_table("player_edits")
    op.drop_table("player_status_changes")
    op.drop_table("player_titles")
    op.drop_table("player_federations")
