"""How else a list's entries could be stored: bytes per list-month and read times of alternative
designs, prototyped in plain SQL beside today's ``list_entries`` on a database that
benchmarks/history.py built.

    python benchmarks/history.py --players 200000 --months 120 --build copy --database-url URL
    python benchmarks/storage_designs.py --database-url URL

Nothing of the application's schema changes: the designs are built in a schema of their own
(``designs``, dropped first, kept afterwards with --keep) from the entries as they are, and every
read is checked against today's answer before it is timed.

- ``today``: a full copy of every entry on every list, as ``list_entries`` held them before
  entries were stored as changes (issue 16, stage (b)), rebuilt here from each list's chunks
  (``designs.full_entries``): its heap, primary key (list_id, player_id), a player_id index and
  the list-order index (list_id, rating DESC, player_id).
- ``lean``: the same full copies, narrower: ratings, games and K as smallint, ``change`` left
  out (rating - previous_rating), the primary key (player_id, list_id) serving the history so
  that the player_id index goes, and the page index (list_id, rating DESC, player_id).
- ``changes+ranking``: ``entry_changes`` holds an entry only where it is not the previous list's
  entry carried forward (the player played, or their K, rated games or peak moved, or they are
  new on the list; a row with no rating where they left it), keyed (player_id, list_id); the
  entry of a player on a list is their latest change at or before it, shown as carried
  (previous rating = rating, change 0, no games, no K used) when it is older than the list.
  The order of each list is kept in ``list_ranking`` (list_id, rating, player_id): narrow,
  still one row per entry.
- ``changes+pages``: the same ``entry_changes``; the order of each list kept in
  ``list_pages``, one row per --chunk entries of the list in order (player ids and ratings as
  arrays, compressed by PostgreSQL's TOAST), so a list costs a few bytes per entry.

Measured for each design, one client, --samples random reads each (p50 and p99, ms, and the
8 kB buffers a read touches, from EXPLAIN ANALYZE BUFFERS of 20 of them: a cost the load of a
shared machine does not change): a page of
100 entries in the first 10,000 (as benchmarks/api_load.py asks) and one anywhere in the list,
a player's history on every list (with the list dates), a rank (entries rated above a
rating), the first page of one federation, and the whole list as a close loads it (every
player's rating, rated games and peak on the latest list: with the changes, by a scan of every
change up to the list for ``changes+ranking``, by one index probe per player of the list's
pages for ``changes+pages``). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import psycopg
from sqlalchemy.engine import make_url

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

CATEGORY = "fide-standard"
PAGE = 100
LIST_DEPTH = 10_000
DESIGNS = ("today", "lean", "changes+ranking", "changes+pages")

#: The figures of an entry as every design gives them back, in this order.
FIGURES = (
    "rating, previous_rating, change, games, k_factor, k_used, sum_delta, rated_games, peak_rating"
)

SCHEMA = """
DROP SCHEMA IF EXISTS designs CASCADE;
CREATE SCHEMA designs;
CREATE TABLE designs.full_entries (
    list_id integer NOT NULL,
    player_id varchar(20) NOT NULL,
    rating integer NOT NULL,
    previous_rating integer,
    change integer,
    games integer NOT NULL,
    k_factor integer NOT NULL,
    k_used integer,
    sum_delta numeric(10, 4),
    rated_games integer NOT NULL,
    peak_rating integer NOT NULL
);
"""
#: today's full copies as main stores them: its key and two indexes.
FULL_KEYS = """
ALTER TABLE designs.full_entries ADD CONSTRAINT full_entries_pkey PRIMARY KEY (list_id, player_id);
CREATE INDEX full_entries_player_id ON designs.full_entries (player_id);
CREATE INDEX full_entries_list_order ON designs.full_entries (list_id, rating DESC, player_id);
"""

BUILD = """

