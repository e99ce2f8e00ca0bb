"""One player's calculation for one rating period (docs/rules.md §3-§11).

The change of a period is K x (sum over every rated game of the period of score - PD), rounded
once, half away from zero. Per-game and per-event values stay exact Decimals so a published
change can be explained game by game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from typing import NamedTuple

from ratingdb.rules.adjustments import adjusted_base
from ratingdb.rules.calendar import check_list_period, previous_period
from ratingdb.rules.categories import Category, Period
from ratingdb.rules.expected import expected_function
from ratingdb.rules.games import Event, Game, PlayerStatus, Score
from ratingdb.rules.initial import InitialRating, PoolUpdate, initial_rating, update_pool
from ratingdb.rules.kfactor import KStatus, bounded_k, k_factor
from ratingdb.rules.rate_of_play import code_of_reason
from ratingdb.rules.rounding import round_half_away_from_zero
from ratingdb.rules.versions import CapMode, ExpectedScoreMethod, RuleVersion, version_for_period

_ZERO = Decimal(0)
_POINTS = {score: score.points for score in Score}
#: One int object per rating difference, shared by every game that has it (CPython makes a new
#: one per subtraction beyond 256: a million game sides held a million of them).
_DIFFERENCES = {d: d for d in range(-3000, 3001)}


@dataclass(frozen=True, slots=True)
class PeriodRules:
    """Everything a period's calculation needs besides the players: its version and the year of
    the previous list (the K status of the period is the one of that list)."""

    category: Category
    period: Period
    version: RuleVersion
    previous_period: Period | None

    @classmethod
    def for_period(cls, category: Category, period: Period) -> PeriodRules:
        check_list_period(category, period)
        return cls(
            category, period, version_for_period(category, period),
            previous_period(category, period),
        )  # fmt: skip

    @property
    def status_year(self) -> int:
        """The year of the list whose K status applies in this period."""
        return (self.previous_period or self.period).year


class NotRated(str):
    """Why a stored game did not count."""


OPPONENT_UNRATED = NotRated("opponent unrated")
EXCLUDED_600 = NotRated("600-point rule: rating difference of 600 or more with a player above 2600")
MATCH_WITH_UNRATED = NotRated("match with an unrated player")
FIRST_EVENT_DISREGARDED = NotRated("first event without the minimum score, disregarded")

_CODES: dict[str, str] = {
    OPPONENT_UNRATED: "opponent-unrated",
    EXCLUDED_600: "600-point-rule",
    MATCH_WITH_UNRATED: "match-with-unrated-player",
    FIRST_EVENT_DISREGARDED: "first-event-disregarded",
}


def not_rated_code(reason: str) -> str | None:
    """The stable code of a reason a game did not count, as stored with its calculation
    (None for words no rule of this version writes)."""
    return _CODES.get(reason) or code_of_reason(reason)


class GameCalculation(NamedTuple):
    """One game from the player's side, as computed. (Result records are named tuples: a
    FIDE-size close builds a million of them.)"""

    game: Game
    rated: bool
    not_rated_reason: NotRated | None
    difference: int | None  # own rating used - opponent rating used
    difference_used: int | None  # after the cap
    expected: Decimal | None  # PD
    delta: Decimal | None  # score - PD

    @property
    def capped(self) -> bool:
        return self.difference is not None and self.difference != self.difference_used


class EventCalculation(NamedTuple):
    event: Event
    rating_used: int | None
    games: tuple[GameCalculation, ...]
    sum_delta: Decimal
    rated_games: int


class PeriodResult(NamedTuple):
    """A player's outcome of one period, and the status the next period starts from."""

    version: RuleVersion
    period: Period
    published_rating: int | None  # on the previous list
    base_rating: int | None  # after a one-time adjustment or the standard seed
    seeded_from_standard: bool
    k_status: int | None  # K of the period before K x n <= 700
    k_factor: int | None  # K applied
    rated_games: int  # n: games rated for the player in this period
    sum_delta: Decimal
    change: int | None
    new_rating: int | None  # None: unrated on the new list
    below_floor: bool
    events: tuple[EventCalculation, ...]
    initial: InitialRating | None
    pool_update: PoolUpdate | None
    status: PlayerStatus  # after this list
    next_k_factor: int  # the K status after this list (the entry's k_factor)

    @property
    def is_first_rating(self) -> bool:
        return self.initial is not None and self.initial.published


def rate_player(rules: PeriodRules, status: PlayerStatus, events: Sequence[Event]) -> PeriodResult:
    """The period's result for one player. ``events`` are the player's events of the period, in
    the order of their start dates."""
    version = rules.version
    if status.rating is not None:
        base = adjusted_base(version, rules.period, status.rating, status.standard_rating)
        return _rate_rated(rules, status, events, base, status.rating, seeded=False)
    if version.standard_seed and status.standard_rating is not None and events:
        # B.02 rapid/blitz 2024 §7.2.1: rated with the standard rating, "considered to be rated".
        standard = status.standard_rating
        return _rate_rated(rules, status, events, standard, standard, seeded=True)
    return _rate_unrated(rules, status, events)


