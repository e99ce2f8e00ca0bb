"""``ratingdb lists import FILE --replace --reason TEXT [--dry-run]`` (issue 11): a list imported
by mistake is corrected like everything else. The corrected file is published as a new revision
of the imported list (revision 1 stays as it was), the later published periods are recomputed
from it, the correction is in the audit log, ``periods verify --all`` proves every revision,
and ``--dry-run`` prints the impact and writes nothing.

The chain (fide-standard 2025-10 rules, table 8.1.2 of docs/rules.md §4.1; see test_revision_chain):
list 2026-08 imported, T1 rated in 2026-09, T2 in 2026-10, both closed. The corrected 2026-08
list gives Ada 1850 instead of 1800; everything else as imported.

2026-09 (T1 rated with the 2026-08 list; Fay-Ada is a forfeit, never rated):
  Ada 1850 vs Ben 1700: D +150 -> PD .70; 1 - .70 = +.30; x20 = 6 -> 1856 (was 1807).
  Ben: vs Ada D -150 -> .30, -.30; vs Cal 2000 D -300 -> .15, +.85; +.55 x20 = 11 -> 1711
  (was 1710). Every other entry as in revision 1.
2026-10 (T2 rated with the 2026-09 list):
  Ada 1856 vs Cal 1980 draw: D -124 -> .33, +.17 x20 = 3.4 -> +3 -> 1859 (was 1812);
  Cal: D +124 -> .67, -.17 -> -3 -> 1977 (was 1975).
  Ben 1711 vs Dee 1903 0-1: D -192 -> .25, -.25 x20 = -5 -> 1706 (was 1705);
  Dee: D +192 -> .75, +.25 -> +5 -> 1908 (unchanged: 1903 + 5 as before).
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.corrections.test_revision_chain import (
    ADA,
    BASE,
    BASELINE,
    BEN,
    CAL,
    CATEGORY,
    DEE,
    ORIGINAL,
    P1,
    T1,
    T2,
    Entry,
    P,
    baseline_csv,
    build,
    carried,
    entries,
    ok,
)
from tests.support.cli import run_cli as cli
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, entries_where, query, row_counts

REASON = "the federation sent last month's file"
CORRECTED = [(p, name, 1850 if p == ADA else rating, games) for p, name, rating, games in BASELINE]

BASE_REVISION_1: dict[str, Entry] = {
    p: (rating, None, None, 0, 40 if games < 30 else 20) for p, _, rating, games in BASELINE
}
BASE_REVISION_2 = BASE_REVISION_1 | {ADA: (1850, None, None, 0, 20)}
P_REVISION_2 = ORIGINAL[P] | {ADA: (1856, 1850, 6, 1, 20), BEN: (1711, 1700, 11, 2, 20)}
P1_REVISION_2 = carried(P_REVISION_2) | {
    ADA: (1859, 1856, 3, 1, 20),
    CAL: (1977, 1980, -3, 1, 20),
    BEN: (1706, 1711, -5, 1, 20),
    DEE: (1908, 1903, 5, 1, 20),
}


def imported_entries(where: Where, period: str, revision: int) -> dict[str, Entry]:
    rows = entries_where(
        where,
        "l.category = :c AND l.list_date = :d AND l.revision = :r",
        ("player_id", "rating", "previous_rating", "change", "games", "k_factor"),
        c=CATEGORY,
        d=f"{period}-01",
        r=revision,
    )
    return {row[0]: tuple(row[1:]) for row in rows}


def chain(capsys: pytest.CaptureFixture[str], url: str, folder: Path) -> Path:
    """The imported 2026-08 list, T1 and T2 closed in 2026-09 and 2026-10; returns the
    corrected list's file."""
    build(capsys, url, folder, tournaments=(T1, T2), periods=(P, P1))
    corrected = folder / "corrected.csv"
    corrected.write_text(baseline_csv(CORRECTED), encoding="utf-8")
    return corrected


def replace(
    capsys: pytest.CaptureFixture[str], url: str, path: Path, *extra: str, period: str = BASE
) -> tuple[int, str, str]:
    return cli(
        capsys, "lists", "import", str(path), "--category", CATEGORY, "--period", period,
        "--replace", *extra, url=url,
    )  # fmt: skip


