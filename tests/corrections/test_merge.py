"""``ratingdb players merge KEEP DROP --reason``: one player entered under two ids (issue 7).

Baseline list 2026-08 (fide-standard, adults, 60 rated games, K 20): 3001 Ivo 1900, 3002 Jan
1800, 3003 Kim 2000, 3004 Lea 1700; 3099 is Ivo again under a national id, unrated, no games.
Every PD from table 8.1.2 (docs/rules.md §4.1), one rounding per period.
P   = 2026-09, M1 (2026-08-10..11): Ivo-Jan 1-0, Kim-Lea 1/2.
  Ivo: D +100 -> .64, +.36 x20 = 7.2 -> +7 -> 1907.  Jan: -7 -> 1793.
  Kim: D +300 -> .85, 0.5 - .85 = -.35 x20 = -7 -> 1993.  Lea: +7 -> 1707.
P+1 = 2026-10, M2 (2026-09-05..06): 3099-Kim 1/2, Lea-3099 0-1.
  As entered, 3099 is unrated: his 2 games pool toward a first rating (5 needed), and a rated
  player's game against an unrated one changes nothing: the list is 2026-09's, carried over.
P+2 = 2026-11, M3 (2026-10-10..11): Ivo-Lea 1/2.
  Ivo 1907 vs Lea 1707: D +200 -> .76, -.26 x20 = -5.2 -> -5 -> 1902; Lea +5 -> 1712.
After ``players merge 3001 3099``, M2 is Ivo's (rated with his 2026-09 rating, 1907):
  P unchanged (3099 played nothing in it).
  P+1: Ivo vs Kim 1993 draw: D -86 -> .38, +.12; vs Lea 1707 win: D +200 -> .76, +.24;
    +.36 x20 = 7.2 -> +7 -> 1914 (2 games).  Kim: D +86 -> .62, -.12 x20 = -2.4 -> -2 -> 1991.
    Lea: D -200 -> .24, -.24 x20 = -4.8 -> -5 -> 1702.
  P+2: Ivo 1914 vs Lea 1702: D +212 -> .77, -.27 x20 = -5.4 -> -5 -> 1909; Lea +5 -> 1707.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.corrections.test_revision_chain import (
    Tournament,
    assert_revised_exactly_where_changed,
    assert_same_as_from_scratch,
    build,
    chain_start,
    entries,
    latest_revisions,
    ok,
    published,
    which,
)
from tests.support.calculations import stored_calculations
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, query, row_counts

IVO, JAN, KIM, LEA, DUP = "3001", "3002", "3003", "3004", "3099"
PLAYERS = [
    (IVO, "Ivo, I", 1900, 60),
    (JAN, "Jan, J", 1800, 60),
    (KIM, "Kim, K", 2000, 60),
    (LEA, "Lea, L", 1700, 60),
    (DUP, "Ivo, I", None, 0),
]
P, P1, P2 = PERIODS = ("2026-09", "2026-10", "2026-11")


def chain(second: str) -> list[Tournament]:
    """The three tournaments, with ``second`` as Ivo's id in M2."""
    return [
        ("M1", "2026-08-10", "2026-08-11", [(1, IVO, JAN, "1-0"), (1, KIM, LEA, "1/2-1/2")]),
        ("M2", "2026-09-05", "2026-09-06", [(1, second, KIM, "1/2-1/2"), (2, LEA, second, "0-1")]),
        ("M3", "2026-10-10", "2026-10-11", [(1, IVO, LEA, "1/2-1/2")]),
    ]


