"""Load the read-only API of a synthetic federation and print requests per second and latency.

    python benchmarks/api_load.py --players 500000 --games 300000 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench [--reuse]

The database is built first (benchmarks/generate.py, then one period closed through the real
service), unless --reuse finds it already built. Then ``ratingdb serve`` runs as a subprocess
on a free port, and concurrent clients (keep-alive HTTP/1.1 connections on one asyncio loop,
each sending its next request when the last answer is in) measure, at 1, 10 and 50 clients:

- ``health``: ``/health`` (one tiny query), the denominator of every ratio;
- ``list``: a page of 100 entries of the closed list, at a random offset in its first 10,000;
- ``history``: ``/v1/players/{id}/history`` of a random player of that list;
- ``calculation``: ``/v1/players/{id}/calculations/{category}/{period}`` of a random player of
  that list (every game of the period, explained);

and, asked for with ``--endpoints``, the web pages:

- ``list-page``: the HTML list ``/lists/{category}/{period}?page=N``, N a random page of 100
  entries in the first 10,000 (the page the issue-15 target is about);
- ``player-page``: the HTML ``/players/{id}`` of a random player of that list (chart, history
  and every calculation of every category): mostly first renders;
- ``player-page-hot``: the same page of the LONG_HISTORIES players with the most lists of
  their own (the ten-year pages a publication day's readers ask for again and again): mostly
  served from the page cache once rendered.

Printed per endpoint and concurrency: requests per second, latency p50/p95/p99 in ms, the
ratio of its requests per second to /health's at the same concurrency, errors (any answer
but 200), and the server's CPU milliseconds per answer (Linux: the process's user and system
time over the measurement, warm-up included, divided by every answer in it). The last line is
one JSON object with those figures.

``--http h11`` or ``--http httptools`` serves the same app under plain uvicorn
(benchmarks/plain_serve.py) instead of ``ratingdb serve``'s own protocol, to measure what the
protocol costs.

Without --reuse, the database named by --database-url is emptied first (PostgreSQL: its public
schema is dropped; a SQLite file is deleted): point it at a scratch database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: python benchmarks/api_load.py
    sys.path.insert(0, str(ROOT))

from benchmarks.generate import build  # noqa: E402
from benchmarks.plain_serve import PROTOCOLS as PLAIN_PROTOCOLS  # noqa: E402
from ratingdb.config import READ_DATABASE_URL_VARIABLE  # noqa: E402
from ratingdb.db import is_sqlite, make_engine, make_sessionmaker, upgrade  # noqa: E402
from ratingdb.models import ListEntryRow, PlayerCalculationsRow, RatingListRow  # noqa: E402
from ratingdb.rules import Category, Period  # noqa: E402
from ratingdb.services.close import close_period  # noqa: E402

CATEGORY = Category.FIDE_STANDARD
#: The period benchmarks.generate fills with games (the list after its baseline).
PERIOD = Period(2026, 12)
CONCURRENCY = (1, 10, 50)
#: What is measured unless --endpoints says otherwise (``health`` always, first: the
#: denominator of every ratio).
ENDPOINTS = ("health", "list", "history", "calculation")
#: The web pages, measured when --endpoints names them.
PAGE_ENDPOINTS = ("list-page", "player-page", "player-page-hot")
#: ``history-cold``: a history of another player at each request, every one a first render
#: (history.py measures it after a warm-up on other players).
ALL_ENDPOINTS = (*ENDPOINTS, "history-cold", *PAGE_ENDPOINTS)
#: Entries per page of a list, JSON (limit=100) and HTML (the page's own size) alike.
PAGE = 100
#: List pages are drawn from the first this many entries (a deep OFFSET is a different
#: question: it costs the database a scan of every skipped entry).
LIST_DEPTH = 10_000
SAMPLE_PLAYERS = 2_000
#: Players drawn for ``history-cold``: more than 50 clients ask for in 20 seconds.
COLD_PLAYERS = 50_000
LONG_HISTORIES = 20
START_TIMEOUT = 60
#: The targets at 50 clients: p99 under 100 ms for the JSON list page and the player history
#: with at least 40 % of /health's requests per second (issue 6), and for the HTML list page
#: (issue 15, p99 only).
TARGET_P99_MS = 100.0
TARGET_RATIO = 0.40
TARGETS: dict[str, float | None] = {"list": TARGET_RATIO, "history": TARGET_RATIO,
                                    "list-page": None}  # fmt: skip


# --- the database ------------------------------------------------------------------------------


def reset(url: str) -> None:
    """Empty the scratch database (as benchmarks/close_period.py does)."""
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


def closed_list(url: str) -> int | None:
    """The id of the closed list of PERIOD, if the database has one."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return connection.execute(
                select(RatingListRow.id)
                .where(
                    RatingListRow.category == CATEGORY.value,
                    RatingListRow.list_date == PERIOD.list_date,
                )
                .order_by(RatingListRow.revision.desc())
                .limit(1)
            ).scalar()
    except Exception:  # no database, no schema: build it
        return None
    finally:
        engine.dispose()


