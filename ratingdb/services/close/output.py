"""The output of a computed period as rows: its entries, statuses and calculations, as
services.close.writing streams them into the database (repositories.list_storage), and the
digest of its entries."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import date
from typing import Any, cast

from ratingdb.db.calculation_format_v1 import StoredCalculation
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage.calculations import packed_row
from ratingdb.rules import (
    Period,
    PeriodResult,
    PeriodResults,
    PooledEvent,
    Score,
    activity,
)
from ratingdb.rules.results import Unmoved
from ratingdb.services.close.inputs import Loaded
from ratingdb.services.lists import DIGEST_FIELDS, DIGEST_VERSION, digest_of_sorted

_POINTS = {score: score.points for score in Score}


def listed_of(results: PeriodResults) -> list[str]:
    """The ids of the players on the list, in player_id order (a player held unmoved is on it:
    a rating, the same)."""
    return sorted(
        player_id
        for player_id, held in results.held().items()
        if type(held) is not PeriodResult or held.new_rating is not None
    )


def list_order(by_rating: Mapping[int, Sequence[str]]) -> Iterator[str]:
    """The ids of the players on the list in list order (rating descending, then player_id),
    from their ids by rating, each rating's in player_id order (as :func:`listed_of` gives
    them): a counting sort, no key made for each player."""
    for rating in sorted(by_rating, reverse=True):
        yield from by_rating[rating]


def markers(list_id: int, gone: Sequence[str]) -> Iterator[tuple[Any, ...]]:
    """A marker row (ENTRY_KEYS, every field None) for each player ``gone`` (of the parent,
    not on the list)."""
    for player_id in gone:
        yield (list_id, player_id, *_NO_FIELDS)


_NO_FIELDS = (None,) * (len(list_changes.ENTRY_KEYS) - 2)


def entry_rows_of(
    results: PeriodResults, listed: Iterable[str], list_id: int
) -> Iterator[tuple[Any, ...]]:
    """The entries (ENTRY_KEYS) of the players ``listed``, in that order, as
    :func:`entry_fields_of` makes them."""
    for fields in entry_fields_of(results, listed):
        yield (list_id, *fields)


def entry_fields_of(results: PeriodResults, listed: Iterable[str]) -> Iterator[tuple[Any, ...]]:
    """The entries of the players ``listed`` (the fields of ENTRY_KEYS but list_id, as a
    list's chunks hold them), in that order, as :func:`entry_fields` makes them; those of the
    players held unmoved (most of a list) made straight from their status, their result not
    made again."""
    held = results.held()
    earliest = activity.earliest_active(results.version.category, results.period)
    for player_id in listed:
        found = held[player_id]
        if type(found) is PeriodResult:
            yield entry_fields(player_id, found, earliest)
            continue
        # As entry_fields makes a result made again (PeriodResults._made_again): on the previous
        # list at the same rating, change 0, no game (no K used nor sum), the K after the list.
        status, _, _, next_k = cast(Unmoved, found)
        rating, peak = status.rating, status.peak_rating
        last_date, active = last_rated_fields(status.last_rated, earliest)
        yield (
            player_id, rating, rating, 0, 0, next_k, None, None, status.rated_games,
            rating if peak is None else peak, last_date, active,
        )  # fmt: skip


def last_rated_fields(last_rated: Period | None, earliest: int) -> tuple[date | None, bool]:
    """The date of a held player's last rated list and whether the list shows them active
    (``earliest``: ratingdb.rules.activity.earliest_active), as Period's ``list_date`` and
    ``index`` make them, without their properties' calls: most of a list's entries are held
    players, made twice in a close and compared once with the parent."""
    if last_rated is None:
        return None, False
    year, month = last_rated.year, last_rated.month
    return date(year, month, 1), year * 12 + month - 1 >= earliest


def encode_pool(pool: Sequence[PooledEvent]) -> list[dict[str, Any]]:
    return [
        {
            "period": str(pooled.period),
            "tournament_id": pooled.event_id,
            "games": [
                {
                    "opponent_rating": g.opponent_rating,
                    "score": str(g.score.points),
                    "opponent_id": g.opponent_id,
                }
                for g in pooled.games
            ],
        }
        for pooled in pool
    ]


def entry_rows(results: Mapping[str, PeriodResult], list_id: int) -> Iterator[tuple[Any, ...]]:
    """The list's entries as rows of ENTRY_KEYS, produced as they are written."""
    for player_id, r in results.items():
        if r.new_rating is not None:
            yield entry_row(list_id, player_id, r)


def entry_row(list_id: int, player_id: str, r: PeriodResult) -> tuple[Any, ...]:
    """A listed player's entry as a row of ENTRY_KEYS."""
    earliest = activity.earliest_active(r.version.category, r.period)
    return (list_id, *entry_fields(player_id, r, earliest))


def entry_fields(player_id: str, r: PeriodResult, earliest: int) -> tuple[Any, ...]:
    """A listed player's entry: the fields of ENTRY_KEYS but list_id; ``earliest``: the index
    of the earliest list that counts a player active on the result's (ratingdb.rules.
    activity.earliest_active)."""
    on_previous_list = r.published_rating is not None
    peak = r.status.peak_rating
    last_rated = r.status.last_rated
    return (
        player_id,
        r.new_rating,
        r.base_rating if on_previous_list else None,
        r.change if on_previous_list else None,
        r.rated_games,
        r.next_k_factor,
        r.k_factor if r.rated_games else None,
        r.sum_delta if r.rated_games and on_previous_list else None,
        r.status.rated_games,
        r.new_rating if peak is None else peak,
        None if last_rated is None else last_rated.list_date,
        last_rated is not None and last_rated.index >= earliest,
    )


#: The fields of an entry (entry_fields: ENTRY_KEYS but list_id) a digest of each version
#: covers (services.lists.digest.DIGEST_FIELDS), picked in C.
_DIGEST_PICKS = {
    version: operator.itemgetter(*(list_changes.ENTRY_KEYS.index(name) - 1 for name in fields))
    for version, fields in DIGEST_FIELDS.items()
}


def digested_fields(version: int = DIGEST_VERSION) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """What picks the fields a digest of ``version`` covers from an entry's fields
    (:func:`entry_fields`)."""
    pick: Callable[[tuple[Any, ...]], tuple[Any, ...]] = _DIGEST_PICKS[version]
    return pick


def entries_digest(results: PeriodResults, version: int = DIGEST_VERSION) -> str:
    """The digest of the list's canonical content (as services.lists.list_digest computes it
    for an imported list), in digest ``version``."""
    # Sorted by player id alone (each player once, so the order of the whole tuples): only the
    # ids are held sorted, each entry made as it is encoded (a sorted list of two million
    # tuples was the close's peak of memory).
    return digest_of_sorted(_canonical(results, listed_of(results), version))


def _canonical(
    results: PeriodResults, listed: list[str], version: int
) -> Iterator[tuple[Any, ...]]:
    """The fields of digest ``version`` of each player of ``listed``: the entry as written."""
    return map(digested_fields(version), entry_fields_of(results, listed))


def statuses_to_keep(results: PeriodResults, list_id: int) -> Iterator[tuple[Any, ...]]:
    """Players off the list who have a history: pooling for a first rating, or below the floor.
    (A player whose standing did not move is on the list.)"""
    for player_id, r in results.moved():
        status = r.status
        if r.new_rating is None and (
            status.pool or status.rated_games or status.peak_rating is not None
        ):
            yield (list_id, player_id, status.rated_games, status.peak_rating,
                   encode_pool(status.pool))  # fmt: skip


def calculations_of(
    player_id: str, r: PeriodResult, game_ids: Mapping[tuple[str, int], Sequence[int]]
) -> list[StoredCalculation]:
    """The calculations of a player's games, as stored (``game_ids``: close.inputs.Loaded's)."""
    fields = calculation_fields_of(player_id, r, game_ids)
    return [StoredCalculation._make(calculation) for calculation in fields]


def calculation_fields_of(
    player_id: str, r: PeriodResult, game_ids: Mapping[tuple[str, int], Sequence[int]]
) -> list[tuple[Any, ...]]:
    """The fields of the calculations of a player's games (StoredCalculation's, in order), as
    plain tuples: what a close packs (600,000 at 500,000 players; a NamedTuple each cost a
    third of a microsecond more)."""
    found: list[tuple[Any, ...]] = []
    append = found.append
    for index, event in enumerate(r.events):
        ids = game_ids[(player_id, index)]
        rating_used = event.rating_used
        for game_id, calc in zip(ids, event.games, strict=True):
            game, reason = calc.game, calc.not_rated_reason
            append(
                (game_id, rating_used, game.opponent_rating, calc.difference,
                 calc.difference_used, calc.expected, _POINTS[game.score], calc.delta,
                 calc.rated, None if reason is None else str(reason))
            )  # fmt: skip
    return found


def calculation_rows(
    results: Iterable[tuple[str, PeriodResult]], list_id: int, loaded: Loaded
) -> Iterator[tuple[Any, ...]]:
    """The rows of player_calculations (PLAYER_CALCULATION_KEYS) of the players' results
    (player_id, result), made as they are written."""
    for player_id, r in results:
        calculations = calculation_fields_of(player_id, r, loaded.game_ids)
        if calculations:  # moved without a game: a status only
            yield packed_row(list_id, player_id, calculations)
