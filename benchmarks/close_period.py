"""Close one period of a synthetic federation and print where the time goes.

    python benchmarks/close_period.py --players 500000 --games 300000 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench

The database is built first (in a separate process, so its memory is not counted), then one
period is closed through the real service. Before the close, in the same process, the period is
loaded and rated alone (``services.close.compute``, nothing written, rolled back): the close's
time is also given as a ratio to that. Printed per phase (load, compute, write, total): seconds,
rows per second, the process's peak memory and its CPU seconds, and on PostgreSQL on this
machine the CPU seconds of the close's server process (read from /proc). The baseline, measured
in the same run, is the floor no close can beat: a plain COPY of the same games out of the
database and of the same list entries and calculation rows into the same tables (executemany
on SQLite). The last line is one JSON object.

The database named by --database-url is emptied (PostgreSQL: its public schema is dropped; a
SQLite file is deleted) — point it at a scratch database. ``--reuse`` (PostgreSQL) keeps a
database ``generate.py`` built, with the same --players, --games and --seed: the close is then
rolled back instead of committed (no commit, no VACUUM of latest_entries after it), so that the
same period can be closed again and again.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from ratingdb.db import is_sqlite, make_engine, make_sessionmaker
from ratingdb.repositories import periods as period_repo
from ratingdb.rules import Category, Period, PeriodRules
from ratingdb.services.close import close_period, compute

HERE = Path(__file__).resolve().parent
PERIOD = Period(2026, 12)
ENTRY_COLUMNS = (
    "list_id, player_id, rating, previous_rating, change, games, k_factor, k_used, "
    "sum_delta, rated_games, peak_rating, last_rated, active"
)
CALCULATION_COLUMNS = "list_id, player_id, games, packed"


def peak_mb() -> float:
    """The process's peak resident set since :func:`reset_peak` (Linux: VmHWM)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc/self/status")


def reset_peak() -> None:
    """Forget the peak resident set so far (Linux 4.0+: clear_refs 5), so that the close's peak
    is not the loading and rating alone's measured before it."""
    with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
        clear.write("5")


def backend_pid(session: Session) -> int | None:
    """The PostgreSQL server process of the session's connection; None on SQLite."""
    if session.get_bind().dialect.name != "postgresql":
        return None
    pid: int = session.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar_one()
    return pid