def build_database(url: str, players: int, games: int, seed: int) -> None:
    reset(url)
    started = time.perf_counter()
    upgrade(url)
    engine = make_engine(url)
    try:
        with make_sessionmaker(engine).begin() as session:
            federation = build(session, players=players, games=games, seed=seed)
        built = time.perf_counter()
        print(f"built {players:,} players and {games:,} games in {built - started:.1f} s")
        with make_sessionmaker(engine).begin() as session:
            outcome = close_period(
                session, CATEGORY, federation.period, now=datetime.now(UTC), closed_by="benchmark"
            )
        print(
            f"closed {federation.period}: {outcome.entries:,} entries in "
            f"{time.perf_counter() - built:.1f} s"
        )
        if engine.dialect.name == "postgresql":
            with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
                connection.exec_driver_sql("VACUUM ANALYZE")
    finally:
        engine.dispose()


@dataclass(frozen=True, slots=True)
class Targets:
    entries: int
    players: list[str]  # on the list
    players_with_games: list[str]  # with a calculation on the list
    #: The players with the most rows in list_entries (the longest histories of their own),
    #: for ``player-page-hot``; read only when asked for (:func:`with_long_histories`).
    long_histories: tuple[str, ...] = ()
    #: Players of the list, each asked for once by ``history-cold``.
    cold_players: tuple[str, ...] = ()


def targets(url: str, seed: int) -> Targets:
    """What the clients ask for: random players of the closed list."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            list_id = connection.execute(
                select(RatingListRow.id, RatingListRow.entry_count)
                .where(
                    RatingListRow.category == CATEGORY.value,
                    RatingListRow.list_date == PERIOD.list_date,
                )
                .order_by(RatingListRow.revision.desc())
                .limit(1)
            ).one()
            players = list(
                connection.scalars(
                    select(ListEntryRow.player_id).where(ListEntryRow.list_id == list_id[0])
                )
            )
            with_games = list(
                connection.scalars(
                    select(PlayerCalculationsRow.player_id)
                    .where(PlayerCalculationsRow.list_id == list_id[0])
                    .distinct()
                    .limit(50 * SAMPLE_PLAYERS)
                )
            )
    finally:
        engine.dispose()
    rng = random.Random(seed)
    on_list = set(players)
    with_games = [p for p in with_games if p in on_list]
    return Targets(
        entries=list_id[1],
        players=rng.sample(players, min(SAMPLE_PLAYERS, len(players))),
        players_with_games=rng.sample(with_games, min(SAMPLE_PLAYERS, len(with_games))),
        cold_players=tuple(rng.sample(players, min(COLD_PLAYERS, len(players)))),
    )


def with_long_histories(url: str, found: Targets) -> Targets:
    """``found`` with the LONG_HISTORIES players who have the most rows in list_entries (a
    scan of its key: seconds at millions of rows, so only for ``player-page-hot``)."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            longest = connection.scalars(
                select(ListEntryRow.player_id)
                .group_by(ListEntryRow.player_id)
                .order_by(func.count().desc(), ListEntryRow.player_id)
                .limit(LONG_HISTORIES)
            ).all()
    finally:
        engine.dispose()
    return dataclasses.replace(found, long_histories=tuple(longest))


