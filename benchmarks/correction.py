"""A game corrected K periods back: what its impact preview and its cascade of K revisions cost.

    python benchmarks/correction.py --players 50000 --back 6 \
        --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench    # a scratch database

The database is built first, in a separate process so that its memory is not counted: the
history of benchmarks/history.py with K monthly lists closed through the real service after
the baseline (the last one 2026-12, about 30 % of the players playing each month). Then one
rated game of the oldest of those K periods has its result reversed (1-0 becomes 0-1) with
``services.corrections.correct_game``, as ``ratingdb games correct`` does:

- the dry run as ``--dry-run`` now runs it (``dry_run=True``: the impact computed by
  services.impact from the players the correction reaches, nothing of the cascade written,
  the transaction rolled back), in its own process: seconds, CPU seconds and peak memory;
- the cascade as it was before issue 30 (every period recomputed and written whole, as for
  lists of other rules: ``services.impact.needs_cascade`` made to say so), in a transaction
  rolled back, in another process: the same figures (``--skip-whole`` leaves it out);
- the correction itself, committed, in another process: its revisions written from the
  impact, each storing only what changed (services.close.revision): seconds, peak memory,
  revisions published (K: the player's new rating is carried into every later list), players
  changed, and the rows and bytes the database grew by.

The impact's revisions (lists, revisions, every player changed with both ratings) are checked
equal to the whole cascade's and the committed one's: a difference stops the script.

Peak memory is the process's peak resident set (resource.getrusage), as in the other scripts;
the memory of the interpreter with ratingdb imported, before the work, is printed beside it.
The last line is one JSON object. The database named by --database-url is emptied first
(unless --reuse finds it built at this size): point it at a scratch database.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: python benchmarks/correction.py
    sys.path.insert(0, str(ROOT))

from benchmarks import history  # noqa: E402
from ratingdb.db import make_engine, make_sessionmaker  # noqa: E402

DEFAULT_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/rdb_years_correction"
FLIPPED = {"1-0": "0-1", "0-1": "1-0"}
#: The time every run records (the same in each phase: their reports are compared).
NOW = datetime(2027, 1, 15, tzinfo=UTC)


def the_game(url: str, back: int) -> dict[str, Any]:
    """The first decisive current game of the oldest of the ``back`` last periods."""
    period = history.LAST.plus_months(-(back - 1))
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            row = connection.execute(
                text(
                    "SELECT g.tournament_id, g.round, g.white_id, g.black_id, g.result "
                    "FROM games g JOIN tournaments t USING (tournament_id) "
                    "JOIN periods p ON p.id = t.period_id "
                    "WHERE p.category = :c AND p.list_date = :d AND g.rated "
                    "AND g.superseded_by IS NULL AND g.result IN ('1-0', '0-1') "
                    "ORDER BY g.id LIMIT 1"
                ),
                {"c": history.CATEGORY.value, "d": period.list_date},
            ).one()
    finally:
        engine.dispose()
    return {
        "period": str(period),
        "tournament_id": row[0],
        "round": row[1],
        "white_id": row[2],
        "black_id": row[3],
        "result": row[4],
        "corrected": FLIPPED[row[4]],
    }


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_phase(url: str, back: int, phase: str) -> dict[str, Any]:
    """One correction in this process (a child of main): seconds and peak memory. ``phase``:
    ``impact`` (dry_run=True, rolled back), ``whole`` (every period recomputed and written
    whole, rolled back), ``cascade`` (committed: written from the impact)."""
    from unittest.mock import patch

    from ratingdb.services import impact
    from ratingdb.services.corrections import correct_game

    game = the_game(url, back)
    start_mb = history.peak_mb()
    engine = make_engine(url)
    grown_before = _stored(engine)
    whole = patch.object(impact, "needs_cascade", return_value=True)
    try:
        started, started_cpu = time.perf_counter(), cpu_s()
        with (
            make_sessionmaker(engine).begin() as session,
            whole if phase == "whole" else contextlib.nullcontext(),
        ):
            outcome = correct_game(
                session,
                tournament_id=game["tournament_id"],
                round_number=game["round"],
                white_id=game["white_id"],
                black_id=game["black_id"],
                result=game["corrected"],
                reason="benchmark: result reversed",
                actor="benchmark",
                now=NOW,
                dry_run=phase == "impact",
            )
            if phase != "cascade":
                session.rollback()
        seconds, cpu = time.perf_counter() - started, cpu_s() - started_cpu
        grown = {k: v - grown_before[k] for k, v in _stored(engine).items()}
    finally:
        engine.dispose()
    return {
        "grown": grown,
        "seconds": round(seconds, 2),
        "cpu_s": round(cpu, 2),
        "peak_rss_mb": round(history.peak_mb()),
        "start_rss_mb": round(start_mb),
        "revisions": len(outcome.revisions),
        "players_changed": [len(r.changed) for r in outcome.revisions],
        "changes": [r.as_json() for r in outcome.revisions],
        "game": game,
    }


def _stored(engine: Any) -> dict[str, int]:
    """Rows of the tables a revision writes, and the database's size in bytes (PostgreSQL)."""
    tables = (
        "list_entries",
        "list_chunks",
        "player_calculations",
        "player_status",
        "revised_players",
    )
    with engine.connect() as connection:
        found = {
            table: int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
            for table in tables
        }
        if engine.dialect.name == "postgresql":
            size = "SELECT pg_database_size(current_database())"
            found["bytes"] = int(connection.execute(text(size)).scalar_one())
    return found