def merge(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    return cli(capsys, "players", "merge", *args, url=url)


def test_merging_a_duplicate_moves_his_games_and_revises_the_lists(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    scratch = chain_start(database)
    ids = build(
        capsys, url, tmp_path / "db", tournaments=chain(DUP), players=PLAYERS, periods=PERIODS
    )
    assert entries(database, P) == {
        IVO: (1907, 1900, 7, 1, 20),
        JAN: (1793, 1800, -7, 1, 20),
        KIM: (1993, 2000, -7, 1, 20),
        LEA: (1707, 1700, 7, 1, 20),
    }
    assert entries(database, P1) == {
        p: (e[0], e[0], 0, 0, 20) for p, e in entries(database, P).items()
    }
    assert entries(database, P2)[IVO] == (1902, 1907, -5, 1, 20)
    assert entries(database, P2)[LEA] == (1712, 1707, 5, 1, 20)

    # A dry run first: the impact, nothing written.
    counts = row_counts(database)
    code, out, err = merge(capsys, url, IVO, DUP, "--reason", "same person", "--dry-run")
    assert code == 0, err
    impact = json.loads(out)
    assert impact["dry_run"] is True
    assert [r["period"] for r in impact["revisions"]] == [P1, P2]
    assert row_counts(database) == counts

    code, out, err = merge(capsys, url, IVO, DUP, "--reason", "same person, national id")
    assert code == 0, err
    report = json.loads(out)
    assert report["kind"] == "merge"
    assert [(r["period"], r["from_revision"], r["to_revision"]) for r in report["revisions"]] == [
        (P1, 1, 2),
        (P2, 1, 2),
    ]
    assert latest_revisions(database) == {P: 1, P1: 2, P2: 2}
    # Worked in the module docstring.
    assert entries(database, P1) == {
        IVO: (1914, 1907, 7, 2, 20),
        JAN: (1793, 1793, 0, 0, 20),
        KIM: (1991, 1993, -2, 1, 20),
        LEA: (1702, 1707, -5, 1, 20),
    }
    assert entries(database, P2) == {
        IVO: (1909, 1914, -5, 1, 20),
        JAN: (1793, 1793, 0, 0, 20),
        KIM: (1991, 1991, 0, 0, 20),
        LEA: (1707, 1702, 5, 1, 20),
    }
    # The originals stay.
    assert entries(database, P1, revision=1)[IVO] == (1907, 1907, 0, 0, 20)

    # The kept id carries the games; the dropped one keeps none and is marked merged.
    shown = json.loads(ok(capsys, "tournaments", "show", ids["M2"], url=url))
    assert sorted((g["white_id"], g["black_id"], g["result"]) for g in shown["games"]) == [
        (IVO, KIM, "1/2-1/2"),
        (LEA, IVO, "0-1"),
    ]
    assert query(
        database,
        "SELECT count(*) FROM games WHERE superseded_by IS NULL "
        "AND (white_id = :d OR black_id = :d)",
        d=DUP,
    ) == [(0,)]
    assert query(
        database,
        "SELECT count(*) FROM games WHERE superseded_by IS NOT NULL "
        "AND (white_id = :d OR black_id = :d)",
        d=DUP,
    ) == [(2,)]
    assert query(database, "SELECT merged_into FROM players WHERE player_id = :d", d=DUP) == [
        (IVO,)
    ]
    assert query(database, "SELECT merged_into FROM players WHERE player_id = :k", k=IVO) == [
        (None,)
    ]
    (correction,) = query(database, "SELECT kind, reason, before, after FROM corrections")
    assert correction[:2] == ("merge", "same person, national id")

    # lists diff names the merge.
    revisions = ("--from-revision", "1", "--to-revision", "2")
    document = json.loads(ok(capsys, "lists", "diff", *which(P1), *revisions, url=url))
    assert [(c["kind"], c["reason"]) for c in document["corrections"]] == [
        ("merge", "same person, national id")
    ]
    assert {c["player_id"]: c["rating_difference"] for c in document["changes"]} == {
        IVO: 7,
        KIM: -2,
        LEA: -5,
    }

    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err
    assert all(json.loads(line)["ok"] for line in out.splitlines())
    assert_calculations_are_their_games(database)

    # The same as entering M2 under Ivo's id from the start.
    revised = published(capsys, database, PERIODS)
    scratch.rollback()
    build(
        capsys,
        url,
        tmp_path / "scratch",
        tournaments=chain(IVO),
        players=PLAYERS,
        periods=PERIODS,
    )
    fresh = published(capsys, database, PERIODS)
    assert_same_as_from_scratch(revised, fresh, PERIODS)
    assert_revised_exactly_where_changed(revised, fresh, PERIODS)


def assert_calculations_are_their_games(where: Where) -> None:
    """A calculation's player is one of its game's (the database has no keys of its own for
    them since migration 0004; since migration 0020 the opponent and the tournament are the
    game's, read from it): in every list, revisions included. The helper refuses a calculation
    whose game is not stored or whose player is neither of its game's."""
    calculations = stored_calculations(where.connection if isinstance(where, RolledBack) else where)
    assert all(c.opponent_id != c.player_id for c in calculations)
    assert len(calculations) > 0


def test_merge_refusals_exit_2_and_change_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    build(capsys, url, tmp_path / "db", tournaments=chain(DUP), players=PLAYERS, periods=PERIODS)
    counts = row_counts(database)
    for label, args, names in [
        ("into himself", (IVO, IVO, "--reason", "x"), "DROP"),
        ("unknown keep", ("3999", DUP, "--reason", "x"), "KEEP"),
        ("unknown drop", (IVO, "3999", "--reason", "x"), "DROP"),
        ("empty reason", (IVO, DUP, "--reason", ""), "--reason"),
        ("blank reason", (IVO, DUP, "--reason", "  "), "--reason"),
        ("they played each other", (IVO, JAN, "--reason", "x"), "DROP"),
    ]:
        code, out, err = merge(capsys, url, *args)
        assert code == 2, f"{label}: exit {code}: {err}"
        assert names in err, f"{label}: {err!r}"
        assert out == "", label
        assert row_counts(database) == counts, label

    code, _, err = merge(capsys, url, IVO, DUP, "--reason", "same person")
    assert code == 0, err
    counts = row_counts(database)
    revisions = latest_revisions(database)
    for label, args, names in [
        ("merged twice", (IVO, DUP, "--reason", "again"), "DROP"),
        ("the dropped record kept", (DUP, KIM, "--reason", "x"), "KEEP"),
        ("the dropped record dropped again", (JAN, DUP, "--reason", "x"), "DROP"),
    ]:
        code, out, err = merge(capsys, url, *args)
        assert code == 2, f"{label}: exit {code}: {err}"
        assert names in err, f"{label}: {err!r}"
        assert "already merged" in err, label
        assert row_counts(database) == counts, label
    assert latest_revisions(database) == revisions
