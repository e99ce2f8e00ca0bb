"""Every player's result of one period, held in little memory.

A FIDE-size period rates two million players, most of whom played no game and whose standing
does not move: each of their results is the status they had, the same rating and three K
figures. Such a result is held as that status and those figures (a tuple of four instead of a
result of seventeen fields, a fifth of a close's memory) and made again when it is read. A
player with games is held so only when the result made again is equal to the one
``rate_player`` computed, field by field; a player without one is recognised without making
the result (``idle_unmoved``: rate_player's conditions for a standing that does not move, checked
against rate_player by a property test). What is read is always what rate_player computes.
"""

from __future__ import annotations

from collections.abc import Callable, ItemsView, Iterable, Iterator, Mapping, Sequence, ValuesView
from decimal import Decimal
from typing import Any

from ratingdb.rules.categories import Period
from ratingdb.rules.games import Event, PlayerStatus
from ratingdb.rules.period import PeriodResult, PeriodRules, idle_unmoved, rate_player
from ratingdb.rules.versions import RuleVersion

_ZERO = Decimal(0)
_new_result = tuple.__new__
#: Where a PeriodResult holds its events.
_EVENTS = PeriodResult._fields.index("events")

#: (status, K of the status, K applied, K after the list): a result held in little memory.
Unmoved = tuple[PlayerStatus, int | None, int | None, int]
_Unmoved = Unmoved


def rate_players(
    rules: PeriodRules,
    statuses: dict[str, PlayerStatus],
    events: Mapping[str, Sequence[Event]],
    each: Callable[[Iterable[tuple[str, PlayerStatus]]], Iterable[tuple[str, PlayerStatus]]] = iter,
) -> PeriodResults:
    """``rate_player`` for every player of ``statuses``, with the player's events (none when
    ``events`` has none), in the order of ``statuses``. ``each`` wraps the loop (a progress
    bar).

    ``statuses`` is taken over: each status is replaced by its player's result in the same map,
    so that a period of two million players never holds a second map of them. Do not read it
    afterwards."""
    results, moved = rating(rules, statuses, events, each)
    for _ in moved:
        pass
    return results


def rating(
    rules: PeriodRules,
    statuses: dict[str, PlayerStatus],
    events: Mapping[str, Sequence[Event]],
    each: Callable[[Iterable[tuple[str, PlayerStatus]]], Iterable[tuple[str, PlayerStatus]]] = iter,
) -> tuple[PeriodResults, Iterator[tuple[str, PeriodResult]]]:
    """:func:`rate_players` as it goes: the results (filled as the players are rated) and an
    iterator that rates them, giving (player id, result) of each player who moved
    (:meth:`PeriodResults.moved`) as soon as rated, in order: a close streams their
    calculations to the database while it rates the others. The results are complete once
    the iterator is exhausted."""
    held: dict[str, Any] = statuses
    results = PeriodResults(rules, held)

    def rate() -> Iterator[tuple[str, PeriodResult]]:
        held_form = results._held_form
        for player_id, status in each(statuses.items()):
            player_events = events.get(player_id, ())
            if not player_events:
                idle = idle_unmoved(rules, status)
                if idle is not None:  # on the list, as it was: no result made
                    held[player_id] = (status, *idle)
                    results.entries += 1
                    continue
            result = rate_player(rules, status, player_events)
            kept = held[player_id] = held_form(status, result)
            if kept is result:
                yield player_id, result

    return results, rate()


