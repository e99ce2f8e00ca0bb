"""``tournaments import`` of TRF files, through the command, on SQLite and PostgreSQL: the real
files of ../shared/data/trf with the counts of EXPECTED.md, players created once and matched
after, several categories from one file, and refusals that change nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.calculations import stored_calculations
from tests.support.cli import run_cli as cli
from tests.support.factories import ANNA, BOB, list_csv
from tests.support.files import TRF_HEADER as HEADER
from tests.support.files import trf_player as player
from tests.support.files import write
from tests.support.rolled_back import RolledBack

ROOT = Path(__file__).resolve().parents[2]
TRF_FOLDER = ROOT.parent / "shared" / "data" / "trf"
TABLES = ("players", "periods", "rating_lists", "list_entries", "tournaments", "games")


@pytest.fixture(scope="module")
def folder() -> Path:
    if not TRF_FOLDER.is_dir():
        pytest.skip(f"the real TRF files are not here: {TRF_FOLDER} (../shared/data/trf)")
    return TRF_FOLDER


def counts(database: RolledBack) -> dict[str, int]:
    return {table: database.rows(f"SELECT count(*) FROM {table}")[0][0] for table in TABLES}


def imported(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def shown(capsys: pytest.CaptureFixture[str], tournament_id: str, url: str) -> dict[str, Any]:
    code, out, err = cli(capsys, "tournaments", "show", tournament_id, url=url)
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def test_karl_mala_frankfurt(
    database: RolledBack, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    path = str(folder / "karl_mala_2005_frankfurt.trf")
    code, out, err = cli(capsys, "tournaments", "import", path, "--category", "fide-standard",
                         url=url)  # fmt: skip
    assert code == 0, err
    # Lists were quarterly before 2009: a July 2005 event goes to the October 2005 list.
    assert imported(out) == [
        {"tournament_id": "T000001", "period": "2005-10", "late": False, "games": 980,
         "rated_games": 970}
    ]  # fmt: skip
    # The report: what was found and what was skipped.
    assert "284 records; 283 players (146 with a FIDE id" in err
    assert "created 146 by FIDE id, 0 by national id, 137 with a local id" in err
    assert "970 played (rated candidates) + 10 forfeits" in err
    assert "byes (no opponent, not games): 1 (+ 1); absent: 26" in err
    assert "skipped: #284 'spielfrei' (line 297) stands for the bye" in err
    # 283 players: 146 by FIDE id, 137 with a local id (12 digits from 9), no "spielfrei".
    players = database.rows("SELECT player_id, fide_id, name FROM players")
    assert len(players) == 283
    assert sum(1 for p in players if p[1] is not None and p[0] == p[1]) == 146
    local = sorted(p[0] for p in players if p[1] is None)
    assert len(local) == 137
    assert (local[0], local[-1]) == ("900000000001", "900000000137")
    assert all(len(p) == 12 for p in local)
    assert not [p for p in players if p[2] == "spielfrei"]
    assert database.rows("SELECT count(*), sum(CASE WHEN rated THEN 1 ELSE 0 END) FROM games") == [
        (980, 970)
    ]
    # The 10 forfeits have no colours: the lower starting rank is stored as white, and won 2.
    forfeits = "SELECT result, count(*) FROM games WHERE NOT rated GROUP BY result ORDER BY result"
    assert database.rows(forfeits) == [("+-", 2), ("-+", 8)]
    # Spot checks of EXPECTED.md, from outside.
    document = shown(capsys, "T000001", url)
    assert (document["name"], document["start_date"], document["end_date"]) == (
        "9. Karl-Mala-Gedenkturnier", "2005-07-28", "2005-07-31",
    )  # fmt: skip
    assert (document["city"], document["time_control"], document["linked"]) == (
        "Frankfurt (Main) /GER", "40/120, 60", [],
    )  # fmt: skip
    games = {(g["round"], g["white_id"], g["black_id"]): g for g in document["games"]}
    assert games[(1, "3400042", "24611786")] == {
        "round": 1, "white_id": "3400042", "black_id": "24611786", "result": "1-0", "rated": True,
    }  # fmt: skip
    assert games[(4, "24605751", "3400042")]["result"] == "0-1"
    assert games[(6, "4687400", "3400042")]["result"] == "1/2-1/2"
    heidorn_forfeit = [
        g for g in document["games"]
        if g["round"] == 1 and "4683960" in (g["white_id"], g["black_id"])
    ]  # fmt: skip
    assert len(heidorn_forfeit) == 1
    assert heidorn_forfeit[0]["white_id"] == "4683960"  # no colours: the lower rank, #63
    assert heidorn_forfeit[0]["black_id"].startswith("9")  # #204 has no FIDE id
    assert (heidorn_forfeit[0]["result"], heidorn_forfeit[0]["rated"]) == ("+-", False)


def test_open_gros_donostia(
    database: RolledBack, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    code, out, err = cli(capsys, "tournaments", "import",
                         str(folder / "open_gros_2010_donostia_crlf.trf"), "--category",
                         "fide-standard", url=url)  # fmt: skip
    assert code == 0, err
    assert imported(out)[0]["games"] == 93
    assert imported(out)[0]["rated_games"] == 89
    assert imported(out)[0]["period"] == "2010-11"  # ends 2010-10-02, after the October cut
    assert "byes (no opponent, not games): 25 (H 16, U 3, Z 6)" in err
    # #6 has FIDE id 0: a local id, not a player "0".
    assert database.rows("SELECT count(*) FROM players WHERE player_id = '0'") == [(0,)]
    gorrochategui = database.rows(
        "SELECT player_id, fide_id FROM players WHERE name = :n",
        n="Gorrochategui Torres, Eugenio",
    )
    assert gorrochategui == [("900000000001", None)]
    document = shown(capsys, "T000001", url)
    results = {(g["round"], g["white_id"], g["black_id"]): g["result"] for g in document["games"]}
    assert results[(1, "13400304", "22227687")] == "1-0"
    assert results[(4, "32004478", "13400304")] == "0-1"
    assert results[(4, "900000000001", "6400353")] == "1/2-1/2"
    assert results[(1, "2298287", "22235558")] == "+-"


@pytest.mark.parametrize(
    ("name", "players", "stored", "rated"),
    [
        ("icu_u19_all_ireland_2010_round_robin.trf", 4, 6, 6),
        ("icu_ulster_masters_seniors_2022.trf", 16, 36, 36),
        ("icu_cork_major_2018.trf", 23, 64, 64),
        ("icu_irish_intermediate_2011_latin1.trf", 21, 44, 44),
        ("sharly_trf26_individual_fra_nrs.trf", 16, 36, 34),
        ("tec_grandmommys_cup_trf26_team.trf", 249, 1030, 1030),
        ("lichess_swiss_2020_05.trf", 13, 56, 56),
    ],
)
def test_the_other_real_files(
    database: RolledBack,
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    players: int,
    stored: int,
    rated: int,
) -> None:
    code, out, err = cli(capsys, "tournaments", "import", str(folder / name), "--category",
                         "fide-standard", url=database.url)  # fmt: skip
    assert code == 0, err
    assert (imported(out)[0]["games"], imported(out)[0]["rated_games"]) == (stored, rated)
    assert counts(database)["players"] == players
    assert counts(database)["games"] == stored


def test_a_file_without_dates_needs_a_period(
    database: RolledBack, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(folder / "bbp_autotest_issue7_cr_only.trf")
    code, _, err = cli(capsys, "tournaments", "import", path, "--category", "fide-standard",
                       url=database.url)  # fmt: skip
    assert code == 2
    assert "042 start date: the file has no dates" in err
    assert counts(database)["players"] == 0
    code, out, err = cli(capsys, "tournaments", "import", path, "--category", "fide-standard",
                         "--period", "2026-12", url=database.url)  # fmt: skip
    assert code == 0, err
    assert imported(out) == [
        {"tournament_id": "T000001", "period": "2026-12", "late": False, "games": 420,
         "rated_games": 395}
    ]  # fmt: skip
    assert "the closing date of 2026-12 (2026-11-28) is used" in err
    dates = database.rows("SELECT start_date, end_date FROM tournaments")
    assert [tuple(str(d) for d in row) for row in dates] == [("2026-11-28", "2026-11-28")]


def test_several_categories_from_one_file(
    database: RolledBack, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rapid event rated on the FIDE and the national rapid lists: one tournament each, with
    its own period; the players are created once; the FRA NRS record stays with Carlsen."""
    url = database.url
    code, out, err = cli(capsys, "tournaments", "import",
                         str(folder / "sharly_trf26_individual_fra_nrs.trf"), "--category",
                         "fide-rapid", "--category", "ffe-rapid", url=url)  # fmt: skip
    assert code == 0, err
    assert imported(out) == [
        {"tournament_id": "T000001", "period": "2025-10", "late": False, "games": 36,
         "rated_games": 34},
        {"tournament_id": "T000002", "period": "2025-10", "late": False, "games": 36,
         "rated_games": 34},
    ]  # fmt: skip
    assert counts(database)["players"] == 16
    assert counts(database)["games"] == 72
    assert database.rows("SELECT category, state FROM periods ORDER BY category") == [
        ("ffe-rapid", "open"), ("fide-rapid", "open"),
    ]  # fmt: skip
    first, second = shown(capsys, "T000001", url), shown(capsys, "T000002", url)
    assert (first["category"], second["category"]) == ("fide-rapid", "ffe-rapid")
    assert first["linked"] == [
        {"tournament_id": "T000002", "category": "ffe-rapid", "period": "2025-10"}
    ]
    assert second["linked"] == [
        {"tournament_id": "T000001", "category": "fide-rapid", "period": "2025-10"}
    ]
    assert first["federation"] == "FRA"
    assert database.rows(
        "SELECT fide_id, national_federation, national_id, national_rating FROM players "
        "WHERE player_id = '1503014'",
    ) == [("1503014", "FRA", "D50113", 2200)]  # fmt: skip
    # The same file again: refused for either category, nothing changes.
    before = counts(database)
    code, _, err = cli(capsys, "tournaments", "import",
                       str(folder / "sharly_trf26_individual_fra_nrs.trf"), "--category",
                       "ffe-rapid", url=url)  # fmt: skip
    assert code == 2
    assert "already imported for ffe-rapid as tournament T000002" in err
    assert counts(database) == before


