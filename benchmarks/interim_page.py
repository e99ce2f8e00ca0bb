"""The player page with and without its interim block (issue 28 item 7): what computing a
player's interim rating on demand costs the public page.

    python benchmarks/interim_page.py --players 20000 --months 3 \
        --database-url sqlite:///interim.sqlite3     # or a scratch PostgreSQL database

The database is built first: the synthetic federation of benchmarks/generate.py (N players, a
published FIDE standard list), M monthly periods closed through the real close service (each
month about --share of the players play one Swiss tournament of 5 to 11 rounds), then one more
month of tournaments accepted into the open period, which is left open.

Then, for --samples players who played in the open period (each with M published calculations
and an interim rating), each page asked --repeat times through the app (Starlette's test client,
one thread):

- ``with_interim``: ``/players/{id}`` with the page cache off (rendered every time);
- ``without_interim``: the same pages, the interim left out (``interim_ratings`` replaced by a
  function that finds none): the page as it was before interim ratings;
- ``interim_only``: ``services.interim.player_interims`` alone, in a read session;
- ``interim_none``: the same for as many players without a game in the open period (what most
  player pages ask: the open periods, then the search of the player's tournaments, in vain);
- ``interim_json``: ``/v1/players/{id}/interim`` with the page cache off;
- ``cached``: ``/players/{id}`` with the page cache on, after a first request (what most
  requests get: the games' generation is looked up once a second with the lists').

Median and 95th percentile in milliseconds. The last line is one JSON object. The database
named by --database-url is emptied first: point it at a scratch database.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from datetime import time as clock
from pathlib import Path
from typing import Any

from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: python benchmarks/interim_page.py
    sys.path.insert(0, str(ROOT))

from benchmarks import api_load  # noqa: E402
from benchmarks.generate import build, month_of_games  # noqa: E402
from ratingdb.api import app as api_app  # noqa: E402
from ratingdb.api.routes import pages  # noqa: E402
from ratingdb.config import Settings  # noqa: E402
from ratingdb.db import make_engine, make_sessionmaker, upgrade  # noqa: E402
from ratingdb.repositories import periods as period_repo  # noqa: E402
from ratingdb.rules import Category, Period  # noqa: E402
from ratingdb.services.close import close_period  # noqa: E402
from ratingdb.services.interim import player_interims  # noqa: E402

CATEGORY = Category.FIDE_STANDARD
#: The open period: the month after the last closed list.
OPEN = Period.parse("2027-01")


def build_database(url: str, *, players: int, months: int, share: float, seed: int) -> int:
    """The baseline list, ``months`` closed periods ending with OPEN's previous list, then a
    month of games in OPEN, left open. Returns the open period's games."""
    api_load.reset(url)
    upgrade(url)
    engine = make_engine(url)
    rng = random.Random(seed + 1)
    baseline = OPEN.plus_months(-months - 1)
    try:
        with make_sessionmaker(engine).begin() as session:
            build(session, players=players, games=0, baseline=baseline, seed=seed)
        for month in range(1, months + 2):
            period = baseline.plus_months(month)
            with make_sessionmaker(engine).begin() as session:
                period_row = period_repo.get_or_create_period(session, CATEGORY, period)
                _, played = month_of_games(
                    session, rng, players=players, share=share, month=period.plus_months(-1),
                    period_id=period_row.id,
                )  # fmt: skip
            if period == OPEN:
                return played
            now = datetime.combine(period.list_date, clock(), UTC)
            with make_sessionmaker(engine).begin() as session:
                close_period(session, CATEGORY, period, now=now, closed_by="benchmark")
            print(f"  {period}: {played:,} games, closed", flush=True)
    finally:
        engine.dispose()
    raise AssertionError("the open period was not reached")


