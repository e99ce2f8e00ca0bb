"""Years of history: a database of M monthly lists of N players, then what its size and its
reads cost.

    python benchmarks/history.py --players 20000 --months 24 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench    # a scratch database

The database is built first: the synthetic federation of benchmarks/generate.py (N players, a
published FIDE standard list), then M monthly periods ending with the list of 2026-12. Each
month about --share of the players (30 %) play one Swiss tournament of 5 to 11 rounds
(benchmarks.generate.month_of_games), and the period is closed through the real close service
(``--build close``, the default: every list, status and calculation as ratingdb writes them).
``--build copy`` writes the lists set-based instead (per month, the whole list made in a scratch
table from the list before: the players who play get a new rating, the others carry theirs
forward unchanged as a close writes them; only the changed entries go to list_entries, the
whole list to its chunks), with no games: a database of the target's size in minutes, for the
size and the reads; its lists are marked imported and ``periods verify`` is not run on them.

Then, measured (PostgreSQL):
- the size of the list tables and of each of their indexes (pg_total_relation_size,
  pg_relation_size), per list-month and per entry;
- player history (also ``history-cold``: each request a player not asked for before), player
  page and list page at --clients concurrent clients (benchmarks.api_load's server and
  clients; the list page also with the page cache off, as the database serves it);
- ``ratingdb periods verify --all`` (every list recomputed from its stored inputs);
- one more close (the month after), and how much the database grew with it.

The last line is one JSON object. The database named by --database-url is emptied first
(unless --reuse finds it built at this size): point it at a scratch database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from datetime import time as clock
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: python benchmarks/history.py
    sys.path.insert(0, str(ROOT))

from benchmarks import api_load  # noqa: E402
from benchmarks.generate import build, month_of_games  # noqa: E402
from ratingdb.db import make_engine, make_sessionmaker, upgrade  # noqa: E402
from ratingdb.repositories import periods as period_repo  # noqa: E402
from ratingdb.repositories.list_storage import chunks as list_chunks  # noqa: E402
from ratingdb.repositories.list_storage import latest as list_latest  # noqa: E402
from ratingdb.rules import Category, Period, version_for_period  # noqa: E402
from ratingdb.rules.activity import activity_rule  # noqa: E402
from ratingdb.rules.calendar import closing_date  # noqa: E402
from ratingdb.services.close import close_period  # noqa: E402
from ratingdb.services.lists import stored_digest  # noqa: E402

CATEGORY = Category.FIDE_STANDARD
#: The last list of the history: the list benchmarks.api_load reads.
LAST = api_load.PERIOD
#: The tables that grow with every list (entries, statuses, calculations) and what a list
#: rests on (the lists themselves, the games and tournaments of its period).
LIST_TABLES = (
    "list_entries",
    "list_chunks",
    "player_status",
    "player_calculations",
    "rating_lists",
)
INPUT_TABLES = ("games", "tournaments", "players")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def list_datetime(period: Period) -> datetime:
    return datetime.combine(period.list_date, clock(), UTC)


# --- the build ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Built:
    mode: str
    players: int
    months: int
    seconds: float
    close_seconds: list[float]
    games: int
    tournaments: int


def first_list(months: int) -> Period:
    """The baseline (imported) list: ``months`` lists before LAST."""
    return LAST.plus_months(-months)


def build_history(
    url: str, *, players: int, months: int, share: float, seed: int, mode: str = "close"
) -> Built:
    """An emptied database with the baseline list and ``months`` monthly lists after it, the
    last one LAST. ``mode``: ``close`` (games, closed by the real service) or ``copy`` (lists
    written set-based, no games)."""
    if make_engine(url).dialect.name != "postgresql" and mode == "copy":
        raise SystemExit("--build copy needs PostgreSQL")
    api_load.reset(url)
    started = time.perf_counter()
    upgrade(url)
    engine = make_engine(url)
    baseline = first_list(months)
    rng = random.Random(seed + 1)
    close_seconds: list[float] = []
    games = tournaments = 0
    try:
        with make_sessionmaker(engine).begin() as session:
            build(session, players=players, games=0, baseline=baseline, seed=seed)
            seal_baseline(session, baseline)
        for month in range(1, months + 1):
            period = baseline.plus_months(month)
            if mode == "copy":
                copy_list(engine, period, month, seed)
                continue
            with make_sessionmaker(engine).begin() as session:
                period_row = period_repo.get_or_create_period(session, CATEGORY, period)
                made, played = month_of_games(
                    session,
                    rng,
                    players=players,
                    share=share,
                    month=period.plus_months(-1),
                    period_id=period_row.id,
                )
            tournaments += made
            games += played
            closed = time.perf_counter()
            with make_sessionmaker(engine).begin() as session:
                outcome = close_period(
                    session, CATEGORY, period, now=list_datetime(period), closed_by="benchmark"
                )
            close_seconds.append(time.perf_counter() - closed)
            if outcome.list_id is None:
                raise SystemExit(f"the close of {period} published nothing: {outcome.as_json()}")
            print(
                f"  {period}: {played:,} games, {outcome.entries:,} entries, closed in "
                f"{close_seconds[-1]:.1f} s",
                flush=True,
            )
        if mode == "copy":
            with engine.begin() as connection:
                connection.exec_driver_sql(f"DROP TABLE IF EXISTS {COPY_FULL}")
        vacuum(engine)
    finally:
        engine.dispose()
    seconds = time.perf_counter() - started
    return Built(mode, players, months, seconds, close_seconds, games, tournaments)


def seal_baseline(session: Session, baseline: Period) -> None:
    """Give the generated baseline list the digest of its entries, as an imported list has
    (benchmarks.generate leaves it empty), so that ``periods verify`` passes it."""
    found = period_repo.list_for(session, CATEGORY, baseline)
    if found is None:
        raise AssertionError(f"no baseline list {baseline}")
    found.digest = stored_digest(session, found.id, found.digest_version)


#: The whole list a copy-built month starts from (every entry, as its chunks hold it): a
#: scratch table of the build, made from the baseline, replaced by each month's list, dropped
#: at the end. list_entries holds only a list's changes (issue 16, stage (b)).
COPY_FULL = "_history_copy_full"
COPY_NEXT = "_history_copy_next"
_COPY_BASELINE = f"""
CREATE UNLOGGED TABLE {COPY_FULL} AS
SELECT player_id, rating, k_factor, rated_games, peak_rating, last_rated, active
FROM list_entries WHERE list_id = :baseline
"""

#: One month of a copy-built history, from the list before: a player plays when a hash of
#: their id and the month says so (--share of them), and then gets 5 to 12 games and a change
#: of -31 to +32 (not below the floor of the period's rules); the others carry their entry
#: forward as a close writes it (previous rating = rating, change 0, no games, no K used),
#: inactive once their last rated list is before :earliest (rules.activity).
_COPY_ENTRIES = f"""
CREATE UNLOGGED TABLE {COPY_NEXT} AS
SELECT e.player_id,
       CASE WHEN h.played THEN greatest(:floor, e.rating + h.delta) ELSE e.rating END
           AS rating,
       e.rating AS previous_rating,
       CASE WHEN h.played THEN greatest(:floor, e.rating + h.delta) - e.rating ELSE 0 END
           AS change,
       CASE WHEN h.played THEN h.games ELSE 0 END AS games,
       e.k_factor,
       CASE WHEN h.played THEN e.k_factor END AS k_used,
       CASE WHEN h.played THEN round((greatest(:floor, e.rating + h.delta) - e.rating)::numeric
                                     / e.k_factor, 4) END AS sum_delta,
       e.rated_games + CASE WHEN h.played THEN h.games ELSE 0 END AS rated_games,
       greatest(e.peak_rating, CASE WHEN h.played THEN e.rating + h.delta ELSE 0 END)
           AS peak_rating,
       CASE WHEN h.played THEN CAST(:list_date AS date) ELSE e.last_rated END AS last_rated,
       h.played OR coalesce(e.last_rated >= :earliest, false) AS active,
       h.played OR e.active <> (h.played OR coalesce(e.last_rated >= :earliest, false))
           AS changed
