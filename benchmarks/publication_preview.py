"""What the back office's publication costs against a plain close: a dry-run close, a preview
(the dry run, the names and K of everyone who changes, the tournaments, and the preview kept),
the same preview again (the list already kept), and an approval (the close itself, which
checks the digest before writing), on a synthetic federation.

    python benchmarks/publication_preview.py --players 100000 --games 50000 \
        --database-url sqlite:///benchmark.sqlite3

The database named by --database-url is emptied first (as close_period.py does): point it at a
scratch database. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:  # run as a script: python benchmarks/publication_preview.py
    sys.path.insert(0, str(HERE.parent))

from benchmarks.close_period import PERIOD, peak_mb, reset  # noqa: E402
from ratingdb.db import make_engine, make_sessionmaker  # noqa: E402
from ratingdb.rules import Category  # noqa: E402
from ratingdb.services import publication  # noqa: E402
from ratingdb.services.close import close_period  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--database-url", default="sqlite:///benchmark.sqlite3")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    url = args.database_url
    reset(url)
    subprocess.run(
        [sys.executable, str(HERE / "generate.py"), "--players", str(args.players), "--games",
         str(args.games), "--database-url", url, "--seed", str(args.seed)],
        check=True,
    )  # fmt: skip
    engine = make_engine(url)
    sessions = make_sessionmaker(engine)
    now = datetime.now(UTC)
    figures: dict[str, float | int] = {}
    try:
        started = time.perf_counter()
        with sessions.begin() as session:
            close_period(session, Category.FIDE_STANDARD, PERIOD, now=now, closed_by="benchmark",
                         dry_run=True)  # fmt: skip
            session.rollback()
        figures["dry_run_s"] = time.perf_counter() - started
        for name in ("preview_s", "preview_again_s"):
            started = time.perf_counter()
            with sessions.begin() as session:
                shown = publication.preview(session, Category.FIDE_STANDARD, PERIOD, now=now,
                                            viewer="benchmark", approval=())  # fmt: skip
            figures[name] = time.perf_counter() - started
        started = time.perf_counter()
        with sessions.begin() as session:
            done = publication.approve(session, Category.FIDE_STANDARD, PERIOD, shown.digest,
                                       now=now, user="benchmark", approval=())  # fmt: skip
        figures["approve_s"] = time.perf_counter() - started
        with engine.connect() as connection:
            figures["preview_kept_bytes"] = connection.execute(
                text(
                    "SELECT sum(length(CAST(inputs AS TEXT)) + length(CAST(entries AS TEXT))) "
                    "FROM publication_previews"
                )
            ).scalar_one()
    finally:
        engine.dispose()
    figures |= {"entries": done.entries, "changes": len(shown.changes),
                "tournaments": len(shown.tournaments), "peak_mb": peak_mb()}  # fmt: skip
    for name, value in figures.items():
        shown_value = f"{value:.2f}" if isinstance(value, float) else str(value)
        print(f"{name:>20}: {shown_value}")
    print(json.dumps({"players": args.players, "games": args.games} | figures))


if __name__ == "__main__":
    main()