def open_players(url: str, samples: int, seed: int, *, played: bool = True) -> list[str]:
    """``samples`` players with a rated game in the open period (``played`` False: without
    one), drawn at random."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT g.white_id, g.black_id FROM games g JOIN tournaments t "
                    "ON t.tournament_id = g.tournament_id JOIN periods p ON p.id = t.period_id "
                    "WHERE p.list_date = :day AND g.rated"
                ),
                {"day": OPEN.list_date},
            ).all()
            everyone = sorted(
                row[0] for row in connection.execute(text("SELECT player_id FROM players"))
            )
    finally:
        engine.dispose()
    seen = {player for row in rows for player in row}
    found = sorted(seen) if played else [p for p in everyone if p not in seen]
    return random.Random(seed).sample(found, min(samples, len(found)))


def timed(calls: Iterator[Callable[[], Any]]) -> dict[str, float]:
    """Median and 95th percentile of the calls, in milliseconds."""
    times = []
    for call in calls:
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return _summary(times)


@contextmanager
def client(url: str, *, page_cache_bytes: int) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    settings = Settings(database_url=url, read_database_url=url)
    app = api_app.create_app(settings, threads=1, page_cache_bytes=page_cache_bytes)
    with TestClient(app) as test_client:
        yield test_client


def get(test_client: Any, path: str) -> Callable[[], None]:
    def call() -> None:
        response = test_client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path}: {response.status_code} {response.text[:200]}")

    return call


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {
        "median_ms": round(statistics.median(ordered), 2),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 2),
        "requests": len(ordered),
    }


def measure(url: str, players: list[str], repeat: int, idle: list[str]) -> dict[str, Any]:
    """The modes, the page with and without the interim interleaved (each request of one
    followed by the same of the other: a loaded machine's drift falls on both alike)."""
    paths = [f"/players/{p}" for p in players for _ in range(repeat)]
    figures: dict[str, Any] = {}
    kept = pages.interim_ratings

    def none(session: Any, player_ids: Any) -> dict[Any, Any]:
        return {}

    with client(url, page_cache_bytes=0) as test_client:
        for path in paths[: len(players)]:  # warm: templates, statements
            get(test_client, path)()
        if 'section class="interim"' not in test_client.get(paths[0]).text:
            raise SystemExit(f"{paths[0]} shows no interim block")
        with_times: list[float] = []
        without_times: list[float] = []
        try:
            for path in paths:
                for interim, times in ((True, with_times), (False, without_times)):
                    pages.interim_ratings = kept if interim else none  # type: ignore[assignment]
                    started = time.perf_counter()
                    get(test_client, path)()
                    times.append((time.perf_counter() - started) * 1000)
        finally:
            pages.interim_ratings = kept
        figures["with_interim"] = _summary(with_times)
        figures["without_interim"] = _summary(without_times)
        figures["added_ms"] = round(
            statistics.median(a - b for a, b in zip(with_times, without_times, strict=True)), 2
        )
        figures["interim_json"] = timed(
            get(test_client, f"/v1/players/{p}/interim") for p in players for _ in range(repeat)
        )
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:

            def interim_of(player_id: str) -> Callable[[], None]:
                def call() -> None:
                    if not player_interims(session, player_id):
                        raise AssertionError(f"{player_id} has no interim rating")

                return call

            figures["interim_only"] = timed(interim_of(p) for p in players for _ in range(repeat))

            def none_of(player_id: str) -> Callable[[], None]:
                def call() -> None:
                    if player_interims(session, player_id):
                        raise AssertionError(f"{player_id} has an interim rating")

                return call

            figures["interim_none"] = timed(none_of(p) for p in idle for _ in range(repeat))
    finally:
        engine.dispose()
    with client(url, page_cache_bytes=64 * 1024 * 1024) as test_client:
        for path in paths[: len(players)]:
            get(test_client, path)()
        figures["cached"] = timed(get(test_client, path) for path in paths)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--months", type=int, default=3, help="closed periods before the open")
    parser.add_argument("--share", type=float, default=0.3, help="who plays each month")
    parser.add_argument("--samples", type=int, default=20, help="players measured")
    parser.add_argument("--repeat", type=int, default=5, help="requests per player and mode")
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument("--database-url", default="sqlite:///interim_page.sqlite3")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    games = build_database(
        args.database_url, players=args.players, months=args.months, share=args.share,
        seed=args.seed,
    )  # fmt: skip
    built = time.perf_counter() - started
    print(f"  {OPEN} (open): {games:,} games; built in {built:.1f} s", flush=True)
    players = open_players(args.database_url, args.samples, args.seed)
    idle = open_players(args.database_url, args.samples, args.seed, played=False)
    figures = measure(args.database_url, players, args.repeat, idle)
    for name, row in figures.items():
        if isinstance(row, dict):
            print(f"  {name:16} median {row['median_ms']:7.2f} ms   p95 {row['p95_ms']:7.2f} ms")
    print(f"  the interim adds {figures['added_ms']:.2f} ms (median of the paired differences)")
    backend = "postgresql" if args.database_url.startswith("postgresql") else "sqlite"
    print(
        json.dumps(
            {
                "backend": backend,
                "players": args.players,
                "months": args.months,
                "open_games": games,
                "samples": len(players),
                "build_s": round(built, 1),
                **figures,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