def revisions_by_period(document: dict[str, Any]) -> dict[str, tuple[int, int, list[Any]]]:
    return {
        r["period"]: (
            r["from_revision"],
            r["to_revision"],
            [(c["player_id"], c["from_rating"], c["to_rating"]) for c in r["changes"]],
        )
        for r in document["revisions"]
    }


EXPECTED_IMPACT = {
    BASE: (1, 2, [(ADA, 1800, 1850)]),
    P: (1, 2, [(ADA, 1807, 1856), (BEN, 1710, 1711)]),
    P1: (1, 2, [(ADA, 1812, 1859), (BEN, 1705, 1706), (CAL, 1975, 1977)]),
}


def test_a_replaced_list_is_a_new_revision_and_the_later_lists_are_recomputed(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    corrected = chain(capsys, url, tmp_path)
    assert entries(database, P) == ORIGINAL[P]
    list_row_before = query(database, "SELECT * FROM rating_lists WHERE revision = 1 ORDER BY id")
    base_before = imported_entries(database, BASE, 1)
    assert base_before == BASE_REVISION_1

    code, out, err = replace(capsys, url, corrected, "--reason", REASON)
    assert code == 0, err
    document = json.loads(out)
    assert revisions_by_period(document) == EXPECTED_IMPACT
    assert document["kind"] == "list-replace"
    assert document["revision"] == 2
    assert document["dry_run"] is False
    assert document["entries"] == len(BASELINE)

    # The new revisions, as worked in the module docstring; revision 1 of every list as it was.
    assert imported_entries(database, BASE, 2) == BASE_REVISION_2
    assert entries(database, P, 2) == P_REVISION_2
    assert entries(database, P1, 2) == P1_REVISION_2
    assert imported_entries(database, BASE, 1) == base_before
    assert entries(database, P, 1) == ORIGINAL[P]
    assert entries(database, P1, 1) == ORIGINAL[P1]
    assert query(database, "SELECT * FROM rating_lists WHERE revision = 1 ORDER BY id") == (
        list_row_before
    )
    # The new revision of the imported list is an import naming its correction.
    (source, cause), *_ = query(
        database,
        "SELECT source, cause_correction_id FROM rating_lists WHERE list_date = :d "
        "AND revision = 2",
        d=f"{BASE}-01",
    )
    assert source == "import"
    assert cause == document["correction_id"]
    # The export gives the latest revision.
    exported = json.loads(ok(capsys, "lists", "export", "--category", CATEGORY, "--period",
                             BASE, "--format", "json", url=url))  # fmt: skip
    assert exported["revision"] == 2
    assert {e["player_id"]: e["rating"] for e in exported["entries"]}[ADA] == 1850

    # The correction and the audit entry.
    ((kind, category, tournament, reason, actor, before, after),) = query(
        database,
        "SELECT kind, category, tournament_id, reason, actor, before, after FROM corrections",
    )
    before, after = (json.loads(v) if isinstance(v, str) else v for v in (before, after))
    assert (kind, category, tournament, reason) == ("list-replace", CATEGORY, None, REASON)
    assert actor
    assert before["revision"] == 1
    assert before["entries"] == len(BASELINE)
    assert after["revision"] == 2
    assert after["file"] == str(corrected)
    audit = [json.loads(line) for line in ok(capsys, "audit", url=url).splitlines()]
    assert audit[0]["action"] == "correction"
    assert audit[0]["details"]["kind"] == "list-replace"
    assert audit[0]["details"]["reason"] == REASON
    assert audit[0]["details"]["correction_id"] == document["correction_id"]
    assert audit[0]["actor"] == actor
    assert audit[0]["file_digest"] == after["file_digest"]

    # diff names the correction; verify proves every revision.
    diff = json.loads(ok(capsys, "lists", "diff", "--category", CATEGORY, "--period", BASE,
                         "--to-revision", "2", url=url))  # fmt: skip
    assert [c["kind"] for c in diff["corrections"]] == ["list-replace"]
    assert [(c["player_id"], c["rating_difference"]) for c in diff["changes"]] == [(ADA, 50)]
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err
    verified = [json.loads(line) for line in out.splitlines()]
    assert len(verified) == 6  # three lists, two revisions each
    assert all(v["ok"] for v in verified), verified


def test_a_dry_run_prints_the_impact_and_writes_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    corrected = chain(capsys, url, tmp_path)
    counts = row_counts(database)
    code, out, err = replace(capsys, url, corrected, "--reason", REASON, "--dry-run")
    assert code == 0, err
    assert "nothing was written" in err
    document = json.loads(out)
    assert document["dry_run"] is True
    assert revisions_by_period(document) == EXPECTED_IMPACT
    # No id of a row that was not written.
    assert "correction_id" not in document
    assert "list_id" not in document
    assert row_counts(database) == counts
    # The real replace afterwards does what the dry run showed.
    code, out, err = replace(capsys, url, corrected, "--reason", REASON)
    assert code == 0, err
    assert revisions_by_period(json.loads(out)) == EXPECTED_IMPACT


def test_a_second_replace_is_revision_three_and_everything_still_verifies(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Back to the first file: revision 3 of the imported list is revision 1's content, and
    the later lists come back to their original entries, each in a third revision."""
    url = database.url
    corrected = chain(capsys, url, tmp_path)
    assert replace(capsys, url, corrected, "--reason", REASON)[0] == 0
    code, out, err = replace(capsys, url, tmp_path / "baseline.csv", "--reason", "undo")
    assert code == 0, err
    assert {r["period"]: r["to_revision"] for r in json.loads(out)["revisions"]} == {
        BASE: 3, P: 3, P1: 3,
    }  # fmt: skip
    assert imported_entries(database, BASE, 3) == BASE_REVISION_1
    assert entries(database, P, 3) == ORIGINAL[P]
    assert entries(database, P1, 3) == ORIGINAL[P1]
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err
    assert len(out.splitlines()) == 9


def test_refusals_exit_2_and_store_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    corrected = chain(capsys, url, tmp_path)
    counts = row_counts(database)

    def refused(*args: str, period: str = BASE, path: Path = corrected) -> str:
        code, out, err = replace(capsys, url, path, *args, period=period)
        assert code == 2, (code, out, err)
        assert out == ""
        assert "Traceback" not in err
        assert row_counts(database) == counts
        return err

    assert "--reason: " in refused()
    assert "--reason: " in refused("--reason", "  ")
    # A period without a published list.
    err = refused("--reason", REASON, period="2026-12")
    assert "--period: " in err
    assert "fide-standard 2026-12 has no published list to replace" in err
    # A list computed by a close: its tournaments are what to correct.
    err = refused("--reason", REASON, period=P)
    assert "computed by a close" in err
    # The file gives the list as it is.
    err = refused("--reason", REASON, path=tmp_path / "baseline.csv")
    assert "nothing to correct" in err
    assert str(tmp_path / "baseline.csv") in err
    # A corrected file without entries.
    empty = tmp_path / "empty.csv"
    empty.write_text(baseline_csv([]), encoding="utf-8")
    assert "the list has no entries" in refused("--reason", REASON, path=empty)
    # --reason and --dry-run belong to --replace.
    for extra in (("--reason", REASON), ("--dry-run",)):
        code, _, err = cli(
            capsys, "lists", "import", str(corrected), "--category", CATEGORY, "--period",
            "2026-12", *extra, url=url,
        )  # fmt: skip
        assert code == 2, err
        assert "only with --replace" in err
        assert row_counts(database) == counts


def test_a_replaced_standard_list_reaches_the_rapid_list_that_read_it(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rapid 2026-09 rated Ada, unrated in rapid, with her standard rating (B.02 rapid/blitz
    §7.2.1: a rated player with no rapid games, K 40); the imported rapid list 2026-08 (Ben
    1700, K 20) is not computed from anything and stays as it is.
    Rapid tournament 2026-08-10..11: Ada - Ben 1-0.
      Standard 1800: Ada D +100 -> .64, +.36 x40 = 14.4 -> 1814; Ben D -100 -> .36, -.36 x20
      = -7.2 -> 1693.
      Standard 1850: Ada D +150 -> .70, +.30 x40 = 12 -> 1862; Ben D -150 -> .30, -.30 x20 = -6
      -> 1694."""
    url = database.url
    rapid = ("--category", "fide-rapid")
    standard = tmp_path / "standard.csv"
    standard.write_text(baseline_csv(), encoding="utf-8")
    ok(capsys, "lists", "import", str(standard), "--category", CATEGORY, "--period", BASE,
       url=url)  # fmt: skip
    rapid_list = tmp_path / "rapid.csv"
    rapid_list.write_text(baseline_csv([(BEN, "Ben, B", 1700, 60)]), encoding="utf-8")
    ok(capsys, "lists", "import", str(rapid_list), *rapid, "--period", BASE, url=url)
    games = tmp_path / "rapid_open.csv"
    games.write_text(
        "tournament,start_date,end_date,round,white_id,black_id,result\n"
        f"Rapid,2026-08-10,2026-08-11,1,{ADA},{BEN},1-0\n",
        encoding="utf-8",
    )
    ok(capsys, "tournaments", "import", str(games), *rapid, url=url)
    ok(capsys, "periods", "close", *rapid, "--period", P, url=url)

    def rapid_entries(revision: int) -> dict[str, Any]:
        rows = entries_where(
            database,
            "l.category = 'fide-rapid' AND l.list_date = :d AND l.revision = :r",
            ("player_id", "rating", "previous_rating", "change", "games", "k_factor"),
            d=f"{P}-01",
            r=revision,
        )
        return {row[0]: tuple(row[1:]) for row in rows}

    original = {ADA: (1814, None, None, 1, 40), BEN: (1693, 1700, -7, 1, 20)}
    assert rapid_entries(1) == original
    corrected = tmp_path / "corrected.csv"
    corrected.write_text(baseline_csv(CORRECTED), encoding="utf-8")
    code, out, err = replace(capsys, url, corrected, "--reason", REASON)
    assert code == 0, err
    assert [
        (r["category"], r["period"], r["to_revision"]) for r in json.loads(out)["revisions"]
    ] == [
        (CATEGORY, BASE, 2),
        ("fide-rapid", P, 2),
    ]
    assert rapid_entries(2) == {ADA: (1862, None, None, 1, 40), BEN: (1694, 1700, -6, 1, 20)}
    assert rapid_entries(1) == original
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err
    assert len(out.splitlines()) == 5  # standard 2026-08 x2, rapid 2026-08, rapid 2026-09 x2


def test_a_fide_txt_list_is_replaced_by_a_corrected_download(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The FIDE formats take the same path: Nina's rating 1650 -> 1660 in the corrected TXT;
    the others' entries as before (the K kept as the status gives it); the player added by the
    corrected file is created, as a list import creates him."""
    from tests.formats.test_fide_list import STANDARD
    from tests.support.files import FIDE_STANDARD_HEADER as STANDARD_HEADER
    from tests.support.files import fixed

    url = database.url
    first = tmp_path / "std.txt"
    first.write_text(STANDARD, encoding="utf-8")
    which = ("--category", CATEGORY, "--period", "2026-11")
    ok(capsys, "lists", "import", str(first), *which, url=url)
    newcomer = fixed(STANDARD_HEADER, {"ID Number": "56789012", "Name": "Late, Leo",
                                       "Fed": "FRA", "Sex": "M", "SRtng": "1500", "SGm": "0",
                                       "SK": "20", "B-day": "1980"})  # fmt: skip
    corrected = tmp_path / "corrected.txt"
    corrected.write_text(STANDARD.replace(" 1650 ", " 1660 ") + newcomer + "\n", encoding="utf-8")
    before = imported_entries(database, "2026-11", 1)
    code, out, err = cli(capsys, "lists", "import", str(corrected), *which, "--replace",
                         "--reason", REASON, url=url)  # fmt: skip
    assert code == 0, err
    document = json.loads(out)
    assert document["players_created"] == 1
    assert revisions_by_period(document) == {
        "2026-11": (1, 2, [("34567890", 1650, 1660), ("56789012", None, 1500)])
    }
    assert imported_entries(database, "2026-11", 1) == before
    assert imported_entries(database, "2026-11", 2) == before | {
        "34567890": (1660, None, None, 3, 40),
        "56789012": (1500, None, None, 0, 20),
    }
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err


def test_a_close_beside_a_replace_waits_and_starts_from_the_new_revision(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A replace holds off the close of the next period until it commits: the close then
    computes 2026-10 from the replaced chain (PostgreSQL: the close's own lock, taken by the
    replace; SQLite: the database's write lock). Without that, the close would publish 2026-10
    from 2026-09's revision 1 beside the replace, and verify would not prove it."""
    from datetime import UTC, datetime

    from ratingdb.db import make_engine, make_sessionmaker
    from ratingdb.rules import Category, Period
    from ratingdb.services.corrections import replace_list

    url = database_url
    build(capsys, url, tmp_path, tournaments=(T1, T2), periods=(P,))
    corrected = tmp_path / "corrected.csv"
    corrected.write_text(baseline_csv(CORRECTED), encoding="utf-8")
    engine = make_engine(url)
    outcome: dict[str, Any] = {}

    def close_next() -> None:
        outcome["code"] = main_close()

    def main_close() -> int:
        from ratingdb.cli import main

        return main(["periods", "close", "--category", CATEGORY, "--period", P1,
                     "--database-url", url])  # fmt: skip

    try:
        with make_sessionmaker(engine).begin() as session:
            replace_list(
                session, corrected, Category.FIDE_STANDARD, Period.parse(BASE),
                file_format="csv", reason=REASON, actor="test", now=datetime.now(UTC),
            )  # fmt: skip
            closer = threading.Thread(target=close_next)
            closer.start()
            closer.join(timeout=2)
            assert closer.is_alive(), "the close did not wait for the replace"
        closer.join(timeout=60)
        assert not closer.is_alive()
    finally:
        engine.dispose()
    assert outcome["code"] == 0
    assert entries(url, P, 2) == P_REVISION_2
    assert entries(url, P1, 1) == P1_REVISION_2
    code, out, err = cli(capsys, "periods", "verify", "--all", url=url)
    assert code == 0, out + err


def test_the_api_shows_the_replaced_list_and_its_correction(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The list's page gives revision 2 (revision 1 on request) and the diff names the
    correction of kind list-replace (the API refused that kind before)."""
    from fastapi.testclient import TestClient

    from ratingdb.api import create_app
    from ratingdb.config import Settings

    url = database_url
    corrected = chain(capsys, url, tmp_path)
    code, out, err = replace(capsys, url, corrected, "--reason", REASON)
    assert code == 0, err
    correction_id = json.loads(out)["correction_id"]
    page = f"/v1/lists/{CATEGORY}/{BASE}"
    with TestClient(create_app(Settings(database_url=url, read_database_url=url))) as client:
        latest = client.get(page)
        assert latest.status_code == 200, latest.text
        assert latest.json()["revision"] == 2
        assert latest.json()["correction_id"] == correction_id
        first = client.get(page, params={"revision": 1})
        assert first.status_code == 200, first.text
        assert {e["player_id"]: e["rating"] for e in first.json()["entries"]}[ADA] == 1800
        diff = client.get(f"{page}/diff", params={"from_revision": 1, "to_revision": 2})
        assert diff.status_code == 200, diff.text
        assert [(c["kind"], c["reason"]) for c in diff.json()["corrections"]] == [
            ("list-replace", REASON)
        ]
        assert [(c["player_id"], c["rating_difference"]) for c in diff.json()["changes"]] == [
            (ADA, 50)
        ]


def test_lists_export_gives_any_revision(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``lists export --revision N`` (contract): revision 1 is the list as first imported (Ada
    1800), the latest the replaced one (Ada 1850); a revision that does not exist is exit 2
    naming --revision."""
    url = database.url
    corrected = chain(capsys, url, tmp_path)
    code, _, err = replace(capsys, url, corrected, "--reason", REASON)
    assert code == 0, err
    ratings = {}
    for revision in ("1", "2", None):
        extra = ("--revision", revision) if revision else ()
        code, out, err = cli(capsys, "lists", "export", "--category", CATEGORY, "--period", BASE,
                             "--format", "json", *extra, url=url)  # fmt: skip
        assert code == 0, err
        document = json.loads(out)
        ratings[revision] = (
            document["revision"],
            {e["player_id"]: e["rating"] for e in document["entries"]}[ADA],
        )
    assert ratings == {"1": (1, 1800), "2": (2, 1850), None: (2, 1850)}
    code, _, err = cli(capsys, "lists", "export", "--category", CATEGORY, "--period", BASE,
                       "--format", "json", "--revision", "3", url=url)  # fmt: skip
    assert code == 2
    assert "--revision" in err
    assert "no revision 3" in err
