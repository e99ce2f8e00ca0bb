"""Interim ratings are what the close then publishes (issue 28 item 7), in seeded random
federations that reach the rules' corners (tests/corrections/worlds.py: juniors, K 40 and K 10,
the cap, the 600-point rule, first ratings and pools, the floor, the rapid and blitz standard
seed and the 2022 uplift, late tournaments rated with an older list, forfeits).

After the world's closed months, one more month of tournaments goes into the open period. Every
player's interim rating (all of them at once, and a few at a time: the two ways the games are
read) is compared with the list the close then publishes: the same players rated, the same
rating, previous rating, change, K used and next K, sum of deltas, and game for game the same
calculation (opponent's rating used, D, expected score, delta, rated or not and why)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from ratingdb.repositories import period_inputs
from ratingdb.rules import Category
from ratingdb.services.close import close_period
from ratingdb.services.interim import Interim, interim_ratings
from tests.corrections import worlds
from tests.support.calculations import Calculation, stored_calculations

#: The uplift era (2022-06 + months) on PostgreSQL, the standard seed's (2023-12) on SQLite.
ERA_BY_DATABASE = [("sqlite", 1), ("postgresql", 0)]


def _published(session: Session, list_id: int, interim: Interim, rows: list[Calculation]) -> None:
    """``rows``: the player's calculations stored under the list, by game."""
    player = interim.player_id
    calc = interim.calculation
    entries = period_inputs.entries_of(session, list_id, [player])
    entry = entries.get(player)
    if calc.rating is None:
        assert entry is None, (player, entry)
    else:
        assert entry is not None, player
        rating, previous, change, _, next_k = entry[:5]
        assert (calc.rating, calc.previous_rating, calc.change, calc.next_k_factor) == (
            rating, previous, change, next_k), player  # fmt: skip
    assert len(rows) == len(calc.games), player
    by_key: dict[tuple[str, str], list[tuple[object, ...]]] = {}
    for g in calc.games:
        by_key.setdefault((g.tournament_id, g.opponent_id), []).append(
            (
                g.opponent_rating,
                g.rating_used,
                g.difference_used,
                g.expected,
                g.score,
                g.delta,
                g.rated,
                g.reason,
            )
        )
    for r in rows:
        found = (r.opponent_rating_used, r.rating_used, r.difference_used, r.expected, r.score,
                 r.delta, r.rated, r.reason)  # fmt: skip
        assert found in by_key[(r.tournament_id, r.opponent_id)], (player, found)


@pytest.mark.slow
@pytest.mark.parametrize(("database", "era"), ERA_BY_DATABASE, indirect=["database"])
def test_interim_ratings_are_what_the_close_publishes(
    session: Session, tmp_path: Path, era: int
) -> None:
    world = worlds.build(session, tmp_path, 700 + era, era=worlds.ERAS[era], seeded=True, months=4)
    rng = random.Random(era)
    open_period = world.periods[-1].plus_months(1)
    for category in world.categories:
        worlds._tournaments(session, rng, world, category, open_period)
    session.flush()
    everyone = interim_ratings(session, world.players)
    few = set(rng.sample(world.players, 40))
    some = interim_ratings(session, few)
    assert set(everyone) == set(world.categories)
    compared = 0
    for category in world.categories:
        assert some.get(category, {}) == {
            p: i for p, i in everyone[category].items() if p in few
        }, category  # fmt: skip
        outcome = close_period(session, category, open_period, now=worlds.NOW, closed_by="test")
        assert outcome.list_id is not None
        played: dict[str, list[Calculation]] = {}
        for c in stored_calculations(session, "c.list_id = :id", id=outcome.list_id):
            played.setdefault(c.player_id, []).append(c)
        assert set(everyone[category]) == set(played), category
        for interim in everyone[category].values():
            assert interim.official is False
            assert interim.period == open_period
            _published(session, outcome.list_id, interim, played[interim.player_id])
            compared += 1
    assert compared > 50, compared
    firsts = [i for c in everyone.values() for i in c.values() if i.calculation.first_rating]
    pooled = [i for c in everyone.values() for i in c.values() if i.calculation.rating is None]
    assert firsts, "no first rating reached"
    assert pooled, "no pooled player reached"
    assert Category.FIDE_RAPID in everyone
