"""A dry run's impact (services.impact: only the players a correction reaches, recomputed) is
exactly what the cascade publishes (services.revisions.recalculate: every later period closed
again in full): the same lists revised, from the same revision to the same, the same players
changed, from the same rating to the same (issue 16). And a correction applied, whose
revisions are written from the impact and store only what changed (issue 30), leaves the same
lists as that cascade: every entry, calculation and status of every current list.

The reference is the existing cascade, run on the same database in a SAVEPOINT rolled back;
the impact is run on the same database state in another. Worlds and corrections are random but
seeded (tests/corrections/worlds.py): game results (forfeits both ways), tournaments replaced by
a corrected file, players merged, imported lists replaced (ratings, birth years, players made
unrated or rated), several periods back.
"""

from __future__ import annotations

import random
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ratingdb.db.chunks import ENTRY
from ratingdb.errors import InputError
from ratingdb.models import GameRow, RatingListRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories.list_storage import calculations as stored_calculations
from ratingdb.repositories.list_storage import changes as change_rows
from ratingdb.repositories.list_storage import chunk_reads
from ratingdb.rules import Category
from ratingdb.services import impact
from tests.corrections import worlds


def _rolled_back(
    session: Session, kind: str, arguments: dict[str, Any], dry_run: bool, *, whole: bool = False
) -> tuple[Any, dict[Any, Any]]:
    """The correction's outcome (or the error refusing it) and the current lists it leaves
    (:func:`_current_lists`; none read after a dry run, which writes none), nothing of it
    kept. ``whole``: every period recomputed whole, as for a list of other rules
    (services.revisions.recalculate), not from the impact."""
    savepoint = session.begin_nested()
    try:
        with patch.object(impact, "needs_cascade", return_value=True) if whole else nullcontext():
            outcome = worlds.run(session, kind, arguments, dry_run=dry_run)
        return outcome, {} if dry_run else _current_lists(session)
    except InputError as error:
        return ("refused", str(error), error.field), {}
    finally:
        savepoint.rollback()
        session.expire_all()


def _current_lists(session: Session) -> dict[Any, Any]:
    """(category, list date) -> every entry (from the chunks), every calculation (each
    player's where it is stored, its game named by tournament, round and players: a game
    written again has another id in each savepoint) and the statuses, of each current list."""
    games = {
        id_: tuple(named)
        for id_, *named in session.execute(
            select(GameRow.id, GameRow.tournament_id, GameRow.round, GameRow.white_id,
                   GameRow.black_id)
        )
    }  # fmt: skip
    found: dict[Any, Any] = {}
    for category in Category:
        for rating_list in period_repo.lists_of(session, category):
            calculations = {
                (player, games[c.game_id]): c[1:]
                for player, held in stored_calculations.calculations_of(
                    session, rating_list.id
                ).items()
                for c in held
            }
            found[(category, rating_list.list_date)] = (
                rating_list.revision,
                rating_list.digest,
                chunk_reads.canonical_entries(session, rating_list.id, ENTRY),
                calculations,
                sorted(change_rows.statuses_of(session, rating_list.id)),
            )
    return found


def check_same(session: Session, kind: str, arguments: dict[str, Any]) -> Any:
    """The revisions a correction publishes, the same computed three ways: every period
    recomputed whole (the reference), written from the impact, and the dry run's impact; and
    the lists the first two leave, the same to the last field and calculation."""
    whole, whole_lists = _rolled_back(session, kind, arguments, dry_run=False, whole=True)
    written, written_lists = _rolled_back(session, kind, arguments, dry_run=False)
    dry, _ = _rolled_back(session, kind, arguments, dry_run=True)
    assert dry == whole, (kind, arguments)
    assert written == whole, (kind, arguments)
    assert written_lists.keys() == whole_lists.keys()
    for key, stored in whole_lists.items():
        assert written_lists[key] == stored, (kind, arguments, key)
    return whole


#: Each era's world on one database, the eras alternating between the two: what an era
#: changes (the rules, in the pure core) does not depend on the database, and what the database
#: changes (the savepoints, the queries) does not depend on the era's rules. SQLite crosses the
#: 2022-10 and 2024-12 changes, PostgreSQL the 2024-03 and 2025-10 ones.
ERA_BY_DATABASE = [
    ("sqlite" if seed % 2 == 0 else "postgresql", seed) for seed in range(len(worlds.ERAS))
]


@pytest.mark.slow
@pytest.mark.parametrize(("database", "seed"), ERA_BY_DATABASE, indirect=["database"])
def test_impact_equals_the_cascade(session: Session, tmp_path: Path, seed: int) -> None:
    """One world in each era, with rapid and blitz (they read the standard lists); two
    corrections no revision records, then six (three game results, a tournament replaced,
    a merge, a list replaced), every third applied."""
    # Seven months: past the era's change of rules (three or four months after its baseline);
    # the long cascades are test_impact_of_a_correction_long_ago's.
    world = worlds.build(
        session, tmp_path, 1000 + seed, era=worlds.ERAS[seed], seeded=True, months=7
    )
    rng = random.Random(seed)
    # Corrections applied before, that no revision records: their tournaments' games are read
    # as they are now, not as the stored lists' calculations had them.
    for kind, arguments in (
        ("tournament", worlds.unchanged_file(session, world, rng, tmp_path)),
        ("game", worlds.forfeit_changed(session, rng)),
    ):
        assert check_same(session, kind, arguments)["revisions"] == []
        worlds.run(session, kind, arguments, dry_run=False)
    revised = 0
    for index, kind in enumerate(worlds.KINDS):
        arguments = worlds.correction(session, world, rng, tmp_path, kind)
        found = check_same(session, kind, arguments)
        if isinstance(found, dict):
            revised += len(found["revisions"])
            if index % 3 == 2:  # applied: the next corrections start from its revisions
                worlds.run(session, kind, arguments, dry_run=False)
    assert revised, "the corrections revised no list: the comparison proved nothing"


