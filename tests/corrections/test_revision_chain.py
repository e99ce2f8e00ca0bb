"""A correction in period P of a published chain P..P+3 (issue 7): exactly the lists that change
get a new revision, each new revision is what a from-scratch recomputation with the corrected
games gives, and ``lists diff`` says who moved, by how much, and which correction did it.

The chain (fide-standard, rules fide-standard-2025-10: K 40 below 30 rated games, K 20, cap 400
below 2650, one rounding per period half away from zero; every PD from table 8.1.2, docs/rules.md
§4.1). Baseline list 2026-08 (adults, 60 rated games, K 20 unless said):
  2001 Ada 1800, 2002 Ben 1700, 2003 Cal 2000, 2004 Dee 1900, 2005 Eve 1600, 2006 Fay 2100,
  2007 Gil 2200, 2008 Hal 2200, 2009 Zed 1500 with 28 rated games (K 40), 2010 Yan 1500.
P   = 2026-09, tournament T1 (2026-08-10..12, 2026-08 ratings):
  r1 Ada-Ben 1-0, Cal-Dee 1/2, Gil-Hal 1/2, Zed-Yan 1/2; r2 Ben-Cal 1-0, Eve-Fay 0-1;
  r3 Fay-Ada +- (forfeit: stored, never rated).
  Ada: D +100 -> PD .64, 1 - .64 = +.36; x20 = 7.2 -> +7 -> 1807.
  Ben: D -100 -> .36, -.36; vs Cal D -300 -> .15, +.85; +.49 x20 = 9.8 -> +10 -> 1710.
  Cal: vs Dee D +100 -> .64, -.14; vs Ben D +300 -> .85, -.85; -.99 x20 = -19.8 -> -20 -> 1980.
  Dee: D -100 -> .36, +.14; x20 = 2.8 -> +3 -> 1903.
  Eve: D -500, capped -400 -> .08, -.08; x20 = -1.6 -> -2 -> 1598.
  Fay: D +500, capped 400 -> .92, +.08; x20 = 1.6 -> +2 -> 2102.
  Gil, Hal, Zed, Yan: D 0 -> .50, draw: 0 -> unchanged; Zed now has 29 rated games (K 40 still).
P+1 = 2026-10, tournament T2 (2026-09-05..06, 2026-09 ratings): Ada-Cal 1/2, Ben-Dee 0-1.
  Ada 1807 vs Cal 1980: D -173 -> .27, +.23 x20 = 4.6 -> +5 -> 1812; Cal -.23 -> -5 -> 1975.
  Ben 1710 vs Dee 1903: D -193 -> .25, -.25 x20 = -5 -> 1705; Dee +.25 -> +5 -> 1908.
P+2 = 2026-11, tournament T3 (2026-10-10..11, 2026-10 ratings): r1 Ada-Dee 1-0, Eve-Ben 1/2;
  r2 Zed-Yan 1/2.
  Ada 1812 vs Dee 1908: D -96 -> .37, +.63 x20 = 12.6 -> +13 -> 1825; Dee -13 -> 1895.
  Eve 1598 vs Ben 1705: D -107 -> .35, +.15 x20 = 3 -> 1601; Ben D +107 -> .65, -.15 -> -3 -> 1702.
  Zed-Yan: D 0, draw: unchanged; Zed reaches 30 rated games: K 20 from this list on.
P+3 = 2026-12: no tournament; every rating carried over.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from sqlalchemy.engine import NestedTransaction

from tests.support import factories
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, entries_where, query

CATEGORY = "fide-standard"
BASE = "2026-08"
P, P1, P2, P3 = PERIODS = ("2026-09", "2026-10", "2026-11", "2026-12")

ADA, BEN, CAL, DEE, EVE, FAY, GIL, HAL, ZED, YAN = (str(n) for n in range(2001, 2011))

BASELINE = [
    (ADA, "Ada, A", 1800, 60),
    (BEN, "Ben, B", 1700, 60),
    (CAL, "Cal, C", 2000, 60),
    (DEE, "Dee, D", 1900, 60),
    (EVE, "Eve, E", 1600, 60),
    (FAY, "Fay, F", 2100, 60),
    (GIL, "Gil, G", 2200, 60),
    (HAL, "Hal, H", 2200, 60),
    (ZED, "Zed, Z", 1500, 28),
    (YAN, "Yan, Y", 1500, 60),
]

Game = tuple[int, str, str, str]  # round, white, black, result
Tournament = tuple[str, str, str, list[Game]]  # name, start, end, games

T1: Tournament = (
    "T1",
    "2026-08-10",
    "2026-08-12",
    [
        (1, ADA, BEN, "1-0"),
        (1, CAL, DEE, "1/2-1/2"),
        (1, GIL, HAL, "1/2-1/2"),
        (1, ZED, YAN, "1/2-1/2"),
        (2, BEN, CAL, "1-0"),
        (2, EVE, FAY, "0-1"),
        (3, FAY, ADA, "+-"),
    ],
)
T2: Tournament = (
    "T2",
    "2026-09-05",
    "2026-09-06",
    [
        (1, ADA, CAL, "1/2-1/2"),
        (1, BEN, DEE, "0-1"),
    ],
)
T3: Tournament = (
    "T3",
    "2026-10-10",
    "2026-10-11",
    [
        (1, ADA, DEE, "1-0"),
        (1, EVE, BEN, "1/2-1/2"),
        (2, ZED, YAN, "1/2-1/2"),
    ],
)
CHAIN = (T1, T2, T3)

Entry = tuple[int, int | None, int | None, int, int]  # rating, previous, change, games, K


def carried(previous: dict[str, Entry]) -> dict[str, Entry]:
    """The next list of players who do not play: the same rating, no change, no game."""
    return {p: (e[0], e[0], 0, 0, e[4]) for p, e in previous.items()}


#: The original lists, worked in the module docstring.
ORIGINAL: dict[str, dict[str, Entry]] = {
    P: {
        ADA: (1807, 1800, 7, 1, 20),
        BEN: (1710, 1700, 10, 2, 20),
        CAL: (1980, 2000, -20, 2, 20),
        DEE: (1903, 1900, 3, 1, 20),
        EVE: (1598, 1600, -2, 1, 20),
        FAY: (2102, 2100, 2, 1, 20),
        GIL: (2200, 2200, 0, 1, 20),
        HAL: (2200, 2200, 0, 1, 20),
        ZED: (1500, 1500, 0, 1, 40),
        YAN: (1500, 1500, 0, 1, 20),
    },
}
ORIGINAL[P1] = carried(ORIGINAL[P]) | {
    ADA: (1812, 1807, 5, 1, 20),
    CAL: (1975, 1980, -5, 1, 20),
    BEN: (1705, 1710, -5, 1, 20),
    DEE: (1908, 1903, 5, 1, 20),
}
ORIGINAL[P2] = carried(ORIGINAL[P1]) | {
    ADA: (1825, 1812, 13, 1, 20),
    DEE: (1895, 1908, -13, 1, 20),
    EVE: (1601, 1598, 3, 1, 20),
    BEN: (1702, 1705, -3, 1, 20),
    ZED: (1500, 1500, 0, 1, 20),
    YAN: (1500, 1500, 0, 1, 20),
}
ORIGINAL[P3] = carried(ORIGINAL[P2])


# --- helpers shared by the tests of this folder ------------------------------------------------


def ok(capsys: pytest.CaptureFixture[str], *args: str, url: str) -> str:
    code, out, err = cli(capsys, *args, url=url)
    assert code == 0, f"ratingdb {' '.join(args)} exited {code}: {err}"
    return out


def games_csv(
    tournament: Tournament, replace: dict[tuple[int, str, str], str] | None = None
) -> str:
    """A tournament as a games CSV; ``replace``: (round, white, black) -> corrected result."""
    name, start, end, games = tournament
    replace = replace or {}
    lines = []
    for r, white, black, result in games:
        lines.append(
            f"{name},{start},{end},{r},{white},{black},{replace.get((r, white, black), result)}"
        )
    return factories.games_csv(*lines)


def baseline_csv(players: Sequence[tuple[str, str, int | None, int]] = BASELINE) -> str:
    lines = []
    for player_id, name, rating, games in players:
        shown = "" if rating is None else str(rating)
        lines.append(f'{player_id},"{name}",FRA,M,1990,,{shown},{games},{shown},')
    return factories.list_csv(*lines)


def build(
    capsys: pytest.CaptureFixture[str],
    url: str,
    folder: Path,
    *,
    tournaments: Sequence[Tournament] = CHAIN,
    replace: dict[tuple[int, str, str], str] | None = None,
    players: Sequence[tuple[str, str, int | None, int]] = BASELINE,
    periods: Sequence[str] = PERIODS,
) -> dict[str, str]:
    """Baseline list of 2026-08, the tournaments (corrected by ``replace``), every period
    closed in order; returns the tournament ids by name."""
    folder.mkdir(parents=True, exist_ok=True)
    baseline = folder / "baseline.csv"
    baseline.write_text(baseline_csv(players), encoding="utf-8")
    ok(capsys, "lists", "import", str(baseline), "--category", CATEGORY, "--period", BASE, url=url)
    ids = {}
    for tournament in tournaments:
        path = folder / f"{tournament[0]}.csv"
        path.write_text(games_csv(tournament, replace), encoding="utf-8")
        out = ok(capsys, "tournaments", "import", str(path), "--category", CATEGORY, url=url)
        ids[tournament[0]] = json.loads(out)["tournament_id"]
    for period in periods:
        closed = json.loads(
            ok(capsys, "periods", "close", "--category", CATEGORY, "--period", period, url=url)
        )
        assert closed["state"] == "published", closed
    return ids


def correct(
    capsys: pytest.CaptureFixture[str],
    url: str,
    tournament: str,
    game: tuple[int, str, str],
    result: str,
    reason: str = "the arbiter's report was wrong",
    *extra: str,
) -> tuple[int, str, str]:
    r, white, black = game
    # "--result=-+": argparse takes a separate "-+" or "--" for an option (see
    # test_game_correction.test_forfeit_results_as_separate_arguments).
    names = ("--tournament", tournament, "--round", str(r), "--white", white, "--black", black)
    options = (f"--result={result}", f"--reason={reason}", *extra)
    return cli(capsys, "games", "correct", *names, *options, url=url)


def latest_revisions(where: Where) -> dict[str, int]:
    """The latest revision of every closed list of the chain, by period."""
    rows = query(
        where,
        "SELECT list_date, max(revision) FROM rating_lists WHERE category = :c "
        "AND source = 'close' GROUP BY list_date",
        c=CATEGORY,
    )
    return {str(day)[:7]: revision for day, revision in rows}


def entries(where: Where, period: str, revision: int | None = None) -> dict[str, Entry]:
    """A list's entries (the latest revision unless given), read from the tables."""
    if revision is None:
        revision = latest_revisions(where)[period]
    rows = entries_where(
        where,
        "l.category = :c AND l.list_date = :d AND l.revision = :r",
        ("player_id", "rating", "previous_rating", "change", "games", "k_factor"),
        c=CATEGORY,
        d=f"{period}-01",
        r=revision,
    )
    return {row[0]: tuple(row[1:]) for row in rows}