FROM {COPY_FULL} e,
     LATERAL (SELECT hashtext(e.player_id || ':' || :month) AS value) v,
     LATERAL (SELECT (v.value & 1023) < :threshold AS played,
                     ((v.value >> 10) & 63) - 31 AS delta,
                     5 + ((v.value >> 16) & 7) AS games) h
"""
_ENTRY_COLUMNS = (
    "player_id, rating, previous_rating, change, games, k_factor, k_used, sum_delta, "
    "rated_games, peak_rating, last_rated, active"
)
#: Only the entries that changed (those who played: 5 games or more, and those whose
#: activity flipped) go to list_entries; nobody leaves a copied list, so there is no marker.
_COPY_CHANGES = f"""
INSERT INTO list_entries (list_id, {_ENTRY_COLUMNS})
SELECT :new, {_ENTRY_COLUMNS} FROM {COPY_NEXT} WHERE changed
"""


def copy_list(engine: Engine, period: Period, month: int, seed: int) -> None:
    """The list of ``period`` written set-based from the list before (``--build copy``)."""
    share = COPY_SHARE
    with engine.begin() as connection:
        previous = connection.execute(
            text("SELECT id FROM rating_lists WHERE category = :c AND list_date = :d"),
            {"c": CATEGORY.value, "d": period.plus_months(-1).list_date},
        ).scalar_one()
        period_id = connection.execute(
            text(
                "INSERT INTO periods (category, list_date, closing_date, state, published_at) "
                "VALUES (:c, :d, :closing, 'published', :t) ON CONFLICT (category, list_date) "
                "DO UPDATE SET state = 'published', published_at = :t RETURNING id"
            ),
            {
                "c": CATEGORY.value,
                "d": period.list_date,
                "t": list_datetime(period),
                "closing": closing_date(CATEGORY, period),
            },
        ).scalar_one()
        new = connection.execute(
            text(
                "INSERT INTO rating_lists (period_id, category, list_date, revision, source, "
                "published_at, entry_count, parent_list_id) SELECT :p, category, :d, 1, "
                "'import', :t, entry_count, :previous FROM rating_lists WHERE id = :previous "
                "RETURNING id"
            ),
            {
                "p": period_id,
                "d": period.list_date,
                "t": list_datetime(period),
                "previous": previous,
            },
        ).scalar_one()
        if month == 1:
            connection.execute(text(_COPY_BASELINE), {"baseline": previous})
        connection.execute(
            text(_COPY_ENTRIES),
            {
                "month": f"{seed}:{month}",
                "threshold": round(1024 * share),
                "floor": version_for_period(CATEGORY, period).floor,
                "list_date": period.list_date,
                # The earliest list whose rated games keep a player active on this one.
                "earliest": period.plus_months(
                    1 - activity_rule(CATEGORY, period).months
                ).list_date,
            },
        )
        connection.execute(text(_COPY_CHANGES), {"new": new})
        # The list's chunks, from the whole list (read whole: COPY cannot be fed from a read
        # on the same connection), in list order.
        ordered = connection.exec_driver_sql(
            f'SELECT {_ENTRY_COLUMNS} FROM {COPY_NEXT} ORDER BY rating DESC, player_id COLLATE "C"'
        ).all()
        with Session(bind=connection) as session:
            list_chunks.write_chunks(session, new, [tuple(row) for row in ordered])
            list_latest.write_latest(session, new)
        connection.exec_driver_sql(f"DROP TABLE {COPY_FULL}")
        connection.exec_driver_sql(f"ALTER TABLE {COPY_NEXT} RENAME TO {COPY_FULL}")
        connection.execute(
            text(
                "INSERT INTO player_status (list_id, player_id, rated_games, peak_rating, pool) "
                "SELECT :new, player_id, rated_games, peak_rating, pool FROM player_status "
                "WHERE list_id = :previous"
            ),
            {"new": new, "previous": previous},
        )
    if month % 12 == 0:
        print(f"  {period}: copied", flush=True)


COPY_SHARE = 0.30


def vacuum(engine: Engine) -> None:
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM ANALYZE")


def built_size(url: str) -> tuple[int, int] | None:
    """(lists, players) of a database built by this script, or None."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text(
                    "SELECT count(*), (SELECT count(*) FROM players) FROM rating_lists "
                    "WHERE category = :c AND list_date <= :d"
                ),
                {"c": CATEGORY.value, "d": LAST.list_date},
            ).one()
            return int(row[0]), int(row[1])
    except Exception:  # no database, no schema: build it
        return None
    finally:
        engine.dispose()


