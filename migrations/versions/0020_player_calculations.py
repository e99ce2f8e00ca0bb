"""player calculations: a player's calculations on a list packed in one row

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-04 19:30:00

Issue 30 (storage growth per list-month including calculations: half of today's). A month's
calculations were one row a game from each side, 15 columns, 187 bytes a calculation with the
key's index: 87-89 MB a list-month at 240,000 games, against 10.2 MB for the list itself.
``player_calculations`` holds one row a player and list, their calculations packed
(ratingdb.db.calculation_format_v1, frozen): what was computed (the ratings used, the
differences, the expected score, the score, the delta, rated or why not), not what the game
says (its tournament and the opponent are the game's, the rule version the list's).

The upgrade refuses a database where a calculation's tournament or opponent is not its game's,
or its rule version not its list's (the packed form could not give them back), then packs every
player's calculations, list by list, and drops ``calculations``. The downgrade unpacks them
into ``calculations`` again (the tournament and opponent from the game, the rule version from
the list), as migration 0004 left that table.
"""

from collections.abc import Iterator, Sequence
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from alembic import op

from ratingdb.db.calculation_format_v1 import pack, unpack

# revision identifiers, used by Alembic.
revision: str = "0020"
down_revision: str | Sequence[str] | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Rows written at a time.
BATCH = 5_000

_PACKED = sa.table(
    "player_calculations",
    sa.column("list_id", sa.Integer()),
    sa.column("player_id", sa.String()),
    sa.column("games", sa.Integer()),
    sa.column("packed", sa.LargeBinary()),
)
#: The stored fields of a calculation, in the packed format's order.
_FIELDS = (
    "game_id", "rating_used", "opponent_rating_used", "difference", "difference_used",
    "expected", "score", "delta", "rated", "reason",
)  # fmt: skip


def upgrade() -> None:
    op.create_table(
        "player_calculations",
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=20), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("packed", sa.LargeBinary(), nullable=False),
        sa.CheckConstraint("games > 0", name=op.f("ck_player_calculations_games_positive")),
        sa.CheckConstraint(
            "length(packed) >= 3 + 17 * games",
            name=op.f("ck_player_calculations_packed_holds_games"),
        ),
        sa.ForeignKeyConstraint(
            ["list_id"],
            ["rating_lists.id"],
            name=op.f("fk_player_calculations_list_id_rating_lists"),
        ),
        sa.PrimaryKeyConstraint("list_id", "player_id", name=op.f("pk_player_calculations")),
    )
    op.create_index(
        "ix_player_calculations_player_id", "player_calculations", ["player_id"], unique=False
    )
    bind = op.get_bind()
    _refuse_what_cannot_be_packed(bind)
    rows = bind.execute(
        sa.text(
            f"SELECT list_id, player_id, {', '.join(_FIELDS)} FROM calculations "
            "ORDER BY list_id, player_id, game_id"
        )
        .columns(
            # Typed, so that SQLite's floats come back as the Decimals the columns hold.
            expected=sa.Numeric(6, 4),
            score=sa.Numeric(2, 1),
            delta=sa.Numeric(7, 4),
            rated=sa.Boolean(),
        )
        .execution_options(stream_results=True, yield_per=BATCH)
    )
    batch: list[dict[str, Any]] = []
    for (list_id, player_id), games in groupby(rows, key=lambda row: (row[0], row[1])):
        calculations = [tuple(row[2:]) for row in games]
        batch.append(
            {
                "list_id": list_id,
                "player_id": player_id,
                "games": len(calculations),
                "packed": pack(calculations),
            }
        )
        if len(batch) == BATCH:
            bind.execute(_PACKED.insert(), batch)
            batch = []
    if batch:
        bind.execute(_PACKED.insert(), batch)
    op.drop_table("calculations")


def _refuse_what_cannot_be_packed(bind: sa.Connection) -> None:
    """Stop the upgrade (nothing changed: the migration's transaction is rolled back) where a
    calculation says what its game or list does not."""
    mismatched = bind.execute(
        sa.text(
            "SELECT c.list_id, c.player_id, c.game_id FROM calculations AS c "
            "JOIN games AS g ON g.id = c.game_id JOIN rating_lists AS l ON l.id = c.list_id "
            "WHERE c.tournament_id <> g.tournament_id "
            "OR NOT ((c.player_id = g.white_id AND c.opponent_id = g.black_id) "
            "OR (c.player_id = g.black_id AND c.opponent_id = g.white_id)) "
            "OR l.rule_version IS NULL OR l.rule_version <> c.rule_version "
            "ORDER BY c.list_id, c.player_id, c.game_id"
        )
    ).first()
    if mismatched is not None:
        list_id, player_id, game_id = mismatched
        raise RuntimeError(
            f"migration 0020: list {list_id}, player {player_id}, game {game_id}: the "
            "calculation's tournament, opponent or rule version is not its game's or list's; "
            "nothing was changed"
        )