def stored_by_revision(where: Where, table: str) -> dict[tuple[str, int], list[str]]:
    """(list month, revision) -> the players of the revisions after the first in ``table``
    (revised_players, or player_calculations: each once)."""
    rows = query(
        where,
        f"SELECT DISTINCT l.list_date, l.revision, t.player_id FROM {table} t "
        "JOIN rating_lists l ON l.id = t.list_id WHERE l.revision > 1 ORDER BY t.player_id",
    )
    found: dict[tuple[str, int], list[str]] = {}
    for day, revision, player in rows:
        found.setdefault((str(day)[:7], revision), []).append(player)
    return found


def stored_rows(where: Where) -> dict[tuple[str, int], list[str]]:
    """(list month, revision) -> the players with a row in list_entries (a marker shown as
    ``"-<id>"``): a computed list stores only what differs from its parent carried forward."""
    rows = query(
        where,
        "SELECT l.list_date, l.revision, e.player_id, e.rating FROM list_entries e "
        "JOIN rating_lists l ON l.id = e.list_id ORDER BY e.player_id",
    )
    found: dict[tuple[str, int], list[str]] = {}
    for day, revision, player, rating in rows:
        found.setdefault((str(day)[:7], revision), []).append(
            player if rating is not None else f"-{player}"
        )
    return found