# --- the size ----------------------------------------------------------------------------------


def sizes(engine: Engine) -> dict[str, dict[str, Any]]:
    """Per table: rows, heap bytes, total bytes (heap, TOAST, indexes), and each index."""
    out: dict[str, dict[str, Any]] = {}
    with engine.connect() as connection:
        for table in (*LIST_TABLES, *INPUT_TABLES):
            rows = connection.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar_one()
            heap, total = connection.exec_driver_sql(
                f"SELECT pg_table_size('{table}'), pg_total_relation_size('{table}')"
            ).one()
            indexes = dict(
                connection.exec_driver_sql(
                    "SELECT indexrelid::regclass::text, pg_relation_size(indexrelid) "
                    f"FROM pg_index WHERE indrelid = '{table}'::regclass ORDER BY 1"
                ).all()
            )
            out[table] = {
                "rows": rows,
                **(
                    {
                        "entries": connection.exec_driver_sql(
                            "SELECT coalesce(sum(size), 0) FROM list_chunks"
                        ).scalar_one()
                    }
                    if table == "list_chunks"
                    else {}
                ),
                "heap_bytes": heap,
                "total_bytes": total,
                "indexes": indexes,
            }
        out["database"] = {
            "total_bytes": connection.exec_driver_sql(
                "SELECT pg_database_size(current_database())"
            ).scalar_one()
        }
    return out