def child(phase: str, url: str, back: int) -> dict[str, Any]:
    command = [
        sys.executable,
        __file__,
        "--phase",
        phase,
        "--back",
        str(back),
        "--database-url",
        url,
    ]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{phase} failed:\n{done.stdout}\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _run_line(name: str, run: dict[str, Any], load: float) -> str:
    """A child run's figures on one line: time, CPU, peak memory, revisions, load before."""
    return (
        f"  {name} {run['seconds']:8.2f} s  CPU {run['cpu_s']:.2f} s  peak memory "
        f"{run['peak_rss_mb']:,} MB (at start {run['start_rss_mb']} MB), {run['revisions']} "
        f"revisions (load {load:.1f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50_000)
    parser.add_argument(
        "--back",
        type=int,
        required=True,
        help="periods from the corrected one to the latest, both included",
    )
    parser.add_argument("--database-url", default=DEFAULT_URL)
    parser.add_argument("--share", type=float, default=0.30)
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="keep the database if it holds this many players and lists",
    )
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument(
        "--phase", choices=("build", "impact", "whole", "cascade"), help=argparse.SUPPRESS
    )
    parser.add_argument(
        "--skip-whole",
        action="store_true",
        help="leave out the whole cascade (every period recomputed and written whole)",
    )
    parser.add_argument(
        "--no-commit",
        action="store_true",
        help="leave out the committed correction (the database stays as built: --reuse again)",
    )
    args = parser.parse_args()
    url = args.database_url
    if args.back < 1:
        raise SystemExit("--back must be at least 1")
    if args.phase == "build":
        built = history.build_history(
            url, players=args.players, months=args.back, share=args.share, seed=args.seed
        )
        print(
            json.dumps(
                {
                    "seconds": round(built.seconds, 1),
                    "games": built.games,
                    "close_s": [round(s, 2) for s in built.close_seconds],
                }
            )
        )
        return
    if args.phase is not None:
        print(json.dumps(run_phase(url, args.back, args.phase)))
        return

    load_at_start = os.getloadavg()
    built: dict[str, Any] | None = None
    if args.reuse and history.built_size(url) == (args.back + 1, args.players):
        print(f"reusing the database: {args.back + 1} lists of {args.players:,} players")
    else:
        print(f"building {args.back} months of {args.players:,} players")
        command = [
            sys.executable,
            __file__,
            "--phase",
            "build",
            "--players",
            str(args.players),
            "--back",
            str(args.back),
            "--database-url",
            url,
            "--share",
            str(args.share),
            "--seed",
            str(args.seed),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(f"the build failed:\n{done.stdout}\n{done.stderr}")
        built = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"built in {built['seconds']:.1f} s ({built['games']:,} games)")
    load_before_impact = os.getloadavg()
    impact = child("impact", url, args.back)
    game = impact["game"]
    print(
        f"game: {game['tournament_id']} round {game['round']} {game['white_id']} - "
        f"{game['black_id']} {game['result']} -> {game['corrected']} ({game['period']})"
    )
    print(
        f"  dry run (impact)  {impact['seconds']:8.2f} s  CPU {impact['cpu_s']:.2f} s  "
        f"peak memory {impact['peak_rss_mb']:,} MB (at start {impact['start_rss_mb']} MB), "
        f"{impact['revisions']} revisions (load {load_before_impact[0]:.1f})"
    )
    dry: dict[str, Any] | None = None
    if not args.skip_whole:
        load_before_dry = os.getloadavg()
        dry = child("whole", url, args.back)
        print(_run_line("whole cascade    ", dry, load_before_dry[0]) + ", rolled back")
        if impact["changes"] != dry["changes"]:
            raise SystemExit(
                "the impact differs from the cascade's revisions:\n"
                f"impact:  {json.dumps(impact['changes'])}\n"
                f"cascade: {json.dumps(dry['changes'])}"
            )
    cascade = impact
    if not args.no_commit:
        load_before = os.getloadavg()
        cascade = child("cascade", url, args.back)
        print(
            _run_line("cascade  ", cascade, load_before[0])
            + f"; players changed per revision {cascade['players_changed']}; the database "
            f"grew by {cascade['grown']}"
        )
        if cascade["changes"] != impact["changes"]:
            raise SystemExit("the committed cascade differs from the impact")
        if dry is not None:
            print(f"  {dry['seconds'] / max(cascade['seconds'], 0.01):.1f}x faster than whole")
    per = cascade["seconds"] / max(1, cascade["revisions"])
    print(f"  per revision {per:.2f} s")
    print(
        json.dumps(
            {
                "players": args.players,
                "back": args.back,
                "share": args.share,
                "build": built,
                "game": game,
                "impact_s": impact["seconds"],
                "impact_cpu_s": impact["cpu_s"],
                "impact_peak_rss_mb": impact["peak_rss_mb"],
                "whole_cascade_s": None if dry is None else dry["seconds"],
                "whole_cascade_cpu_s": None if dry is None else dry["cpu_s"],
                "whole_cascade_peak_rss_mb": None if dry is None else dry["peak_rss_mb"],
                "grown": None if args.no_commit else cascade["grown"],
                "cascade_s": None if args.no_commit else cascade["seconds"],
                "cascade_peak_rss_mb": None if args.no_commit else cascade["peak_rss_mb"],
                "start_rss_mb": cascade["start_rss_mb"],
                "revisions": cascade["revisions"],
                "per_revision_s": round(per, 2),
                "players_changed": cascade["players_changed"],
                "load_average": {
                    "start": [round(x, 2) for x in load_at_start],
                    "end": [round(x, 2) for x in os.getloadavg()],
                },
            }
        )
    )


if __name__ == "__main__":
    main()