@pytest.mark.slow
def test_impact_of_a_correction_long_ago(session: Session, tmp_path: Path) -> None:
    """Thirteen periods, each game correction in the oldest periods: the longest cascades."""
    world = worlds.build(session, tmp_path, 77, months=13, seeded=False)
    rng = random.Random(77)
    early = {t for t, (_, period, _, _) in world.tournaments.items() if period <= world.periods[2]}
    games = [g for g in worlds.current_games(session) if g.tournament_id in early]
    lengths = []
    for game in rng.sample(games, 6):
        result = rng.choice([r for r in worlds.PLAYED if r != game.result])
        found = check_same(
            session,
            "game",
            {"tournament_id": game.tournament_id, "round_number": game.round,
             "white_id": game.white_id, "black_id": game.black_id, "result": result},
        )  # fmt: skip
        lengths.append(len(found["revisions"]))
    assert max(lengths) >= 5, lengths


@pytest.fixture
def world(session: Session, tmp_path: Path) -> worlds.World:
    return worlds.build(session, tmp_path, 4242, months=8)


#: Six corrections on each database, not the same on both: derandomized, the test drew the same
#: twelve on each, so checked each correction twice. As for the eras above, what the database
#: changes (the savepoints, the queries) does not depend on the correction drawn; the draw
#: (``choice``) is salted with the database's name, twelve corrections in all.
EXAMPLES_PER_DATABASE = 6


@pytest.mark.slow
@settings(
    max_examples=EXAMPLES_PER_DATABASE,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
@given(choice=st.integers(0, 2**32 - 1), kind=st.sampled_from(worlds.KINDS))
def test_impact_property(
    session: Session, tmp_path: Path, world: worlds.World, choice: int, kind: str
) -> None:
    """Whatever correction hypothesis picks in one world, the impact is the cascade's."""
    rng = random.Random(f"{session.get_bind().dialect.name}-{choice}")
    check_same(session, kind, worlds.correction(session, world, rng, tmp_path, kind))


def test_a_list_of_other_rules_is_left_to_the_cascade(session: Session, tmp_path: Path) -> None:
    """A list published under another rule version than its period's rules now (the rules
    changed since): every entry may change, so the dry run runs the cascade itself."""
    world = worlds.build(session, tmp_path, 5, months=6, seeded=False)
    firsts = {Category.FIDE_STANDARD: world.periods[0]}
    assert not impact.needs_cascade(session, firsts)
    session.execute(
        update(RatingListRow)
        .where(RatingListRow.list_date == world.periods[3].list_date)
        .values(rule_version="fide-standard-2000-01")
    )
    assert impact.needs_cascade(session, firsts)
    game = next(g for g in worlds.current_games(session) if g.result in worlds.PLAYED)
    arguments = {
        "tournament_id": game.tournament_id, "round_number": game.round,
        "white_id": game.white_id, "black_id": game.black_id,
        "result": next(r for r in worlds.PLAYED if r != game.result),
    }  # fmt: skip
    check_same(session, "game", arguments)


@pytest.mark.slow
def test_an_imported_list_in_the_chain(session: Session, tmp_path: Path) -> None:
    """The standard list of the fourth month imported, not closed: a game correction before it
    is refused where the cascade reaches it (or stops before), a replaced baseline or fourth
    list passes over it, as the cascade does."""
    world = worlds.build(session, tmp_path, 31, months=7, seeded=True, imported=4)
    rng = random.Random(31)
    imported = world.periods[3]
    assert imported in world.imported
    outcomes = []
    early = [
        t
        for t, (category, period, _, _) in world.tournaments.items()
        if category is Category.FIDE_STANDARD and period < imported
    ]
    for game in rng.sample(worlds.current_games(session, early), 5):
        arguments = {
            "tournament_id": game.tournament_id, "round_number": game.round,
            "white_id": game.white_id, "black_id": game.black_id,
            "result": rng.choice([r for r in worlds.PLAYED if r != game.result]),
        }  # fmt: skip
        outcomes.append(check_same(session, "game", arguments))
    assert any(isinstance(o, tuple) and o[0] == "refused" for o in outcomes), outcomes
    for rows, period in ((world.lists[Category.FIDE_STANDARD], world.baseline),
                         (world.imported[imported], imported)):  # fmt: skip
        changed = [list(row) for row in rows]
        for row in rng.sample([r for r in changed if r[6]], 3):
            row[6] = str(int(row[6]) + 40)
            row[8] = str(max(int(row[6]), int(row[8] or 0)))
        path = tmp_path / f"corrected-{period}.csv"
        path.write_text(worlds._csv(changed), encoding="utf-8")
        found = check_same(
            session, "list", {"category": Category.FIDE_STANDARD, "period": period, "path": path}
        )
        assert isinstance(found, dict), found
        assert found["revisions"], found
