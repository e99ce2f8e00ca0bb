"""K factor status (docs/rules.md §6; B.02 §8.3.3 and its 2009-2014 predecessors).

K is a property of the player's status on a published list, not of a game: the K of a period
is the status as of the previous list, under the rules of the period's version, then bounded by
K x n <= 700. A change of status (30th game, 2400 reached, end of the junior year) takes effect
on the next list.
"""

from __future__ import annotations

from typing import NamedTuple

from ratingdb.rules.versions import RuleVersion


class KStatus(NamedTuple):
    """What the K rules look at, as of one published list."""

    rating: int | None
    rated_games: int
    peak_rating: int | None
    birth_year: int | None


def k_factor(version: RuleVersion, status: KStatus, list_year: int) -> int:
    """The player's K on a list of year ``list_year``. Precedence as docs/rules.md §6:

    1. a published rating ever >= 2400: K 10, permanently (before 2014, also >= 30 games);
    2. a junior (list year - birth year <= 18) under 2300 who never published >= 2300: junior K;
    3. fewer than 30 rated games in the category: K for new players;
    4. otherwise the established K.
    """
    peak = status.peak_rating
    established = status.rated_games >= version.new_player_games
    if (
        peak is not None
        and peak >= version.k_high_threshold
        and (established or not version.k_high_needs_established)
    ):
        return version.k_high
    if version.junior_k is not None and is_junior(version, status, list_year):
        return version.junior_k
    if not established:
        return version.k_new
    return version.k_established


def is_junior(version: RuleVersion, status: KStatus, list_year: int) -> bool:
    """Junior K applies until the end of the year of the 18th birthday, while the rating is
    under 2300 and no published rating ever reached 2300."""
    if status.birth_year is None:
        return False
    if list_year - status.birth_year > version.junior_max_age:
        return False
    limit = version.junior_rating_limit
    if status.rating is not None and status.rating >= limit:
        return False
    return status.peak_rating is None or status.peak_rating < limit


def bounded_k(version: RuleVersion, k: int, rated_games_in_period: int) -> int:
    """K x n <= 700: K becomes the largest whole number with K x n not above the bound."""
    if version.kn_cap is None or rated_games_in_period == 0:
        return k
    return min(k, version.kn_cap // rated_games_in_period)
