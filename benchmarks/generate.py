"""A synthetic federation of any size, written straight into a migrated database with the
project's bulk writes: players with a realistic rating spread, juniors, 2400+ players,
newcomers (unrated, and rated with few games), a published baseline list, and Swiss
tournaments of 5 to 11 rounds rated in the next period.

Deterministic for a given seed. Used by the benchmarks; a small federation also runs in the
test suite so this never rots.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy.orm import Session

from ratingdb.db import bulk_insert
from ratingdb.models import (
    GameRow,
    ListEntryRow,
    PlayerStatusRow,
    RatingListRow,
    TournamentRow,
)
from ratingdb.models.rating_list import DIGEST_VERSION
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories.list_storage import chunks as list_chunks
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.rules import Category, KStatus, Period, k_factor, next_period, version_for_period

FEDERATIONS = ("FRA", "GER", "ESP", "ITA", "ENG", "NED", "POL", "IND", "USA", "RUS", "UKR",
               "SRB", "CZE", "HUN", "ARG", "BRA", "CHN", "IRI", "TUR", "SUI")  # fmt: skip
RESULTS = ("1-0", "1/2-1/2", "0-1")
UNRATED_SHARE = 0.03
#: The published list the generated period starts from (its tournaments start in November).
BASELINE = Period(2026, 11)


@dataclass(frozen=True, slots=True)
class Federation:
    category: Category
    baseline: Period  # the published list the period starts from
    period: Period  # the period whose tournaments are generated
    players: int
    games: int
    tournaments: int


def build(
    session: Session,
    *,
    players: int,
    games: int,
    baseline: Period = BASELINE,
    category: Category = Category.FIDE_STANDARD,
    seed: int = 20261130,
) -> Federation:
    """Write the federation in the session's transaction (the caller commits)."""
    rng = random.Random(seed)
    version = version_for_period(category, baseline)
    now = datetime(2026, 11, 1, tzinfo=UTC)
    player_rows = []
    entries = []
    statuses = []
    ratings: list[int | None] = []
    for index in range(players):
        player_id = str(10_000_000 + index)
        junior = rng.random() < 0.15
        birth_year = rng.randint(2009, 2018) if junior else rng.randint(1945, 2008)
        rating: int | None = None
        if rng.random() >= UNRATED_SHARE:
            mean = 1550 if junior else 1750
            rating = max(version.floor, min(2850, int(rng.gauss(mean, 280))))
        ratings.append(rating)
        player_rows.append(
            {
                "player_id": player_id,
                "name": f"Player {index:07d}",
                "federation": rng.choice(FEDERATIONS),
                "sex": "F" if rng.random() < 0.12 else "M",
                "birth_year": birth_year,
                "title": "GM" if rating is not None and rating >= 2500 else None,
            }
        )
        if rating is None:
            statuses.append({"player_id": player_id, "rated_games": 0, "peak_rating": None,
                             "pool": []})  # fmt: skip
            continue
        rated_games = rng.choice((8, 20, 45, 120, 400))
        peak = rating + rng.choice((0, 0, 0, 25, 80))
        entries.append(
            {
                "player_id": player_id,
                "rating": rating,
                "previous_rating": None,
                "change": None,
                "games": 0,
                "k_factor": k_factor(
                    version, KStatus(rating, rated_games, peak, birth_year), baseline.year
                ),
                "k_used": None,
                "sum_delta": None,
                "rated_games": rated_games,
                "peak_rating": peak,
                "last_rated": baseline.list_date,
                "active": True,
            }
        )
    player_repo.insert_players(session, player_rows)
    period_row = period_repo.get_or_create_period(session, category, baseline)
    rating_list = RatingListRow(
        period_id=period_row.id,
        category=category.value,
        list_date=baseline.list_date,
        revision=1,
        source="import",
        rule_version=None,
        published_at=now,
        entry_count=len(entries),
        digest=None,
        digest_version=DIGEST_VERSION,
    )
    session.add(rating_list)
    session.flush()
    for row in entries:
        row["list_id"] = rating_list.id
    for row in statuses:
        row["list_id"] = rating_list.id
    bulk_insert(session, ListEntryRow, entries)
    list_chunks.write_chunks_of_entries(session, rating_list.id)
    list_latest.write_latest(session, rating_list.id)
    bulk_insert(session, PlayerStatusRow, statuses)
    period_repo.mark_published(session, period_row, now)

    period = next_period(category, baseline)
    target = period_repo.get_or_create_period(session, category, period)
    tournaments = _tournaments(session, rng, players, games, ratings, baseline, target.id, category)
    return Federation(category, baseline, period, players, games, tournaments)


