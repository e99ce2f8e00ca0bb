"""Seeded random federations for the impact tests: a few hundred players over 6-13 closed
monthly periods, in one to three categories, in an era that crosses a change of rules, and
random corrections of them.

The lists are imported (list CSV) and closed by the real services; the tournaments are written
as rows (some rated late, starting a month or two before the period's previous list, so that
an older list is in force for them). The players are made to reach the rules' corners: juniors
and adults, fewer than 30 rated games (K 40), ratings around 2300 and 2400 (junior K and the
permanent K 10), ratings above 2600 (the cap's exemption, the 600-point rule), ratings near the
floor (leaving the list, coming back), unrated players (pools and first ratings), players
unrated in rapid and blitz but rated in standard (the standard seed), forfeits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ratingdb.models import GameRow, TournamentRow
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import Category, Period
from ratingdb.services.close import close_period
from ratingdb.services.corrections import (
    CorrectionOutcome,
    correct_game,
    merge_players,
    merges,
    replace_list,
    replace_tournament,
)
from ratingdb.services.lists import import_list_file
from tests.support.files import GAMES_HEADER, LIST_HEADER

#: Baselines whose following months cross a change of rules: the rapid/blitz uplift of
#: 2022-10, the 2024-03 rules (standard seed, floor 1400), the 600-point rule of 2024-12, the
#: standard rules of 2025-10.
ERAS = (Period(2022, 6), Period(2023, 12), Period(2024, 8), Period(2025, 6))
PLAYED = ("1-0", "0-1", "1/2-1/2")
FORFEITS = ("+-", "-+", "--")
NOW = datetime(2027, 6, 1, tzinfo=UTC)


@dataclass(slots=True)
class World:
    seed: int
    categories: tuple[Category, ...]
    baseline: Period
    periods: list[Period]
    players: list[str]
    lists: dict[Category, list[list[str]]]  # baseline list CSV rows (fields)
    tournaments: dict[str, tuple[Category, Period, str, str]] = field(default_factory=dict)
    imported: dict[Period, list[list[str]]] = field(default_factory=dict)  # later lists imported


def _player_rows(rng: random.Random, count: int) -> list[list[str]]:
    rows = []
    for index in range(count):
        kind = rng.random()
        junior = rng.random() < 0.25
        birth = rng.randint(2007, 2014) if junior else rng.randint(1950, 2004)
        rated_games = rng.choice((3, 12, 25, 29, 30, 31, 60, 200))
        if kind < 0.12:
            rating = None
        elif kind < 0.22:
            rating = rng.randint(2280, 2420)
        elif kind < 0.28:
            rating = rng.randint(2580, 2720)
        elif kind < 0.40:
            rating = rng.randint(1000, 1460)
        else:
            rating = max(1000, min(2500, int(rng.gauss(1750, 260))))
        peak = None
        if rating is not None:
            peak = rating + rng.choice((0, 0, 0, 10, 60))
            if rng.random() < 0.1:
                peak = max(peak, 2405)
        rows.append(
            [
                str(5_000_000 + index),
                f"Player {index:04d}",
                rng.choice(("FRA", "GER", "ESP")),
                rng.choice("MF"),
                str(birth),
                "",
                "" if rating is None else str(rating),
                "" if rating is None else str(rated_games),
                "" if peak is None else str(peak),
                "",
            ]
        )
    return rows


def _csv(rows: Sequence[Sequence[str]]) -> str:
    return LIST_HEADER + "".join(",".join(row) + "\n" for row in rows)


def build(
    session: Session,
    tmp_path: Path,
    seed: int,
    *,
    months: int | None = None,
    era: Period | None = None,
    seeded: bool | None = None,
    imported: int | None = None,
) -> World:
    """A federation and its closed history, in the session's transaction (flushed): from the
    baseline ``era`` (default: one of ERAS), ``months`` periods (default 6 to 13), with the
    rapid and blitz lists when ``seeded`` (default: at random). ``imported``: the standard list
    of that month (1 = the first after the baseline) is imported (the baseline's players, their
    ratings moved a little), not closed."""
    rng = random.Random(seed)
    baseline = era if era is not None else rng.choice(ERAS)
    months = months if months is not None else rng.randint(6, 13)
    categories: tuple[Category, ...] = (Category.FIDE_STANDARD,)
    if seeded if seeded is not None else rng.random() < 0.6:
        categories += (Category.FIDE_RAPID, Category.FIDE_BLITZ)
    count = rng.randint(150, 260)
    standard = _player_rows(rng, count)
    lists = {Category.FIDE_STANDARD: standard}
    for category in categories[1:]:
        rows = [list(row) for row in standard]
        for row in rows:
            if rng.random() < 0.3:  # unrated here, perhaps rated in standard: the seed
                row[6] = row[7] = row[8] = ""
            elif row[6]:
                row[6] = str(max(1000, int(row[6]) + rng.randint(-150, 150)))
                row[8] = str(max(int(row[6]), int(row[8] or 0)))
        lists[category] = rows
    for category in categories:
        path = tmp_path / f"baseline-{seed}-{category.value}.csv"
        path.write_text(_csv(lists[category]), encoding="utf-8")
        import_list_file(session, path, category, baseline, NOW, "csv")
    world = World(seed, categories, baseline, [], [row[0] for row in standard], lists)
    for month in range(1, months + 1):
        period = baseline.plus_months(month)
        closed = [c for c in categories if not (month == imported and c is Category.FIDE_STANDARD)]
        for category in closed:
            _tournaments(session, rng, world, category, period)
        if len(closed) < len(categories):
            rows = [list(row) for row in standard]
            for row in rows:
                if row[6]:
                    row[6] = str(max(1000, int(row[6]) + rng.randint(-20, 20)))
                    row[8] = str(max(int(row[6]), int(row[8] or 0)))
            path = tmp_path / f"imported-{seed}-{period}.csv"
            path.write_text(_csv(rows), encoding="utf-8")
            import_list_file(session, path, Category.FIDE_STANDARD, period, NOW, "csv")
            world.imported[period] = rows
        for category in closed:
            outcome = close_period(session, category, period, now=NOW, closed_by="test")
            assert outcome.list_id is not None, outcome.as_json()
        world.periods.append(period)
    session.flush()
    return world


def _tournaments(
    session: Session, rng: random.Random, world: World, category: Category, period: Period
) -> None:
    period_row = period_repo.get_or_create_period(session, category, period)
    month_start = period.plus_months(-1).list_date
    for number in range(rng.randint(2, 4)):
        size = rng.choice((6, 8, 12, 20, 30, 40))
        field_ = rng.sample(world.players, size)
        rounds = rng.randint(3, min(7, size - 1))
        late = rng.random() < 0.15 and period > world.baseline.plus_months(2)
        start = month_start + timedelta(days=rng.randint(0, 20))
        if late:
            start = period.plus_months(-rng.randint(2, 3)).list_date + timedelta(days=3)
        tournament_id = f"T{category.value[5:7]}{period.list_date:%Y%m}{number}"
        end = start + timedelta(days=rounds)
        session.add(
            TournamentRow(
                tournament_id=tournament_id, name=f"Open {tournament_id}", category=category,
                start_date=start, end_date=end, period_id=period_row.id, late=late,
                source_format="csv", source_digest="0" * 64,
            )
        )  # fmt: skip
        world.tournaments[tournament_id] = (category, period, str(start), str(end))
        session.flush()
        for round_number in range(1, rounds + 1):
            rng.shuffle(field_)
            for board in range(0, size, 2):
                result = rng.choice(PLAYED) if rng.random() > 0.06 else rng.choice(FORFEITS)
                session.add(
                    GameRow(
                        tournament_id=tournament_id, round=round_number,
                        white_id=field_[board], black_id=field_[board + 1], result=result,
                        rated=result in PLAYED,
                    )
                )  # fmt: skip
    session.flush()


# --- corrections -----------------------------------------------------------------------------

KINDS = ("game", "game", "game", "tournament", "merge", "list")


def current_games(session: Session, tournament_ids: Sequence[str] | None = None) -> list[GameRow]:
    query = select(GameRow).where(GameRow.superseded_by.is_(None)).order_by(GameRow.id)
    if tournament_ids is not None:
        query = query.where(GameRow.tournament_id.in_(tournament_ids))
    return list(session.scalars(query))


def correction(
    session: Session, world: World, rng: random.Random, tmp_path: Path, kind: str
) -> dict[str, Any]:
    """A random correction of ``kind``, as the arguments of the service that makes it."""
    if kind == "game":
        game = rng.choice(current_games(session))
        choices = [r for r in (*PLAYED, *FORFEITS) if r != game.result]
        if game.result in PLAYED and rng.random() < 0.7:
            choices = [r for r in PLAYED if r != game.result]
        return {
            "tournament_id": game.tournament_id, "round_number": game.round,
            "white_id": game.white_id, "black_id": game.black_id, "result": rng.choice(choices),
        }  # fmt: skip
    if kind == "tournament":
        tournament_id = rng.choice(sorted(world.tournaments))
        category, _, start, end = world.tournaments[tournament_id]
        lines = []
        for game in current_games(session, [tournament_id]):
            if rng.random() < 0.1:
                continue  # dropped from the corrected file
            result = game.result
            if rng.random() < 0.3:
                result = rng.choice((*PLAYED, *FORFEITS))
            lines.append(
                f"{tournament_id},{start},{end},{game.round},{game.white_id},{game.black_id},"
                f"{result}\n"
            )
        path = tmp_path / f"replace-{world.seed}-{tournament_id}-{rng.random():.6f}.csv"
        path.write_text(GAMES_HEADER + "".join(lines), encoding="utf-8")
        return {"tournament_id": tournament_id, "path": path, "file_format": "csv"}
    if kind == "merge":
        games = current_games(session)
        played = {g.white_id for g in games} | {g.black_id for g in games}
        for _ in range(200):
            keep, drop = rng.sample(world.players, 2)
            if drop not in played:
                continue
            met = any({g.white_id, g.black_id} == {keep, drop} for g in games)
            if not met:
                # Random records are two people as a rule: merged all the same (issue 28).
                conflicts = merges.compare(session, keep, drop).conflicts
                override = "a random merge of the impact tests" if conflicts else None
                return {"keep": keep, "drop": drop, "override": override}
        raise AssertionError("no two players to merge")
    category = rng.choice(world.categories)
    rows = [list(row) for row in world.lists[category]]
    for row in rng.sample(rows, rng.randint(1, 4)):
        change = rng.random()
        if change < 0.4 and row[6]:
            row[6] = str(max(1000, int(row[6]) + rng.choice((-120, -30, 25, 90))))
            row[8] = str(max(int(row[6]), int(row[8] or 0)))
        elif change < 0.6:
            row[4] = str(rng.randint(2008, 2014))  # a junior after all: K 40
        elif change < 0.8 and row[6]:
            row[6] = row[7] = row[8] = ""  # unrated after all
        else:
            row[6], row[7], row[8] = str(rng.randint(1500, 2450)), "40", ""
    path = tmp_path / f"list-{world.seed}-{category.value}-{rng.random():.6f}.csv"
    path.write_text(_csv(rows), encoding="utf-8")
    return {"category": category, "period": world.baseline, "path": path}


def unchanged_file(
    session: Session, world: World, rng: random.Random, tmp_path: Path
) -> dict[str, Any]:
    """A tournament's replacement by the same games (every row superseded and written again:
    no list changes, so no revision records the new rows)."""
    tournament_id = rng.choice(sorted(world.tournaments))
    _, _, start, end = world.tournaments[tournament_id]
    lines = [
        f"{tournament_id},{start},{end},{g.round},{g.white_id},{g.black_id},{g.result}\n"
        for g in current_games(session, [tournament_id])
    ]
    path = tmp_path / f"same-{world.seed}-{tournament_id}-{rng.random():.6f}.csv"
    path.write_text(GAMES_HEADER + "".join(lines), encoding="utf-8")
    return {"tournament_id": tournament_id, "path": path, "file_format": "csv"}


def forfeit_changed(session: Session, rng: random.Random) -> dict[str, Any]:
    """A forfeit made another forfeit: a game changed that no list shows."""
    game = rng.choice([g for g in current_games(session) if g.result in FORFEITS])
    return {
        "tournament_id": game.tournament_id, "round_number": game.round,
        "white_id": game.white_id, "black_id": game.black_id,
        "result": rng.choice([r for r in FORFEITS if r != game.result]),
    }  # fmt: skip


def run(session: Session, kind: str, arguments: dict[str, Any], *, dry_run: bool) -> Any:
    """The correction through its service; its outcome as JSON without the correction's id
    (the two runs compared are rolled back in between)."""
    common: dict[str, Any] = {
        "reason": "test", "actor": "test", "now": NOW, "dry_run": dry_run,
    }  # fmt: skip
    outcome: CorrectionOutcome
    if kind == "game":
        outcome = correct_game(session, **arguments, **common)
    elif kind == "tournament":
        outcome, _ = replace_tournament(session, **arguments, **common)
    elif kind == "merge":
        outcome = merge_players(session, **arguments, **common)
    else:
        outcome, _ = replace_list(
            session, arguments["path"], arguments["category"], arguments["period"],
            file_format="csv", **common,
        )  # fmt: skip
    document = outcome.as_json()
    del document["correction_id"]
    return document