# --- the server --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(
    url: str,
    port: int,
    workers: int,
    threads: int | None,
    access_log: bool,
    log: Path,
    page_cache_mb: int | None = None,
    http: str = "limited",
) -> subprocess.Popen[bytes]:
    """``ratingdb serve`` (``http`` "limited": its own protocol), or its app under plain
    uvicorn (``http`` one of plain_serve.PROTOCOLS; one worker)."""
    env = {k: v for k, v in os.environ.items() if k != READ_DATABASE_URL_VARIABLE}
    command = [sys.executable, "-m", "ratingdb", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--database-url", url, "--workers", str(workers)]  # fmt: skip
    if http != "limited":
        if workers != 1:
            raise SystemExit("--http other than limited runs one worker")
        command = [sys.executable, "-m", "benchmarks.plain_serve", "--http", http,
                   "--port", str(port), "--database-url", url]  # fmt: skip
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    if threads is not None:
        command += ["--threads", str(threads)]
    if page_cache_mb is not None:
        command += ["--page-cache-mb", str(page_cache_mb)]
    if not access_log:
        command.append("--no-access-log")
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise SystemExit(f"ratingdb serve stopped:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
                if answer.status == 200:
                    return process
        except (urllib.error.URLError, ConnectionError):
            pass
        if time.monotonic() > deadline:
            stop_server(process)
            raise SystemExit(f"ratingdb serve did not answer /health:\n{log.read_text()}")
        time.sleep(0.1)


def stop_server(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# --- the clients -------------------------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection: a request, then its whole answer, then the next.
    Small on purpose, so that the clients take as little of the machine as they can."""

    def __init__(self, port: int, gzip: bool = False) -> None:
        self.port = port
        #: Whether the requests say ``Accept-Encoding: gzip``, as browsers' do (the body is
        #: then read as sent, not decompressed).
        self.head = "Host: bench\r\n" + ("Accept-Encoding: gzip\r\n" if gzip else "")
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> tuple[int, int]:
        """(status, body length)."""
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(f"GET {path} HTTP/1.1\r\n{self.head}\r\n".encode())
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
            size = len(body)
        else:  # chunked
            size = 0
            while True:
                chunk_size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                await self.reader.readexactly(chunk_size + 2)
                size += chunk_size
                if chunk_size == 0:
                    break
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, size

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError):
                await self.writer.wait_closed()
        self.reader = self.writer = None


def paths(endpoint: str, found: Targets, rng: random.Random) -> list[str]:
    """Enough request paths for a measurement, drawn in advance."""
    count = 20_000
    base = f"/v1/lists/{CATEGORY.value}/{PERIOD}"
    if endpoint == "health":
        return ["/health"]
    if endpoint == "list":
        pages = max(1, min(LIST_DEPTH, found.entries) // PAGE)
        return [f"{base}?limit={PAGE}&offset={rng.randrange(pages) * PAGE}" for _ in range(count)]
    if endpoint == "history":
        return [
            f"/v1/players/{rng.choice(found.players)}/history?category={CATEGORY.value}"
            for _ in range(count)
        ]
    if endpoint == "history-cold":
        return [
            f"/v1/players/{player}/history?category={CATEGORY.value}"
            for player in found.cold_players
        ]
    if endpoint == "list-page":
        pages = max(1, min(LIST_DEPTH, found.entries) // PAGE)
        return [
            f"/lists/{CATEGORY.value}/{PERIOD}?page={rng.randrange(pages) + 1}"
            for _ in range(count)
        ]
    if endpoint == "player-page":
        return [f"/players/{rng.choice(found.players)}" for _ in range(count)]
    if endpoint == "player-page-hot":
        if not found.long_histories:
            raise ValueError("no long histories read: targets() then with_long_histories()")
        return [f"/players/{rng.choice(found.long_histories)}" for _ in range(count)]
    return [
        f"/v1/players/{rng.choice(found.players_with_games)}/calculations/{CATEGORY.value}/{PERIOD}"
        for _ in range(count)
    ]


@dataclass(frozen=True, slots=True)
class Figures:
    requests: int
    errors: int
    seconds: float
    latencies_ms: list[float]
    #: Every answer, the warm-up's included, and the server's CPU seconds over them all (None:
    #: not read), for the server's CPU per request.
    answered: int = 0
    server_cpu_s: float | None = None

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def percentile(self, share: float) -> float:
        ordered = sorted(self.latencies_ms)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    def as_json(self, health_rps: float | None) -> dict[str, Any]:
        document = {
            "rps": round(self.rps, 1),
            "p50_ms": round(self.percentile(0.50), 2),
            "p95_ms": round(self.percentile(0.95), 2),
            "p99_ms": round(self.percentile(0.99), 2),
            "requests": self.requests,
            "errors": self.errors,
        }
        if health_rps:
            document["ratio"] = round(self.rps / health_rps, 3)
        if self.server_cpu_s is not None and self.answered:
            document["server_cpu_ms"] = round(self.server_cpu_s * 1000 / self.answered, 3)
        return document


async def _each_once(port: int, paths: Sequence[str], gzip: bool) -> None:
    connection = Connection(port, gzip)
    try:
        for path in paths:
            status, _ = await connection.get(path)
            if status != 200:
                raise SystemExit(f"{path}: HTTP {status} while rendering it before the clock")
    finally:
        await connection.close()


def render_each(port: int, paths: Sequence[str], gzip: bool = False) -> None:
    """Ask for each of ``paths`` once, one after the other: the pages a measurement reads again
    and again are rendered (and kept) before its clock starts, however slow the host, instead
    of within a warm-up of fixed seconds."""
    asyncio.run(_each_once(port, list(dict.fromkeys(paths)), gzip))


async def measure(
    port: int,
    requests: Sequence[str],
    clients: int,
    duration: float,
    warmup: float,
    gzip: bool = False,
) -> Figures:
    """``clients`` connections, each sending its next request when the last answer is in, for
    ``warmup`` seconds (not counted) and then ``duration`` seconds. A request sent in the
    measured window counts when its answer comes, even after the window; a client whose
    answers are all slower than the window goes on until one of its requests counts, so that a
    loaded machine gives slow figures, never none. Requests per second are over the window and
    the time the last counted answer took to arrive. ``gzip``: the requests accept gzip, as a
    browser's do (the web pages are measured so)."""
    latencies: list[float] = []
    errors = 0
    counted = 0
    answered = 0
    start = time.perf_counter()
    measure_from = start + warmup
    stop = measure_from + duration
    last_done = stop
    next_index = 0

    async def client() -> None:
        nonlocal errors, counted, next_index, last_done, answered
        connection = Connection(port, gzip)
        mine = 0
        try:
            while True:
                sent = time.perf_counter()
                if sent >= stop and mine > 0:
                    return
                path = requests[next_index % len(requests)]
                next_index += 1
                try:
                    status, _ = await connection.get(path)
                except (ConnectionError, asyncio.IncompleteReadError):
                    await connection.close()
                    status = 0
                done = time.perf_counter()
                answered += 1
                if sent >= measure_from:
                    mine += 1
                    counted += 1
                    last_done = max(last_done, done)
                    latencies.append((done - sent) * 1000)
                    if status != 200:
                        errors += 1
        finally:
            await connection.close()

    await asyncio.gather(*(client() for _ in range(clients)))
    return Figures(counted, errors, last_done - measure_from, latencies, answered)


def cpu_seconds(pid: int) -> float | None:
    """The user and system CPU seconds process ``pid`` has used (None: not on Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the run -----------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    url = args.database_url
    reused = args.reuse and closed_list(url) is not None
    if reused:
        print(f"reusing the database at {make_url(url).render_as_string(hide_password=True)}")
    else:
        build_database(url, args.players, args.games, args.seed)
    found = targets(url, args.seed)
    if "player-page-hot" in args.endpoints:
        found = with_long_histories(url, found)
    print(f"{found.entries:,} entries on the {CATEGORY.value} list of {PERIOD}")
    port = free_port()
    log = Path(args.server_log)
    server = start_server(
        url, port, args.workers, args.threads, args.access_log, log, args.page_cache_mb, args.http
    )
    rng = random.Random(args.seed)
    results: dict[str, dict[str, dict[str, Any]]] = {name: {} for name in args.endpoints}
    try:
        for clients in args.concurrency:
            health_rps: float | None = None
            for endpoint in args.endpoints:
                asked = paths(endpoint, found, rng)
                if endpoint == "player-page-hot":  # the same pages read again and again
                    render_each(port, asked, True)
                cpu_before = cpu_seconds(server.pid)
                figures = asyncio.run(
                    measure(
                        port,
                        asked,
                        clients,
                        args.duration,
                        args.warmup,
                        endpoint in PAGE_ENDPOINTS,
                    )
                )
                cpu_after = cpu_seconds(server.pid)
                if cpu_before is not None and cpu_after is not None:
                    figures = dataclasses.replace(figures, server_cpu_s=cpu_after - cpu_before)
                if endpoint == "health":
                    health_rps = figures.rps
                results[endpoint][str(clients)] = figures.as_json(
                    None if endpoint == "health" else health_rps
                )
    finally:
        stop_server(server)
    return {"entries": found.entries, "reused": reused, "endpoints": results}


def print_table(results: dict[str, dict[str, dict[str, Any]]]) -> None:
    print(f"{'endpoint':<12}{'clients':>8}{'req/s':>10}{'p50 ms':>9}{'p95 ms':>9}"
          f"{'p99 ms':>9}{'ratio':>8}{'errors':>8}{'cpu ms':>8}")  # fmt: skip
    for endpoint, by_clients in results.items():
        for clients, row in by_clients.items():
            ratio = f"{row['ratio']:.2f}" if "ratio" in row else "1.00"
            latency = f"{row['p50_ms']:>9.1f}{row['p95_ms']:>9.1f}{row['p99_ms']:>9.1f}"
            cpu = f"{row['server_cpu_ms']:>8.2f}" if "server_cpu_ms" in row else f"{'-':>8}"
            print(f"{endpoint:<12}{clients:>8}{row['rps']:>10,.0f}{latency}{ratio:>8}"
                  f"{row['errors']:>8}{cpu}")  # fmt: skip


def verdict(results: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    """The targets at 50 clients of the endpoints measured at 50: p99, and the ratio where
    there is a target for it."""
    out: dict[str, Any] = {}
    for endpoint, ratio_target in TARGETS.items():
        row = results.get(endpoint, {}).get("50")
        if row is None:
            continue
        out[endpoint] = {
            "p99_ms": row["p99_ms"],
            "ratio": row["ratio"],
            "p99_met": row["p99_ms"] < TARGET_P99_MS,
        }
        if ratio_target is not None:
            out[endpoint]["ratio_met"] = row["ratio"] >= ratio_target
    return out


def concurrency(text: str) -> tuple[int, ...]:
    values = tuple(int(part) for part in text.split(","))
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("a comma-separated list of positive integers")
    return values


def endpoints(text: str) -> tuple[str, ...]:
    """Comma-separated names from ALL_ENDPOINTS; ``health`` first whether named or not."""
    names = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [name for name in names if name not in ALL_ENDPOINTS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"a comma-separated list of {', '.join(ALL_ENDPOINTS)}"
            + (f", not {', '.join(unknown)}" if unknown else "")
        )
    return ("health", *dict.fromkeys(name for name in names if name != "health"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500_000)
    parser.add_argument("--games", type=int, default=300_000)
    parser.add_argument("--database-url", default="sqlite:///benchmark-api.sqlite3")
    parser.add_argument("--reuse", action="store_true",
                        help="use the database as it is if it holds the closed list")  # fmt: skip
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds measured per endpoint and concurrency")  # fmt: skip
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="seconds of load before each measurement, not counted")  # fmt: skip
    parser.add_argument("--concurrency", type=concurrency, default=CONCURRENCY,
                        help="concurrent clients, e.g. 1,10,50 (the default)")  # fmt: skip
    parser.add_argument("--endpoints", type=endpoints, default=ENDPOINTS,
                        help="what to measure, comma-separated, from "
                        f"{', '.join(ALL_ENDPOINTS)} (default: {','.join(ENDPOINTS)}; health "
                        "is always measured first)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=1,
                        help="uvicorn worker processes of ratingdb serve")  # fmt: skip
    parser.add_argument("--threads", type=int,
                        help="ratingdb serve --threads (default: its default)")  # fmt: skip
    parser.add_argument("--page-cache-mb", type=int,
                        help="ratingdb serve --page-cache-mb (default: its default; 0: no "
                        "cache of rendered list pages)")  # fmt: skip
    parser.add_argument("--http", choices=("limited", *PLAIN_PROTOCOLS), default="limited",
                        help="limited: ratingdb serve as shipped; h11 or httptools: its app "
                        "under plain uvicorn (benchmarks/plain_serve.py)")  # fmt: skip
    parser.add_argument("--no-access-log", dest="access_log", action="store_false",
                        help="run the server without its per-request log")  # fmt: skip
    parser.add_argument("--server-log", default=os.devnull,
                        help="where the server's output goes (default: nowhere)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()

    figures = run(args)
    results = figures["endpoints"]
    backend = make_url(args.database_url).get_backend_name()
    print(f"{backend}, {figures['entries']:,} list entries, {args.workers} worker(s), "
          f"protocol {args.http}, "
          f"threads {args.threads or 'default'}, "
          f"page cache {'default' if args.page_cache_mb is None else args.page_cache_mb} MB, "
          f"{args.duration:g} s per measurement")  # fmt: skip
    print_table(results)
    targets_met = verdict(results)
    for endpoint, row in targets_met.items():
        ratio = f"ratio {row['ratio']:.2f}"
        if "ratio_met" in row:
            ratio += f" (>= {TARGETS[endpoint]:g}: {'met' if row['ratio_met'] else 'missed'})"
        p99 = f"p99 {row['p99_ms']:.1f} ms (< {TARGET_P99_MS:g}: "
        p99 += f"{'met' if row['p99_met'] else 'missed'})"
        print(f"  target at 50 clients, {endpoint}: {p99}, {ratio}")
    print(
        json.dumps(
            {
                "players": args.players,
                "games": args.games,
                "backend": backend,
                "entries": figures["entries"],
                "reused": figures["reused"],
                "workers": args.workers,
                "http": args.http,
                "threads": args.threads,
                "access_log": args.access_log,
                "page_cache_mb": args.page_cache_mb,
                "duration_s": args.duration,
                "concurrency": list(args.concurrency),
                "endpoints_measured": list(args.endpoints),
                "endpoints": results,
                "targets": targets_met,
            }
        )
    )


if __name__ == "__main__":
    main()