def _tournaments(
    session: Session,
    rng: random.Random,
    players: int,
    games: int,
    ratings: list[int | None],
    baseline: Period,
    period_id: int,
    category: Category,
) -> int:
    """Swiss tournaments of 5 to 11 rounds until ``games`` games exist; players are drawn
    from the whole federation, pairings are random within the field."""
    game_rows: list[dict[str, object]] = []
    number = 0
    first_day = baseline.list_date
    while len(game_rows) < games:
        number += 1
        rounds = rng.randint(5, 11)
        field_size = min(players - players % 2, rng.choice((20, 40, 60, 120, 200)))
        field_size -= field_size % 2
        if field_size < 2:
            raise ValueError("a federation needs at least two players")
        field = rng.sample(range(players), field_size)
        start = first_day + timedelta(days=rng.randint(0, 20))
        tournament_id = f"B{number:07d}"
        session.add(
            TournamentRow(
                tournament_id=tournament_id,
                name=f"Open {number}",
                category=category.value,
                start_date=start,
                end_date=start + timedelta(days=min(rounds, 6)),
                period_id=period_id,
                late=False,
                source_format="csv",
                source_digest=f"{number:064d}",
            )
        )
        for round_number in range(1, rounds + 1):
            rng.shuffle(field)
            for board in range(0, field_size, 2):
                if len(game_rows) >= games:
                    break
                result = rng.choice(RESULTS) if rng.random() > 0.01 else "+-"
                game_rows.append(
                    {
                        "tournament_id": tournament_id,
                        "round": round_number,
                        "white_id": str(10_000_000 + field[board]),
                        "black_id": str(10_000_000 + field[board + 1]),
                        "result": result,
                        "rated": result in ("1-0", "0-1", "1/2-1/2"),
                    }
                )
    session.flush()
    bulk_insert(session, GameRow, game_rows)
    return number


def month_of_games(
    session: Session,
    rng: random.Random,
    *,
    players: int,
    share: float,
    month: Period,
    period_id: int,
    category: Category = Category.FIDE_STANDARD,
) -> tuple[int, int]:
    """A month of Swiss tournaments (5 to 11 rounds, random pairings within the field) in
    which about ``share`` of the federation plays, each of them in one tournament: the
    players drawn at random and split into fields of 10 to 200. ``month`` is the month the
    tournaments are played in (they start in its first 21 days); they are rated in the period
    ``period_id``. Returns (tournaments, games)."""
    active = rng.sample(range(players), max(2, round(players * share)))
    game_rows: list[dict[str, object]] = []
    tournaments: list[dict[str, object]] = []
    first_day = month.list_date
    position = 0
    while len(active) - position >= 2:
        size = min(len(active) - position, rng.choice((10, 20, 40, 60, 120, 200)))
        size -= size % 2
        field = active[position : position + size]
        position += size
        rounds = min(size - 1, rng.randint(5, 11))
        start = first_day + timedelta(days=rng.randint(0, 20))
        tournament_id = f"M{month.list_date:%Y%m}-{len(tournaments) + 1:05d}"
        tournaments.append(
            {
                "tournament_id": tournament_id,
                "name": f"Open {month} {len(tournaments) + 1}",
                "category": category.value,
                "start_date": start,
                "end_date": start + timedelta(days=min(rounds, 6)),
                "period_id": period_id,
                "late": False,
                "source_format": "csv",
                "source_digest": f"{month.list_date:%Y%m}{len(tournaments) + 1:058d}",
            }
        )
        for round_number in range(1, rounds + 1):
            rng.shuffle(field)
            for board in range(0, size, 2):
                result = rng.choice(RESULTS) if rng.random() > 0.01 else "+-"
                game_rows.append(
                    {
                        "tournament_id": tournament_id,
                        "round": round_number,
                        "white_id": str(10_000_000 + field[board]),
                        "black_id": str(10_000_000 + field[board + 1]),
                        "result": result,
                        "rated": result in ("1-0", "0-1", "1/2-1/2"),
                    }
                )
    bulk_insert(session, TournamentRow, tournaments)
    bulk_insert(session, GameRow, game_rows)
    return len(tournaments), len(game_rows)


def main() -> None:
    """Build a synthetic federation in a database (migrating it first)."""
    import argparse

    from ratingdb.db import make_engine, make_sessionmaker, upgrade

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    upgrade(args.database_url)
    engine = make_engine(args.database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            federation = build(session, players=args.players, games=args.games, seed=args.seed)
    finally:
        engine.dispose()
    print(
        f"built {federation.players:,} players, {federation.games:,} games in "
        f"{federation.tournaments:,} tournaments, rated in {federation.period}"
    )


if __name__ == "__main__":
    main()