def per_list(found: dict[str, dict[str, Any]], lists: int) -> dict[str, Any]:
    """Bytes per list-month and per entry of the list tables. An entry is one of a list's
    entries (as its chunks hold them: every entry of every list); list_entries holds only a
    computed list's changes and markers (``stored_rows_per_list``), its bytes counted per
    entry of the lists all the same, so that they compare with full copies."""
    stored = found["list_entries"]
    count = int(found["list_chunks"]["entries"]) or 1
    document: dict[str, Any] = {"lists": lists}
    for table in LIST_TABLES:
        document[f"{table}_per_list_mb"] = round(found[table]["total_bytes"] / lists / 2**20, 3)
    document["entries_per_list"] = round(count / lists)
    document["stored_rows_per_list"] = round(stored["rows"] / lists)
    document["entry_bytes"] = round(stored["total_bytes"] / count, 1)
    document["entry_heap_bytes"] = round(stored["heap_bytes"] / count, 1)
    document["entry_index_bytes"] = {
        name: round(size / count, 1) for name, size in stored["indexes"].items()
    }
    document["chunk_bytes_per_entry"] = round(found["list_chunks"]["total_bytes"] / count, 1)
    return document


def print_sizes(found: dict[str, dict[str, Any]], lists: int) -> None:
    print(f"{'table':<16}{'rows':>14}{'heap MB':>10}{'total MB':>10}{'MB/list':>9}{'B/row':>8}")
    for table in (*LIST_TABLES, *INPUT_TABLES):
        row = found[table]
        per_row = row["total_bytes"] / row["rows"] if row["rows"] else 0
        print(
            f"{table:<16}{row['rows']:>14,}{row['heap_bytes'] / 2**20:>10,.1f}"
            f"{row['total_bytes'] / 2**20:>10,.1f}{row['total_bytes'] / lists / 2**20:>9.2f}"
            f"{per_row:>8.1f}"
        )
        for name, size in row["indexes"].items():
            print(
                f"  {name:<44}{size / 2**20:>10,.1f} MB"
                f"{size / row['rows'] if row['rows'] else 0:>8.1f} B/row"
            )
    print(f"database {found['database']['total_bytes'] / 2**20:,.1f} MB")


# --- the reads ---------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (Linux /proc), 0 when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def backend_cpu(engine: Engine, exclude: int) -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend connected to this database (but the one
    asking): the server's share of the reads."""
    with engine.connect() as connection:
        pids = connection.exec_driver_sql(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            f"AND pid <> {exclude}"
        ).scalars()
        return {pid: cpu_seconds(pid) for pid in pids}