def which(period: str, category: str = CATEGORY) -> tuple[str, ...]:
    return ("--category", category, "--period", period)


def exported(
    capsys: pytest.CaptureFixture[str], url: str, period: str, category: str = CATEGORY
) -> dict[str, Any]:
    """``lists export --format json``: the latest revision."""
    out = ok(capsys, "lists", "export", *which(period, category), "--format", "json", url=url)
    document: dict[str, Any] = json.loads(out)
    return document


def list_table(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (e["player_id"], e["rating"], e["previous_rating"], e["change"], e["games"], e["k_factor"])
        for e in document["entries"]
    ]


def exported_csv(capsys: pytest.CaptureFixture[str], url: str, period: str) -> list[str]:
    return ok(capsys, "lists", "export", *which(period), "--format", "csv", url=url).splitlines()


class Published(NamedTuple):
    """What a database publishes of the chain's lists, by period: read before the test's
    transaction is rolled back to where the chain began (``chain_start``) to build it again
    from scratch, and compared with the lists built then."""

    #: The latest revision of every closed list of the chain.
    revisions: dict[str, int]
    #: The latest revision's JSON export: its revision and its entries (``list_table``).
    exported_revisions: dict[str, int]
    tables: dict[str, list[tuple[Any, ...]]]
    #: The latest revision as a list CSV (``lists export --format csv``), line by line.
    csv: dict[str, list[str]]
    #: Revision 1's entries, sorted, and its list CSV (``_original_csv``).
    originals: dict[str, list[tuple[Any, ...]]]
    original_csv: dict[str, list[str]]


def published(
    capsys: pytest.CaptureFixture[str], database: RolledBack, periods: Sequence[str] = PERIODS
) -> Published:
    """The chain's lists of ``periods`` as the test's transaction holds them now."""
    documents = {period: exported(capsys, database.url, period) for period in periods}
    return Published(
        revisions=latest_revisions(database),
        exported_revisions={period: d["revision"] for period, d in documents.items()},
        tables={period: list_table(d) for period, d in documents.items()},
        csv={period: exported_csv(capsys, database.url, period) for period in periods},
        originals={
            period: sorted((p, *e) for p, e in entries(database, period, 1).items())
            for period in periods
        },
        original_csv={period: _original_csv(database, period) for period in periods},
    )


def chain_start(database: RolledBack) -> NestedTransaction:
    """A mark in the test's transaction (a SAVEPOINT) before a test builds its chain: rolled
    back to (``.rollback()``, once what is compared was read: ``published``), the database is
    as fresh as one of its own, where the chain is built again from scratch. PostgreSQL's
    sequences are not rolled back: the ids of the chain built from scratch are not a fresh
    database's (none is compared)."""
    return database.connection.begin_nested()


