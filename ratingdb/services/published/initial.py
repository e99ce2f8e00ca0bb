"""The working of a first rating (docs/rules.md §9), made again by the rules core from what the
close stored: the player's standing on the list before, the period's rated games, the standard
rating a rapid or blitz rating may have been seeded from, under the rule version the
calculations name. Nothing of the working is stored; it is made by the core
(rules.first_rating) and shown only when it gives the published rating: otherwise (data written
by an earlier ratingdb, say) the page and the API say the working cannot be shown, and show no
figure that contradicts the published one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.repositories.published import PlayerCalculation
from ratingdb.repositories.published import initial as repo
from ratingdb.rules import Category, Period
from ratingdb.rules.calendar import previous_period
from ratingdb.rules.first_rating import FirstRatingWorking, first_rating_working
from ratingdb.rules.games import Event, Game, PlayerStatus, Score
from ratingdb.rules.period import PeriodRules, rate_player
from ratingdb.rules.versions import NoRuleVersion, RuleVersion, version_named
from ratingdb.services.close.statuses import decode_pool

#: The method of a working whose rule version this ratingdb does not know.
UNKNOWN = "unknown"
#: The figures of a working, in the order the API gives them (rules.first_rating).
FIGURES = (
    "games", "points", "opponents_total", "opponents_average", "p", "dp", "half_points_above",
    "bonus", "unrounded", "capped_at", "standard_rating", "k_factor", "sum_delta", "change",
    "rating",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class InitialWorking:
    """A first rating's working as the page and the API show it. ``reproduced`` False: the
    core's working does not give the published rating, and no figure of it is kept."""

    method: str  # rules.first_rating.FIRST_RATING_METHODS, or UNKNOWN
    reproduced: bool
    figures: dict[str, Any]  # FIGURES -> Decimal, int or None
    standard_list: Period | None = None  # the standard list a seeded rating started from

    def as_json(self) -> dict[str, Any]:
        def text(value: Any) -> Any:
            return format(value, "f") if isinstance(value, Decimal) else value

        return {
            "method": self.method,
            **{name: text(self.figures.get(name)) for name in FIGURES},
            "standard_list": None if self.standard_list is None else str(self.standard_list),
            "reproduced": self.reproduced,
        }


def _not_shown(method: str, rows: Sequence[PlayerCalculation]) -> InitialWorking:
    """No working: only what the stored games say (how many were rated, their points)."""
    rated = [row for row in rows if row.rated]
    figures: dict[str, Any] = dict.fromkeys(FIGURES)
    figures["games"] = len(rated)
    figures["points"] = sum((Decimal(row.score) for row in rated), Decimal("0.0"))
    return InitialWorking(method, False, figures)


def _events(rows: Sequence[PlayerCalculation]) -> list[Event]:
    """The period's rated games, one event per tournament in the order they were rated, each
    with the player's own rating used there (a seeded player's: the standard rating)."""
    events: dict[str, tuple[list[Game], Any]] = {}
    for row in rows:
        if row.rated and row.opponent_rating_used is not None:
            games, _ = events.setdefault(row.tournament_id, ([], row))
            games.append(
                Game(row.opponent_rating_used, Score.from_points(row.score), row.opponent_id)
            )
    return [
        Event(tuple(games), rating_used=first.rating_used, start_date=first.start_date,
              event_id=event_id)
        for event_id, (games, first) in events.items()
    ]  # fmt: skip


def initial_working(
    session: Session,
    player_id: str,
    category: Category,
    period: Period,
    rule_version: str,
    rows: Sequence[PlayerCalculation],
    published: int,
) -> InitialWorking:
    """The first rating ``published`` on the list of ``period``, worked again by the core from
    the player's standing before it and the period's rated games (``rows``: the player's
    calculations there, in the order rated)."""
    try:
        version: RuleVersion = version_named(rule_version)
    except NoRuleVersion:
        return _not_shown(UNKNOWN, rows)
    before = repo.status_before(session, category, period.list_date, player_id)
    standard = None
    if version.standard_seed and category is not Category.FIDE_STANDARD and rows:
        first_start = min(row.start_date for row in rows)
        standard = repo.standard_rating_on(session, player_id, first_start, rows[0].list_id)
    status = PlayerStatus(
        rating=None,
        rated_games=before.rated_games,
        peak_rating=before.peak_rating,
        birth_year=before.birth_year,
        standard_rating=None if standard is None else standard.rating,
        pool=decode_pool(before.pool),
    )
    rules = PeriodRules(category, period, version, previous_period(category, period))
    working: FirstRatingWorking | None = first_rating_working(
        rate_player(rules, status, _events(rows))
    )
    method = version.initial_rating_method.value if working is None else working.method
    if working is None or not working.published or working.rating != published:
        return _not_shown(method, rows)
    return InitialWorking(
        method,
        True,
        {name: value for name, value in working.figures().items() if name in FIGURES},
        None
        if standard is None or not working.standard_rating
        else Period.of_list_date(standard.list_date),
    )
