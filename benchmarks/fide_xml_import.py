"""Importing a FIDE XML list the size of FIDE's own (about two million players): time and memory.

Writes a synthetic combined XML download (standard, rapid and blitz for every player, as FIDE's
``players_list_xml``) to a temporary folder, then imports its standard list as ``lists import
--format fide-xml`` does (one transaction), into a fresh SQLite database in the same folder or
the database given. Prints the seconds of each step and the peak resident memory of the process;
the last line is one JSON object. The import streams (iterparse, cleared elements, batches of
5,000 players), so the peak memory must stay at a few hundred MB whatever the file's size.

    python benchmarks/fide_xml_import.py --players 2000000
    python benchmarks/fide_xml_import.py --players 200000 \\
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench  # an empty database
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select

from ratingdb.db import make_engine, make_sessionmaker, upgrade
from ratingdb.formats.fide_list import FideXmlPlayer, write_fide_xml
from ratingdb.models import ListEntryRow, PlayerRow
from ratingdb.rules import Category, Period
from ratingdb.services.lists import import_list_file

FEDERATIONS = ("FRA", "GER", "IND", "USA", "RUS", "ESP", "ITA", "POL", "IRI", "TUR", "BRA", "NED")
FIRST_ID = 100_000_001


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far (Linux reports kilobytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / 1024 / 1024


def synthetic_players(count: int, seed: int) -> Iterator[FideXmlPlayer]:
    """Players spread like FIDE's list: about a third rated in standard, fewer in rapid and
    blitz, K from the rating and the birth year."""
    rng = random.Random(seed)

    def category(share: float, birth: int) -> tuple[int | None, int, int | None]:
        if rng.random() > share:
            return None, 0, None
        rating = max(1400, min(2850, int(rng.gauss(1650, 250))))
        k = 10 if rating >= 2400 else 40 if birth >= 2008 and rating < 2300 else 20
        return rating, rng.choice((0, 0, 0, 4, 9)), k

    for number in range(count):
        birth = rng.randint(1940, 2018)
        yield FideXmlPlayer(
            fide_id=str(FIRST_ID + number),
            name=f"Player{number:07d}, Test",
            federation=FEDERATIONS[number % len(FEDERATIONS)],
            sex="F" if number % 7 == 0 else "M",
            title=None,
            birth_year=birth,
            standard=category(0.35, birth),
            rapid=category(0.2, birth),
            blitz=category(0.18, birth),
            flag="i" if number % 3 == 0 else None,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=2_000_000)
    parser.add_argument(
        "--database-url", help="an empty database (default: SQLite in the temp dir)"
    )
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="ratingdb-fide-xml-") as folder:
        path = Path(folder) / "players_list_xml_foa.xml"
        started = time.perf_counter()
        with path.open("w", encoding="utf-8") as out:
            write_fide_xml(synthetic_players(args.players, args.seed), out)
        generate_s = time.perf_counter() - started
        size_mb = path.stat().st_size / 1e6
        print(f"wrote {args.players:,} players, {size_mb:,.0f} MB, in {generate_s:.1f} s")

        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        upgrade(url)
        rss_before = peak_rss_mb()
        engine = make_engine(url)
        try:
            started = time.perf_counter()
            with make_sessionmaker(engine).begin() as session:
                imported = import_list_file(
                    session, path, Category.FIDE_STANDARD, Period(2026, 12),
                    datetime.now(UTC), "fide-xml",
                )  # fmt: skip
            import_s = time.perf_counter() - started
            with make_sessionmaker(engine)() as session:
                players = session.scalar(select(func.count()).select_from(PlayerRow))
                entries = session.scalar(select(func.count()).select_from(ListEntryRow))
        finally:
            engine.dispose()
        peak = peak_rss_mb()
        print(
            f"imported in {import_s:.1f} s ({args.players / import_s:,.0f} players/s): "
            f"{players:,} players, {entries:,} rated entries; peak RSS {peak:,.0f} MB "
            f"({rss_before:,.0f} MB before the import)"
        )
        print(
            json.dumps(
                {
                    "players": args.players,
                    "database": "postgresql" if url.startswith("postgresql") else "sqlite",
                    "file_mb": round(size_mb, 1),
                    "generate_s": round(generate_s, 2),
                    "import_s": round(import_s, 2),
                    "players_per_s": round(args.players / import_s),
                    "entries": imported.rated,
                    "unrated": imported.unrated,
                    "peak_rss_mb": round(peak, 1),
                    "rss_before_import_mb": round(rss_before, 1),
                }
            )
        )


if __name__ == "__main__":
    main()