class PeriodResults(Mapping[str, PeriodResult]):
    """player id -> PeriodResult, in the order rated, with the counts a close reports."""

    __slots__ = ("_held", "_period", "_version", "below_floor", "entries", "first_ratings")

    def __init__(self, rules: PeriodRules, held: dict[str, Any]) -> None:
        self._version = rules.version
        self._period = rules.period
        self._held: dict[str, PeriodResult | _Unmoved] = held
        #: Players on the new list, first ratings among them, players fallen below the floor.
        self.entries = 0
        self.first_ratings = 0
        self.below_floor = 0

    @property
    def version(self) -> RuleVersion:
        return self._version

    @property
    def period(self) -> Period:
        return self._period

    def _held_form(self, status: PlayerStatus, result: PeriodResult) -> PeriodResult | _Unmoved:
        if result.new_rating is not None:
            self.entries += 1
        if result.is_first_rating:
            self.first_ratings += 1
        if result.below_floor:
            self.below_floor += 1
        if not result.events and result.status is status and status.rating is not None:
            unmoved = (status, result.k_status, result.k_factor, result.next_k_factor)
            if self._made_again(unmoved) == result:
                return unmoved
        return result

    def __getitem__(self, player_id: str) -> PeriodResult:
        held = self._held[player_id]
        return self._made_again(held) if type(held) is tuple else held  # type: ignore[return-value,arg-type]

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, player_id: object) -> bool:
        return player_id in self._held

    def items(self) -> ItemsView[str, PeriodResult]:
        return _Items(self)

    def values(self) -> ValuesView[PeriodResult]:
        return _Values(self)

    def _pairs(self) -> Iterator[tuple[str, PeriodResult]]:
        made_again = self._made_again
        for player_id, held in self._held.items():
            yield player_id, (made_again(held) if type(held) is tuple else held)  # type: ignore[misc,arg-type]

    def unmoved(self, player_id: str) -> tuple[PlayerStatus, int] | None:
        """(status, K after the list) of a player whose result is held unmoved (no game, the
        standing as it was, the same rating); None for a player who moved or is not rated
        here. Read without making the result again."""
        held = self._held.get(player_id)
        if type(held) is tuple:
            status, _, _, next_k = held  # type: ignore[misc]
            return status, next_k
        return None

    def held(self) -> Mapping[str, PeriodResult | Unmoved]:
        """The results as held, to read many at once without making them again (do not
        change it): each player's PeriodResult, or for a player held unmoved (no game, the
        standing as it was, the same rating) the tuple (status, K of the status, K applied,
        K after the list). The result is then the status' rating, unchanged, no game."""
        return self._held

    def drop_events(self, player_id: str) -> None:
        """Keep the result of a player who moved without its events' calculations (once
        they are written: two million game calculations, 400 MB, at two million players).
        Every other field stays; ``events`` is then empty."""
        held = self._held[player_id]
        if type(held) is PeriodResult:
            # Positionally, as _made_again makes a result (_replace: a microsecond more each,
            # for every player who moved).
            self._held[player_id] = _new_result(
                PeriodResult, (*held[:_EVENTS], (), *held[_EVENTS + 1 :])
            )

    def moved(self) -> Iterator[tuple[str, PeriodResult]]:
        """(player id, result) of the players who played or whose standing moved, in order:
        the others have no calculation and stay on the list as they were."""
        for player_id, held in self._held.items():
            if type(held) is not tuple:
                yield player_id, held  # type: ignore[misc]

    def _made_again(self, held: _Unmoved) -> PeriodResult:
        status, k_status, k_used, next_k = held
        rating = status.rating
        # The fields in PeriodResult's order, positionally: a close makes two million of these
        # (by keyword, a third of a microsecond more each).
        return _new_result(
            PeriodResult,
            (
                self._version,  # version
                self._period,  # period
                rating,  # published_rating
                rating,  # base_rating
                False,  # seeded_from_standard
                k_status,
                k_used,  # k_factor
                0,  # rated_games
                _ZERO,  # sum_delta
                0,  # change
                rating,  # new_rating
                False,  # below_floor
                (),  # events
                None,  # initial
                None,  # pool_update
                status,
                next_k,  # next_k_factor
            ),
        )


class _Items(ItemsView[str, PeriodResult]):
    _mapping: PeriodResults

    def __iter__(self) -> Iterator[tuple[str, PeriodResult]]:
        return self._mapping._pairs()


class _Values(ValuesView[PeriodResult]):
    _mapping: PeriodResults

    def __iter__(self) -> Iterator[PeriodResult]:
        return (result for _, result in self._mapping._pairs())
