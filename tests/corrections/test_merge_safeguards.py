"""Merges that cannot be wrong (issue 28, item 3): ``ratingdb players merge KEEP DROP`` refuses
two records that may be two people (a round both played, another sex, another birth year),
naming each conflict, unless ``--override REASON`` is given; the override and the conflicts it
overrode are kept with the correction and in the audit log. Hand-built cases:

Same round. Baseline 2026-08 (fide-standard, adults, 60 rated games, K 20): 3001 Ivo 1900,
3002 Jan 1800, 3003 Kim 2000, 3004 Lea 1700; 3099 is Ivo again, unrated. S1 (2026-08-10..11):
  round 1: Ivo-Jan 1-0, 3099-Kim 1/2;  round 2: Lea-Ivo 0-1, Jan-3099 0-1.
Ivo and 3099 both played rounds 1 and 2 (never each other). P = 2026-09, as entered (a game
against the unrated 3099 counts for nobody rated; table 8.1.2 of docs/rules.md §4.1):
  Ivo: vs Jan D +100 -> .64, +.36; vs Lea D +200 -> .76, +.24; .60 x20 = 12 -> 1912.
  Jan: vs Ivo -.36 x20 = -7.2 -> -7 -> 1793.  Lea: vs Ivo -.24 x20 = -4.8 -> -5 -> 1695.
  Kim: no rated game, 2000.
Merged with an override, 3099's games are Ivo's (4 games, all against his 1900 of 2026-08):
  Ivo: +.36 +.24, vs Kim 2000 draw D -100 -> .36, +.14, vs Jan win +.36: 1.10 x20 = 22 -> 1922.
  Jan: two losses to Ivo, -.72 x20 = -14.4 -> -14 -> 1786.
  Kim: vs Ivo draw, D +100 -> .64, -.14 x20 = -2.8 -> -3 -> 1997.  Lea: as before, 1695.

Sex and birth year: the chain of test_merge (3099 plays M2 only, Ivo never meets him), with
3099's sex or birth year made another: refused; with the override, merged with the figures
worked in test_merge (P+1: Ivo 1914, +7, 2 games).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.corrections import test_merge as merges
from tests.corrections.test_merge import DUP, IVO, JAN, KIM, LEA, PLAYERS
from tests.corrections.test_revision_chain import (
    build,
    entries,
    latest_revisions,
    ok,
)
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import execute, query, row_counts

P = "2026-09"
SAME_ROUNDS = [
    ("S1", "2026-08-10", "2026-08-11",
     [(1, IVO, JAN, "1-0"), (1, DUP, KIM, "1/2-1/2"), (2, LEA, IVO, "0-1"), (2, JAN, DUP, "0-1")]),
]  # fmt: skip
OVERRIDE = "the arbiter paired Ivo twice by mistake; confirmed with him by phone"


def merge(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    return cli(capsys, "players", "merge", *args, url=url)


def merge_audit(capsys: pytest.CaptureFixture[str], url: str) -> list[dict[str, Any]]:
    out = ok(capsys, "audit", "--action", "merge", url=url)
    return [json.loads(line) for line in out.splitlines()]


def assert_refused(
    capsys: pytest.CaptureFixture[str], database: RolledBack, message: str, *extra: str
) -> None:
    counts = row_counts(database)
    code, out, err = merge(capsys, database.url, IVO, DUP, "--reason", "same person", *extra)
    assert code == 2, err
    assert out == ""
    assert err.strip() == f"ratingdb players: --override: {message}", err
    assert row_counts(database) == counts


def test_two_records_that_played_the_same_round_are_refused_then_merged_with_an_override(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "db", tournaments=SAME_ROUNDS, players=PLAYERS,
                periods=(P,))  # fmt: skip
    s1 = ids["S1"]
    assert entries(database, P) == {
        IVO: (1912, 1900, 12, 2, 20),
        JAN: (1793, 1800, -7, 1, 20),
        KIM: (2000, 2000, 0, 0, 20),
        LEA: (1695, 1700, -5, 1, 20),
    }
    assert_refused(
        capsys, database,
        f"{IVO} and {DUP} may be two people: both played rounds 1, 2 of tournament {s1} (S1). "
        "Check both records; to merge them all the same, give an override with its reason",
    )  # fmt: skip

    # A dry run with the override shows both records side by side and the conflict.
    code, out, err = merge(capsys, url, IVO, DUP, "--reason", "same person",
                           "--override", OVERRIDE, "--dry-run")  # fmt: skip
    assert code == 0, err
    shown = json.loads(out)
    assert shown["conflicts"] == [
        {"kind": "same_round", "tournament_id": s1, "tournament": "S1", "rounds": [1, 2]}
    ]
    assert shown["override"] == OVERRIDE
    assert shown["players"]["keep"] == {
        "player_id": IVO, "name": "Ivo, I", "fide_id": None, "national_id": None,
        "federation": "FRA", "sex": "M", "birth_year": 1990, "title": None, "games": 2,
        "lists": [{"category": "fide-standard", "first": "2026-08", "last": P, "lists": 2}],
    }  # fmt: skip
    # 3099 is on no list: unrated in the baseline, and his 2 games are short of a first rating.
    assert shown["players"]["drop"] == {
        "player_id": DUP, "name": "Ivo, I", "fide_id": None, "national_id": None,
        "federation": "FRA", "sex": "M", "birth_year": 1990, "title": None, "games": 2,
        "lists": [],
    }  # fmt: skip
    assert merge_audit(capsys, url) == []

    code, out, err = merge(capsys, url, IVO, DUP, "--reason", "same person",
                           "--override", f"  {OVERRIDE} ")  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["override"] == OVERRIDE
    assert latest_revisions(database) == {P: 2}
    # Worked in the module docstring.
    assert entries(database, P) == {
        IVO: (1922, 1900, 22, 4, 20),
        JAN: (1786, 1800, -14, 2, 20),
        KIM: (1997, 2000, -3, 1, 20),
        LEA: (1695, 1700, -5, 1, 20),
    }
    conflicts = [{"kind": "same_round", "tournament_id": s1, "tournament": "S1", "rounds": [1, 2]}]
    ((after,),) = query(database, "SELECT after FROM corrections")
    after = json.loads(after) if isinstance(after, str) else after
    assert after == {"keep": IVO, "games": 2, "override": OVERRIDE, "conflicts": conflicts}
    (logged,) = merge_audit(capsys, url)
    assert logged["details"]["override"] == OVERRIDE
    assert logged["details"]["conflicts"] == conflicts
    assert logged["details"]["reason"] == "same person"
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err


@pytest.mark.parametrize(
    ("column", "value", "conflict", "said"),
    [
        ("sex", "F", {"kind": "sex", "keep": "M", "drop": "F"},
         f"sex differs: {IVO} M, {DUP} F"),
        ("birth_year", 1991, {"kind": "birth_year", "keep": 1990, "drop": 1991},
         f"birth year differs: {IVO} 1990, {DUP} 1991"),
    ],
)  # fmt: skip
def test_another_sex_or_birth_year_is_refused_then_merged_with_an_override(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    column: str,
    value: Any,
    conflict: dict[str, Any],
    said: str,
) -> None:
    url = database.url
    build(capsys, url, tmp_path / "db", tournaments=merges.chain(DUP), players=PLAYERS,
          periods=merges.PERIODS)  # fmt: skip
    assert execute(
        database, f"UPDATE players SET {column} = :v WHERE player_id = :p", v=value, p=DUP
    )
    assert_refused(
        capsys, database,
        f"{IVO} and {DUP} may be two people: {said}. Check both records; to merge them all the "
        "same, give an override with its reason",
    )  # fmt: skip
    # An empty override is no override.
    assert_refused(capsys, database, "an override needs a reason", "--override", " ")

    code, out, err = merge(capsys, url, IVO, DUP, "--reason", "same person",
                           "--override", OVERRIDE)  # fmt: skip
    assert code == 0, err
    shown = json.loads(out)
    assert shown["conflicts"] == [conflict]
    assert shown["players"]["drop"][column] == value
    # As worked in test_merge.
    assert entries(database, merges.P1)[IVO] == (1914, 1907, 7, 2, 20)
    assert query(database, "SELECT merged_into FROM players WHERE player_id = :d", d=DUP) == [
        (IVO,)
    ]
    (logged,) = merge_audit(capsys, url)
    assert (logged["details"]["override"], logged["details"]["conflicts"]) == (OVERRIDE, [conflict])


def test_a_record_without_sex_or_birth_year_conflicts_with_none(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to compare is no conflict: merged as before, and an override is refused (there
    is nothing to override)."""
    url = database.url
    build(capsys, url, tmp_path / "db", tournaments=merges.chain(DUP), players=PLAYERS,
          periods=merges.PERIODS)  # fmt: skip
    execute(
        database, "UPDATE players SET sex = NULL, birth_year = NULL WHERE player_id = :p", p=DUP
    )
    assert_refused(
        capsys, database,
        f"{IVO} and {DUP} have no conflict: nothing to override; merge them without it",
        "--override", OVERRIDE,
    )  # fmt: skip
    code, out, err = merge(capsys, url, IVO, DUP, "--reason", "same person")
    assert code == 0, err
    shown = json.loads(out)
    assert (shown["conflicts"], shown["override"]) == ([], None)
    assert entries(database, merges.P1)[IVO] == (1914, 1907, 7, 2, 20)
    (logged,) = merge_audit(capsys, url)
    assert "override" not in logged["details"]


def test_every_conflict_is_named_at_once(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "db", tournaments=SAME_ROUNDS, players=PLAYERS,
                periods=(P,))  # fmt: skip
    execute(database, "UPDATE players SET sex = 'F', birth_year = 2001 WHERE player_id = :p", p=DUP)
    assert_refused(
        capsys, database,
        f"{IVO} and {DUP} may be two people: both played rounds 1, 2 of tournament "
        f"{ids['S1']} (S1); sex differs: {IVO} M, {DUP} F; birth year differs: {IVO} 1990, "
        f"{DUP} 2001. Check both records; to merge them all the same, give an override with "
        "its reason",
    )  # fmt: skip
    # They played each other: refused whatever the override (he would have played himself).
    counts = row_counts(database)
    code, _, err = merge(capsys, url, IVO, JAN, "--reason", "x", "--override", OVERRIDE)
    assert code == 2
    assert "DROP: 3001 and 3002 played each other" in err
    assert row_counts(database) == counts