def measure_reads(url: str, args: argparse.Namespace) -> dict[str, Any]:
    """Player history (``history``: 2,000 players, most answered from the page cache once
    rendered; ``history-cold``: another player at each request, every one a first render), the
    player's HTML page (all its years: random players, and the ones with the longest
    histories again and again) and the list page at --clients clients (and
    /health, the denominator), through ``ratingdb serve`` as benchmarks.api_load runs it; the
    list page once more with the page cache off. Beside the latencies, the CPU each request
    took in the API process and in the database's backends: the figure a busy machine disturbs
    least."""
    found = api_load.with_long_histories(url, api_load.targets(url, args.seed))
    rng = random.Random(args.seed)
    results: dict[str, Any] = {}
    engine = make_engine(url)
    with engine.connect() as connection:
        own_pid = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    try:
        for cache_mb, endpoints in (
            (None, ("health", "list", "history", "history-cold", "player-page", "player-page-hot")),
            (0, ("list",)),
        ):
            port = api_load.free_port()
            server = api_load.start_server(
                url, port, 1, None, True, Path(os.devnull), page_cache_mb=cache_mb
            )
            try:
                for endpoint in endpoints:
                    paths = api_load.paths(endpoint, found, rng)
                    warm = paths
                    if endpoint == "history-cold":  # warmed up on others: each one new
                        half = len(paths) // 2
                        warm, paths = paths[half:], paths[:half]
                    gzip = endpoint in api_load.PAGE_ENDPOINTS
                    if endpoint == "player-page-hot":  # the same pages read again and again
                        api_load.render_each(port, paths, gzip)
                    asyncio.run(api_load.measure(port, warm, args.clients, args.warmup, 0, gzip))
                    api_before = cpu_seconds(server.pid)
                    db_before = backend_cpu(engine, own_pid)
                    figures = asyncio.run(
                        api_load.measure(port, paths, args.clients, args.duration, 0, gzip)
                    )
                    api_cpu = cpu_seconds(server.pid) - api_before
                    db_after = backend_cpu(engine, own_pid)
                    db_cpu = sum(t - db_before.get(pid, 0.0) for pid, t in db_after.items())
                    name = endpoint if cache_mb is None else f"{endpoint}_uncached"
                    results[name] = figures.as_json(
                        None if endpoint == "health" else results["health"]["rps"]
                    )
                    row = results[name]
                    requests = max(1, row["requests"])
                    row["api_cpu_ms"] = round(api_cpu * 1000 / requests, 3)
                    row["db_cpu_ms"] = round(db_cpu * 1000 / requests, 3)
                    print(
                        f"  {name:<16}{row['rps']:>8,.0f} req/s  p50 {row['p50_ms']:6.1f}  "
                        f"p95 {row['p95_ms']:6.1f}  p99 {row['p99_ms']:6.1f} ms  CPU per "
                        f"request: API {row['api_cpu_ms']:.2f} ms, database "
                        f"{row['db_cpu_ms']:.2f} ms  errors {row['errors']}",
                        flush=True,
                    )
            finally:
                api_load.stop_server(server)
    finally:
        engine.dispose()
    return results


