"""FIDE lists in and out of the database, through the commands, on SQLite and PostgreSQL: the K
status derived from the list's K column, the round trip of the TXT layout, the combined files,
streaming in batches, and refusals that change nothing."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from ratingdb.formats.fide_list import FideXmlPlayer, write_fide_xml
from ratingdb.services.lists import fide as list_service
from ratingdb.services.lists import list_digest
from tests.formats.test_fide_list import COMBINED, STANDARD
from tests.support import forks
from tests.support.cli import run_cli as cli
from tests.support.files import LIST_HEADER, write
from tests.support.rolled_back import RolledBack

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("players", "periods", "rating_lists", "list_entries", "player_status")


def counts(database: RolledBack) -> dict[str, int]:
    return {table: database.rows(f"SELECT count(*) FROM {table}")[0][0] for table in TABLES}


def load(
    capsys: pytest.CaptureFixture[str], url: str, path: Path, fmt: str, category: str,
    period: str,
) -> dict[str, Any]:  # fmt: skip
    code, out, err = cli(capsys, "lists", "import", str(path), "--format", fmt, "--category",
                         category, "--period", period, url=url)  # fmt: skip
    assert code == 0, err
    result: dict[str, Any] = json.loads(out)
    return result


def export(capsys: pytest.CaptureFixture[str], url: str, category: str, period: str,
           fmt: str) -> str:  # fmt: skip
    code, out, err = cli(capsys, "lists", "export", "--category", category, "--period", period,
                         "--format", fmt, url=url)  # fmt: skip
    assert code == 0, err
    return out


def test_the_standard_txt_list(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    result = load(capsys, url, write(tmp_path, "std.txt", STANDARD), "fide-txt",
                  "fide-standard", "2026-11")  # fmt: skip
    assert result == {
        "category": "fide-standard", "period": "2026-11", "list_id": 1, "entries": 3,
        "unrated": 1, "players_created": 4, "players_updated": 0,
    }  # fmt: skip
    document = json.loads(export(capsys, url, "fide-standard", "2026-11", "json"))
    assert [
        (e["player_id"], e["rating"], e["games"], e["k_factor"]) for e in document["entries"]
    ] == [("1503014", 2840, 5, 10), ("25059530", 2740, 9, 10), ("34567890", 1650, 3, 40)]
    # The K status behind each K (derive_status): K 10 -> peak at least 2400; Nina, a junior
    # (born 2012) under 2300: her K 40 needs no new-player count, so 30 games.
    assert database.rows("SELECT player_id, rated_games, peak_rating FROM list_entries "
                         "ORDER BY player_id") == [
        ("1503014", 30, 2840), ("25059530", 30, 2740), ("34567890", 30, 1650),
    ]  # fmt: skip
    # Every player is created, the unrated one too, known by his FIDE id.
    assert database.rows("SELECT player_id, fide_id, sex, title, birth_year FROM players "
                         "ORDER BY player_id") == [
        ("1503014", "1503014", "M", "GM", 1990), ("25059530", "25059530", "M", "GM", 2005),
        ("34567890", "34567890", "F", "WFM", 2012), ("45678901", "45678901", "M", None, 1999),
    ]  # fmt: skip
    # The streamed digest is list_digest of the entries.
    entries = [
        {"player_id": e["player_id"], "rating": e["rating"], "previous_rating": None,
         "change": None, "games": e["games"], "k_factor": e["k_factor"], "active": e["active"]}
        for e in document["entries"]
    ]  # fmt: skip
    # Version 2 (migration 0017): the activity flag too.
    assert database.rows("SELECT digest, digest_version FROM rating_lists") == [
        (list_digest(entries), 2)
    ]


def test_k_status_derived_from_the_k_column(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/rules.md §6 read backwards from the K printed on a 2026-11 list (2025-10 rules):
    K 40 on an adult = a new player (fewer than 30 games: the month's games, here 7);
    K 20 on a junior under 2300 = a past rating of 2300 (peak raised to 2300);
    K 10 under 2400 = a past 2400 (peak 2400); K 20 on an adult = established (30)."""
    players = [
        FideXmlPlayer("11", "New, Adult", "FRA", "M", None, 1980, standard=(1700, 7, 40)),
        FideXmlPlayer("12", "Former, Junior", "FRA", "F", None, 2010, standard=(2250, 2, 20)),
        FideXmlPlayer("13", "Former, Master", "FRA", "M", None, 1960, standard=(2380, 0, 10)),
        FideXmlPlayer("14", "Plain, Adult", "FRA", "M", None, 1970, standard=(1900, 4, 20)),
        FideXmlPlayer("15", "Young, Junior", "FRA", "M", None, 2014, standard=(1500, 4, 40)),
    ]
    out = io.StringIO()
    write_fide_xml(players, out)
    path = write(tmp_path, "list.xml", out.getvalue())
    code, _, err = cli(capsys, "lists", "import", str(path), "--format", "fide-xml",
                       "--category", "fide-standard", "--period", "2026-11",
                       url=database.url)  # fmt: skip
    assert code == 0, err
    assert "note:" not in err  # every K reproduced
    assert database.rows("SELECT player_id, rated_games, peak_rating, k_factor, games "
                         "FROM list_entries ORDER BY player_id") == [
        ("11", 7, 1700, 40, 7), ("12", 30, 2300, 20, 2), ("13", 30, 2400, 10, 0),
        ("14", 30, 1900, 20, 4), ("15", 30, 1500, 40, 4),
    ]  # fmt: skip