-- The lists of the category in order, each with the list it follows (a close's previous list).
CREATE TABLE designs.chain AS
SELECT id AS list_id, lag(id) OVER (ORDER BY list_date) AS previous_id, list_date
FROM rating_lists WHERE category = %(category)s AND revision = 1;
ALTER TABLE designs.chain ADD PRIMARY KEY (list_id);

-- lean: the same full copies, narrower, two indexes.
CREATE TABLE designs.lean_entries (
    list_id integer NOT NULL,
    rated_games integer NOT NULL,
    rating smallint NOT NULL,
    previous_rating smallint,
    games smallint NOT NULL,
    k_factor smallint NOT NULL,
    k_used smallint,
    peak_rating smallint NOT NULL,
    player_id varchar(20) NOT NULL,
    sum_delta numeric(10, 4)
);
INSERT INTO designs.lean_entries
SELECT list_id, rated_games, rating, previous_rating, games, k_factor, k_used, peak_rating,
       player_id, sum_delta
FROM designs.full_entries ORDER BY list_id, player_id;
ALTER TABLE designs.lean_entries ADD PRIMARY KEY (player_id, list_id);
CREATE INDEX ON designs.lean_entries (list_id, rating DESC, player_id);

-- changes: an entry only where it is not the previous list's carried forward; a row without
-- a rating where the player left the list.
CREATE TABLE designs.entry_changes (
    list_id integer NOT NULL,
    rated_games integer,
    rating smallint,
    previous_rating smallint,
    games smallint,
    k_factor smallint,
    k_used smallint,
    peak_rating smallint,
    player_id varchar(20) NOT NULL,
    sum_delta numeric(10, 4)
);
INSERT INTO designs.entry_changes
SELECT e.list_id, e.rated_games, e.rating, e.previous_rating, e.games, e.k_factor, e.k_used,
       e.peak_rating, e.player_id, e.sum_delta
FROM designs.full_entries e
JOIN designs.chain c ON c.list_id = e.list_id
LEFT JOIN designs.full_entries p ON p.list_id = c.previous_id AND p.player_id = e.player_id
WHERE p.player_id IS NULL
   OR NOT (e.games = 0 AND e.rating = p.rating AND e.previous_rating = p.rating
           AND e.change = 0 AND e.k_used IS NULL AND e.sum_delta IS NULL
           AND e.k_factor = p.k_factor AND e.rated_games = p.rated_games
           AND e.peak_rating = p.peak_rating)
UNION ALL
SELECT c.list_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, p.player_id, NULL
FROM designs.chain c
JOIN designs.full_entries p ON p.list_id = c.previous_id
LEFT JOIN designs.full_entries e ON e.list_id = c.list_id AND e.player_id = p.player_id
WHERE e.player_id IS NULL
ORDER BY 9, 1;
ALTER TABLE designs.entry_changes ADD PRIMARY KEY (player_id, list_id);

-- ranking: the order of each list, one narrow row per entry.
CREATE TABLE designs.list_ranking AS
SELECT list_id, rating::smallint AS rating, player_id FROM designs.full_entries
ORDER BY list_id, rating DESC, player_id;
ALTER TABLE designs.list_ranking ALTER list_id SET NOT NULL, ALTER rating SET NOT NULL,
    ALTER player_id SET NOT NULL;
ALTER TABLE designs.list_ranking ADD PRIMARY KEY (list_id, rating, player_id);

-- pages: the order of each list in rows of %(chunk)s entries.
CREATE TABLE designs.list_pages AS
SELECT list_id, (n - 1) / %(chunk)s AS chunk, max(rating)::smallint AS top_rating,
       min(rating)::smallint AS bottom_rating,
       array_agg(player_id ORDER BY n) AS player_ids,
       array_agg(rating::smallint ORDER BY n) AS ratings
FROM (SELECT list_id, player_id, rating,
             row_number() OVER (PARTITION BY list_id ORDER BY rating DESC, player_id) AS n
      FROM designs.full_entries) ordered
GROUP BY list_id, (n - 1) / %(chunk)s
ORDER BY list_id, chunk;
ALTER TABLE designs.list_pages ADD PRIMARY KEY (list_id, chunk);
"""
VACUUM = """VACUUM ANALYZE designs.full_entries, designs.lean_entries, designs.entry_changes,
    designs.list_ranking, designs.list_pages, designs.chain"""

# --- the reads, per design ----------------------------------------------------------------------


def carried(column: str, when_carried: str) -> str:
    """A figure of the change row ``c`` seen on the list %(list)s: its own on the list it was
    written for, else as a close carries it forward."""
    return f"CASE WHEN c.list_id = %(list)s THEN c.{column} ELSE {when_carried} END"


#: The figures of a change row ``c`` seen on the list %(list)s.
SEEN = f"""
c.rating,
{carried("previous_rating", "c.rating")},
CASE WHEN c.list_id = %(list)s THEN c.rating - c.previous_rating ELSE 0 END,
{carried("games", "0")},
c.k_factor,
{carried("k_used", "NULL")},
{carried("sum_delta", "NULL")},
c.rated_games,
c.peak_rating
"""

PLAYER = "pl.player_id, pl.name, pl.federation, pl.sex, pl.birth_year, pl.title"

QUERIES: dict[str, dict[str, str]] = {
    "page": {
        "today": f"""
            SELECT {PLAYER}, {", ".join("e." + f for f in FIGURES.split(", "))}
            FROM (SELECT player_id, rating FROM designs.full_entries WHERE list_id = %(list)s
                  ORDER BY rating DESC, player_id LIMIT %(limit)s::int OFFSET %(offset)s::int) page
            JOIN designs.full_entries e ON e.list_id = %(list)s AND e.player_id = page.player_id
            JOIN players pl ON pl.player_id = page.player_id
            ORDER BY page.rating DESC, page.player_id""",
        "lean": f"""
            SELECT {PLAYER}, e.rating, e.previous_rating, e.rating - e.previous_rating, e.games,
                   e.k_factor, e.k_used, e.sum_delta, e.rated_games, e.peak_rating
            FROM (SELECT player_id, rating FROM designs.lean_entries WHERE list_id = %(list)s
                  ORDER BY rating DESC, player_id LIMIT %(limit)s::int OFFSET %(offset)s::int) page
            JOIN designs.lean_entries e ON e.list_id = %(list)s AND e.player_id = page.player_id
            JOIN players pl ON pl.player_id = page.player_id
            ORDER BY page.rating DESC, page.player_id""",
        "changes+ranking": f"""
            SELECT {PLAYER}, {SEEN}
            FROM (SELECT player_id, rating FROM designs.list_ranking WHERE list_id = %(list)s
                  ORDER BY rating DESC, player_id LIMIT %(limit)s::int OFFSET %(offset)s::int) page
            CROSS JOIN LATERAL (SELECT * FROM designs.entry_changes c
                                WHERE c.player_id = page.player_id AND c.list_id <= %(list)s
                                ORDER BY c.list_id DESC LIMIT 1) c
            JOIN players pl ON pl.player_id = page.player_id
            ORDER BY page.rating DESC, page.player_id""",
        "changes+pages": f"""
            SELECT {PLAYER}, {SEEN}
            FROM (SELECT u.player_id, o.n FROM designs.list_pages p,
                         unnest(p.player_ids) WITH ORDINALITY AS u(player_id, i),
                         LATERAL (SELECT p.chunk * %(chunk)s::int + u.i - 1 AS n) o
                  WHERE p.list_id = %(list)s
                    AND p.chunk BETWEEN %(offset)s::int / %(chunk)s
                                    AND (%(offset)s::int + %(limit)s::int - 1) / %(chunk)s
                    AND o.n >= %(offset)s::int AND o.n < %(offset)s::int + %(limit)s::int) page
            CROSS JOIN LATERAL (SELECT * FROM designs.entry_changes c
                                WHERE c.player_id = page.player_id AND c.list_id <= %(list)s
                                ORDER BY c.list_id DESC LIMIT 1) c
            JOIN players pl ON pl.player_id = page.player_id
            ORDER BY page.n""",
    },
    "history": {
        "today": f"""
            SELECT l.list_date, {", ".join("e." + f for f in FIGURES.split(", "))}
            FROM designs.full_entries e JOIN rating_lists l ON l.id = e.list_id
            WHERE e.player_id = %(player)s AND l.category = %(category)s
            ORDER BY l.list_date""",
        "lean": """
            SELECT l.list_date, e.rating, e.previous_rating, e.rating - e.previous_rating,
                   e.games, e.k_factor, e.k_used, e.sum_delta, e.rated_games, e.peak_rating
            FROM designs.lean_entries e JOIN rating_lists l ON l.id = e.list_id
            WHERE e.player_id = %(player)s AND l.category = %(category)s
            ORDER BY l.list_date""",
        "changes": f"""
            SELECT ch.list_date, {SEEN.replace("%(list)s", "ch.list_id")}
            FROM (SELECT c.*, lead(c.list_id) OVER (ORDER BY c.list_id) AS next_id
                  FROM designs.entry_changes c WHERE c.player_id = %(player)s) c
            JOIN designs.chain ch ON ch.list_id >= c.list_id
                                 AND (c.next_id IS NULL OR ch.list_id < c.next_id)
            WHERE c.rating IS NOT NULL
            ORDER BY ch.list_date""",
    },
    "rank": {
        "today": """SELECT count(*) FROM designs.full_entries
                    WHERE list_id = %(list)s AND rating > %(rating)s""",
        "lean": """SELECT count(*) FROM designs.lean_entries
                   WHERE list_id = %(list)s AND rating > %(rating)s""",
        "changes+ranking": """SELECT count(*) FROM designs.list_ranking
                              WHERE list_id = %(list)s AND rating > %(rating)s""",
        "changes+pages": """
            SELECT (SELECT coalesce(sum(cardinality(ratings)), 0) FROM designs.list_pages
                    WHERE list_id = %(list)s AND bottom_rating > %(rating)s)
                 + (SELECT count(*) FROM designs.list_pages p, unnest(p.ratings) r
                    WHERE p.list_id = %(list)s AND p.bottom_rating <= %(rating)s
                      AND p.top_rating > %(rating)s AND r > %(rating)s)""",
    },
    "federation": {
        "today": f"""
            SELECT {PLAYER}, {", ".join("e." + f for f in FIGURES.split(", "))}
            FROM designs.full_entries e JOIN players pl ON pl.player_id = e.player_id
            WHERE e.list_id = %(list)s AND pl.federation = %(federation)s
            ORDER BY e.rating DESC, e.player_id LIMIT %(limit)s::int""",
        "lean": f"""
            SELECT {PLAYER}, e.rating, e.previous_rating, e.rating - e.previous_rating, e.games,
                   e.k_factor, e.k_used, e.sum_delta, e.rated_games, e.peak_rating
            FROM designs.lean_entries e JOIN players pl ON pl.player_id = e.player_id
            WHERE e.list_id = %(list)s AND pl.federation = %(federation)s
            ORDER BY e.rating DESC, e.player_id LIMIT %(limit)s::int""",
        "changes+ranking": f"""
            SELECT {PLAYER}, {SEEN}
            FROM (SELECT r.player_id, r.rating FROM designs.list_ranking r
                  JOIN players pl ON pl.player_id = r.player_id
                  WHERE r.list_id = %(list)s AND pl.federation = %(federation)s
                  ORDER BY r.rating DESC, r.player_id LIMIT %(limit)s::int) page
            CROSS JOIN LATERAL (SELECT * FROM designs.entry_changes c
                                WHERE c.player_id = page.player_id AND c.list_id <= %(list)s
                                ORDER BY c.list_id DESC LIMIT 1) c
            JOIN players pl ON pl.player_id = page.player_id
            ORDER BY page.rating DESC, page.player_id""",
        "changes+pages": f"""
            SELECT {PLAYER}, {SEEN}
            FROM (SELECT u.player_id, p.chunk, u.i FROM designs.list_pages p,
                         unnest(p.player_ids) WITH ORDINALITY AS u(player_id, i)
                  JOIN players pl ON pl.player_id = u.player_id
                  WHERE p.list_id = %(list)s AND pl.federation = %(federation)s
                  ORDER BY p.chunk, u.i LIMIT %(limit)s::int) page
            CROSS JOIN LATERAL (SELECT * FROM designs.entry_changes c
                                WHERE c.player_id = page.player_id AND c.list_id <= %(list)s
                                ORDER BY c.list_id DESC LIMIT 1) c
            JOIN players pl ON pl.player_id = page.player_id
            ORDER BY page.chunk, page.i""",
    },
    "whole list": {
        "today": """SELECT player_id, rating, rated_games, peak_rating FROM designs.full_entries
                    WHERE list_id = %(list)s""",
        "lean": """SELECT player_id, rating, rated_games, peak_rating FROM designs.lean_entries
                   WHERE list_id = %(list)s""",
        "changes+ranking": """
            SELECT DISTINCT ON (c.player_id) c.player_id, c.rating, c.rated_games, c.peak_rating
            FROM designs.entry_changes c WHERE c.list_id <= %(list)s
            ORDER BY c.player_id, c.list_id DESC""",
    },
}
QUERIES["history"]["changes+ranking"] = QUERIES["history"]["changes"]
QUERIES["history"]["changes+pages"] = QUERIES["history"].pop("changes")
#: The whole list as a close loads it, the other way: the list's players in order, each with
#: their latest change at or before it (one index probe per player instead of a scan of every
#: change up to the list).
QUERIES["whole list"]["changes+pages"] = """
    SELECT u.player_id, c.rating, c.rated_games, c.peak_rating
    FROM designs.list_pages p, unnest(p.player_ids) AS u(player_id)
    CROSS JOIN LATERAL (SELECT c.rating, c.rated_games, c.peak_rating
                        FROM designs.entry_changes c
                        WHERE c.player_id = u.player_id AND c.list_id <= %(list)s
                        ORDER BY c.list_id DESC LIMIT 1) c
    WHERE p.list_id = %(list)s"""


def normalise(rows: Sequence[Any], read: str) -> list[tuple[Any, ...]]:
    """Rows comparable across designs (the whole list: without the players who left it, as a
    set)."""
    out = [
        tuple(None if v is None else (int(v) if isinstance(v, int) else v) for v in row)
        for row in rows
    ]
    if read == "whole list":
        return sorted(row for row in out if row[1] is not None)
    return out


# --- the run ------------------------------------------------------------------------------------


def full_entries(connection: psycopg.Connection[Any]) -> None:
    """designs.full_entries: every entry of every list, unpacked from its chunks (the whole
    list; list_entries holds a computed list's changes only), copied in list by list."""
    from ratingdb.db.chunks import unpack  # the packed format of list_chunks

    list_ids = [row[0] for row in connection.execute("SELECT id FROM rating_lists ORDER BY id")]
    columns = f"list_id, player_id, {FIGURES}"
    for list_id in list_ids:
        packed = connection.execute(
            "SELECT entries FROM list_chunks WHERE list_id = %s ORDER BY chunk", (list_id,)
        ).fetchall()
        with connection.cursor().copy(f"COPY designs.full_entries ({columns}) FROM STDIN") as copy:
            for (value,) in packed:
                for entry in unpack(bytes(value)):
                    # The designs compared store the figures of format 1 (activity aside).
                    copy.write_row((list_id, *entry[:10]))


def sizes(connection: psycopg.Connection[Any]) -> dict[str, dict[str, int]]:
    """Bytes of each table and index the designs use."""
    tables = {
        "today": ["designs.full_entries"],
        "lean": ["designs.lean_entries"],
        "changes+ranking": ["designs.entry_changes", "designs.list_ranking"],
        "changes+pages": ["designs.entry_changes", "designs.list_pages"],
    }
    out: dict[str, dict[str, int]] = {}
    for design, names in tables.items():
        parts: dict[str, int] = {}
        for name in names:
            heap = connection.execute(f"SELECT pg_table_size('{name}')").fetchone()
            parts[f"{name} (heap, TOAST)"] = int(heap[0]) if heap else 0
            for index, size in connection.execute(
                "SELECT indexrelid::regclass::text, pg_relation_size(indexrelid) FROM pg_index "
                f"WHERE indrelid = '{name}'::regclass ORDER BY 1"
            ).fetchall():
                parts[index] = int(size)
        out[design] = parts
    return out


def time_reads(
    connection: psycopg.Connection[Any],
    query: str,
    samples: Sequence[dict[str, Any]],
) -> tuple[list[float], list[list[tuple[Any, ...]]]]:
    latencies, answers = [], []
    for parameters in samples:
        started = time.perf_counter()
        rows = connection.execute(query, parameters, prepare=True).fetchall()
        latencies.append((time.perf_counter() - started) * 1000)
        answers.append(rows)
    return latencies, answers


def pages_touched(
    connection: psycopg.Connection[Any], query: str, samples: Sequence[dict[str, Any]]
) -> float:
    """Mean 8 kB buffers a read touches (shared hits and reads, EXPLAIN ANALYZE BUFFERS): its
    cost in a figure the machine's load does not change."""
    cursor = psycopg.ClientCursor(connection)
    touched = []
    for parameters in samples:
        literal = cursor.mogrify(query, parameters)
        found = connection.execute(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {literal}").fetchone()
        assert found is not None
        plan = found[0][0]["Plan"]
        touched.append(plan.get("Shared Hit Blocks", 0) + plan.get("Shared Read Blocks", 0))
    return statistics.mean(touched)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--chunk", type=int, default=200, help="entries per row of list_pages")
    parser.add_argument(
        "--reuse", action="store_true", help="the designs schema is built already: measure only"
    )
    parser.add_argument("--keep", action="store_true", help="keep the designs schema")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    url = make_url(args.database_url).set(drivername="postgresql")
    dsn = url.render_as_string(hide_password=False)
    load_at_start = os.getloadavg()
    rng = random.Random(args.seed)
    with psycopg.connect(dsn, autocommit=True) as connection:
        if not args.reuse:
            started = time.perf_counter()
            connection.execute(SCHEMA)
            full_entries(connection)
            connection.execute(FULL_KEYS)
            connection.execute(
                BUILD.replace("%(category)s", f"'{CATEGORY}'").replace("%(chunk)s", str(args.chunk))
            )
            connection.execute(VACUUM)
            print(f"designs built in {time.perf_counter() - started:.1f} s", flush=True)
        lists = [
            row[0]
            for row in connection.execute(
                "SELECT list_id FROM designs.chain ORDER BY list_date"
            ).fetchall()
        ]
        entries = int(connection.execute("SELECT count(*) FROM designs.full_entries").fetchone()[0])  # type: ignore[index]
        changes = connection.execute(
            "SELECT count(*), count(rating) FROM designs.entry_changes"
        ).fetchone()
        assert changes is not None
        found = sizes(connection)
        print(
            f"{len(lists)} lists, {entries:,} entries; entry_changes {changes[0]:,} rows "
            f"({changes[1] / entries:.1%} of the entries; {changes[0] - changes[1]:,} "
            "departures)"
        )
        size_rows: dict[str, Any] = {}
        for design, parts in found.items():
            total = sum(parts.values())
            size_rows[design] = {
                "bytes": total,
                "per_list_mb": round(total / len(lists) / 2**20, 3),
                "per_entry_bytes": round(total / entries, 1),
                "parts_per_entry": {k: round(v / entries, 1) for k, v in parts.items()},
            }
        base = size_rows["today"]["bytes"]
        print(f"{'design':<18}{'MB/list':>9}{'B/entry':>9}{'vs today':>9}")
        for design, row in size_rows.items():
            row["vs_today"] = round(row["bytes"] / base, 3)
            print(
                f"{design:<18}{row['per_list_mb']:>9.2f}{row['per_entry_bytes']:>9.1f}"
                f"{row['vs_today']:>9.2f}"
            )
            for part, value in row["parts_per_entry"].items():
                print(f"    {part:<52}{value:>7.1f} B/entry")

        latest = lists[-1]
        list_size = int(
            connection.execute(
                "SELECT count(*) FROM designs.full_entries WHERE list_id = %s", (latest,)
            ).fetchone()[0]
        )  # type: ignore[index]
        players = [
            row[0]
            for row in connection.execute(
                "SELECT player_id FROM designs.full_entries WHERE list_id = %s", (latest,)
            ).fetchall()
        ]
        federations = [
            row[0]
            for row in connection.execute("SELECT DISTINCT federation FROM players").fetchall()
        ]
        common = {"category": CATEGORY, "limit": PAGE, "chunk": args.chunk}
        samples = {
            "page": [
                common
                | {
                    "list": latest,
                    "offset": rng.randrange(min(LIST_DEPTH, list_size) // PAGE) * PAGE,
                }
                for _ in range(args.samples)
            ],
            "deep page": [
                common
                | {"list": rng.choice(lists), "offset": rng.randrange(max(1, list_size - PAGE))}
                for _ in range(args.samples)
            ],
            "history": [common | {"player": rng.choice(players)} for _ in range(args.samples)],
            "rank": [
                common | {"list": rng.choice(lists), "rating": rng.randint(1400, 2700)}
                for _ in range(args.samples)
            ],
            "federation": [
                common | {"list": latest, "federation": rng.choice(federations)}
                for _ in range(max(10, args.samples // 5))
            ],
            "whole list": [common | {"list": latest} for _ in range(3)],
        }
        reads: dict[str, dict[str, Any]] = {}
        print(f"{'read':<12}{'design':<18}{'p50 ms':>9}{'p99 ms':>9}{'rows':>8}{'buffers':>9}")
        for read, parameter_sets in samples.items():
            queries = QUERIES["page" if read == "deep page" else read]
            expected: list[list[tuple[Any, ...]]] | None = None
            reads[read] = {}
            for design in DESIGNS:
                time_reads(connection, queries[design], parameter_sets[:3])  # warm, prepare
                latencies, answers = time_reads(connection, queries[design], parameter_sets)
                got = [normalise(rows, read) for rows in answers]
                if expected is None:
                    expected = got
                elif got != expected:
                    pairs = enumerate(zip(got, expected, strict=True))
                    bad = next(i for i, (a, b) in pairs if a != b)
                    raise SystemExit(
                        f"{design} answers {read} differently from today for "
                        f"{parameter_sets[bad]}:\n{got[bad][:3]}\n{expected[bad][:3]}"
                    )
                rows = statistics.mean(len(a) for a in answers)
                reads[read][design] = {
                    "p50_ms": round(percentile(latencies, 0.5), 2),
                    "p99_ms": round(percentile(latencies, 0.99), 2),
                    "rows": round(rows, 1),
                    "buffers": round(
                        pages_touched(connection, queries[design], parameter_sets[:20])
                    ),
                }
                row = reads[read][design]
                print(
                    f"{read:<12}{design:<18}{row['p50_ms']:>9.2f}{row['p99_ms']:>9.2f}{rows:>8.0f}"
                    f"{row['buffers']:>9,}",
                    flush=True,
                )
        if not args.keep:
            connection.execute("DROP SCHEMA designs CASCADE")
    print(
        json.dumps(
            {
                "lists": len(lists),
                "entries": entries,
                "entries_per_list": round(entries / len(lists)),
                "changes": changes[0],
                "changed_share": round(changes[1] / entries, 4),
                "chunk": args.chunk,
                "samples": args.samples,
                "sizes": size_rows,
                "reads": reads,
                "load_average": {
                    "start": [round(x, 2) for x in load_at_start],
                    "end": [round(x, 2) for x in os.getloadavg()],
                },
            }
        )
    )


if __name__ == "__main__":
    main()
