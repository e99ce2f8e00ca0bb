"""The rating rules core: pure functions on plain data.

Standard library only: no database, no I/O, no clock. Every published number comes from here,
so this package is the part of ratingdb that must be exactly right.
"""

from ratingdb.rules.calendar import (
    closing_date,
    is_list_period,
    next_period,
    period_for_end_date,
    previous_period,
)
from ratingdb.rules.categories import Category, Period
from ratingdb.rules.expected import expected_score
from ratingdb.rules.games import Event, Game, PlayerStatus, PooledEvent, Score
from ratingdb.rules.initial import InitialRating, initial_rating, update_pool
from ratingdb.rules.kfactor import KStatus, bounded_k, k_factor
from ratingdb.rules.performance import performance_rating
from ratingdb.rules.period import (
    EventCalculation,
    GameCalculation,
    PeriodResult,
    PeriodRules,
    rate_player,
)
from ratingdb.rules.results import PeriodResults, rate_players, rating
from ratingdb.rules.rounding import round_half_away_from_zero, round_half_up
from ratingdb.rules.tables import probability_from_table, rating_difference_for_score
from ratingdb.rules.versions import (
    ALL_VERSIONS,
    CapMode,
    ExpectedScoreMethod,
    InitialRatingMethod,
    NoRuleVersion,
    OneTimeAdjustment,
    RuleVersion,
    version_for_period,
    version_named,
    version_on,
    versions_of,
)

__all__ = [
    "ALL_VERSIONS",
    "CapMode",
    "Category",
    "Event",
    "EventCalculation",
    "ExpectedScoreMethod",
    "Game",
    "GameCalculation",
    "InitialRating",
    "InitialRatingMethod",
    "KStatus",
    "NoRuleVersion",
    "OneTimeAdjustment",
    "Period",
    "PeriodResult",
    "PeriodResults",
    "PeriodRules",
    "PlayerStatus",
    "PooledEvent",
    "RuleVersion",
    "Score",
    "bounded_k",
    "closing_date",
    "expected_score",
    "initial_rating",
    "is_list_period",
    "k_factor",
    "next_period",
    "performance_rating",
    "period_for_end_date",
    "previous_period",
    "probability_from_table",
    "rate_player",
    "rate_players",
    "rating",
    "rating_difference_for_score",
    "round_half_away_from_zero",
    "round_half_up",
    "update_pool",
    "version_for_period",
    "version_named",
    "version_on",
    "versions_of",
]
