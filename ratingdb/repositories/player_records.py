"""A player's record as the back office edits it: read one, lock it, find who else holds a FIDE
id or a national id, and write the new values (the search key with the name)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.orm import Session

from ratingdb.models import PlayerEditsRow, PlayerRow
from ratingdb.repositories.players import with_search_name

#: The columns an officer edits (and the record's version covers).
EDITABLE = ("name", "sex", "birth_year", "birth_date", "fide_id", "national_federation",
            "national_id", "federation", "title")  # fmt: skip


def record(session: Session, player_id: str, *, lock: bool = False) -> PlayerRow | None:
    """The player's row; ``lock``: locked until the transaction ends (PostgreSQL ``FOR
    UPDATE``; SQLite writers already take turns), so that a second edit waits for the first
    and then reads what it wrote."""
    statement = select(PlayerRow).where(PlayerRow.player_id == player_id)
    if lock and session.get_bind().dialect.name == "postgresql":
        statement = statement.with_for_update()
    return session.scalars(statement.execution_options(populate_existing=True)).one_or_none()


def fide_id_holder(session: Session, fide_id: str, other_than: str) -> str | None:
    """The player, other than ``other_than``, known by this FIDE id: recorded as their FIDE id,
    or their player id with no FIDE id recorded (a list CSV names players by their FIDE id:
    repositories.players.by_fide_ids reads them so)."""
    return session.scalar(
        select(PlayerRow.player_id)
        .where(
            PlayerRow.player_id != other_than,
            or_(
                PlayerRow.fide_id == fide_id,
                and_(PlayerRow.player_id == fide_id, PlayerRow.fide_id.is_(None)),
            ),
        )
        .limit(1)
    )


def national_id_holder(
    session: Session, federation: str, national_id: str, other_than: str
) -> str | None:
    """The player, other than ``other_than``, holding this national id of this federation."""
    return session.scalar(
        select(PlayerRow.player_id)
        .where(
            PlayerRow.player_id != other_than,
            PlayerRow.national_federation == federation,
            PlayerRow.national_id == national_id,
        )
        .limit(1)
    )


def write(session: Session, player_id: str, values: Mapping[str, Any]) -> None:
    """Set the player's columns ``values`` (the search key with a new name)."""
    session.execute(
        update(PlayerRow)
        .where(PlayerRow.player_id == player_id)
        .values(**with_search_name(values))
        .execution_options(synchronize_session=False)
    )


def count_edit(session: Session) -> None:
    """One more edit of a record (``player_edits``; its row made if missing)."""
    counted = session.execute(
        update(PlayerEditsRow)
        .where(PlayerEditsRow.id == 1)
        .values(edits=PlayerEditsRow.edits + 1)
        .execution_options(synchronize_session=False)
    )
    if getattr(counted, "rowcount", 0) == 0:
        session.add(PlayerEditsRow(id=1, edits=1))
        session.flush()


def edits(session: Session) -> int:
    """How many edits of records there were (0 without the row)."""
    return int(session.scalar(select(PlayerEditsRow.edits).where(PlayerEditsRow.id == 1)) or 0)
