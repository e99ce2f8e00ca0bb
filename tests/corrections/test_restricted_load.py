"""The close's loading of some players only (services.close.inputs.load with ``Among``: what an
impact preview computes a period with) gives those players the inputs the whole period's
loading gives them: the same status (standing on the previous list, birth year, standard
rating in rapid and blitz, a merged record's standing passed on), the same events (games,
scores, opponents' ratings used, their own rating used, start dates), the same game ids and
tournaments, though their games are found another way (the stored revision's calculations,
and the tournaments corrected since read as they are now; or every tournament of the period
read as it is now).

Seeded worlds (tests/corrections/worlds.py) in the eras of the standard seed and the 2022
uplift, with corrections applied first: some that no revision records (their tournaments'
games read as they are now), a game corrected and a merge (revisions written, merged records).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from ratingdb.models import RatingListRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import period_inputs
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.period_inputs import Calculated, EntryRow, StatusRow
from ratingdb.rules import Category, PeriodRules
from ratingdb.services.close import STANDARD_SEEDED
from ratingdb.services.close.computation import previous_list
from ratingdb.services.close.inputs import Among, load
from tests.corrections import worlds


class StoredLists:
    """The lists' rows as stored (close.inputs.ListRows)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def entries(self, rating_list: RatingListRow, players: Collection[str]) -> dict[str, EntryRow]:
        return period_inputs.entries_of(self.session, rating_list.id, players)

    def statuses(
        self, rating_list: RatingListRow, players: Collection[str]
    ) -> dict[str, StatusRow]:
        return period_inputs.statuses_of(self.session, rating_list.id, players)


def _corrected(session: Session, world: worlds.World, rng: random.Random, tmp_path: Path) -> None:
    for kind, arguments in (
        ("tournament", worlds.unchanged_file(session, world, rng, tmp_path)),
        ("game", worlds.forfeit_changed(session, rng)),
        ("game", worlds.correction(session, world, rng, tmp_path, "game")),
        ("merge", worlds.correction(session, world, rng, tmp_path, "merge")),
        ("tournament", worlds.unchanged_file(session, world, rng, tmp_path)),
        # Last, a correction no list shows: no revision records it.
        ("game", worlds.forfeit_changed(session, rng)),
    ):
        worlds.run(session, kind, arguments, dry_run=False)


#: The standard seed (2024-03) on SQLite, the uplift (2022-10) on PostgreSQL.
ERA_BY_DATABASE = [("sqlite", 1), ("postgresql", 0)]


@pytest.mark.slow
@pytest.mark.parametrize(("database", "era"), ERA_BY_DATABASE, indirect=["database"])
def test_some_players_loaded_as_the_whole_period(
    session: Session, tmp_path: Path, era: int
) -> None:
    world = worlds.build(session, tmp_path, 600 + era, era=worlds.ERAS[era], seeded=True, months=6)
    rng = random.Random(era)
    _corrected(session, world, rng, tmp_path)
    corrections = correction_repo.latest_id(session)
    merged = correction_repo.merges(session, corrections)
    compared = 0
    for category in world.categories:
        for period in world.periods:
            rules = PeriodRules.for_period(category, period)
            period_row = period_repo.get_period(session, category, period)
            current = period_repo.list_for(session, category, period)
            assert period_row is not None
            assert current is not None
            lists = [
                row
                for row in period_repo.lists_of(session, category)
                if row.list_date < period.list_date
            ]
            previous = previous_list(rules, lists)
            standard_lists = (
                period_repo.lists_of(session, Category.FIDE_STANDARD)
                if category in STANDARD_SEEDED
                else []
            )
            corrected = correction_repo.tournaments_corrected_after(
                session, current.corrections_applied
            )
            touched = {t for t, period_id in corrected.items() if period_id == period_row.id}
            # Every tournament of the period read as it is now: right whatever was corrected.
            everything = {
                t for t, (c, p, _, _) in world.tournaments.items() if c is category and p == period
            }
            players = set(rng.sample(world.players, len(world.players) // 4))
            players |= merged.keys() | set(merged.values())
            statuses, loaded = load(
                session, rules, period_row.id, previous, lists, corrections, standard_lists
            )
            for corrected_since in (touched, everything):
                games = Calculated(current.id, frozenset(corrected_since))
                some_statuses, some = load(
                    session, rules, period_row.id, previous, lists, corrections, standard_lists,
                    Among(players, games, StoredLists(session)),
                )  # fmt: skip
                assert some.events.keys() <= players
                for player in players:
                    # Only players with a status are rated: the others' games are found through
                    # their rated opponents.
                    if player not in statuses:
                        assert player not in some_statuses
                        continue
                    assert some_statuses[player] == statuses[player], (category, period, player)
                    assert some.events.get(player) == loaded.events.get(player), (period, player)
                    compared += player in loaded.events
                for key, tournament in loaded.tournament_of.items():
                    if key[0] in players:
                        assert some.tournament_of[key] == tournament
                        assert some.game_ids[key] == loaded.game_ids[key]
                assert some.tournament_of.keys() <= loaded.tournament_of.keys()
    assert compared > 200, compared
