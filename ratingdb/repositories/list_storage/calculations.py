"""Where a list's calculations are: a list computed whole (a close, or a revision recomputed
whole) holds every calculation of its period; a correction's revision computed from its
impact holds only those of the players it recomputed (``revised_players``), everyone else's
being the revision's it replaces (its parent, a list of the same date), and so on down to a
list computed whole. These functions say, for a list and some players, which list holds each
player's calculations; the readers (the player page, the crosstable, the impact) read them
there."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from datetime import date
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import Select, and_, bindparam, insert, select
from sqlalchemy.orm import Session, aliased

from ratingdb.db.calculation_format_v1 import StoredCalculation, pack, unpack
from ratingdb.models import PlayerCalculationsRow, RatingListRow, RevisedPlayerRow
from ratingdb.repositories.players import chunks, one_of
from ratingdb.rules import Category


class ListLink(NamedTuple):
    """A list's place among its category's lists: what the walk down its revisions reads."""

    id: int
    category: str
    list_date: date
    revision: int
    parent_list_id: int | None


def revision_chain(lists: dict[int, ListLink], list_id: int) -> list[int]:
    """The list and the revisions it replaces, nearest first, down to the first computed whole
    (whose parent is of an earlier date, or none): the lists that may hold its calculations.
    ``lists``: the list's and every list of its category and date (:func:`links`)."""
    chain = [list_id]
    link = lists[list_id]
    while link.parent_list_id is not None:
        parent = lists.get(link.parent_list_id)  # ``lists`` may hold only the list's date
        if parent is None or parent.list_date != link.list_date:
            break
        chain.append(parent.id)
        link = parent
    return chain


def source_of(chain: Sequence[int], revised_on: Collection[int]) -> int:
    """The list of ``chain`` (a list and the revisions it replaces) that holds a player's
    calculations: the nearest that recomputed them (``revised_on``: the lists whose
    revised_players name the player), else the last, computed whole."""
    for list_id in chain[:-1]:
        if list_id in revised_on:
            return list_id
    return chain[-1]


@cache
def _links_statement() -> Select[int, Category, date, int, int | None]:
    """:func:`links`' query, built once: its aliased join takes ~0.7 ms to build (and as long
    again to find in the compiled cache), and a correction's impact asks it for every period
    it reaches (500 times in one differential test). ``wanted``: the lists asked."""
    asked = aliased(RatingListRow)
    return (
        select(
            RatingListRow.id,
            RatingListRow.category,
            RatingListRow.list_date,
            RatingListRow.revision,
            RatingListRow.parent_list_id,
        )
        .distinct()
        .join(
            asked,
            and_(
                asked.category == RatingListRow.category,
                asked.list_date == RatingListRow.list_date,
            ),
        )
        .where(asked.id.in_(bindparam("wanted", expanding=True)))
    )


def links(session: Session, list_ids: Iterable[int]) -> dict[int, ListLink]:
    """The links of the lists and of every list of the same categories and dates (the
    revisions they may replace)."""
    wanted = sorted(set(list_ids))
    if not wanted:
        return {}
    rows = session.execute(_links_statement(), {"wanted": wanted}).all()
    return {int(row.id): ListLink(int(row.id), str(row.category), *row[2:]) for row in rows}


def current_sources(lists: dict[int, ListLink], revised: Collection[int]) -> dict[int, ListLink]:
    """For the latest revision of each list of ``lists`` (every revision of some lists, as
    :func:`links` gives them): the list holding one player's calculations (``revised``: the
    lists that recomputed the player) -> that latest revision."""
    current: dict[tuple[str, date], ListLink] = {}
    for link in lists.values():
        key = (link.category, link.list_date)
        if key not in current or current[key].revision < link.revision:
            current[key] = link
    return {source_of(revision_chain(lists, link.id), revised): link for link in current.values()}