def downgrade() -> None:
    op.create_table(
        "calculations",
        sa.Column("list_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.String(length=20), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=40), nullable=False),
        sa.Column("rating_used", sa.Integer(), nullable=True),
        sa.Column("opponent_id", sa.String(length=20), nullable=False),
        sa.Column("opponent_rating_used", sa.Integer(), nullable=True),
        sa.Column("difference", sa.Integer(), nullable=True),
        sa.Column("difference_used", sa.Integer(), nullable=True),
        sa.Column("expected", sa.Numeric(precision=6, scale=4), nullable=True),
        sa.Column("score", sa.Numeric(precision=2, scale=1), nullable=False),
        sa.Column("delta", sa.Numeric(precision=7, scale=4), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.Column("rule_version", sa.String(length=40), nullable=False),
        sa.CheckConstraint(
            "rated OR reason IS NOT NULL", name=op.f("ck_calculations_unrated_has_reason")
        ),
        sa.CheckConstraint("score IN (0, 0.5, 1)", name=op.f("ck_calculations_score")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_calculations_game_id_games")
        ),
        sa.ForeignKeyConstraint(
            ["list_id"], ["rating_lists.id"], name=op.f("fk_calculations_list_id_rating_lists")
        ),
        sa.PrimaryKeyConstraint("list_id", "player_id", "game_id", name=op.f("pk_calculations")),
    )
    bind = op.get_bind()
    table = sa.table(
        "calculations",
        *(sa.column(name) for name in ("list_id", "player_id", "tournament_id", "opponent_id")),
        *(sa.column(name) for name in ("game_id", "rating_used", "opponent_rating_used")),
        *(sa.column(name) for name in ("difference", "difference_used", "reason")),
        sa.column("expected", sa.Numeric(6, 4)),
        sa.column("score", sa.Numeric(2, 1)),
        sa.column("delta", sa.Numeric(7, 4)),
        sa.column("rated", sa.Boolean()),
        sa.column("rule_version"),
    )
    packed = bind.execute(
        sa.text(
            "SELECT c.list_id, c.player_id, c.packed, l.rule_version "
            "FROM player_calculations AS c JOIN rating_lists AS l ON l.id = c.list_id "
            "ORDER BY c.list_id, c.player_id"
        ).execution_options(stream_results=True, yield_per=BATCH)
    )
    for part in _batches(packed):
        rows = [
            (list_id, player_id, calculation, version)
            for list_id, player_id, data, version in part
            for calculation in unpack(data)
        ]
        games = _games(bind, {calculation.game_id for _, _, calculation, _ in rows})
        bind.execute(
            table.insert(),
            [
                {
                    "list_id": list_id,
                    "player_id": player_id,
                    "tournament_id": games[c.game_id][0],
                    "opponent_id": (
                        games[c.game_id][2] if games[c.game_id][1] == player_id
                        else games[c.game_id][1]
                    ),
                    **c._asdict(),
                    "rule_version": version,
                }
                for list_id, player_id, c, version in rows
            ],
        )  # fmt: skip
    op.drop_index("ix_player_calculations_player_id", table_name="player_calculations")
    op.drop_table("player_calculations")


def _batches(rows: Any) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for row in rows:
        batch.append(tuple(row))
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _games(bind: sa.Connection, game_ids: set[int]) -> dict[int, tuple[str, str, str]]:
    """game id -> its tournament, white and black."""
    found: dict[int, tuple[str, str, str]] = {}
    ordered = sorted(game_ids)
    for start in range(0, len(ordered), 900):  # SQLite's bound parameters
        part = ordered[start : start + 900]
        rows = bind.execute(
            sa.text(
                "SELECT id, tournament_id, white_id, black_id FROM games WHERE id IN :ids"
            ).bindparams(sa.bindparam("ids", expanding=True)),
            {"ids": part},
        )
        for game_id, tournament_id, white_id, black_id in rows:
            found[int(game_id)] = (tournament_id, white_id, black_id)
    return found
