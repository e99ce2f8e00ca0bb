"""The reads of one whole list, a page and a rank, as the API, the close and the revisions make
them, timed on a database ``history.py`` built (its last list). Written against repository
calls that main and the ``changes`` branch both have, so that the same script measures both:

    python benchmarks/list_reads.py --database-url postgresql+psycopg://postgres@127.0.0.1/bench

For each read: p50 / p99 wall-clock milliseconds of one client, and the process's CPU
milliseconds per read (p50; the database server's CPU is not in it). Every read's answer is
checksummed, and the sums printed, so that two runs over the same data can be compared
(main and a branch must give the same sums). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: python benchmarks/list_reads.py
    sys.path.insert(0, str(ROOT))

from ratingdb.db import make_engine, make_sessionmaker  # noqa: E402
from ratingdb.models import PlayerRow, RatingListRow  # noqa: E402
from ratingdb.repositories import period_inputs  # noqa: E402
from ratingdb.repositories.list_storage import changes as list_changes  # noqa: E402
from ratingdb.repositories.list_storage import chunk_reads  # noqa: E402
from ratingdb.repositories.published import calculations as published_calculations  # noqa: E402
from ratingdb.repositories.published import list_pages as published_list_pages  # noqa: E402
from ratingdb.repositories.published import lists as published_lists  # noqa: E402
from ratingdb.repositories.published import players as published_players  # noqa: E402
from ratingdb.repositories.published import ranks  # noqa: E402
from ratingdb.services.lists import stored_digest  # noqa: E402


def checksum(rows: Any) -> str:
    """A short digest of an answer, whatever the order of its rows (main and the branch read
    some whole lists in different orders)."""
    digest = hashlib.sha256()
    for text in sorted(repr(_plain(row)) for row in rows):
        digest.update(text.encode())
    return digest.hexdigest()[:12]


def _plain(row: Any) -> Any:
    if isinstance(row, (tuple, list)) or hasattr(row, "_fields"):
        return tuple(_plain(value) for value in row)
    return row


def timed(
    sessions: Callable[[], Session], read: Callable[[Session, int], Any], samples: int
) -> dict[str, Any]:
    """``read(session, sample)`` ``samples`` times, each in a new session; wall and CPU ms."""
    wall: list[float] = []
    cpu: list[float] = []
    sums: set[str] = set()
    for sample in range(samples):
        with sessions() as session:
            started, started_cpu = time.perf_counter(), time.process_time()
            answer = read(session, sample)
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
            session.rollback()
        if sample == 0:
            sums.add(checksum(answer))
    wall.sort()
    return {
        "p50_ms": round(statistics.median(wall), 1),
        "p99_ms": round(wall[min(len(wall) - 1, round(0.99 * (len(wall) - 1)))], 1),
        "cpu_p50_ms": round(statistics.median(cpu), 1),
        "samples": samples,
        "checksum": sorted(sums)[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--samples", type=int, default=100, help="for pages and ranks")
    parser.add_argument("--whole", type=int, default=10, help="samples of whole-list reads")
    parser.add_argument("--only", default="", help="comma-separated reads to run")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    engine = make_engine(args.database_url)
    sessions = make_sessionmaker(engine)
    with sessions() as session:
        list_id = int(
            session.scalar(select(RatingListRow.id).order_by(RatingListRow.id.desc()).limit(1)) or 0
        )
        listed = chunk_reads.entries_by_player(session, list_id)
        players = sorted(listed)
        ratings = {player_id: entry[0] for player_id, entry in listed.items()}
        federation_of = dict(
            session.execute(
                select(PlayerRow.player_id, PlayerRow.federation).where(
                    PlayerRow.federation.is_not(None)
                )
            ).all()
        )
    size = len(players)
    rng = random.Random(args.seed)
    chosen = [rng.choice(players) for _ in range(args.samples)]
    top_offsets = [rng.randrange(0, min(size, 10_000) - 100) for _ in range(args.samples)]
    any_offsets = [rng.randrange(0, size - 100) for _ in range(args.samples)]

    def page(offsets: list[int]) -> Callable[[Session, int], Any]:
        def read(session: Session, sample: int) -> Any:
            return published_lists.list_entries(
                session, list_id, federation=None, search=None, limit=100, offset=offsets[sample]
            )

        return read

    def federation_page(session: Session, sample: int) -> Any:
        federation = federation_of.get(chosen[sample])
        total = published_lists.count_list_entries(
            session, list_id, federation=federation, search=None
        )
        rows = published_lists.list_entries(
            session, list_id, federation=federation, search=None, limit=100, offset=0
        )
        return [total, *rows]

    def export(session: Session, _: int) -> Any:
        return list(published_lists.every_entry(session, list_id, yield_per=5000))

    reads: dict[str, tuple[Callable[[Session, int], Any], int]] = {
        "page_first_10000": (page(top_offsets), args.samples),
        "page_anywhere": (page(any_offsets), args.samples),
        "rank_world": (
            lambda s, i: [published_list_pages.entries_above(s, list_id, ratings[chosen[i]])],
            args.samples,
        ),
        "ranks_on": (lambda s, i: [ranks.ranks_on(s, list_id, chosen[i])], args.samples),
        "history": (
            lambda s, i: published_players.player_entries(s, chosen[i]),
            args.samples,
        ),
        "entry_on": (
            lambda s, i: [published_calculations.entry_on(s, list_id, chosen[i])],
            args.samples,
        ),
        "ratings_on_100": (
            lambda s, i: list_changes.ratings_on(s, list_id, chosen[i : i + 100]).items(),
            args.samples,
        ),
        "federation_page": (federation_page, args.samples),
        "export": (export, args.whole),
        "digest": (lambda s, _: [stored_digest(s, list_id)], args.whole),
        "entries_by_player": (
            lambda s, _: chunk_reads.entries_by_player(s, list_id).items(),
            args.whole,
        ),
        "close_previous_list": (
            lambda s, _: list(period_inputs.entries_with_birth_years(s, list_id)),
            args.whole,
        ),
        "rating_counts": (
            lambda s, _: ranks.rating_counts(s, list_id),
            args.whole,
        ),
    }
    wanted = [name for name in args.only.split(",") if name] or list(reads)
    load_start = os.getloadavg()
    found: dict[str, Any] = {}
    for name in wanted:
        read, samples = reads[name]
        found[name] = timed(sessions, read, samples)
        result = found[name]
        print(
            f"{name:22} p50 {result['p50_ms']:>9,.1f} ms  p99 {result['p99_ms']:>9,.1f} ms  "
            f"cpu {result['cpu_p50_ms']:>9,.1f} ms  sum {result['checksum']}",
            flush=True,
        )
    engine.dispose()
    print(
        json.dumps(
            {
                "dialect": engine.dialect.name,
                "list_id": list_id,
                "entries": size,
                "reads": found,
                "load_average": {
                    "start": [round(x, 2) for x in load_start],
                    "end": [round(x, 2) for x in os.getloadavg()],
                },
            }
        )
    )


if __name__ == "__main__":
    main()