def idle_unmoved(rules: PeriodRules, status: PlayerStatus) -> tuple[int, int, int] | None:
    """(K of the status, K applied, K after the list) of a rated player who played no game
    and whose standing does not move (``rate_player(rules, status, ())`` would give the same
    rating, the same status, no change), found without making that result; None for every
    other player. Most of a FIDE-size list is such players: PeriodResults holds them as their
    status and these figures. The conditions are _rate_rated's for an unchanged standing with
    no event (tests/rules/test_period_results.py checks them against rate_player)."""
    rating = status.rating
    if rating is None or status.k_factor is not None or status.pool:
        return None
    version = rules.version
    peak = status.peak_rating
    if (
        peak is None  # a first peak would be set
        or rating > peak
        or rating < version.floor
        or adjusted_base(version, rules.period, rating, status.standard_rating) != rating
    ):
        return None
    k_status = _k_status(status, rating)
    k = k_factor(version, k_status, rules.status_year)
    year = rules.period.year
    next_k = k if rules.status_year == year else k_factor(version, k_status, year)
    return k, bounded_k(version, k, 0), next_k


def _rate_rated(
    rules: PeriodRules,
    status: PlayerStatus,
    events: Sequence[Event],
    base: int,
    default_rating_used: int,
    *,
    seeded: bool,
) -> PeriodResult:
    version = rules.version
    if status.k_factor is not None:
        k = status.k_factor
    else:
        k = k_factor(version, _k_status(status, default_rating_used), rules.status_year)
    calculations: list[EventCalculation] = []
    n = 0
    total = _ZERO
    for event in events:
        own = default_rating_used if event.rating_used is None else event.rating_used
        event_calc = _rate_event(version, event, own)
        calculations.append(event_calc)
        n += event_calc.rated_games
        total += event_calc.sum_delta
    k_used = bounded_k(version, k, n)
    change = round_half_away_from_zero(k_used * total) if n else 0
    # The same value; unchanged, the base's own int (a FIDE-size list has millions of them).
    new_rating: int | None = base + change if change else base
    below_floor = new_rating is not None and new_rating < version.floor
    if below_floor:
        new_rating = None
    peak = status.peak_rating
    if new_rating is not None and (peak is None or new_rating > peak):
        peak = new_rating
    unchanged = (
        n == 0
        and new_rating == status.rating
        and peak == status.peak_rating
        and status.k_factor is None
        and not status.pool
    )
    next_status = (
        status  # most players of a big list: nothing to copy
        if unchanged
        else PlayerStatus(
            rating=new_rating,
            rated_games=status.rated_games + n,
            peak_rating=peak,
            birth_year=status.birth_year,
            k_factor=None,
            standard_rating=status.standard_rating,
            pool=(),
            last_rated=rules.period if n else status.last_rated,
        )
    )
    if unchanged and not seeded and rules.status_year == rules.period.year:
        next_k = k  # same status, same rules, same year
    else:
        next_k = k_factor(version, _k_status(next_status, new_rating), rules.period.year)
    return PeriodResult(
        version=version,
        period=rules.period,
        published_rating=status.rating,
        base_rating=base,
        seeded_from_standard=seeded,
        k_status=k,
        k_factor=k_used,
        rated_games=n,
        sum_delta=total,
        change=change,
        new_rating=new_rating,
        below_floor=below_floor,
        events=tuple(calculations),
        initial=None,
        pool_update=None,
        status=next_status,
        next_k_factor=next_k,
    )


def _k_status(status: PlayerStatus, rating: int | None) -> KStatus:
    return KStatus(rating, status.rated_games, status.peak_rating, status.birth_year)


def _excluded(version: RuleVersion, own: int, opponent: int) -> bool:
    """Rapid/blitz from 2024-12 (B.02 §7.3.1): 600 points apart with a player above 2600."""
    exclusion = version.exclusion_difference
    return (
        exclusion is not None
        and abs(own - opponent) >= exclusion
        and (own > version.exclusion_rating or opponent > version.exclusion_rating)
    )


def widest_game(version: RuleVersion, games: Sequence[Game], own: int) -> int:
    """The index of the game a ``once_per_event`` cap applies to (B.02 2022 §8.3.1: only the
    game with the greatest |D| of the event, the first of equals), -1 when no game is rated."""
    widest, index_of_widest = -1, -1
    for index, game in enumerate(games):
        opponent = game.opponent_rating
        if (
            opponent is not None
            and game.not_rated is None
            and not _excluded(version, own, opponent)
        ):
            width = abs(own - opponent)
            if width > widest:
                widest, index_of_widest = width, index
    return index_of_widest


