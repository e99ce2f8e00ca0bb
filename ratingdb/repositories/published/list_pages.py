"""A page of a published list's entries the filter of a list page keeps, with their ranks,
and how many it keeps, read by one of the :class:`Strategy` that :func:`plan` chooses: from
latest_entries when they hold the list (latest_page), else from the list's chunks, or its
entries resolved by player when few players match."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.db.chunks import CHUNK_SIZE, ENTRY, list_order
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.repositories.list_storage import latest as list_latest
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


#: The orders of a list page: by rating (the list's own order), by change or by games played
#: (each descending, a first rating's change after every change; ties in list order).
SORTS = ("rating", "change", "games")


class Strategy(StrEnum):
    """How a page of a list and its count are read (:func:`plan` chooses). Every strategy
    gives the same entries, ranks and count (tests/db/test_list_strategies.py)."""

    #: No filter, the list's own order: the page cut from its one or two chunks by position
    #: (``published.lists.list_entries``), its ranks from the position; the count stored with
    #: the list.
    WHOLE = "whole"
    #: The list latest_entries hold (each category's latest list): page, count and the counts
    #: above each rating in SQL, latest_entries joined to the players (latest_page).
    LATEST = "latest"
    #: The players the filter keeps read from the players table, their entries resolved by id
    #: through the list's ancestry (list_storage.changes.resolve).
    RESOLVED = "resolved"
    #: The list's ids, ratings and activity (and the sort's column) decoded from its chunks,
    #: filtered against the players the filter keeps (one query) in Python.
    DECODED = "decoded"


@dataclass(frozen=True, slots=True)
class Plan:
    """A :class:`Strategy` and what choosing it read: the players the filter's conditions keep
    (None: not read, or the filter has no conditions on the players)."""

    strategy: Strategy
    players: set[str] | None = None
    #: Whether the strategy was forced (plan's ``forced``) rather than chosen.
    forced: bool = False


def plan(
    session: Session,
    list_id: int,
    wanted: EntryFilter,
    list_year: int,
    sort: str = "rating",
    *,
    forced: Strategy | None = None,
    latest_moved: bool = False,
) -> Plan:
    """How to read the entries of the list ``wanted`` keeps, in ``sort`` order, first rule
    that applies:

    1. no filter, by rating: WHOLE (a page at any depth is one or two chunks);
    2. another order than rating (change, games): DECODED (no index orders a list by them;
       the whole list's column is decoded and sorted);
    3. the list is the one latest_entries hold (one small query): LATEST (the index of
       latest_entries and of the players answer in one statement);
    4. activity alone (no condition on the players): DECODED (every entry is read anyway);
    5. at most FEW_MATCHING players match the filter (one query, kept in the plan): RESOLVED;
    6. else DECODED.

    ``forced`` (the tests, to compare the strategies on one list): that strategy whatever the
    rules say; ValueError where it cannot answer (WHOLE with a filter or another order, LATEST
    for a list latest_entries do not hold, RESOLVED in another order than rating).
    ``latest_moved``: LATEST was chosen, but a list published since moved latest_entries to
    it (the read found them holding another list): rule 3 is skipped."""
    if sort not in SORTS:
        raise ValueError(f"unknown order {sort!r} (one of {', '.join(SORTS)})")
    whole = wanted.is_empty and sort == "rating"
    if forced is not None:
        if forced is Strategy.WHOLE and not whole:
            raise ValueError("WHOLE reads the whole list in its order, without a filter")
        if forced is Strategy.LATEST and (
            sort != "rating" or list_latest.latest_category(session, list_id) is None
        ):
            raise ValueError(f"latest_entries do not hold list {list_id}, or not in that order")
        if forced is Strategy.RESOLVED and sort != "rating":
            raise ValueError("RESOLVED reads a list in rating order only")
        if forced in (Strategy.WHOLE, Strategy.LATEST):
            return Plan(forced, forced=True)
        conditions = filter_conditions(wanted, list_year)
        players = players_matching(session, conditions) if conditions else None
        return Plan(forced, players, forced=True)
    if whole:
        return Plan(Strategy.WHOLE)
    conditions = filter_conditions(wanted, list_year)
    if sort != "rating":
        return Plan(Strategy.DECODED, players_matching(session, conditions) if conditions else None)
    if not latest_moved and list_latest.latest_category(session, list_id) is not None:
        return Plan(Strategy.LATEST)
    if not conditions:
        return Plan(Strategy.DECODED)
    players = players_matching(session, conditions)
    return Plan(Strategy.RESOLVED if len(players) <= FEW_MATCHING else Strategy.DECODED, players)


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


def _sorted_kept(
    session: Session, list_id: int, wanted: EntryFilter, sort: str, players: set[str] | None
) -> _Kept:
    """DECODED in another order than rating: the entries of a list the filter keeps (``players``:
    those its conditions keep; None: everyone), ordered by ``sort`` (SORTS but rating), the
    list's columns decoded from its chunks."""
    if sort not in SORTS[1:]:
        raise ValueError(f"unknown order {sort!r} (one of {', '.join(SORTS)})")
    ids, ratings, lasts, values = chunk_reads.list_columns(
        session, list_id, ("player_id", "rating", "last_rated", sort)
    )
    positions = [
        index
        for index, player_id in enumerate(ids)
        if (players is None or player_id in players) and wanted.keeps(lasts[index])
    ]
    # Stable: equal values stay in list order. None (a first rating's change) sorts last.
    positions.sort(key=lambda i: (values[i] is None, -(values[i] or 0)))
    every = _universe(ratings, lasts, wanted)
    return _Kept([ids[i] for i in positions], [ratings[i] for i in positions], None, positions,
                 every)  # fmt: skip


def _kept(session: Session, list_id: int, wanted: EntryFilter, chosen: Plan) -> _Kept:
    """The entries of a list the filter keeps, in list order, by ``chosen`` (RESOLVED or
    DECODED, its players read by :func:`plan`): RESOLVED, the players' entries resolved
    through the list's ancestry; DECODED, the list's ids, ratings and activity decoded from
    its chunks and filtered here."""
    keeps = wanted.keeps
    if chosen.strategy is Strategy.RESOLVED:
        # Without conditions on the players (forced), every player is asked for.
        asked = chosen.players if chosen.players is not None else players_matching(session, [])
        entries = list_changes.resolve(session, list_id, asked)
        ordered = sorted((e for e in entries.values() if keeps(e.last_rated)), key=list_order)
        return _Kept([e[0] for e in ordered], [e[1] for e in ordered], entries, None)
    if chosen.strategy is not Strategy.DECODED:
        raise ValueError(f"_kept reads RESOLVED or DECODED, not {chosen.strategy}")
    ids, ratings, lasts = chunk_reads.list_columns(
        session, list_id, ("player_id", "rating", "last_rated")
    )
    keep = chosen.players
    positions = [
        index
        for index, player_id in enumerate(ids)
        if (keep is None or player_id in keep) and keeps(lasts[index])
    ]
    kept_ratings = [ratings[index] for index in positions]
    if keep is None:  # activity alone: the kept entries are the ranks' universe
        every = kept_ratings
    else:
        every = ratings if wanted.active_since is None else _universe(ratings, lasts, wanted)
    return _Kept([ids[i] for i in positions], kept_ratings, None, positions, every)


def _universe(ratings: list[int], lasts: list[Any], wanted: EntryFilter) -> list[int]:
    """The ratings of the entries the ranks count (those active on the list, with
    ``wanted.active_since``), in list order."""
    return [rating for rating, last in zip(ratings, lasts, strict=True) if wanted.keeps(last)]


def count_filtered(
    session: Session,
    list_id: int,
    wanted: EntryFilter,
    list_year: int,
    chosen: Plan | None = None,
) -> int:
    """How many entries of the list the filter keeps, by ``chosen`` (None: :func:`plan`'s
    choice): WHOLE, the sizes of the list's chunks; LATEST, counted in latest_entries (one
    statement); else :func:`_kept`'s."""
    if chosen is None:
        chosen = plan(session, list_id, wanted, list_year)
    if chosen.strategy is Strategy.WHOLE:
        return chunk_reads.entries_in_chunks_above(session, list_id, -1)
    if chosen.strategy is Strategy.LATEST:
        count = latest_count(session, list_id, wanted, list_year)
        if count is not None:
            return count
        chosen = _moved(session, list_id, wanted, list_year, chosen)
    return len(_kept(session, list_id, wanted, chosen).ids)


def _moved(
    session: Session, list_id: int, wanted: EntryFilter, list_year: int, chosen: Plan
) -> Plan:
    """The plan once a LATEST read found latest_entries holding another list (one published
    between the plan and the read): chosen again without them; LookupError when LATEST was
    forced."""
    if chosen.forced:
        raise LookupError(f"latest_entries no longer hold list {list_id}")
    return plan(session, list_id, wanted, list_year, latest_moved=True)


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
    chosen: Plan | None = None,
) -> list[tuple[Any, ...]]:
    """One page of the entries the filter keeps, in list order (rating descending, then
    player_id), each row the ListEntry's columns then ``rank`` (on the whole list: one more
    than the entries rated above, so equal ratings share a rank) and ``federation_rank``
    (the same among the players of ``wanted.federation``; None without that filter; both
    None without ``ranked``). Read by ``chosen`` (None: :func:`plan`'s choice; WHOLE pages
    are cut by ``published.lists.list_entries``): LATEST, latest_page.latest_page; RESOLVED
    and DECODED, the entries kept as :func:`_kept` finds them, the ranks by bisection of the
    whole list's ratings (decoded from its chunks) and of the federation's, the page's players
    and original ratings read by id. ``sort`` (SORTS) other than rating: the page in that
    order (:func:`_sorted_kept`), the ranks still by rating."""
    with_original = original_list_id is not None and original_list_id != list_id
    if chosen is None:
        chosen = plan(session, list_id, wanted, list_year, sort)
    if chosen.strategy is Strategy.WHOLE:
        raise ValueError("a WHOLE page is cut from the list's chunks by list_entries")
    if chosen.strategy is Strategy.LATEST:
        original_id = original_list_id if with_original else None
        found = latest_page(
            session, list_id, original_id, wanted, list_year, limit, offset, ranked=ranked
        )
        if found is not None:
            return found
        chosen = _moved(session, list_id, wanted, list_year, chosen)
    if sort != "rating":
        kept = _sorted_kept(session, list_id, wanted, sort, chosen.players)
    else:
        kept = _kept(session, list_id, wanted, chosen)
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
            same_way = chosen.strategy if chosen.forced else None
            members = _kept(
                session, list_id, members_only,
                plan(session, list_id, members_only, 0, forced=same_way, latest_moved=True),
            )  # fmt: skip
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