def nrs(rank: int, national_id: str, rating: str = "") -> str:
    return f"RUR {rank:>4}{'':<40}{rating:>4}{'':<5}{national_id:>11}"


def test_players_are_matched_by_fide_id_and_by_national_id(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The second event finds the players of the first: by FIDE id, and by national id for the
    one who has only that; nobody is created twice."""
    first = HEADER + "\n".join(
        [
            player(1, "Alpha, A", ["   2 w 1"], fide_id="1001"),
            player(2, "Nat, N", ["   1 b 0"], rating=""),
            nrs(2, "R555", "1600"),
        ]
    ) + "\n"  # fmt: skip
    second = first.replace("012 Test Open", "012 Second Open").replace(
        "2026/11/02", "2026/11/03").replace(" 1600", " 1650")  # fmt: skip
    for name, content in (("first.trf", first), ("second.trf", second)):
        path = write(tmp_path, name, content)
        code, _, err = cli(capsys, "tournaments", "import", str(path), "--category", "ffe-rapid",
                           url=database.url)  # fmt: skip
        assert code == 0, err
    assert "already known 2" in err
    assert database.rows(
        "SELECT player_id, fide_id, national_id, national_rating FROM players "
        "ORDER BY player_id",
    ) == [("1001", "1001", None, None), ("900000000001", None, "R555", 1650)]  # fmt: skip
    assert counts(database)["games"] == 2


def test_unidentified_opponents_change_nothing_for_rated_players(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/rules.md §8: Anna (1850, K 20) beats Bob (1920) and an unidentified, unrated player;
    only the game against Bob counts for her: D -70 -> PD .40, +.60 x 20 = +12 -> 1862. Bob
    loses to Anna: -.60 x 20 = -12 -> 1908; his draw with the newcomer changes nothing. The
    newcomer, who has no id at all, is stored with a local id and his games are shown, but no
    list can carry him: he pools nothing and is never rated."""
    baseline = write(tmp_path, "baseline.csv", list_csv(ANNA, BOB))
    code, _, err = cli(capsys, "lists", "import", str(baseline), "--category", "fide-standard",
                       "--period", "2026-11", url=database.url)  # fmt: skip
    assert code == 0, err
    # R1 Anna-Bob 1-0, R2 New-Bob 1/2, R3 New-Anna 0-1; one pairing bye a round.
    event = HEADER + "\n".join(
        [
            player(1, "Bob, B", ["   2 b 0", "   3 b =", "0000 - U"], fide_id="1002"),
            player(2, "Anna, A", ["   1 w 1", "0000 - U", "   3 b 1"], fide_id="1001"),
            player(3, "New, N", ["0000 - U", "   1 w =", "   2 w 0"], rating=""),
        ]
    ) + "\n"  # fmt: skip
    path = write(tmp_path, "open.trf", event)
    code, out, err = cli(capsys, "tournaments", "import", str(path), "--category",
                         "fide-standard", url=database.url)  # fmt: skip
    assert code == 0, err
    assert imported(out)[0]["rated_games"] == 3
    code, out, err = cli(capsys, "periods", "close", "--category", "fide-standard", "--period",
                         "2026-12", url=database.url)  # fmt: skip
    assert code == 0, err
    code, out, err = cli(capsys, "lists", "export", "--category", "fide-standard", "--period",
                         "2026-12", "--format", "json", url=database.url)  # fmt: skip
    entries = {e["player_id"]: e for e in json.loads(out)["entries"]}
    assert (entries["1001"]["rating"], entries["1001"]["change"], entries["1001"]["games"]) == (
        1862, 12, 1,
    )  # fmt: skip
    assert (entries["1002"]["rating"], entries["1002"]["change"]) == (1908, -12)
    assert set(entries) == {"1001", "1002"}
    newcomer = database.rows("SELECT player_id FROM players WHERE fide_id IS NULL")
    assert newcomer == [("900000000001",)]
    pooled = database.rows(
        "SELECT count(*) FROM player_status WHERE player_id = :p", p="900000000001"
    )
    assert pooled == [(0,)]
    stored = stored_calculations(database.connection)
    his_side = [c for c in stored if c.player_id == "900000000001"]
    assert his_side == []
    against_him = [c for c in stored if c.opponent_id == "900000000001"]  # by player
    assert [(c.rated, c.reason) for c in against_him] == [
        (False, "opponent unrated"),
        (False, "opponent unrated"),
    ]


# --- refusals change nothing -------------------------------------------------------------------

BAD_FILES = {
    "contradiction": (
        HEADER + player(1, "A", ["   2 w 1"]) + "\n" + player(2, "B", ["   1 b 1"]) + "\n",
        5, 99, "round 1 result",
    ),
    "missing opponent": (
        HEADER + player(1, "A", ["   9 w 1"]) + "\n" + player(2, "B", ["0000 - U"]) + "\n",
        4, 92, "round 1 opponent",
    ),
    "letters in a rating": (
        HEADER + player(1, "A", ["   2 w 1"], rating="1x00") + "\n"
        + player(2, "B", ["   1 b 0"]) + "\n", 4, 49, "rating",
    ),
    "truncated line": (
        HEADER + player(1, "A", ["   2 w 1"]) + "\n" + player(2, "B", ["   1 b 0"])[:50] + "\n",
        5, 51, "rating",
    ),
    "date that does not parse": (
        HEADER.replace("2026/11/02", "2nd November") + player(1, "A", []) + "\n",
        2, 5, "042 start date",
    ),
    "no players": (HEADER, 1, None, "001"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_files_are_refused_and_change_nothing(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    content, line, column, field = BAD_FILES[case]
    # Something stored first, so that "nothing changed" means something.
    good = write(tmp_path, "good.trf", HEADER + player(1, "A", ["   2 w 1"], fide_id="7") + "\n"
                 + player(2, "B", ["   1 b 0"], fide_id="8") + "\n")  # fmt: skip
    assert cli(capsys, "tournaments", "import", str(good), "--category", "fide-standard",
               url=database.url)[0] == 0  # fmt: skip
    before = counts(database)
    path = write(tmp_path, "bad.trf", content)
    code, out, err = cli(capsys, "tournaments", "import", str(path), "--category",
                         "fide-standard", "--category", "fide-rapid", url=database.url)  # fmt: skip
    assert code == 2
    assert out == ""
    where = re.escape(str(path)) + (f":{line}" if line else "") + (f":{column}" if column else "")
    assert re.search(rf"{where}: {re.escape(field)}: \S", err), err
    assert counts(database) == before


def test_fide_lists_rate_fide_ids_only_national_lists_national_ids_too(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 27 item 4. Nat has no FIDE id, only a national id (TRF26 NRS): on FIDE's list he
    is not rated, pools nothing toward a first rating, and his games count for his opponents
    as games against an unrated player. Anna beats Bob (D -70, PD .40, +.60 x 20 = +12) and
    draws Nat: +12 only. On the national list the same file pools Nat's game."""
    for category in ("fide-standard", "ffe-rapid"):
        baseline = write(tmp_path, f"{category}.csv", list_csv(ANNA, BOB))
        code, _, err = cli(capsys, "lists", "import", str(baseline), "--category", category,
                           "--period", "2026-11", url=database.url)  # fmt: skip
        assert code == 0, err
    # R1 Alpha-Bob 1-0 (Nat has a pairing bye), R2 Alpha-Nat 1/2 (Bob has one).
    event = HEADER + "\n".join(
        [
            player(1, "Alpha, A", ["   2 w 1", "   3 w ="], fide_id="1001"),
            player(2, "Bob, B", ["   1 b 0", "0000 - U"], fide_id="1002"),
            player(3, "Nat, N", ["0000 - U", "   1 b ="], rating=""),
            nrs(3, "R555", "1600"),
        ]
    ) + "\n"  # fmt: skip
    path = write(tmp_path, "open.trf", event)
    for category in ("fide-standard", "ffe-rapid"):
        code, _, err = cli(capsys, "tournaments", "import", str(path), "--category", category,
                           "--time-control", "900+10" if category == "ffe-rapid" else "5400+30",
                           url=database.url)  # fmt: skip
        assert code == 0, err
        code, _, err = cli(capsys, "periods", "close", "--category", category, "--period",
                           "2026-12", url=database.url)  # fmt: skip
        assert code == 0, err
    (nat,) = database.rows("SELECT player_id FROM players WHERE national_id = 'R555'")[0]
    code, out, _ = cli(capsys, "lists", "export", "--category", "fide-standard", "--period",
                       "2026-12", "--format", "json", url=database.url)  # fmt: skip
    entries = {e["player_id"]: (e["rating"], e["change"], e["games"])
               for e in json.loads(out)["entries"]}  # fmt: skip
    assert entries == {"1001": (1862, 12, 1), "1002": (1908, -12, 1)}
    category_of = dict(database.rows("SELECT id, category FROM rating_lists"))
    calculations = sorted(
        (
            (c.player_id, c.opponent_id, c.rated, c.reason, category_of[c.list_id])
            for c in stored_calculations(database.connection)
            if nat in (c.player_id, c.opponent_id)
        ),
        key=lambda row: (row[4], row[0]),
    )
    assert calculations == [
        ("1001", nat, False, "opponent unrated", "ffe-rapid"),
        (nat, "1001", True, None, "ffe-rapid"),
        ("1001", nat, False, "opponent unrated", "fide-standard"),
    ]
    pooled = database.rows(
        "SELECT l.category FROM player_status s JOIN rating_lists l ON l.id = s.list_id "
        "WHERE s.player_id = :p",
        p=nat,
    )
    assert pooled == [("ffe-rapid",)]
