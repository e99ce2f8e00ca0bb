"""Rule versions as data: every set of rating rules ratingdb knows, with its effective date and
the regulation it comes from (docs/rules.md §1, §2).

A version is in force for every period whose list date is on or after ``effective_from``, until
the next version of the same category. Each version is written as the previous one plus what
changed, so the rulebook reads as its own history. Where the sources are unconfirmed the
decision of docs/rules.md stands and the ``source`` text says so; correcting a version is a
data change, not a code change.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from enum import Enum, StrEnum
from typing import Any, Final

from ratingdb.rules.categories import Category, Period
from ratingdb.rules.messages import N_, Day, Message


class CapMode(StrEnum):
    """How the rating-difference cap (``difference_cap``) is applied."""

    NONE = "none"
    EVERY_GAME = "every_game"
    #: B.02 2022 §8.3.1: only the game with the largest |D| in each event is capped.
    ONCE_PER_EVENT = "once_per_event"
    #: B.02 from 2025-10-01 §8.3.1: every game, unless the player's own rating used is at or
    #: above cap_exempt_from.
    BELOW_2650 = "below_2650"


class ExpectedScoreMethod(StrEnum):
    TABLE = "table"  # FIDE table 8.1.2, two decimals
    FORMULA = "formula"  # 1 / (1 + 10^(-D/400)), rounded to formula_decimals


class InitialRatingMethod(StrEnum):
    #: Ra + dp below 50 %, Ra + 12.5 per half point above 50 % (2009 and earlier).
    RA_PLUS_12_5 = "ra_plus_12_5"
    #: Ra + dp below 50 %, Ra at 50 %, Ra + 20 per half point above (B.02 2022 §8.2).
    RA_PLUS_20 = "ra_plus_20"
    #: Two hypothetical draws against 1800, Ru = Ra + dp(p), at most initial_max (B.02 2024 §8.2).
    HYPOTHETICAL_DRAWS_1800 = "hypothetical_draws_1800"


class OneTimeAdjustment(StrEnum):
    #: 2024-03-01, FIDE standard: R < 2000 -> R + 0.4 x (2000 - R), rounded half up (B §6.1).
    COMPRESSION_BELOW_2000 = "compression_below_2000"
    #: 2022-10-01, FIDE rapid and blitz: standard - rating > 100 -> standard - 100 (B §6.2).
    STANDARD_MINUS_100 = "standard_minus_100"


MONTHLY: Final = frozenset(range(1, 13))
BIMONTHLY: Final = frozenset({1, 3, 5, 7, 9, 11})
QUARTERLY: Final = frozenset({1, 4, 7, 10})


@dataclass(frozen=True, slots=True)
class RuleVersion:
    """One dated set of rating rules for one category."""

    name: str
    category: Category
    effective_from: date
    source: str
    changes: str
    # Lists and cut-off
    list_months: frozenset[int]
    closing_days: int
    floor: int
    # K factor (A3)
    k_new: int
    k_established: int
    k_high: int
    k_high_threshold: int
    k_high_needs_established: bool
    junior_k: int | None
    junior_max_age: int
    junior_rating_limit: int
    new_player_games: int
    kn_cap: int | None
    # Expected score and the difference cap (A2)
    difference_cap: int | None
    cap_mode: CapMode
    cap_exempt_from: int | None
    expected: ExpectedScoreMethod
    formula_decimals: int
    # Which games are rated (A4)
    exclusion_difference: int | None
    exclusion_rating: int
    # First ratings (A5)
    initial_rating_method: InitialRatingMethod
    initial_min_games: int
    initial_max: int | None
    first_event_min_score: Decimal
    pool_months: int
    standard_seed: bool
    # One-time adjustment applied at the list dated effective_from (A6)
    one_time_adjustment: OneTimeAdjustment | None

    def is_list_month(self, month: int) -> bool:
        return month in self.list_months

    def parameters(self) -> dict[str, Any]:
        """Plain JSON-friendly parameters, for /v1/rules and for the record of a list."""
        out: dict[str, Any] = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, Enum):
                value = value.value
            elif isinstance(value, frozenset):
                value = sorted(value)
            elif isinstance(value, date):
                value = value.isoformat()
            elif isinstance(value, Decimal):
                value = str(value)
            out[field.name] = value
        return out


def _next(previous: RuleVersion, **changes: Any) -> RuleVersion:
    """A new version: the previous one plus what changed. One-time adjustments never carry over."""
    changes.setdefault("one_time_adjustment", None)
    return dataclasses.replace(previous, **changes)


# --- FIDE standard -------------------------------------------------------------------------

FIDE_STANDARD_2000_01 = RuleVersion(
    name="fide-standard-2000-01",
    category=Category.FIDE_STANDARD,
    effective_from=date(2000, 1, 1),
    source=(
        "FIDE Rating Regulations (1982 GA, amended through 2008) B.02 §0.6, §12-14; quarterly "
        "lists (GA 1999); seed 002 (K 25/15/10, 350-point rule, 9 games, +12.5 per half point). "
        "Kept for replaying history; effective date is the start of replayable history."
    ),
    changes="quarterly lists, K 25/15/10, 350-point rule, floor 1400",
    list_months=QUARTERLY,
    closing_days=30,
    floor=1400,
    k_new=25,
    k_established=15,
    k_high=10,
    k_high_threshold=2400,
    k_high_needs_established=True,
    junior_k=None,
    junior_max_age=18,
    junior_rating_limit=2300,
    new_player_games=30,
    kn_cap=None,
    difference_cap=350,
    cap_mode=CapMode.EVERY_GAME,
    cap_exempt_from=None,
    expected=ExpectedScoreMethod.TABLE,
    formula_decimals=4,
    exclusion_difference=None,
    exclusion_rating=2600,
    initial_rating_method=InitialRatingMethod.RA_PLUS_12_5,
    initial_min_games=9,
    initial_max=None,
    first_event_min_score=Decimal("1"),
    pool_months=24,
    standard_seed=False,
    one_time_adjustment=None,
)

FIDE_STANDARD_2009_07 = _next(
    FIDE_STANDARD_2000_01,
    name="fide-standard-2009-07",
    effective_from=date(2009, 7, 1),
    source=(
        "FIDE news 13 Jul 2009 'Changes to Title and Rating Regulations effective from July 1st "
        "2009' (docs/rules.md §18 S5, S6, S7): 400-point rule, floor 1200, bi-monthly lists, "
        "closing date "
        "7 days before the list; K unchanged 25/15/10"
    ),
    changes="400-point rule replaces 350, floor 1200, lists every two months, closing 7 days",
    list_months=BIMONTHLY,
    closing_days=7,
    floor=1200,
    difference_cap=400,
    pool_months=26,
)

FIDE_STANDARD_2011_07 = _next(
    FIDE_STANDARD_2009_07,
    name="fide-standard-2011-07",
    effective_from=date(2011, 7, 1),
    source=(
        "K for new players 25 -> 30 'in the year 2011' (docs/rules.md §18 S17, S10; exact day "
        "unconfirmed, "
        "1 July 2011 taken)"
    ),
    changes="K for new players 30",
    k_new=30,
)

FIDE_STANDARD_2012_07 = _next(
    FIDE_STANDARD_2011_07,
    name="fide-standard-2012-07",
    effective_from=date(2012, 7, 1),
    source=(
        "FIDE Presidential Board, Al Ain, June 2011: floor 1000 and monthly lists from 1 July "
        "2012 (docs/rules.md §18 S8). Closing date 3 days before the list taken from the later "
        "B.02 §7.1.3 "
        "(date of introduction unconfirmed)"
    ),
    changes="monthly lists, floor 1000, closing 3 days",
    list_months=MONTHLY,
    closing_days=3,
    floor=1000,
)

FIDE_STANDARD_2014_07 = _next(
    FIDE_STANDARD_2012_07,
    name="fide-standard-2014-07",
    effective_from=date(2014, 7, 1),
    source=(
        "FIDE Rating Regulations effective 1 July 2014, B.02 §8.56 (docs/rules.md §18 S10): K "
        "40/20/10, "
        "junior K 40 under 2300, 5 games for a first rating, first event needs half a point; "
        "K x n <= 700 per docs/rules.md §2"
    ),
    changes="K 40/20/10, junior K 40, K x n <= 700, 5 games and Ra + 20 per half point",
    k_new=40,
    k_established=20,
    k_high=10,
    k_high_needs_established=False,
    junior_k=40,
    kn_cap=700,
    initial_rating_method=InitialRatingMethod.RA_PLUS_20,
    initial_min_games=5,
    first_event_min_score=Decimal("0.5"),
)

FIDE_STANDARD_2022_01 = _next(
    FIDE_STANDARD_2014_07,
    name="fide-standard-2022-01",
    effective_from=date(2022, 1, 1),
    source="FIDE Rating Regulations effective 1 January 2022, B.02 §8.2, §8.3.1 "
    "(docs/rules.md §18 S3, S11)",
    changes="400-point rule once per event (largest difference); initial Ra + 20 per half point",
    cap_mode=CapMode.ONCE_PER_EVENT,
)

FIDE_STANDARD_2024_03 = _next(
    FIDE_STANDARD_2022_01,
    name="fide-standard-2024-03",
    effective_from=date(2024, 3, 1),
    source=(
        "FIDE Rating Regulations effective 1 March 2024, B.02 §7.1.4, §7.2.1, §8.2, §8.3 "
        "(docs/rules.md §18 S1); one-time compression of ratings below 2000 (S13)"
    ),
    changes=(
        "floor 1400; initial rating with two draws against 1800, at most 2200; 400-point rule "
        "every game; one-time compression R + 0.4 x (2000 - R)"
    ),
    floor=1400,
    cap_mode=CapMode.EVERY_GAME,
    initial_rating_method=InitialRatingMethod.HYPOTHETICAL_DRAWS_1800,
    initial_max=2200,
    one_time_adjustment=OneTimeAdjustment.COMPRESSION_BELOW_2000,
)

FIDE_STANDARD_2025_10 = _next(
    FIDE_STANDARD_2024_03,
    name="fide-standard-2025-10",
    effective_from=date(2025, 10, 1),
    source=(
        "FIDE Rating Regulations B.02 §8.3.1 as amended effective 1 October 2025 (docs/rules.md "
        "§18 S1, S14)"
    ),
    changes="no difference cap for players rated 2650 and over",
    cap_mode=CapMode.BELOW_2650,
    cap_exempt_from=2650,
)

# --- FIDE rapid and blitz ------------------------------------------------------------------


def _rapid_and_blitz(category: Category) -> tuple[RuleVersion, ...]:
    short = category.value
    v2012 = dataclasses.replace(
        FIDE_STANDARD_2014_07,
        name=f"{short}-2012-01",
        category=category,
        effective_from=date(2012, 1, 1),
        source=(
            "FIDE news 16 Nov 2011 'Rapid and blitz rating lists' (docs/rules.md §18 S9): K 20 "
            "in all "
            "cases; K x n <= 700; no difference cap, table up to 735 (S16); first event needs "
            "one point (S16). Newcomer games and method as standard 2014 (a decision: unconfirmed)"
        ),
        changes="first rapid and blitz rules: K 20 for all, no cap",
        list_months=MONTHLY,
        closing_days=3,
        floor=1000,
        k_new=20,
        k_established=20,
        k_high=20,
        junior_k=None,
        difference_cap=None,
        cap_mode=CapMode.NONE,
        first_event_min_score=Decimal("1"),
        one_time_adjustment=None,
    )
    v2022_01 = _next(
        v2012,
        name=f"{short}-2022-01",
        effective_from=date(2022, 1, 1),
        source="Rapid and blitz brought into line with standard, 1 January 2022 "
        "(docs/rules.md §18 S11)",
        changes="400-point rule once per event",
        difference_cap=400,
        cap_mode=CapMode.ONCE_PER_EVENT,
        first_event_min_score=Decimal("0.5"),
    )
    v2022_10 = _next(
        v2022_01,
        name=f"{short}-2022-10",
        effective_from=date(2022, 10, 1),
        source=(
            "FIDE Rapid and Blitz Rating Regulations effective 1 October 2022 (docs/rules.md "
            "§18 S12): "
            "K as standard; one-off uplift to standard - 100"
        ),
        changes="K 40/20/10 and junior K 40 as standard; one-time uplift to standard - 100",
        k_new=40,
        k_established=20,
        k_high=10,
        junior_k=40,
        one_time_adjustment=OneTimeAdjustment.STANDARD_MINUS_100,
    )
    v2024_03 = _next(
        v2022_10,
        name=f"{short}-2024-03",
        effective_from=date(2024, 3, 1),
        source=(
            "FIDE Rapid and Blitz Rating Regulations effective 1 March 2024 (docs/rules.md §18 "
            "S2), "
            "§7.2.1 standard-rating seed"
        ),
        changes=(
            "as standard 2024: floor 1400, two draws against 1800, at most 2200, cap every game; "
            "an unrated player with a standard rating is rated with it"
        ),
        floor=1400,
        cap_mode=CapMode.EVERY_GAME,
        initial_rating_method=InitialRatingMethod.HYPOTHETICAL_DRAWS_1800,
        initial_max=2200,
        standard_seed=True,
    )
    v2024_12 = _next(
        v2024_03,
        name=f"{short}-2024-12",
        effective_from=date(2024, 12, 1),
        source="FIDE Rapid and Blitz Rating Regulations §7.3.1 from 1 December 2024 "
        "(docs/rules.md §18 S2)",
        changes="games 600 points apart are not rated when a player is rated above 2600",
        exclusion_difference=600,
        exclusion_rating=2600,
    )
    return (v2012, v2022_01, v2022_10, v2024_03, v2024_12)


# --- FFE rapid -------------------------------------------------------------------------------

FFE_RAPID_2012_01 = dataclasses.replace(
    FIDE_STANDARD_2024_03,
    name="ffe-rapid-2012-01",
    category=Category.FFE_RAPID,
    effective_from=date(2012, 1, 1),
    source=(
        "No current FFE regulation text was found (docs/rules.md §2.4). From seed 003 ('Comment "
        "marche l'Elo rapide'): logistic formula, FIDE's K rules, 400-point cap, changes summed; "
        "monthly lists 'Rapide <mois> <année>'. The federation's to adjust: a new version is data."
    ),
    changes="logistic expected score, K 40/20/10 as FIDE, cap 400 every game, floor 1000",
    floor=1000,
    expected=ExpectedScoreMethod.FORMULA,
    one_time_adjustment=None,
)

ALL_VERSIONS: Final[tuple[RuleVersion, ...]] = (
    FIDE_STANDARD_2000_01,
    FIDE_STANDARD_2009_07,
    FIDE_STANDARD_2011_07,
    FIDE_STANDARD_2012_07,
    FIDE_STANDARD_2014_07,
    FIDE_STANDARD_2022_01,
    FIDE_STANDARD_2024_03,
    FIDE_STANDARD_2025_10,
    *_rapid_and_blitz(Category.FIDE_RAPID),
    *_rapid_and_blitz(Category.FIDE_BLITZ),
    FFE_RAPID_2012_01,
)


def _by_category() -> Mapping[Category, tuple[RuleVersion, ...]]:
    out: dict[Category, tuple[RuleVersion, ...]] = {}
    for category in Category:
        versions = sorted(
            (v for v in ALL_VERSIONS if v.category is category), key=lambda v: v.effective_from
        )
        if not versions:
            raise AssertionError(f"no rule version for {category.value}")
        out[category] = tuple(versions)
    return out


_VERSIONS_BY_CATEGORY: Final = _by_category()
_VERSIONS_BY_NAME: Final = {v.name: v for v in ALL_VERSIONS}
if len(_VERSIONS_BY_NAME) != len(ALL_VERSIONS):
    raise AssertionError("rule version names must be unique")


class NoRuleVersion(LookupError):
    """The category has no rules for that date (before its first version). ``text``: the
    reason as a message (``messages.worded``); ``str()`` its English."""

    def __init__(self, text: Message) -> None:
        super().__init__(text.english())
        self.text = text


def versions_of(category: Category) -> tuple[RuleVersion, ...]:
    """The category's versions, oldest first."""
    return _VERSIONS_BY_CATEGORY[category]


def version_named(name: str) -> RuleVersion:
    try:
        return _VERSIONS_BY_NAME[name]
    except KeyError:
        raise NoRuleVersion(
            Message(N_("unknown rule version %(name)s"), {"name": repr(name)})
        ) from None


def version_on(category: Category, day: date) -> RuleVersion:
    """The version in force on ``day`` (the latest whose effective date is on or before it)."""
    in_force: RuleVersion | None = None
    for version in _VERSIONS_BY_CATEGORY[category]:
        if version.effective_from <= day:
            in_force = version
        else:
            break
    if in_force is None:
        first = _VERSIONS_BY_CATEGORY[category][0].effective_from
        raise NoRuleVersion(
            Message(N_("%(category)s has no rules before %(first)s (asked for %(day)s)"),
                    {"category": category.value, "first": Day(first), "day": Day(day)})
        )  # fmt: skip
    return in_force


def version_for_period(category: Category, period: Period) -> RuleVersion:
    """The version a period is computed with: the one in force on the period's list date."""
    return version_on(category, period.list_date)


def iter_versions() -> Iterator[RuleVersion]:
    yield from ALL_VERSIONS