def _rate_event(version: RuleVersion, event: Event, own: int) -> EventCalculation:
    """Differences, the cap in its form of the version, PD and deltas for one event."""
    games = event.games
    cap = version.difference_cap
    mode = version.cap_mode
    capped_every_game = cap is not None and (
        mode is CapMode.EVERY_GAME
        or (
            mode is CapMode.BELOW_2650
            and (version.cap_exempt_from is None or own < version.cap_exempt_from)
        )
    )
    capped_once_at = (
        widest_game(version, games, own)
        if cap is not None and mode is CapMode.ONCE_PER_EVENT
        else -1
    )
    method, decimals = version.expected, version.formula_decimals
    calculations: list[GameCalculation] = []
    total = _ZERO
    rated = 0
    for index, game in enumerate(games):
        opponent = game.opponent_rating
        if game.not_rated is not None:
            calculations.append(
                GameCalculation(game, False, NotRated(game.not_rated), None, None, None, None)
            )
            continue
        if opponent is None:
            calculations.append(
                GameCalculation(game, False, OPPONENT_UNRATED, None, None, None, None)
            )
            continue
        if _excluded(version, own, opponent):
            calculations.append(GameCalculation(game, False, EXCLUDED_600, None, None, None, None))
            continue
        difference = own - opponent
        difference = used = _DIFFERENCES.get(difference, difference)
        if cap is not None and (capped_every_game or index == capped_once_at):
            used = cap if used > cap else -cap if used < -cap else used
        pd, delta = _expected_and_delta(method, decimals, used, game.score)
        total += delta
        rated += 1
        calculations.append(GameCalculation(game, True, None, difference, used, pd, delta))
    return EventCalculation(event, own, tuple(calculations), total, rated)


@lru_cache(maxsize=1 << 16)
def _expected_and_delta(
    method: ExpectedScoreMethod, decimals: int, difference: int, score: Score
) -> tuple[Decimal, Decimal]:
    """PD and score - PD of a game: made once per method, difference and score and shared by
    every game that has them (a new Decimal per game was a tenth of a close's memory)."""
    pd = expected_function(method, decimals)(difference)
    return pd, _POINTS[score] - pd


def _rate_unrated(
    rules: PeriodRules, status: PlayerStatus, events: Sequence[Event]
) -> PeriodResult:
    version = rules.version
    update = update_pool(version, rules.period, status.pool, events)
    calculations = tuple(
        _unrated_event(event, index in update.disregarded_events)
        for index, event in enumerate(events)
    )
    counted = sum(len(pooled.games) for pooled in update.added)
    initial: InitialRating | None = None
    new_rating: int | None = None
    rated_games = status.rated_games
    pool = update.pool
    peak = status.peak_rating
    if update.added:
        initial = initial_rating(version, [g for pooled in update.pool for g in pooled.games])
        if initial.published:
            new_rating = initial.rating
            rated_games += sum(len(pooled.games) for pooled in update.pool)
            pool = ()
            if new_rating is not None and (peak is None or new_rating > peak):
                peak = new_rating
    next_status = PlayerStatus(
        rating=new_rating,
        rated_games=rated_games,
        peak_rating=peak,
        birth_year=status.birth_year,
        k_factor=None,
        standard_rating=status.standard_rating,
        pool=pool,
        last_rated=rules.period if new_rating is not None else status.last_rated,
    )
    return PeriodResult(
        version=version,
        period=rules.period,
        published_rating=None,
        base_rating=None,
        seeded_from_standard=False,
        k_status=None,
        k_factor=None,
        rated_games=counted,
        sum_delta=_ZERO,
        change=None,
        new_rating=new_rating,
        below_floor=False,
        events=calculations,
        initial=initial,
        pool_update=update,
        status=next_status,
        next_k_factor=k_factor(version, _k_status(next_status, new_rating), rules.period.year),
    )


def _unrated_event(event: Event, disregarded: bool) -> EventCalculation:
    """An unrated player's event: games counted toward the first rating, or why not."""
    games = tuple(
        GameCalculation(
            game,
            rated=(
                game.opponent_rating is not None
                and game.not_rated is None
                and not event.is_match
                and not disregarded
            ),
            not_rated_reason=(
                NotRated(game.not_rated) if game.not_rated is not None
                else OPPONENT_UNRATED if game.opponent_rating is None
                else MATCH_WITH_UNRATED if event.is_match
                else FIRST_EVENT_DISREGARDED if disregarded
                else None
            ),
            difference=None,
            difference_used=None,
            expected=None,
            delta=None,
        )
        for game in event.games
    )  # fmt: skip
    return EventCalculation(event, None, games, _ZERO, sum(1 for g in games if g.rated))


__all__ = [
    "EventCalculation",
    "GameCalculation",
    "PeriodResult",
    "PeriodRules",
    "Score",
    "not_rated_code",
    "rate_player",
    "widest_game",
]