def assert_as_if_built_corrected(
    capsys: pytest.CaptureFixture[str],
    database: RolledBack,
    scratch: NestedTransaction,
    folder: Path,
    replace: dict[tuple[int, str, str], str],
) -> None:
    """The chain as revised is what the chain built with ``replace`` from the start publishes
    (``assert_same_as_from_scratch``, ``assert_revised_exactly_where_changed``): the test's
    lists are read, the transaction rolled back to ``scratch`` and the chain built again."""
    revised = published(capsys, database)
    scratch.rollback()
    build(capsys, database.url, folder, replace=replace)
    fresh = published(capsys, database)
    assert_same_as_from_scratch(revised, fresh)
    assert_revised_exactly_where_changed(revised, fresh)


def assert_same_as_from_scratch(
    revised: Published, fresh: Published, periods: Sequence[str] = PERIODS
) -> None:
    """Every list, latest revision, has the entries of the from-scratch database's list."""
    for period in periods:
        assert revised.tables[period] == fresh.tables[period], f"{period}: revised != from scratch"
        assert fresh.exported_revisions[period] == 1


def assert_revised_exactly_where_changed(
    revised: Published, fresh: Published, periods: Sequence[str] = PERIODS
) -> None:
    """A list has a new revision if and only if its published content (the list CSV of the
    contract: rating, rated_games, peak_rating, K; and the entries' games and changes)
    differs from the original; and the latest revision is what a from-scratch computation
    gives, CSV columns included."""
    revisions = revised.revisions
    for period in periods:
        fresh_csv = fresh.csv[period]
        fresh_table = fresh.tables[period]
        now_csv = revised.csv[period]
        assert now_csv == fresh_csv, (
            f"{CATEGORY} {period} (revision {revisions[period]}) as a list CSV differs from a "
            f"from-scratch recomputation:\n"
            + "\n".join(
                f"  stored {a}\n  fresh  {b}"
                for a, b in zip(now_csv, fresh_csv, strict=False)
                if a != b
            )
        )
        original = revised.originals[period]
        fresh_sorted = sorted(fresh_table)
        changed = original != fresh_sorted or revised.original_csv[period] != sorted(fresh_csv[1:])
        assert (revisions[period] > 1) == changed, (
            f"{period}: revision {revisions[period]} but the list "
            f"{'changed' if changed else 'did not change'}"
        )


def _original_csv(where: Where, period: str) -> list[str]:
    """Revision 1's (player, rating, rated_games, peak, K, active, change, games) in the list
    CSV's layout."""
    rows = entries_where(
        where,
        "l.category = :c AND l.list_date = :d AND l.revision = 1",
        ("player_id", "rating", "rated_games", "peak_rating", "k_factor", "active", "change",
         "games"),
        c=CATEGORY,
        d=f"{period}-01",
    )  # fmt: skip
    names = dict(query(where, "SELECT player_id, name FROM players"))
    lines = []
    for player_id, rating, rated_games, peak, k, active, change, games in rows:
        name = names[player_id]
        shown = "" if change is None else change
        lines.append(
            f'{player_id},"{name}",FRA,M,1990,,{rating},{rated_games},{peak},{k},{int(active)},'
            f"{shown},{games}"
        )
    return sorted(lines)


def with_changes(base: dict[str, Entry], **changes: Entry) -> dict[str, Entry]:
    named = {
        "ada": ADA,
        "ben": BEN,
        "cal": CAL,
        "dee": DEE,
        "eve": EVE,
        "fay": FAY,
        "gil": GIL,
        "hal": HAL,
        "zed": ZED,
        "yan": YAN,
    }
    return base | {named[k]: v for k, v in changes.items()}


# --- the tests -----------------------------------------------------------------------------


