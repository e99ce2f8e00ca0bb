"""Make the bundled sample data: the fictional federation of Ruritania (code RUR).

    python -m ratingdb.sample_data.generate [--anchor 2026-11] [--out DIR]

Deterministic (a fixed seed): running it again gives the same bytes. ``--anchor`` is the last
month with tournaments; the data covers the six months ending there and starts from the lists
dated the 1st of the first of them. The shipped data is made with the anchor 2026-11, so that
``ratingdb demo`` run on 2026-11-30 closes every period up to the December 2026 list (its
closing date, 2026-11-28, has passed); run later, the demo also closes the empty periods since,
which carry the lists forward unchanged.

What it makes (``manifest.json`` lists it in import order):
- 200 players: 150 with a (made-up) FIDE id, 10 of them not yet rated in standard, and 50
  known only by their national id (they play the rapid events, which report national ids and
  ratings in TRF26 National Rating Support records, and get first ratings there);
- the starting lists: FIDE standard as FIDE's TXT download, FIDE rapid and blitz in one
  combined XML download, the national rapid list (``ffe-rapid``) as a list CSV;
- each month: a standard open (TRF16, or TRF26 every other month), a rapid open rated on the
  FIDE and the national rapid lists (TRF26 with NRS records), a blitz round robin and a club
  round robin (games CSV), with the odd forfeit, bye and withdrawal.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ratingdb.rules import Period
from ratingdb.sample_data.events import (
    TOWNS,
    Month,
    blitz_round_robin,
    club_round_robin,
    rapid_open,
    standard_open,
)
from ratingdb.sample_data.people import FEDERATION, FIDE_PLAYERS, make_people
from ratingdb.sample_data.starting_lists import write_lists

SEED = 20261130
ANCHOR = Period(2026, 11)
MONTHS = 6
HERE = Path(__file__).resolve().parent


def generate(out: Path, anchor: Period = ANCHOR) -> dict[str, Any]:
    """Write the sample data into ``out``; its manifest. Every random draw comes from one
    generator seeded with SEED (the lists' games from SEED + 1), in a fixed order."""
    rng = random.Random(SEED)
    first = anchor.plus_months(1 - MONTHS)
    baseline = first
    people = make_people(rng, baseline)
    fide_people = people[:FIDE_PLAYERS]
    national_only = people[FIDE_PLAYERS:]
    (out / "lists").mkdir(parents=True, exist_ok=True)
    (out / "tournaments").mkdir(parents=True, exist_ok=True)
    lists = write_lists(out, fide_people, baseline, random.Random(SEED + 1))
    tournaments: list[dict[str, object]] = []
    for offset in range(MONTHS):
        town = TOWNS[offset % len(TOWNS)]
        month = Month(rng, out, first.plus_months(offset), town, fide_people, national_only)
        tournaments += [
            rapid_open(month),
            standard_open(month, trf26=offset % 2 == 1),
            blitz_round_robin(month),
            club_round_robin(month),
        ]
    manifest: dict[str, Any] = {
        "generated_by": "python -m ratingdb.sample_data.generate",
        "seed": SEED,
        "anchor": str(anchor),
        "federation": FEDERATION,
        "showcase_player": fide_people[0].fide_id,
        "lists": lists,
        "tournaments": tournaments,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchor", default=str(ANCHOR), help="last month with tournaments")
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write (default: here)")
    args = parser.parse_args(argv)
    manifest = generate(args.out, Period.parse(args.anchor))
    print(f"{args.out}: {len(manifest['lists'])} lists, {len(manifest['tournaments'])} tournaments")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
