"""The output of a computed period: its list, entries, statuses and calculations as rows,
streamed into the database (repositories.list_entries), and the digest of its entries."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from ratingdb.enums import ListSource
from ratingdb.models import RatingListRow
from ratingdb.repositories import list_entries
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import PeriodResult, PeriodResults, PooledEvent, Score
from ratingdb.services.close.inputs import Loaded
from ratingdb.services.lists import digest_of_sorted

if TYPE_CHECKING:
    from ratingdb.services.close.computation import Computation

_POINTS = {score: score.points for score in Score}


def publish(
    session: Session,
    computation: Computation,
    *,
    revision: int,
    now: datetime,
    cause: int | None = None,
) -> tuple[RatingListRow, int]:
    """Write a computed period as revision ``revision`` of its list (for the correction
    ``cause``); returns the list and the number of rows written."""
    rules = computation.rules
    rating_list = period_repo.add_list(
        session,
        period_id=computation.period_id,
        category=rules.category,
        list_date=rules.period.list_date,
        revision=revision,
        source=ListSource.CLOSE,
        rule_version=rules.version.name,
        published_at=now,
        entry_count=computation.entry_count,
        digest=entries_digest(computation.results),
        cause_correction_id=cause,
        corrections_applied=computation.corrections,
        parent_list_id=None if computation.previous is None else computation.previous.id,
    )
    results, loaded = computation.results, computation.loaded
    rows = list_entries.write_computed(
        session,
        entry_rows(results, rating_list.id),
        _statuses_to_keep(results, rating_list.id),
        _calculations(results, rating_list.id, rules.version.name, loaded),
    )
    rows += list_entries.write_chunks(session, rating_list.id, _in_list_order(results))
    return rating_list, rows


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
            yield _entry_row(list_id, player_id, r)


def _in_list_order(results: Mapping[str, PeriodResult]) -> Iterator[tuple[Any, ...]]:
    """The list's entries (ENTRY_KEYS but list_id) in list order: rating descending, then
    player_id (only the keys are held sorted, each entry made as it is packed)."""
    keys = sorted(
        (-r.new_rating, player_id) for player_id, r in results.items() if r.new_rating is not None
    )
    for _, player_id in keys:
        yield _entry_row(0, player_id, results[player_id])[1:]


def _entry_row(list_id: int, player_id: str, r: PeriodResult) -> tuple[Any, ...]:
    on_previous_list = r.published_rating is not None
    peak = r.status.peak_rating
    return (
        list_id,
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
    )


def entries_digest(results: Mapping[str, PeriodResult]) -> str:
    """The digest of the list's canonical content (as services.lists.list_digest computes it
    for an imported list)."""
    # Sorted by player id alone (each player once, so the order of the whole tuples): only the
    # ids are held sorted, each entry made as it is encoded (a sorted list of two million
    # tuples was the close's peak of memory).
    listed = sorted(player_id for player_id, r in results.items() if r.new_rating is not None)
    return digest_of_sorted(_canonical(results, listed))


def _canonical(results: Mapping[str, PeriodResult], listed: list[str]) -> Iterator[tuple[Any, ...]]:
    """(player_id, rating, previous_rating, change, games, k_factor) of each player of
    ``listed``: the entry's row as written, from its player id to its K."""
    for player_id in listed:
        yield _entry_row(0, player_id, results[player_id])[1:7]


def _statuses_to_keep(results: PeriodResults, list_id: int) -> Iterator[tuple[Any, ...]]:
    """Players off the list who have a history: pooling for a first rating, or below the floor.
    (A player whose standing did not move is on the list.)"""
    for player_id, r in results.moved():
        status = r.status
        if r.new_rating is None and (
            status.pool or status.rated_games or status.peak_rating is not None
        ):
            yield (list_id, player_id, status.rated_games, status.peak_rating,
                   encode_pool(status.pool))  # fmt: skip


def _calculations(
    results: PeriodResults, list_id: int, version: str, loaded: Loaded
) -> Iterator[tuple[Any, ...]]:
    for player_id, r in results.moved():  # a player who played has moved
        for index, event in enumerate(r.events):
            ids = loaded.game_ids[(player_id, index)]
            tournament_id = loaded.tournament_of[(player_id, index)]
            for game_id, calc in zip(ids, event.games, strict=True):
                game = calc.game
                if game.opponent_id is None:
                    raise AssertionError("every stored game names its opponent")
                reason = calc.not_rated_reason
                yield (
                    list_id, player_id, game_id, tournament_id, event.rating_used,
                    game.opponent_id, game.opponent_rating, calc.difference, calc.difference_used,
                    calc.expected, _POINTS[game.score], calc.delta, calc.rated,
                    None if reason is None else str(reason), version,
                )  # fmt: skip