def test_a_win_made_a_forfeit_in_p_revises_p_to_p3(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    scratch = chain_start(database)
    ids = build(capsys, url, tmp_path / "chain")
    # The lists worked by hand in the module docstring, before any correction.
    assert latest_revisions(database) == dict.fromkeys(PERIODS, 1)
    for period in PERIODS:
        assert entries(database, period) == ORIGINAL[period], period
    # Stored: every entry of the imported list; then only who played (nobody left, no K
    # changed without a game; P+3 carries every entry over: no row).
    everyone = [ADA, BEN, CAL, DEE, EVE, FAY, GIL, HAL, ZED, YAN]
    assert stored_rows(database) == {
        ("2026-08", 1): everyone,
        (P, 1): everyone,
        (P1, 1): [ADA, BEN, CAL, DEE],
        (P2, 1): [ADA, BEN, DEE, EVE, ZED, YAN],
    }

    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-")
    assert code == 0, err
    report = json.loads(out)
    assert [(r["period"], r["from_revision"], r["to_revision"]) for r in report["revisions"]] == [
        (P, 1, 2),
        (P1, 1, 2),
        (P2, 1, 2),
        (P3, 1, 2),
    ]
    assert latest_revisions(database) == dict.fromkeys(PERIODS, 2)
    # Each revision 2 stores its changes against the revision 1 it replaces (issue 30), every
    # field compared: P, Ada and Ben (Cal, recomputed as Ben's opponent, rated Ben with the
    # 2026-08 list: unchanged). P+1, Ada and Ben, and Cal and Dee: their ratings are as before
    # but their sums of deltas are not (Cal -.24 for -.23, Dee +.26 for +.25, worked below).
    # P+2, Ada and Ben, and Dee (-.64 for -.63) and Eve (+.16 for +.15). P+3, Ada and Ben,
    # carried from other ratings.
    assert {key: rows for key, rows in stored_rows(database).items() if key[1] == 2} == {
        (P, 2): [ADA, BEN],
        (P1, 2): [ADA, BEN, CAL, DEE],
        (P2, 2): [ADA, BEN, DEE, EVE],
        (P3, 2): [ADA, BEN],
    }
    # And the players each recomputed (revised_players): those whose games changed (Ada, Ben)
    # or whose standing did on an earlier list (Ada and Ben again), and everyone who played
    # them in the period (P: Ben's Cal; Ada's only game is the forfeit, never rated. P+1: Cal
    # and Dee. P+2: Dee and Eve). Only their calculations are stored: those who played a
    # rated game in the period.
    assert stored_by_revision(database, "revised_players") == {
        (P, 2): [ADA, BEN, CAL],
        (P1, 2): [ADA, BEN, CAL, DEE],
        (P2, 2): [ADA, BEN, DEE, EVE],
        (P3, 2): [ADA, BEN],
    }
    assert stored_by_revision(database, "player_calculations") == {
        (P, 2): [BEN, CAL],
        (P1, 2): [ADA, BEN, CAL, DEE],
        (P2, 2): [ADA, BEN, DEE, EVE],
    }

    # P: Ada-Ben is no longer rated. Ada: no game -> 1800, change 0, games 0.
    #   Ben: only vs Cal, D -300 -> .15, +.85 x20 = 17 -> 1717 (1 game).
    assert entries(database, P) == with_changes(
        ORIGINAL[P], ada=(1800, 1800, 0, 0, 20), ben=(1717, 1700, 17, 1, 20)
    )
    # P+1: Ada 1800 vs Cal 1980: D -180 -> .26, +.24 x20 = 4.8 -> +5 -> 1805;
    #   Cal D +180 -> .74, -.24 -> -4.8 -> -5 -> 1975 (as before).
    #   Ben 1717 vs Dee 1903: D -186 -> .26, -.26 x20 = -5.2 -> -5 -> 1712;
    #   Dee D +186 -> .74, +.26 -> +5.2 -> +5 -> 1908 (as before).
    assert entries(database, P1) == with_changes(
        ORIGINAL[P1], ada=(1805, 1800, 5, 1, 20), ben=(1712, 1717, -5, 1, 20)
    )
    # P+2: Ada 1805 vs Dee 1908: D -103 -> .36, +.64 x20 = 12.8 -> +13 -> 1818;
    #   Dee D +103 -> .64, -.64 -> -12.8 -> -13 -> 1895 (as before).
    #   Eve 1598 vs Ben 1712: D -114 -> .34, +.16 x20 = 3.2 -> +3 -> 1601 (as before);
    #   Ben D +114 -> .66, -.16 -> -3.2 -> -3 -> 1709.
    assert entries(database, P2) == with_changes(
        ORIGINAL[P2], ada=(1818, 1805, 13, 1, 20), ben=(1709, 1712, -3, 1, 20)
    )
    # P+3: carried over.
    assert entries(database, P3) == with_changes(
        ORIGINAL[P3], ada=(1818, 1818, 0, 0, 20), ben=(1709, 1709, 0, 0, 20)
    )
    # The report names who moved and by how much in each list.
    changes = {
        r["period"]: {c["player_id"]: c["difference"] for c in r["changes"]}
        for r in report["revisions"]
    }
    assert changes == {
        P: {ADA: -7, BEN: 7},
        P1: {ADA: -7, BEN: 7},
        P2: {ADA: -7, BEN: 7},
        P3: {ADA: -7, BEN: 7},
    }

    assert_as_if_built_corrected(
        capsys, database, scratch, tmp_path / "scratch", {(1, ADA, BEN): "+-"}
    )


def test_a_win_made_a_loss_in_p(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    scratch = chain_start(database)
    ids = build(capsys, url, tmp_path / "chain")
    code, _, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "0-1")
    assert code == 0, err
    assert latest_revisions(database) == dict.fromkeys(PERIODS, 2)
    # P: Ada D +100 -> .64, 0 - .64 = -.64 x20 = -12.8 -> -13 -> 1787.
    #   Ben: D -100 -> .36, 1 - .36 = +.64; vs Cal +.85; +1.49 x20 = 29.8 -> +30 -> 1730.
    assert entries(database, P) == with_changes(
        ORIGINAL[P], ada=(1787, 1800, -13, 1, 20), ben=(1730, 1700, 30, 2, 20)
    )
    # P+1: Ada 1787 vs Cal 1980: D -193 -> .25, +.25 x20 = 5 -> 1792; Cal -5 -> 1975.
    #   Ben 1730 vs Dee 1903: D -173 -> .27, -.27 x20 = -5.4 -> -5 -> 1725; Dee +5 -> 1908.
    assert entries(database, P1) == with_changes(
        ORIGINAL[P1], ada=(1792, 1787, 5, 1, 20), ben=(1725, 1730, -5, 1, 20)
    )
    # P+2: Ada 1792 vs Dee 1908: D -116 -> .34, +.66 x20 = 13.2 -> +13 -> 1805; Dee -13 -> 1895.
    #   Eve 1598 vs Ben 1725: D -127 -> .33, +.17 x20 = 3.4 -> +3 -> 1601; Ben -3 -> 1722.
    assert entries(database, P2) == with_changes(
        ORIGINAL[P2], ada=(1805, 1792, 13, 1, 20), ben=(1722, 1725, -3, 1, 20)
    )
    assert entries(database, P3) == with_changes(
        ORIGINAL[P3], ada=(1805, 1805, 0, 0, 20), ben=(1722, 1722, 0, 0, 20)
    )
    assert_as_if_built_corrected(
        capsys, database, scratch, tmp_path / "scratch", {(1, ADA, BEN): "0-1"}
    )


def test_a_correction_in_p2_leaves_p_and_p1_alone(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    scratch = chain_start(database)
    ids = build(capsys, url, tmp_path / "chain")
    code, out, err = correct(capsys, url, ids["T3"], (1, EVE, BEN), "1-0")
    assert code == 0, err
    assert [(r["period"], r["to_revision"]) for r in json.loads(out)["revisions"]] == [
        (P2, 2),
        (P3, 2),
    ]
    assert latest_revisions(database) == {P: 1, P1: 1, P2: 2, P3: 2}
    # P+2: Eve 1598 vs Ben 1705: D -107 -> .35, 1 - .35 = +.65 x20 = 13 -> 1611;
    #   Ben: D +107 -> .65, 0 - .65 -> -13 -> 1692.
    assert entries(database, P2) == with_changes(
        ORIGINAL[P2], eve=(1611, 1598, 13, 1, 20), ben=(1692, 1705, -13, 1, 20)
    )
    assert entries(database, P3) == with_changes(
        ORIGINAL[P3], eve=(1611, 1611, 0, 0, 20), ben=(1692, 1692, 0, 0, 20)
    )
    for period in (P, P1):
        assert entries(database, period) == ORIGINAL[period]
    assert_as_if_built_corrected(
        capsys, database, scratch, tmp_path / "scratch", {(1, EVE, BEN): "1-0"}
    )


def test_a_forfeit_made_another_forfeit_revises_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fay-Ada +- was never rated and -+ is not either: recorded, but no list changes."""
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    code, out, err = correct(capsys, url, ids["T1"], (3, FAY, ADA), "-+")
    assert code == 0, err
    assert json.loads(out)["revisions"] == []
    assert latest_revisions(database) == dict.fromkeys(PERIODS, 1)
    assert query(database, "SELECT count(*) FROM corrections") == [(1,)]
    assert query(
        database, "SELECT result FROM games WHERE white_id = :w AND superseded_by IS NULL", w=FAY
    ) == [("-+",)]
    for period in PERIODS:
        assert entries(database, period) == ORIGINAL[period], period


def test_a_draw_between_equals_voided_changes_no_later_rating(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Gil and Hal (2200, 60 games each) drew in P and play nothing later; the draw becomes a
    forfeit (+-). No rating moves anywhere (D 0 -> .50, a draw is worth 0), but P's entries
    now show 0 games, and their rated-games counters are one lower from P on: 60, not 61. The
    later lists publish that counter (list CSV ``rated_games``, docs/formats.md; it drives the
    30-game K rule), so they change too and need a revision each, or they keep saying 61."""
    url = database.url
    scratch = chain_start(database)
    ids = build(capsys, url, tmp_path / "chain")
    code, out, err = correct(capsys, url, ids["T1"], (1, GIL, HAL), "+-")
    assert code == 0, err
    assert json.loads(out)["revisions"][0]["period"] == P
    assert latest_revisions(database)[P] == 2
    assert entries(database, P) == with_changes(
        ORIGINAL[P], gil=(2200, 2200, 0, 0, 20), hal=(2200, 2200, 0, 0, 20)
    )
    for period in (P1, P2, P3):
        assert entries(database, period) == ORIGINAL[period]
    # The list CSV's rated_games: Gil and Hal have 60 rated games from P on, not 61.
    assert_as_if_built_corrected(
        capsys, database, scratch, tmp_path / "scratch", {(1, GIL, HAL): "+-"}
    )


def test_a_voided_game_moves_a_later_k_factor(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Zed (28 rated games, K 40) drew Yan in P and again in P+2. Originally the second draw is
    his 30th game: K 20 from the P+2 list on. Voiding the first draw (-> +-) leaves him at 29
    games after P+2: the P+2 and P+3 lists must show K 40 (docs/rules.md §6: fewer than 30 rated
    games -> k_new), although no rating moves (draws at D 0)."""
    url = database.url
    scratch = chain_start(database)
    ids = build(capsys, url, tmp_path / "chain")
    code, _, err = correct(capsys, url, ids["T1"], (1, ZED, YAN), "+-")
    assert code == 0, err
    # P: Zed and Yan 0 games.
    assert entries(database, P) == with_changes(
        ORIGINAL[P], zed=(1500, 1500, 0, 0, 40), yan=(1500, 1500, 0, 0, 20)
    )
    assert entries(database, P2)[ZED] == (1500, 1500, 0, 1, 40), "P+2 keeps Zed's old K 20"
    revised = published(capsys, database)
    scratch.rollback()
    build(capsys, url, tmp_path / "scratch", replace={(1, ZED, YAN): "+-"})
    # From scratch: 28 + 0 + 0 + 1 = 29 rated games after P+2 -> K 40.
    assert entries(database, P2)[ZED] == (1500, 1500, 0, 1, 40)
    assert entries(database, P3)[ZED] == (1500, 1500, 0, 0, 40)
    fresh = published(capsys, database)
    assert_same_as_from_scratch(revised, fresh)
    assert_revised_exactly_where_changed(revised, fresh)


# --- lists diff ------------------------------------------------------------------------------


def diff(capsys: pytest.CaptureFixture[str], url: str, period: str, a: int, b: int) -> Any:
    revisions = ("--from-revision", str(a), "--to-revision", str(b))
    return json.loads(ok(capsys, "lists", "diff", *which(period), *revisions, url=url))


def test_lists_diff_says_who_moved_by_how_much_and_why(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-", "Ben never came")
    assert code == 0, err
    first = json.loads(out)["correction_id"]
    code, out, err = correct(capsys, url, ids["T3"], (1, EVE, BEN), "1-0", "misread scoresheet")
    assert code == 0, err
    second = json.loads(out)["correction_id"]
    assert latest_revisions(database) == {P: 2, P1: 2, P2: 3, P3: 3}

    document = diff(capsys, url, P, 1, 2)
    assert (document["category"], document["period"]) == (CATEGORY, P)
    assert [
        (c["correction_id"], c["kind"], c["reason"], c["tournament_id"])
        for c in document["corrections"]
    ] == [(first, "game", "Ben never came", ids["T1"])]
    moved = {c["player_id"]: c for c in document["changes"]}
    assert sorted(moved) == [ADA, BEN]
    assert moved[ADA]["name"] == "Ada, A"
    assert moved[ADA]["rating_difference"] == -7
    assert (moved[ADA]["from"]["rating"], moved[ADA]["to"]["rating"]) == (1807, 1800)
    assert (moved[ADA]["from"]["games"], moved[ADA]["to"]["games"]) == (1, 0)
    assert moved[BEN]["rating_difference"] == 7
    assert (moved[BEN]["from"]["change"], moved[BEN]["to"]["change"]) == (10, 17)

    # P+2, revision 1 -> 3: both corrections. Ada 1825 -> 1818 (-7); Ben: 1702 -> 1709 after
    # the first, then Eve-Ben 1-0 with Ben 1712: D +114 -> .66, -.66 x20 = -13.2 -> -13 -> 1699;
    # Eve 1598 vs 1712: D -114 -> .34, +.66 x20 = 13.2 -> +13 -> 1611 (was 1601).
    document = diff(capsys, url, P2, 1, 3)
    assert [c["correction_id"] for c in document["corrections"]] == [first, second]
    assert {c["player_id"]: c["rating_difference"] for c in document["changes"]} == {
        ADA: -7,
        BEN: 1699 - 1702,
        EVE: 1611 - 1601,
    }
    # Revision 2 -> 3: only the second correction, only Eve and Ben.
    document = diff(capsys, url, P2, 2, 3)
    assert [c["correction_id"] for c in document["corrections"]] == [second]
    assert {c["player_id"]: c["rating_difference"] for c in document["changes"]} == {
        BEN: 1699 - 1709,
        EVE: 1611 - 1601,
    }
    assert entries(database, P2)[BEN] == (1699, 1712, -13, 1, 20)
    # The second correction did not touch P: it has no revision 3.
    revisions = ("--from-revision", "1", "--to-revision", "3")
    code, _, err = cli(capsys, "lists", "diff", *which(P), *revisions, url=url)
    assert code == 2
    assert "no revision 3" in err


def test_a_standard_correction_reaches_the_rapid_list_seeded_from_it(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """From the 2024-03 rules, a player unrated in rapid who has a standard rating is rated in
    rapid with the standard rating of the standard list in force at the tournament's start
    (docs/rules.md §2.3 (standard_seed), §8). A correction that changes that standard list
    changes the
    rapid list computed from it: it must be revised like the standard ones (and verify).

    Standard baseline 2026-08: Sam 4001 1800, Xia 4002 2200 (60 games, K 20). Rapid baseline
    2026-08: Rex 4003 1800 (60 games, K 20); Sam has no rapid rating.
    Standard 2026-09 (S1, 2026-08-10): Sam-Xia 1-0: Sam D -400 -> .08, +.92 x20 = 18.4 -> +18
      -> 1818.  Corrected to 0-1: -.08 x20 = -1.6 -> -2 -> 1798.
    Rapid 2026-10 (R1, 2026-09-05, standard list in force: 2026-09): Rex-Sam 1-0.
      Rex 1800 vs Sam seeded 1818: D -18 -> .47, +.53 x20 = 10.6 -> +11 -> 1811.
      With the corrected 1798: D +2 -> .50, +.50 x20 = 10 -> 1810.
    """
    url = database.url
    sam, xia, rex = "4001", "4002", "4003"
    standard = [(sam, "Sam, S", 1800, 60), (xia, "Xia, X", 2200, 60)]
    rapid = [(rex, "Rex, R", 1800, 60)]
    s1: Tournament = ("S1", "2026-08-10", "2026-08-10", [(1, sam, xia, "1-0")])
    r1: Tournament = ("R1", "2026-09-05", "2026-09-05", [(1, rex, sam, "1-0")])
    closes = [
        ("fide-standard", "2026-09"),
        ("fide-standard", "2026-10"),
        ("fide-rapid", "2026-09"),
        ("fide-rapid", "2026-10"),
    ]

    def federation(target: str, folder: Path, replace: dict[tuple[int, str, str], str]) -> str:
        folder.mkdir(parents=True, exist_ok=True)
        for category, players in (("fide-standard", standard), ("fide-rapid", rapid)):
            path = folder / f"{category}.csv"
            path.write_text(baseline_csv(players), encoding="utf-8")
            ok(capsys, "lists", "import", str(path), *which(BASE, category), url=target)
        tournament_ids: list[str] = []
        for category, tournament in (("fide-standard", s1), ("fide-rapid", r1)):
            path = folder / f"{tournament[0]}.csv"
            path.write_text(games_csv(tournament, replace), encoding="utf-8")
            out = ok(capsys, "tournaments", "import", str(path), "--category", category, url=target)
            tournament_ids.append(str(json.loads(out)["tournament_id"]))
        for category, period in closes:
            ok(capsys, "periods", "close", "--category", category, "--period", period, url=target)
        return tournament_ids[0]

    def rapid_entry(target: str, player: str) -> Any:
        document = exported(capsys, target, "2026-10", "fide-rapid")
        return {e["player_id"]: e for e in document["entries"]}[player]

    scratch = chain_start(database)
    s1_id = federation(url, tmp_path / "db", {})
    assert rapid_entry(url, rex)["rating"] == 1811
    code, _, err = correct(capsys, url, s1_id, (1, sam, xia), "0-1")
    assert code == 0, err
    code, out, _ = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, "\n".join(line for line in out.splitlines() if '"ok": false' in line)
    revised = {(c, p): list_table(exported(capsys, url, p, c)) for c, p in closes}
    scratch.rollback()  # the same federation from scratch, the game as corrected
    federation(url, tmp_path / "scratch", {(1, sam, xia): "0-1"})
    assert rapid_entry(url, rex)["rating"] == 1810
    for category, period in closes:
        fresh = exported(capsys, url, period, category)
        assert revised[category, period] == list_table(fresh), f"{category} {period}"


def test_a_close_beside_a_game_correction_waits_and_starts_from_the_corrected_list(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """P published, P+1 open with T2: a game correction in P holds off the close of P+1 until
    it commits (PostgreSQL: the close's own lock; SQLite: the write lock), so P+1 is computed
    from P's corrected revision, never from the revision the correction replaces."""
    from datetime import UTC, datetime

    from ratingdb.db import make_engine, make_sessionmaker
    from ratingdb.services.corrections import correct_game

    url = database_url
    ids = build(capsys, url, tmp_path / "chain", tournaments=(T1, T2), periods=(P,))
    outcome: dict[str, int] = {}

    def close_next() -> None:
        from ratingdb.cli import main

        outcome["code"] = main(["periods", "close", "--category", CATEGORY, "--period", P1,
                                "--database-url", url])  # fmt: skip

    engine = make_engine(url)
    try:
        with make_sessionmaker(engine).begin() as session:
            correct_game(
                session, tournament_id=ids["T1"], round_number=1, white_id=ADA, black_id=BEN,
                result="+-", reason="the arbiter's report was wrong", actor="test",
                now=datetime.now(UTC),
            )  # fmt: skip
            closer = threading.Thread(target=close_next)
            closer.start()
            closer.join(timeout=2)
            assert closer.is_alive(), "the close did not wait for the correction"
        closer.join(timeout=60)
        assert not closer.is_alive()
    finally:
        engine.dispose()
    assert outcome["code"] == 0
    # As worked in test_a_win_made_a_forfeit_in_p_revises_p_to_p3: P+1 from P revision 2.
    assert entries(url, P1) == with_changes(
        ORIGINAL[P1], ada=(1805, 1800, 5, 1, 20), ben=(1712, 1717, -5, 1, 20)
    )
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err