def test_the_txt_round_trip(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A list published by a close, exported in FIDE's layout and imported as the next
    period's list, exports to the same text: players, ratings, games and K are kept."""
    url = database.url
    baseline = write(tmp_path, "baseline.csv", LIST_HEADER
        + '1001,"Anna, A",FRA,F,1990,WIM,1850,60,1850,\n'
        + '1002,"Bob, B",FRA,M,1985,,1920,12,1920,\n'
        + '1003,"Jo, J",FRA,F,2012,,1650,10,1650,\n'
        + '1004,"Max, M",FRA,M,1995,IM,2450,300,2450,\n'
        + '1005,"Kid, K",FRA,M,2011,,2200,90,2310,\n')  # fmt: skip
    load(capsys, url, baseline, "csv", "fide-standard", "2026-09")
    games = write(tmp_path, "a.csv", "tournament,start_date,end_date,round,white_id,black_id,"
                  "result\nA,2026-09-05,2026-09-06,1,1001,1002,1-0\n"
                  "A,2026-09-05,2026-09-06,1,1003,1004,0-1\n"
                  "A,2026-09-05,2026-09-06,2,1002,1005,1/2-1/2\n")  # fmt: skip
    assert cli(capsys, "tournaments", "import", str(games), "--category", "fide-standard",
               url=url)[0] == 0  # fmt: skip
    assert cli(capsys, "periods", "close", "--category", "fide-standard", "--period",
               "2026-10", url=url)[0] == 0  # fmt: skip
    first = export(capsys, url, "fide-standard", "2026-10", "fide-txt")
    lines = first.splitlines()
    assert lines[0].startswith("ID Number      Name")
    assert len(lines) == 6
    assert lines[1][113:118].strip().isdigit()  # SRtng at FIDE's offset (B §12.1)
    exported = write(tmp_path, "exported.txt", first)
    load(capsys, url, exported, "fide-txt", "fide-standard", "2026-11")
    again = export(capsys, url, "fide-standard", "2026-11", "fide-txt")
    assert again == first
    before = json.loads(export(capsys, url, "fide-standard", "2026-10", "json"))["entries"]
    after = json.loads(export(capsys, url, "fide-standard", "2026-11", "json"))["entries"]
    keep = ("player_id", "name", "federation", "rating", "games", "k_factor")
    assert [{k: e[k] for k in keep} for e in after] == [{k: e[k] for k in keep} for e in before]


@pytest.mark.parametrize(
    ("category", "entries", "ratings"),
    [
        ("fide-standard", 2, [("1503014", 2840), ("34567890", 1650)]),
        ("fide-rapid", 1, [("1503014", 2820)]),
        ("fide-blitz", 2, [("1503014", 2890), ("34567890", 1500)]),
    ],
)
def test_the_combined_txt_file(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    category: str,
    entries: int,
    ratings: list[tuple[str, int]],
) -> None:
    path = write(tmp_path, "players_list_foa.txt", COMBINED)
    # No --format: a .txt file is a FIDE TXT list.
    code, out, err = cli(capsys, "lists", "import", str(path), "--category", category,
                         "--period", "2026-11", url=database.url)  # fmt: skip
    assert code == 0, err
    result = json.loads(out)
    assert (result["entries"], result["unrated"]) == (entries, 2 - entries)
    document = json.loads(export(capsys, database.url, category, "2026-11", "json"))
    assert [(e["player_id"], e["rating"]) for e in document["entries"]] == ratings


def test_a_big_list_goes_in_batches(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    """Batches of 7 over 50 players: the same list as in one go, and a player repeated in a
    later batch is refused with his line, leaving nothing behind."""
    monkeypatch.setattr(list_service, "FIDE_BATCH", 7)
    players = [
        FideXmlPlayer(str(1000 + n), f"P{n:02d}, Test", "FRA", "M", None, 1980,
                      standard=(1500 + 10 * n if n % 5 else None, n % 4, 20))
        for n in range(50)
    ]  # fmt: skip
    out = io.StringIO()
    write_fide_xml(players, out)
    result = load(capsys, database.url, write(tmp_path, "list.xml", out.getvalue()),
                  "fide-xml", "fide-standard", "2026-11")  # fmt: skip
    assert (result["entries"], result["unrated"], result["players_created"]) == (40, 10, 50)
    assert database.rows("SELECT entry_count FROM rating_lists") == [(40,)]
    before = counts(database)
    out = io.StringIO()
    write_fide_xml([*players[:20], players[3], *players[20:]], out)
    path = write(tmp_path, "repeated.xml", out.getvalue())
    # Player #21 of the file, on line 23 (after the XML declaration and <playerslist>); in a
    # category where he is unrated too: the file is wrong whatever is imported from it.
    for category, period in (("fide-standard", "2026-12"), ("fide-blitz", "2026-11")):
        code, _, err = cli(capsys, "lists", "import", str(path), "--format", "fide-xml",
                           "--category", category, "--period", period,
                           url=database.url)  # fmt: skip
        assert code == 2, category
        assert f"{path}:23: ID: player #21: FIDE id 1003 is already on an earlier line" in err
    assert counts(database) == before
    # In one batch, the first line is named.
    monkeypatch.setattr(list_service, "FIDE_BATCH", 5000)
    code, _, err = cli(capsys, "lists", "import", str(path), "--format", "fide-xml",
                       "--category", "fide-standard", "--period", "2026-12",
                       url=database.url)  # fmt: skip
    assert code == 2
    assert f"{path}:23: ID: player #21: FIDE id 1003 is already on line 6" in err  # player #4
    assert counts(database) == before


@pytest.mark.parametrize(
    ("name", "content", "fmt", "where"),
    [
        ("letters.txt", STANDARD.replace("2740", "27x0"), "fide-txt", ":3:114: SRtng: "),
        ("cut.txt", STANDARD.replace("2740  9   10 2005", "27"), "fide-txt", ":3:114: SRtng: "),
        ("broken.xml", "<playerslist><player><fideid>1</fideid>", "fide-xml", ":1:"),
        ("empty.txt", "", "fide-txt", ":1: "),
    ],
)
def test_bad_lists_are_refused_and_change_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
    content: str, fmt: str, where: str,
) -> None:  # fmt: skip
    load(capsys, database.url, write(tmp_path, "std.txt", STANDARD), "fide-txt",
         "fide-standard", "2026-10")  # fmt: skip
    before = counts(database)
    path = write(tmp_path, name, content)
    code, out, err = cli(capsys, "lists", "import", str(path), "--format", fmt, "--category",
                         "fide-standard", "--period", "2026-11", url=database.url)  # fmt: skip
    assert code == 2
    assert out == ""
    assert f"{path}{where}" in err
    assert counts(database) == before


@pytest.mark.slow  # the benchmark script
def test_the_xml_benchmark_runs_and_ends_with_a_json_line() -> None:
    """benchmarks/fide_xml_import.py at a small size, so that it never rots (figures are
    measured by hand: benchmarks/README.md)."""
    done = forks.run_benchmark("fide_xml_import.py", "--players", "3000", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["players"] == 3000
    assert figures["entries"] + figures["unrated"] == 3000
    assert figures["peak_rss_mb"] > 0


def test_a_fide_record_without_a_name_or_year_keeps_the_stored_ones(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """FIDE's lists have records with an empty name: imported, said on stderr with the line,
    and a player already stored keeps their name (and year of birth)."""
    url = database.url
    known = LIST_HEADER + '1700009,"Known, Kim",IND,M,2011,,1450,,,\n'
    load(capsys, url, write(tmp_path, "aug.csv", known), "csv", "fide-standard", "2026-08")
    corpus = ROOT / "tests" / "corpus" / "fide_lists" / "standard_sep26.txt"
    code, out, err = cli(capsys, "lists", "import", str(corpus), "--category", "fide-standard",
                         "--period", "2026-09", url=url)  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["entries"] == 3
    assert f"note: {corpus}:3: Name: FIDE id 1700009 has no name" in err
    assert f"note: {corpus}:4: B-day: FIDE id 1700010: 1792 is not a year of birth" in err
    assert database.rows("SELECT player_id, name, birth_year FROM players ORDER BY player_id") == [
        ("1700001", "Aalto, Anna", 1972), ("1700009", "Known, Kim", 2011),
        ("1700010", "Old, Otto", None),
    ]  # fmt: skip
