"""``ratingdb games correct`` on the chain of test_revision_chain (issue 7): the original revision
stays as it was, the correction is recorded (who, when, why, before and after) and replaces the
game's row instead of editing it, ``--dry-run`` prints the impact and writes nothing, and bad
requests exit 2 naming the option, changing nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from ratingdb.models import CorrectionRow
from tests.corrections.test_revision_chain import (
    ADA,
    BEN,
    CAL,
    DEE,
    FAY,
    GIL,
    HAL,
    P1,
    PERIODS,
    T1,
    P,
    build,
    correct,
    entries,
    exported,
    latest_revisions,
    list_table,
    ok,
)
from tests.support.calculations import stored_calculations
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import query, row_counts


def revision_one(database: RolledBack) -> dict[str, Any]:
    """Everything stored for the revision 1 lists: the list rows, their entries (every column),
    statuses and calculations (their rows as stored, and each calculation read back)."""
    lists = query(
        database,
        "SELECT id, category, list_date, revision, source, rule_version, "
        "published_at, entry_count, digest, cause_correction_id, "
        "corrections_applied FROM rating_lists WHERE revision = 1 ORDER BY id",
    )
    ids = {row[0] for row in lists}

    def rows(table: str, order: str) -> list[tuple[Any, ...]]:
        return [
            row
            for row in query(database, f"SELECT * FROM {table} ORDER BY {order}")
            if row[0] in ids
        ]

    return {
        "lists": lists,
        "entries": rows("list_entries", "list_id, player_id"),
        "statuses": rows("player_status", "list_id, player_id"),
        "player_calculations": rows("player_calculations", "list_id, player_id"),
        "calculations": [c for c in stored_calculations(database.connection) if c.list_id in ids],
    }


def test_the_original_revision_stays_available_and_unchanged(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    before = revision_one(database)
    exported_before = {period: exported(capsys, url, period) for period in PERIODS}
    assert {d["revision"] for d in exported_before.values()} == {1}
    game_rows = query(
        database,
        "SELECT id, tournament_id, round, white_id, black_id, result, rated FROM games ORDER BY id",
    )

    code, _, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-")
    assert code == 0, err

    # Revision 1 of every list: the same rows, to the last calculation.
    assert revision_one(database) == before
    for period in PERIODS:
        original = {e[0]: tuple(e[1:]) for e in list_table(exported_before[period])}
        assert entries(database, period, revision=1) == original, period
        # The export (latest revision) is now revision 2, and differs for Ada and Ben.
        now = exported(capsys, url, period)
        assert now["revision"] == 2
        changed = {e[0] for e in set(list_table(now)) ^ set(list_table(exported_before[period]))}
        assert changed == {ADA, BEN}, period
    # The game's row is kept as it was; the corrected row is a new one.
    after_rows = query(
        database,
        "SELECT id, tournament_id, round, white_id, black_id, result, rated FROM games ORDER BY id",
    )
    assert after_rows[: len(game_rows)] == game_rows
    assert [row[1:] for row in after_rows[len(game_rows) :]] == [
        (ids["T1"], 1, ADA, BEN, "+-", False)
    ]
    # tournaments show: the current games only, the corrected one among them.
    shown = json.loads(ok(capsys, "tournaments", "show", ids["T1"], url=url))
    current = [
        (g["round"], g["white_id"], g["black_id"], g["result"], g["rated"]) for g in shown["games"]
    ]
    assert len(current) == len(T1[3])
    assert (1, ADA, BEN, "+-", False) in current
    assert (1, ADA, BEN, "1-0", True) not in current


def test_the_correction_is_recorded_who_when_why_before_after(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RATINGDB_ACTOR", "Ada Arbiter")  # the person, never a process id
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    (old_id,) = query(
        database, "SELECT id FROM games WHERE white_id = :w AND black_id = :b", w=ADA, b=BEN
    )[0]
    started = datetime.now(UTC)
    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-", "Ben did not show up")
    finished = datetime.now(UTC)
    assert code == 0, err
    report = json.loads(out)
    assert report["kind"] == "game"
    assert report["dry_run"] is False
    current = "SELECT id FROM games WHERE white_id = :w AND black_id = :b AND superseded_by IS NULL"
    (new_id,) = query(database, current, w=ADA, b=BEN)[0]
    assert new_id != old_id

    with database.sessions() as session:
        (row,) = session.scalars(select(CorrectionRow)).all()
        assert row.id == report["correction_id"]
        assert (row.kind, row.category, row.tournament_id) == (
            "game",
            "fide-standard",
            ids["T1"],
        )
        assert row.reason == "Ben did not show up"
        assert row.actor == "Ada Arbiter"
        assert started <= row.created_at <= finished
        assert row.before == {"game_id": old_id, "result": "1-0"}
        assert row.after == {"game_id": new_id, "result": "+-"}
    # The rows point to it both ways, and so do the revisions it caused.
    assert query(
        database, "SELECT superseded_by, created_by FROM games WHERE id = :i", i=old_id
    ) == [(row.id, None)]
    assert query(
        database, "SELECT superseded_by, created_by FROM games WHERE id = :i", i=new_id
    ) == [(None, row.id)]
    revised = query(
        database,
        "SELECT list_date, revision, cause_correction_id, corrections_applied "
        "FROM rating_lists WHERE revision > 1 ORDER BY list_date",
    )
    assert [(str(d)[:7], r, c, a) for d, r, c, a in revised] == [
        (period, 2, row.id, row.id) for period in PERIODS
    ]
    originals = query(
        database,
        "SELECT cause_correction_id, corrections_applied FROM rating_lists "
        "WHERE revision = 1 AND source = 'close'",
    )
    assert set(originals) == {(None, 0)}


def test_dry_run_prints_the_impact_and_writes_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "chain")
    counts = row_counts(database)
    games = query(database, "SELECT * FROM games ORDER BY id")
    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-", "check", "--dry-run")
    assert code == 0, err
    assert "dry run: nothing was written" in err
    impact = json.loads(out)
    assert impact["dry_run"] is True
    # Which lists would change, and who by how much (worked in test_revision_chain).
    shown = {
        r["period"]: {
            c["player_id"]: (c["from_rating"], c["to_rating"], c["difference"])
            for c in r["changes"]
        }
        for r in impact["revisions"]
    }
    assert shown == {
        P: {ADA: (1807, 1800, -7), BEN: (1710, 1717, 7)},
        P1: {ADA: (1812, 1805, -7), BEN: (1705, 1712, 7)},
        "2026-11": {ADA: (1825, 1818, -7), BEN: (1702, 1709, 7)},
        "2026-12": {ADA: (1825, 1818, -7), BEN: (1702, 1709, 7)},
    }
    assert [r["to_revision"] for r in impact["revisions"]] == [2, 2, 2, 2]
    # Nothing written: every table has the rows it had, the games are as they were.
    assert row_counts(database) == counts
    assert query(database, "SELECT * FROM games ORDER BY id") == games
    assert latest_revisions(database) == dict.fromkeys(PERIODS, 1)

    # The real correction does what the dry run announced.
    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-", "check")
    assert code == 0, err
    done = json.loads(out)
    assert [(r["period"], r["changes"]) for r in done["revisions"]] == [
        (r["period"], r["changes"]) for r in impact["revisions"]
    ]


def test_refusals_exit_2_name_the_option_and_change_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    ids = build(capsys, url, tmp_path / "chain", periods=[P])
    counts = row_counts(database)
    t1 = ids["T1"]
    cases: list[tuple[str, tuple[str, tuple[int, str, str], str, str], str]] = [
        ("unknown tournament", ("T999999", (1, ADA, BEN), "+-", "why"), "--tournament"),
        ("no such round", (t1, (4, ADA, BEN), "+-", "why"), "--white"),
        ("colours swapped", (t1, (1, BEN, ADA), "0-1", "why"), "--white"),
        ("players who did not meet", (t1, (1, ADA, CAL), "0-1", "why"), "--white"),
        ("same result", (t1, (1, ADA, BEN), "1-0", "why"), "--result"),
        ("empty reason", (t1, (1, ADA, BEN), "+-", ""), "--reason"),
        ("blank reason", (t1, (1, ADA, BEN), "+-", "   "), "--reason"),
        ("bad result", (t1, (1, ADA, BEN), "2-0", "why"), "--result"),
        ("score, not a result", (t1, (1, ADA, BEN), "1", "why"), "--result"),
    ]
    for label, (tournament, game, result, reason), option in cases:
        code, out, err = correct(capsys, url, tournament, game, result, reason)
        assert code == 2, f"{label}: exit {code}, {err}"
        assert option in err, f"{label}: {err!r} does not name {option}"
        assert out == "", label
        assert row_counts(database) == counts, label
    # A dry run is refused the same way.
    code, _, err = correct(capsys, url, t1, (1, ADA, BEN), "1-0", "why", "--dry-run")
    assert (code, "--result" in err) == (2, True)
    # A round that is not a number: argparse's refusal, exit 2 naming --round.
    names = ("--tournament", t1, "--round", "one", "--white", ADA, "--black", BEN)
    code, _, err = cli(capsys, "games", "correct", *names, "--result=+-", "--reason=x", url=url)
    assert (code, "--round" in err) == (2, True)
    assert row_counts(database) == counts


def test_a_correction_before_the_close_changes_no_published_list(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game of an open period: nothing to revise; the close then rates the corrected game."""
    url = database.url
    ids = build(capsys, url, tmp_path / "chain", periods=[])
    code, out, err = correct(capsys, url, ids["T1"], (1, ADA, BEN), "+-")
    assert code == 0, err
    report = json.loads(out)
    assert report["revisions"] == []
    assert report["open_periods_changed"] == [f"fide-standard {P}"]
    assert query(database, "SELECT count(*) FROM rating_lists WHERE source = 'close'") == [(0,)]
    ok(capsys, "periods", "close", "--category", "fide-standard", "--period", P, url=url)
    assert latest_revisions(database) == {P: 1}
    # As in test_revision_chain: Ada no rated game, Ben +.85 x20 = 17.
    assert entries(database, P)[ADA] == (1800, 1800, 0, 0, 20)
    assert entries(database, P)[BEN] == (1717, 1700, 17, 1, 20)
    assert entries(database, P)[CAL] == (1980, 2000, -20, 2, 20)
    assert entries(database, P)[DEE] == (1903, 1900, 3, 1, 20)


def test_forfeit_results_as_separate_arguments(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--result -+`` as the help text offers it ("1-0, 0-1, 1/2-1/2, +-, -+ or --")."""
    url = database.url
    ids = build(capsys, url, tmp_path / "chain", periods=[])
    names = ("--tournament", ids["T1"], "--round", "3", "--white", FAY, "--black", ADA)
    code, _, err = cli(
        capsys, "games", "correct", *names, "--result", "-+", "--reason", "swap", url=url
    )
    assert code == 0, err
    assert query(
        database, "SELECT result FROM games WHERE white_id = :w AND superseded_by IS NULL", w=FAY
    ) == [("-+",)]


def test_a_double_forfeit_can_be_entered(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--`` (both forfeited) is one of the six results; ``--result=--`` must reach the service
    as "--" (not crash), and the game becomes a double forfeit."""
    url = database.url
    ids = build(capsys, url, tmp_path / "chain", periods=[])
    code, _, err = correct(capsys, url, ids["T1"], (1, GIL, HAL), "--", "neither came")
    assert code == 0, err
    assert query(
        database,
        "SELECT result, rated FROM games WHERE white_id = :w AND superseded_by IS NULL",
        w=GIL,
    ) == [("--", False)]