def revised_on(
    session: Session, list_ids: Collection[int], player_ids: Collection[str] | None = None
) -> dict[str, set[int]]:
    """player_id -> the lists among ``list_ids`` that recomputed them (their revised_players;
    every player of those lists, or only ``player_ids``)."""
    found: dict[str, set[int]] = {}
    if not list_ids:
        return found
    statement = select(RevisedPlayerRow.player_id, RevisedPlayerRow.list_id).where(
        one_of(session, RevisedPlayerRow.list_id, sorted(list_ids))
    )
    parts: Iterable[Sequence[str] | None] = (
        [None] if player_ids is None else chunks(sorted(set(player_ids)))
    )
    for part in parts:
        query = (
            statement
            if part is None
            else statement.where(one_of(session, RevisedPlayerRow.player_id, part))
        )
        for player_id, list_id in session.execute(query):
            found.setdefault(player_id, set()).add(int(list_id))
    return found


def sources(
    session: Session, list_id: int, player_ids: Collection[str] | None = None
) -> tuple[list[int], dict[str, int]]:
    """The list's revision chain (:func:`revision_chain`) and, for each player it recomputed
    on a revision of the chain (or of ``player_ids``), the list holding their calculations;
    every other player's are on the chain's last list."""
    chain = revision_chain(links(session, [list_id]), list_id)
    if len(chain) == 1:
        return chain, {}
    revised = revised_on(session, chain[:-1], player_ids)
    return chain, {player: source_of(chain, lists) for player, lists in revised.items()}


def calculations_of(
    session: Session, list_id: int, player_ids: Collection[str] | None = None
) -> dict[str, list[StoredCalculation]]:
    """player_id -> the calculations of every player of the list (or of ``player_ids``), each
    player's read where they are stored (:func:`sources`)."""
    chain, held = sources(session, list_id, player_ids)
    last = chain[-1]
    found: dict[str, list[StoredCalculation]] = {}
    for stored_on, player_id, calculations in stored_rows(session, chain, player_ids):
        if held.get(player_id, last) == stored_on:
            found[player_id] = calculations
    return found


def stored_rows(
    session: Session, list_ids: Collection[int], player_ids: Collection[str] | None = None
) -> Iterator[tuple[int, str, list[StoredCalculation]]]:
    """(list_id, player_id, calculations) of each row stored on ``list_ids`` (of every player,
    or of ``player_ids``), as stored: no revision read through."""
    if not list_ids:
        return
    table = PlayerCalculationsRow
    statement = select(table.list_id, table.player_id, table.packed).where(
        one_of(session, table.list_id, sorted(list_ids))
    )
    parts: Iterable[Sequence[str] | None] = (
        [None] if player_ids is None else chunks(sorted(set(player_ids)))
    )
    for part in parts:
        query = statement
        if part is not None:
            query = statement.where(one_of(session, table.player_id, part))
        for stored_on, player_id, packed in session.connection().execute(query):
            yield int(stored_on), player_id, unpack(packed)


def player_rows(session: Session, player_id: str) -> list[tuple[int, list[StoredCalculation]]]:
    """(list_id, calculations) of every row of the player, on every list and revision."""
    table = PlayerCalculationsRow
    rows = session.connection().execute(
        select(table.list_id, table.packed).where(table.player_id == player_id)
    )
    return [(int(list_id), unpack(packed)) for list_id, packed in rows]


def packed_row(
    list_id: int, player_id: str, calculations: Sequence[Sequence[Any]]
) -> tuple[int, str, int, bytes]:
    """A row of player_calculations (PLAYER_CALCULATION_KEYS): a player's calculations on a
    list, packed."""
    return list_id, player_id, len(calculations), pack(calculations)


def write_revised(session: Session, list_id: int, player_ids: Iterable[str]) -> int:
    """The players a revision recomputed (its calculations are theirs only)."""
    rows = [{"list_id": list_id, "player_id": p} for p in sorted(set(player_ids))]
    if rows:
        session.execute(insert(RevisedPlayerRow), rows)
    return len(rows)


#: The columns of player_calculations, in the order of a close's tuples (ratingdb.services.close).
PLAYER_CALCULATION_KEYS = ("list_id", "player_id", "games", "packed")

__all__ = [
    "PLAYER_CALCULATION_KEYS",
    "ListLink",
    "calculations_of",
    "current_sources",
    "links",
    "packed_row",
    "player_rows",
    "revised_on",
    "revision_chain",
    "source_of",
    "sources",
    "stored_rows",
    "write_revised",
]