def server_cpu_s(pid: int | None) -> float | None:
    """CPU seconds so far of the PostgreSQL server process ``pid``, when it runs on this
    machine (its /proc entry); None on SQLite or a server elsewhere. Asked by pid, not through
    the session: once the close commits, the session may be given another pooled connection,
    whose process is not the one that did the close's work."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_and_rate(engine: Engine) -> dict[str, float]:
    """The period loaded and rated alone (what the close does before writing), rolled back."""
    gc.disable()  # as close_period does
    try:
        with make_sessionmaker(engine)() as session:
            rules = PeriodRules.for_period(Category.FIDE_STANDARD, PERIOD)
            period_row = period_repo.get_or_create_period(session, rules.category, PERIOD)
            lists = [
                rating_list
                for rating_list in period_repo.lists_of(session, rules.category)
                if rating_list.list_date < PERIOD.list_date
            ]
            started = time.perf_counter()
            computation = compute(session, rules, period_row.id, lists)
            elapsed = time.perf_counter() - started
            load_s, compute_s = computation.load_s, computation.compute_s
            del computation
            session.rollback()
    finally:
        gc.enable()
        gc.collect()
    return {"load_rate_s": elapsed, "alone_load_s": load_s, "alone_rate_s": compute_s}


def reset(url: str) -> None:
    if is_sqlite(url):
        database = make_url(url).database
        if database:
            Path(database).unlink(missing_ok=True)
        return
    engine = make_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("DROP SCHEMA public CASCADE")
            connection.exec_driver_sql("CREATE SCHEMA public")
    finally:
        engine.dispose()


def baseline(engine: Engine, list_id: int) -> dict[str, float]:
    """COPY the close's games out, and its entries and calculations back in under a fresh list
    id (same tables, same constraints and indexes), in a transaction rolled back after."""
    if engine.dialect.name == "sqlite":
        return _baseline_sqlite(engine, list_id)
    raw = engine.raw_connection()
    try:
        connection: Any = raw.driver_connection
        figures = _baseline_on(connection, list_id)
        connection.rollback()
    finally:
        raw.close()
    return figures


def baseline_in(session: Session, list_id: int) -> dict[str, float]:
    """:func:`baseline` in the close's own transaction (``--reuse``: the close is not
    committed), undone to a savepoint after."""
    if session.get_bind().dialect.name != "postgresql":
        raise SystemExit("--reuse measures the baseline on PostgreSQL only")
    connection: Any = session.connection().connection.driver_connection
    connection.execute("SAVEPOINT baseline")
    figures = _baseline_on(connection, list_id)
    connection.execute("ROLLBACK TO SAVEPOINT baseline")
    return figures


def _baseline_on(connection: Any, list_id: int) -> dict[str, float]:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO rating_lists (period_id, category, list_date, revision, source, "
            "published_at, entry_count) SELECT period_id, category, list_date, 99, source, "
            "published_at, entry_count FROM rating_lists WHERE id = %s RETURNING id",
            (list_id,),
        )
        scratch = cursor.fetchone()[0]
        entries = _copy_out(cursor, ENTRY_COLUMNS, "list_entries", list_id, scratch)
        calculations = _copy_out(
            cursor, CALCULATION_COLUMNS, "player_calculations", list_id, scratch
        )
        started = time.perf_counter()
        with cursor.copy(
            "COPY (SELECT g.* FROM games g JOIN tournaments t USING (tournament_id) "
            "JOIN periods p ON p.id = t.period_id WHERE p.list_date = %s) TO STDOUT",
            (PERIOD.list_date,),
        ) as copy:
            for _ in copy:
                pass
        read_s = time.perf_counter() - started
        started = time.perf_counter()
        for table, columns, data in (
            ("list_entries", ENTRY_COLUMNS, entries),
            ("player_calculations", CALCULATION_COLUMNS, calculations),
        ):
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                copy.write(data)
        write_s = time.perf_counter() - started
    return {"baseline_read_s": read_s, "baseline_write_s": write_s}


def _copy_out(cursor: Any, columns: str, table: str, list_id: int, scratch: int) -> bytes:
    select = columns.replace("list_id", f"{scratch} AS list_id", 1)
    chunks = []
    with cursor.copy(
        f"COPY (SELECT {select} FROM {table} WHERE list_id = {list_id}) TO STDOUT"
    ) as copy:
        for chunk in copy:
            chunks.append(bytes(chunk))
    return b"".join(chunks)


def _baseline_sqlite(engine: Engine, list_id: int) -> dict[str, float]:
    with engine.connect() as connection:
        scratch = connection.execute(
            text(
                "INSERT INTO rating_lists (period_id, category, list_date, revision, source, "
                "published_at, entry_count) SELECT period_id, category, list_date, 99, source, "
                "published_at, entry_count FROM rating_lists WHERE id = :id RETURNING id"
            ),
            {"id": list_id},
        ).scalar_one()
        rows = {}
        for table, columns in (
            ("list_entries", ENTRY_COLUMNS),
            ("player_calculations", CALCULATION_COLUMNS),
        ):
            select = columns.replace("list_id", f"{scratch} AS list_id", 1)
            rows[table] = (
                columns,
                connection.exec_driver_sql(
                    f"SELECT {select} FROM {table} WHERE list_id = {list_id}"
                ).all(),
            )
        started = time.perf_counter()
        connection.exec_driver_sql(
            "SELECT g.* FROM games g JOIN tournaments t USING (tournament_id) "
            "JOIN periods p ON p.id = t.period_id WHERE p.list_date = ?",
            (PERIOD.list_date.isoformat(),),
        ).all()
        read_s = time.perf_counter() - started
        started = time.perf_counter()
        cursor = connection.connection.driver_connection.cursor()  # type: ignore[union-attr]
        for table, (columns, data) in rows.items():
            marks = ", ".join("?" * len(columns.split(",")))
            cursor.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", data)
        write_s = time.perf_counter() - started
        connection.rollback()
    return {"baseline_read_s": read_s, "baseline_write_s": write_s}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--database-url", default="sqlite:///benchmark.sqlite3")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep the database generate.py built, and roll the close back",
    )
    args = parser.parse_args()
    url = args.database_url

    if not args.reuse:
        reset(url)
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, str(HERE / "generate.py"), "--players", str(args.players),
             "--games", str(args.games), "--database-url", url, "--seed", str(args.seed)],
            check=True,
        )  # fmt: skip
        print(f"database built in {time.perf_counter() - started:.1f} s")
    engine = make_engine(url)
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.exec_driver_sql("VACUUM ANALYZE")
    try:
        figures = load_and_rate(engine)
        reset_peak()
        session = make_sessionmaker(engine)()
        try:
            pid = backend_pid(session)
            server_started = server_cpu_s(pid)
            started = time.perf_counter()
            cpu_started = time.process_time()
            outcome = close_period(
                session,
                Category.FIDE_STANDARD,
                PERIOD,
                now=datetime.now(UTC),
                closed_by="benchmark",
            )
            if args.reuse:
                session.flush()
            else:
                session.commit()  # and latest_entries vacuumed (ratingdb.db.vacuum)
            total_s = time.perf_counter() - started
            cpu_s = time.process_time() - cpu_started
            server_s = None if server_started is None else server_cpu_s(pid)
            if server_s is not None and server_started is not None:
                server_s -= server_started
            if outcome.list_id is None:
                raise SystemExit(f"the close published nothing: {outcome.as_json()}")
            if args.reuse:
                figures |= baseline_in(session, outcome.list_id)
                session.rollback()
        finally:
            session.close()
        peak = peak_mb()
        if not args.reuse:
            figures |= baseline(engine, outcome.list_id)
    finally:
        engine.dispose()

    base_s = figures["baseline_read_s"] + figures["baseline_write_s"]
    backend = make_url(url).get_backend_name()
    players = outcome.entries
    print(f"{backend}: {args.players:,} players, {outcome.games:,} rated games")
    load_rate = outcome.games / outcome.load_s
    compute_rate = args.players / outcome.compute_s
    write_rate = outcome.rows_written / outcome.write_s
    print(f"  load     {outcome.load_s:7.2f} s  {load_rate:12,.0f} games/s")
    print(f"  compute  {outcome.compute_s:7.2f} s  {compute_rate:12,.0f} players/s")
    print(f"  write    {outcome.write_s:7.2f} s  {write_rate:12,.0f} rows/s"
          f"  ({outcome.rows_written:,} rows)")  # fmt: skip
    print(f"  total    {total_s:7.2f} s  peak memory {peak:,.0f} MB  ({players:,} list entries)")
    print(f"  cpu      {cpu_s:7.2f} s  of this process (the rest is the server's, or waiting)")
    if server_s is not None:
        print(f"  server   {server_s:7.2f} s  of CPU in the close's PostgreSQL process")
    load_rate_s = figures["load_rate_s"]
    print(f"  alone    {load_rate_s:7.2f} s  loading and rating alone (load "
          f"{figures['alone_load_s']:.2f} s, rate {figures['alone_rate_s']:.2f} s): the close is "
          f"{total_s / load_rate_s:.2f} x that")  # fmt: skip
    print(f"  baseline {base_s:7.2f} s  (COPY games out {figures['baseline_read_s']:.2f} s, "
          f"entries and calculations in {figures['baseline_write_s']:.2f} s)")  # fmt: skip
    print(f"  ratio    {total_s / base_s:7.2f} x the baseline")
    print(
        json.dumps(
            {
                "players": args.players,
                "games": args.games,
                "backend": backend,
                "load_s": round(outcome.load_s, 3),
                "compute_s": round(outcome.compute_s, 3),
                "write_s": round(outcome.write_s, 3),
                "total_s": round(total_s, 3),
                "cpu_s": round(cpu_s, 3),
                "server_cpu_s": None if server_s is None else round(server_s, 3),
                "load_rate_s": round(load_rate_s, 3),
                "ratio_to_load_rate": round(total_s / load_rate_s, 3),
                "reused": args.reuse,
                "baseline_s": round(base_s, 3),
                "ratio": round(total_s / base_s, 3),
                "peak_rss_mb": round(peak),
            }
        )
    )


if __name__ == "__main__":
    main()