def run_verify(url: str) -> dict[str, Any]:
    """``ratingdb periods verify --all`` as a subprocess: seconds, lists checked, failures."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ratingdb", "periods", "verify", "--all", "--database-url", url],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    failed = [r for r in results if not r["ok"]]
    if done.returncode not in (0, 1):
        raise SystemExit(f"periods verify failed (exit {done.returncode}):\n{done.stderr}")
    return {
        "seconds": round(seconds, 2),
        "lists": len(results),
        "failed": len(failed),
        "per_list_s": round(seconds / max(1, len(results)), 3),
    }


def one_more_close(url: str, players: int, share: float, seed: int) -> dict[str, Any]:
    """The month after LAST: its games generated, then closed through the real service; the
    size of every list table before and after (vacuumed)."""
    engine = make_engine(url)
    period = LAST.plus_months(1)
    try:
        with make_sessionmaker(engine).begin() as session:
            period_row = period_repo.get_or_create_period(session, CATEGORY, period)
            _, played = month_of_games(
                session,
                random.Random(seed + 2),
                players=players,
                share=share,
                month=LAST,
                period_id=period_row.id,
            )
        vacuum(engine)
        before = sizes(engine)
        started = time.perf_counter()
        with make_sessionmaker(engine).begin() as session:
            outcome = close_period(
                session, CATEGORY, period, now=list_datetime(period), closed_by="benchmark"
            )
        seconds = time.perf_counter() - started
        vacuum(engine)
        after = sizes(engine)
    finally:
        engine.dispose()
    growth = {
        table: after[table]["total_bytes"] - before[table]["total_bytes"] for table in LIST_TABLES
    }
    return {
        "period": str(period),
        "games": played,
        "entries": outcome.entries,
        "seconds": round(seconds, 2),
        "load_s": round(outcome.load_s, 2),
        "compute_s": round(outcome.compute_s, 2),
        "write_s": round(outcome.write_s, 2),
        "growth_mb": {table: round(size / 2**20, 2) for table, size in growth.items()},
        "entries_growth_per_entry_bytes": round(growth["list_entries"] / outcome.entries, 1),
        "database_growth_mb": round(
            (after["database"]["total_bytes"] - before["database"]["total_bytes"]) / 2**20, 2
        ),
    }


# --- the run -----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument(
        "--months",
        type=int,
        required=True,
        help="monthly lists after the baseline, the last one 2026-12",
    )
    parser.add_argument(
        "--database-url", default="postgresql+psycopg://postgres@127.0.0.1:5432/rdb_years_history"
    )
    parser.add_argument(
        "--share", type=float, default=0.30, help="share of the players who play each month"
    )
    parser.add_argument("--build", choices=("close", "copy"), default="close")
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep the database if it holds this many players and lists",
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=10.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--no-verify", dest="verify", action="store_false")
    parser.add_argument(
        "--no-close",
        dest="close",
        action="store_false",
        help="leave out the one more close (the database stays as built: --reuse it again)",
    )
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    url = args.database_url
    if make_engine(url).dialect.name != "postgresql":
        raise SystemExit("history.py measures PostgreSQL (its sizes are PostgreSQL's)")
    load_at_start = os.getloadavg()

    lists = args.months + 1
    built: Built | None = None
    if args.reuse and built_size(url) == (lists, args.players):
        print(f"reusing the database: {lists} lists of {args.players:,} players")
    else:
        print(f"building {args.months} months of {args.players:,} players ({args.build})")
        built = build_history(
            url,
            players=args.players,
            months=args.months,
            share=args.share,
            seed=args.seed,
            mode=args.build,
        )
        print(f"built in {built.seconds:.1f} s")

    engine = make_engine(url)
    try:
        found = sizes(engine)
    finally:
        engine.dispose()
    print_sizes(found, lists)
    size = per_list(found, lists)

    print(f"reads at {args.clients} clients, {args.duration:g} s each")
    reads = measure_reads(url, args)
    verified: dict[str, Any] | None = None
    if args.verify and args.build == "close":
        verified = run_verify(url)
        print(
            f"periods verify --all: {verified['lists']} lists in {verified['seconds']:.1f} s "
            f"({verified['failed']} failed)"
        )
    closed: dict[str, Any] | None = None
    if args.close:
        closed = one_more_close(url, args.players, args.share, args.seed)
        print(
            f"one more close ({closed['period']}, {closed['games']:,} games): "
            f"{closed['seconds']:.1f} s; list_entries grew "
            f"{closed['growth_mb']['list_entries']:.1f} MB "
            f"({closed['entries_growth_per_entry_bytes']:.0f} B per entry)"
        )
    load_at_end = os.getloadavg()
    print(
        json.dumps(
            {
                "players": args.players,
                "months": args.months,
                "lists": lists,
                "build": args.build,
                "share": args.share,
                "build_s": None if built is None else round(built.seconds, 1),
                "close_s_mean": None
                if not built or not built.close_seconds
                else round(sum(built.close_seconds) / len(built.close_seconds), 2),
                "close_s_last": None
                if not built or not built.close_seconds
                else round(built.close_seconds[-1], 2),
                "games_per_month": None
                if not built or not built.games
                else round(built.games / args.months),
                "size": size,
                "tables": {
                    t: {"rows": v["rows"], "total_bytes": v["total_bytes"]}
                    for t, v in found.items()
                    if t != "database"
                },
                "database_bytes": found["database"]["total_bytes"],
                "reads": reads,
                "clients": args.clients,
                "verify": verified,
                "one_more_close": closed,
                "load_average": {
                    "start": [round(x, 2) for x in load_at_start],
                    "end": [round(x, 2) for x in load_at_end],
                },
            }
        )
    )


if __name__ == "__main__":
    main()
