"""A page of a published list's entries the filter of a list page keeps, with their ranks,
and how many it keeps: from latest_entries when they hold the list (latest_page), else from
the list's chunks, or its entries resolved by player when few players match."""

from __future__ import annotations

import bisect
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.db.chunks import CHUNK_SIZE, ENTRY, list_order
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import players as list_players
from ratingdb.repositories.published.common import PLAYER_COLUMNS, SHOWN_FIELDS
from ratingdb.repositories.published.entry_filter import (
    EntryFilter,
    filter_conditions,
    players_matching,
)
from ratingdb.repositories.published.latest_page import latest_count, latest_page
from ratingdb.rules.carry_forward import Entry

#: Up to this many players matching a filter, the list's entries kept are theirs resolved by id
#: (list_entries' key starts with the player); more, and the list's ids and ratings are decoded
#: from its chunks and filtered here. (PostgreSQL, 20,000 entries x 25 lists: 1,000 players
#: resolved 30 ms, the list decoded and filtered 8 ms; 100 resolved 1-2 ms.)
FEW_MATCHING = 200


class _Kept:
    """The entries of a list a filter keeps, in list order: ``ids``, ``ratings``, and each
    one's shown figures on demand (:meth:`figures`)."""

    __slots__ = ("_entries", "_positions", "every_rating", "ids", "ratings")

    def __init__(
        self,
        ids: list[str],
        ratings: list[int],
        entries: dict[str, Entry] | None,
        positions: list[int] | None,
        every_rating: list[int] | None = None,
    ) -> None:
        self.ids, self.ratings = ids, ratings
        self._entries, self._positions = entries, positions
        #: Every rating of the list in list order, when it was decoded.
        self.every_rating = every_rating

    def figures(self, session: Session, list_id: int, start: int, stop: int) -> list[list[Any]]:
        """The SHOWN_FIELDS of kept entries ``start`` to ``stop``, one list per field: from
        the resolved entries, or decoded from the chunks the entries are in (only those)."""
        if self._entries is not None:
            fields = [ENTRY.index(name) for name in SHOWN_FIELDS]
            rows = [self._entries[player_id] for player_id in self.ids[start:stop]]
            return [[row[index] for row in rows] for index in fields]
        assert self._positions is not None
        places = self._positions[start:stop]
        numbers = sorted({place // CHUNK_SIZE for place in places})
        decoded = chunk_reads.chunk_columns(session, list_id, numbers, SHOWN_FIELDS)
        return [
            [decoded[place // CHUNK_SIZE][index][place % CHUNK_SIZE] for place in places]
            for index in range(len(SHOWN_FIELDS))
        ]


#: The orders of a list page: by rating (the list's own order), by change or by games played
#: (each descending, a first rating's change after every change; ties in list order).
SORTS = ("rating", "change", "games")


def _sorted_kept(
    session: Session, list_id: int, wanted: EntryFilter, list_year: int, sort: str
) -> _Kept:
    """The entries of a list the filter keeps, ordered by ``sort`` (SORTS but rating): the
    list's columns decoded from its chunks, the filter's players read once (one query)."""
    if sort not in SORTS[1:]:
        raise ValueError(f"unknown order {sort!r} (one of {', '.join(SORTS)})")
    conditions = filter_conditions(wanted, list_year)
    keep = players_matching(session, conditions) if conditions else None
    ids, ratings, lasts, values = chunk_reads.list_columns(
        session, list_id, ("player_id", "rating", "last_rated", sort)
    )
    positions = [
        index
        for index, player_id in enumerate(ids)
        if (keep is None or player_id in keep) and wanted.keeps(lasts[index])
    ]
    # Stable: equal values stay in list order. None (a first rating's change) sorts last.
    positions.sort(key=lambda i: (values[i] is None, -(values[i] or 0)))
    every = _universe(ratings, lasts, wanted)
    return _Kept([ids[i] for i in positions], [ratings[i] for i in positions], None, positions,
                 every)  # fmt: skip


#: Whether a filtered page of the list latest_entries hold reads them (tests turn it off to
#: read the other ways).
READ_LATEST = True


def _kept(session: Session, list_id: int, wanted: EntryFilter, list_year: int) -> _Kept:
    """The entries of a list the filter keeps (a list latest_entries do not hold): the
    filter's players read from the players table (one query); few, their entries resolved
    through the list's ancestry; else the list's ids and ratings decoded from its chunks and
    filtered here."""
    conditions = filter_conditions(wanted, list_year)
    keeps = wanted.keeps
    if not conditions:  # activity alone: the whole list read
        ids, ratings, lasts = chunk_reads.list_columns(
            session, list_id, ("player_id", "rating", "last_rated")
        )
        positions = [index for index, last in enumerate(lasts) if keeps(last)]
        kept_ratings = [ratings[index] for index in positions]
        return _Kept([ids[i] for i in positions], kept_ratings, None, positions, kept_ratings)
    keep = players_matching(session, conditions)
    if len(keep) <= FEW_MATCHING:
        entries = list_changes.resolve(session, list_id, keep)
        ordered = sorted((e for e in entries.values() if keeps(e.last_rated)), key=list_order)
        return _Kept([e[0] for e in ordered], [e[1] for e in ordered], entries, None)
    ids, ratings, lasts = chunk_reads.list_columns(
        session, list_id, ("player_id", "rating", "last_rated")
    )
    positions = [
        index for index, player_id in enumerate(ids) if player_id in keep and keeps(lasts[index])
    ]
    kept_ids = [ids[index] for index in positions]
    every = ratings if wanted.active_since is None else _universe(ratings, lasts, wanted)
    return _Kept(kept_ids, [ratings[index] for index in positions], None, positions, every)


def _universe(ratings: list[int], lasts: list[Any], wanted: EntryFilter) -> list[int]:
    """The ratings of the entries the ranks count (those active on the list, with
    ``wanted.active_since``), in list order."""
    return [rating for rating, last in zip(ratings, lasts, strict=True) if wanted.keeps(last)]


def count_filtered(session: Session, list_id: int, wanted: EntryFilter, list_year: int) -> int:
    """How many entries of the list the filter keeps: counted in latest_entries when they
    hold the list (one statement: whether they hold it, and the count there), else
    :func:`_kept`'s."""
    if READ_LATEST:
        count = latest_count(session, list_id, wanted, list_year)
        if count is not None:
            return count
    return len(_kept(session, list_id, wanted, list_year).ids)


def entries_above(
    session: Session, list_id: int, rating: int, federation: str | None = None
) -> int:
    """How many entries of the list (of ``federation``'s players) are rated above ``rating``:
    a rank is one more. Counted from the list's chunks: those wholly above by their sizes, the
    one or two the rating falls in entry by entry; for a federation, the ids of the entries
    above counted among the federation's players in the database (one query)."""
    if federation is None:
        return chunk_reads.entries_in_chunks_above(session, list_id, rating) + sum(
            1 for rated in chunk_reads.ratings_across(session, list_id, rating) if rated > rating
        )
    above = chunk_reads.ids_rated_above(session, list_id, rating)
    return list_players.count_of_federation(session, above, federation)


def filtered_entries(
    session: Session,
    list_id: int,
    *,
    original_list_id: int | None,
    wanted: EntryFilter,
    list_year: int,
    limit: int,
    offset: int,
    ranked: bool = True,
    sort: str = "rating",
) -> list[tuple[Any, ...]]:
    """One page of the entries the filter keeps, in list order (rating descending, then
    player_id), each row the ListEntry's columns then ``rank`` (on the whole list: one more
    than the entries rated above, so equal ratings share a rank) and ``federation_rank``
    (the same among the players of ``wanted.federation``; None without that filter; both
    None without ``ranked``). The list latest_entries hold: latest_page.latest_page. Another:
    the entries kept as :func:`_kept` finds them; the ranks by bisection of the whole list's
    ratings (decoded from its chunks) and of the federation's; the page's players and
    original ratings read by id. ``sort`` (SORTS) other than rating: the page in that order
    (:func:`_sorted_kept`), the ranks still by rating."""
    with_original = original_list_id is not None and original_list_id != list_id
    if sort != "rating":
        kept = _sorted_kept(session, list_id, wanted, list_year, sort)
    elif READ_LATEST:
        original_id = original_list_id if with_original else None
        found = latest_page(
            session, list_id, original_id, wanted, list_year, limit, offset, ranked=ranked
        )
        if found is not None:
            return found
        kept = _kept(session, list_id, wanted, list_year)
    else:
        kept = _kept(session, list_id, wanted, list_year)
    stop = offset + max(limit, 0)
    page_ids = kept.ids[offset:stop]
    if not page_ids:
        return []
    page_ratings = kept.ratings[offset:stop]
    ratings = kept.every_rating
    if ratings is None and ranked:
        every, lasts = chunk_reads.list_columns(session, list_id, ("rating", "last_rated"))
        ratings = _universe(every, lasts, wanted)
    descending = None if ratings is None else [-rating for rating in ratings]  # for bisect
    federation_ratings: list[int] | None = None
    if wanted.federation is not None and ranked:
        members_only = EntryFilter(federation=wanted.federation, active_since=wanted.active_since)
        if wanted == members_only:
            federation_ratings = sorted(-rating for rating in kept.ratings)
        else:
            members = _kept(session, list_id, members_only, 0)
            federation_ratings = [-rating for rating in members.ratings]
    shown = kept.figures(session, list_id, offset, stop)
    players = list_players.players_by_id(session, page_ids, PLAYER_COLUMNS[1:])
    original = (
        list_changes.ratings_on(session, original_list_id, page_ids)
        if with_original and original_list_id is not None
        else None
    )
    rows: list[tuple[Any, ...]] = []
    for at, (player_id, rating) in enumerate(zip(page_ids, page_ratings, strict=True)):
        rows.append(
            (
                *(column[at] for column in shown),
                player_id,
                *players[player_id],
                rating if original is None else original.get(player_id),
                None if descending is None else bisect.bisect_left(descending, -rating) + 1,
                None
                if federation_ratings is None
                else bisect.bisect_left(federation_ratings, -rating) + 1,
            )
        )
    return rows
