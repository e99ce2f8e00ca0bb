"""A player's history and page, cold: what a first render costs, request by request.

    python benchmarks/cold_history.py --samples 60 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench_hist   # history.py's

On a database benchmarks/history.py built (any size; ten years: ``--months 120``), for the
``--samples`` players with the most lists of their own in the category (their rows in
list_entries; ``--random`` draws players of the latest list instead, a faster pick on a large
database), through the app (test client, one thread, page cache off, so every request is a
first render), each player once per round, ``--repeat`` rounds:

- ``/v1/players/{id}/history?category=fide-standard`` and ``/players/{id}``: the CPU of this
  process per request (the client's share included, the same before and after a change) and
  the wall time;
- the history's render alone (service and JSON, no HTTP), and the page's data alone
  (``services.published.player_record``).

Medians and 95th percentiles. CPU is the figure a busy machine disturbs least; the database's
own CPU is not in it. The last line is one JSON object. Nothing is written to the database.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: python benchmarks/cold_history.py
    sys.path.insert(0, str(ROOT))

from ratingdb.api import app as api_app  # noqa: E402
from ratingdb.api.schemas.players import history_json  # noqa: E402
from ratingdb.config import Settings  # noqa: E402
from ratingdb.db import make_engine, make_sessionmaker  # noqa: E402
from ratingdb.rules import Category  # noqa: E402
from ratingdb.services import published as svc  # noqa: E402

CATEGORY = Category.FIDE_STANDARD


def chosen_players(url: str, samples: int, seed: int, *, drawn: bool) -> list[str]:
    """The players measured: those with the most rows in list_entries (a scan of its key), or
    ``drawn`` at random from the latest list's rows."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            if not drawn:
                return list(
                    connection.execute(
                        text(
                            "SELECT player_id FROM list_entries GROUP BY player_id "
                            "ORDER BY count(*) DESC, player_id LIMIT :n"
                        ),
                        {"n": samples},
                    ).scalars()
                )
            found = connection.execute(
                text(
                    "SELECT player_id FROM list_entries WHERE list_id = (SELECT max(id) FROM "
                    "rating_lists WHERE category = :c) ORDER BY player_id"
                ),
                {"c": CATEGORY.value},
            ).scalars()
            everyone = list(found)
    finally:
        engine.dispose()
    return random.Random(seed).sample(everyone, min(samples, len(everyone)))


def summary(cpu: list[float], wall: list[float] | None = None) -> dict[str, Any]:
    def p95(values: list[float]) -> float:
        ordered = sorted(values)
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3)

    found: dict[str, Any] = {
        "cpu_ms": round(statistics.median(cpu), 3),
        "cpu_p95_ms": p95(cpu),
        "requests": len(cpu),
    }
    if wall is not None:
        found["wall_ms"] = round(statistics.median(wall), 3)
        found["wall_p95_ms"] = p95(wall)
    return found


def timed(calls: Iterator[Callable[[], Any]]) -> tuple[list[float], list[float]]:
    """CPU (this process, every thread) and wall milliseconds of each call."""
    cpu: list[float] = []
    wall: list[float] = []
    for call in calls:
        started_cpu, started = time.process_time(), time.perf_counter()
        call()
        cpu.append((time.process_time() - started_cpu) * 1000)
        wall.append((time.perf_counter() - started) * 1000)
    return cpu, wall


@contextmanager
def uncached_client(url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    settings = Settings(database_url=url, read_database_url=url)
    app = api_app.create_app(settings, threads=1, page_cache_bytes=0)
    with TestClient(app) as client:
        yield client


def get(client: Any, path: str, sizes: list[int]) -> Callable[[], None]:
    def call() -> None:
        response = client.get(path)
        if response.status_code != 200:
            raise SystemExit(f"{path}: {response.status_code} {response.text[:200]}")
        sizes.append(len(response.content))

    return call


def history_body(session: Any, player_id: str) -> bytes:
    """The history's first render without HTTP: what the route's render does."""
    found = svc.history(session, player_id, CATEGORY)
    return history_json(player_id, CATEGORY, None, found)


def measure(url: str, players: list[str], repeat: int) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    rounds = [p for _ in range(repeat) for p in players]
    history_sizes: list[int] = []
    page_sizes: list[int] = []
    with uncached_client(url) as client:
        for player in players[:5]:  # warm: statements, templates
            get(client, f"/players/{player}", [])()
        cpu, wall = timed(
            get(client, f"/v1/players/{p}/history?category={CATEGORY.value}", history_sizes)
            for p in rounds
        )
        figures["history"] = summary(cpu, wall) | {"bytes": max(history_sizes)}
        cpu, wall = timed(get(client, f"/players/{p}", page_sizes) for p in rounds)
        figures["page"] = summary(cpu, wall) | {"bytes": max(page_sizes)}
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine)() as session:
            cpu, _ = timed((lambda p=p: history_body(session, p)) for p in rounds)
            figures["history_render"] = summary(cpu)
            points = len(json.loads(history_body(session, players[0]))["points"])
            cpu, _ = timed((lambda p=p: svc.player_record(session, p)) for p in rounds)
            figures["page_data"] = summary(cpu)
    finally:
        engine.dispose()
    figures["points"] = points
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="a database history.py built")
    parser.add_argument("--samples", type=int, default=60, help="players measured")
    parser.add_argument("--repeat", type=int, default=3, help="rounds over the players")
    parser.add_argument("--random", action="store_true", help="random players of the latest list")
    parser.add_argument("--seed", type=int, default=20261204)
    args = parser.parse_args(argv)
    players = chosen_players(args.database_url, args.samples, args.seed, drawn=args.random)
    if not players:
        raise SystemExit("no player on any list: build the database with history.py first")
    load = os.getloadavg()
    figures = measure(args.database_url, players, args.repeat)
    for name in ("history", "page", "history_render", "page_data"):
        row = figures[name]
        wall = f", wall {row['wall_ms']:.2f} ms" if "wall_ms" in row else ""
        print(
            f"  {name:15} CPU median {row['cpu_ms']:7.3f} ms (p95 {row['cpu_p95_ms']:7.3f}){wall}"
        )
    print(
        json.dumps(
            {
                "samples": len(players),
                "repeat": args.repeat,
                **figures,
                "load_average": [round(x, 2) for x in (*load, *os.getloadavg())],
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
