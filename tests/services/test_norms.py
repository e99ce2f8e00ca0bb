"""The norm check of a stored tournament and the title watch, through ``ratingdb`` (issue 28
item 1), on SQLite and PostgreSQL.

The federation: a FIDE standard list of 2026-11 (imported) with the issue's applicant, Ada
(FRA, 2300), and her nine opponents rated 2450 2400 2380 2350 2300 2280 2250 2100 1990, from
GER ESP ITA FRA NED GER ESP FRA ITA, titled GM GM IM IM FM - FM - -. The tournament (T000001,
2026-11-02 to 2026-11-08) pairs Ada with one of them a round; she scores 6.5 (½ 0 1 1 ½ 1 1 ½
1). By hand (tests/rules/test_norms.py): 6.5 / 9 = 72 %, dp 166; the lowest opponent 1990
raised to 2050, Ra = 20560 / 9 = 2284.4 -> 2284, Rp 2450: an IM norm; without the raise Ra
2278, Rp 2444. GM: 1990 raised to 2200, Ra 20710 / 9 = 2301, below 2380.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import factories
from tests.support.cli import cli_ok, run_cli
from tests.support.rolled_back import RolledBack

ADA = "3000000"
OPPONENTS = [
    ("3000001", "GER", "GM", 2450, "1/2-1/2"),
    ("3000002", "ESP", "GM", 2400, "0-1"),
    ("3000003", "ITA", "IM", 2380, "1-0"),
    ("3000004", "FRA", "IM", 2350, "1-0"),
    ("3000005", "NED", "FM", 2300, "1/2-1/2"),
    ("3000006", "GER", "", 2280, "1-0"),
    ("3000007", "ESP", "FM", 2250, "1-0"),
    ("3000008", "FRA", "", 2100, "1/2-1/2"),
    ("3000009", "ITA", "", 1990, "1-0"),
]


def build(
    capsys: pytest.CaptureFixture[str], url: str, folder: Path, *, end: str = "2026-11-08"
) -> None:
    rows = [f'{ADA},"Ada, A",FRA,F,2000,WIM,2300,80,2310,10'] + [
        f'{pid},"Opp {pid[-1]}",{fed},M,1990,{title},{rating},100,{rating},10'
        for pid, fed, title, rating, _ in OPPONENTS
    ]
    baseline = folder / "list.csv"
    baseline.write_text(factories.list_csv(*rows), encoding="utf-8")
    cli_ok(capsys, "lists", "import", str(baseline), "--category", "fide-standard",
           "--period", "2026-11", url=url)  # fmt: skip
    games = [
        f"Open,2026-11-02,{end},{number},{ADA},{pid},{result}"
        for number, (pid, _, _, _, result) in enumerate(OPPONENTS, start=1)
    ]
    path = folder / "open.csv"
    path.write_text(factories.games_csv(*games), encoding="utf-8")
    cli_ok(capsys, "tournaments", "import", str(path), "--category", "fide-standard", url=url)


def test_the_issue_case_is_an_im_norm_for_ada(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(capsys, database.url, tmp_path)
    out = cli_ok(capsys, "tournaments", "norms", "T000001", "--player", ADA, url=database.url)
    [line] = out.splitlines()
    ada = json.loads(line)
    assert (ada["list_date"], ada["regulations"], ada["rating"]) == (
        "2026-11-01",
        "fide-titles-2024-01",
        2300,
    )
    assert (ada["games"], ada["points"], ada["title"]) == (9, "6.5", "WIM")
    # A WIM aims at GM, IM and WGM norms, not WIM.
    checks = {check["title"]: check for check in ada["checks"]}
    assert list(checks) == ["GM", "IM", "WGM"]
    im = checks["IM"]
    assert im["norm"] is True
    assert (im["percent"], im["dp"], im["average"], im["performance"]) == (72, 166, 2284, 2450)
    assert (im["average_without_raise"], im["performance_without_raise"]) == (2278, 2444)
    assert im["raised"] == {"player_id": "3000009", "from": 1990, "to": 2050}
    conditions = {c["key"]: (c["met"], c["actual"]) for c in im["conditions"]}
    assert conditions == {
        "games": (True, "9 games"),
        "score": (True, "6.5 points (72 %)"),
        "average": (True, "Ra 2284, 1990 raised to 2050"),
        "performance": (True, "Rp 2450 = Ra 2284 + dp 166"),
        "other_federations": (True, "4 (ESP, GER, ITA, NED)"),
        "own_federation": (True, "2"),
        "one_federation": (True, "2 from GER"),
        "title_holders": (True, "6"),
        "norm_level_opponents": (True, "4"),
    }
    gm = checks["GM"]
    assert (gm["norm"], gm["average"], gm["performance"]) == (False, 2301, 2467)
    # WGM: 1990 raised to 2000, Ra 20510 / 9 = 2278.9 -> 2279, Rp 2445 >= 2400, Ra >= 2180;
    # opponents of the WGM level (GM, IM, WGM): 4.
    wgm = checks["WGM"]
    assert (wgm["norm"], wgm["average"], wgm["performance"]) == (True, 2279, 2445)


def test_every_player_gets_a_line_and_a_short_event_no_norm(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(capsys, database.url, tmp_path)
    lines = [json.loads(line) for line in cli_ok(
        capsys, "tournaments", "norms", "T000001", url=database.url).splitlines()]  # fmt: skip
    assert [line["player_id"] for line in lines] == [
        "3000001", "3000002", "3000003", "3000004", ADA, "3000005", "3000006", "3000007",
        "3000008", "3000009",
    ]  # fmt: skip
    opp = lines[0]
    # One game: GM holders aim at nothing; the others fail on games.
    assert opp["checks"] == []
    six = next(line for line in lines if line["player_id"] == "3000006")
    games = {c["title"]: c["conditions"][0] for c in six["checks"]}
    assert games["IM"] == {
        "key": "games",
        "article": "1.4.1",
        "met": False,
        "required": "at least 9 games",
        "actual": "1 games",
    }
    assert six["unplayed"][0] == {"round": 1, "why": "no-game"}


def test_refusals_name_the_reason(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(capsys, database.url, tmp_path, end="2026-12-02")
    code, out, err = run_cli(capsys, "tournaments", "norms", "T000001", url=database.url)
    assert (code, out) == (2, "")
    assert err == (
        "ratingdb tournaments: TOURNAMENT_ID: tournament T000001 lasted 31 days: past 30 the "
        "ratings of each game's date count (§1.1.4), and ratingdb stores no game dates\n"
    )
    code, _, err = run_cli(capsys, "tournaments", "norms", "T999999", url=database.url)
    assert (code, err) == (2, "ratingdb tournaments: TOURNAMENT_ID: no tournament 'T999999'\n")


def test_a_tournament_before_the_regulations_is_refused(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = tmp_path / "list.csv"
    baseline.write_text(
        factories.list_csv(f'{ADA},"Ada, A",FRA,F,2000,,2300,80,2310,10',
                           '3000001,"Opp 1",GER,M,1990,GM,2450,100,2450,10'),
        encoding="utf-8",
    )  # fmt: skip
    cli_ok(capsys, "lists", "import", str(baseline), "--category", "fide-standard",
           "--period", "2023-11", url=database.url)  # fmt: skip
    path = tmp_path / "old.csv"
    path.write_text(factories.games_csv(f"Old,2023-11-02,2023-11-03,1,{ADA},3000001,1-0"))
    cli_ok(capsys, "tournaments", "import", str(path), "--category", "fide-standard",
           url=database.url)  # fmt: skip
    code, _, err = run_cli(capsys, "tournaments", "norms", "T000001", url=database.url)
    assert (code, err) == (
        2,
        (
            "ratingdb tournaments: TOURNAMENT_ID: the tournament started on 2023-11-02: ratingdb "
            "holds the FIDE Title Regulations from 2024-01-01 only (asked for 2023-11-02)\n"
        ),
    )


# --- The title watch ----------------------------------------------------------------------

WATCH_BEFORE = [
    '3100001,"Xavier, X",FRA,M,1990,,2290,40,2290,20',  # CM already; FM next list
    '3100002,"Yann, Y",FRA,M,1990,,2310,20,2310,40',  # 2310 with 20 games: nothing
    '3100003,"Zoe, Z",GER,F,1990,IM,2495,300,2495,10',  # GM requirement next list
    '3100004,"Wanda, W",ESP,F,1990,,2095,35,2095,20',  # WCM already; WFM next list
    '3100005,"Victor, V",FRA,M,1990,FM,2350,90,2350,20',  # FM before and after
]
WATCH_AFTER = [
    '3100001,"Xavier, X",FRA,M,1990,,2300,40,2300,20',
    '3100002,"Yann, Y",FRA,M,1990,,2305,31,2310,40',
    '3100003,"Zoe, Z",GER,F,1990,IM,2501,305,2501,10',
    '3100004,"Wanda, W",ESP,F,1990,,2100,36,2100,20',
    '3100005,"Victor, V",FRA,M,1990,FM,2351,92,2351,20',
]


def test_the_title_watch_shows_first_reaches_on_the_list(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for period, rows in (("2026-10", WATCH_BEFORE), ("2026-11", WATCH_AFTER)):
        path = tmp_path / f"{period}.csv"
        path.write_text(factories.list_csv(*rows), encoding="utf-8")
        cli_ok(capsys, "lists", "import", str(path), "--category", "fide-standard",
               "--period", period, url=database.url)  # fmt: skip
    out = cli_ok(capsys, "players", "title-watch", "--period", "2026-11", url=database.url)
    found = [
        (line["player_id"], line["title"], line["kind"], line["rating"], line["rated_games"])
        for line in map(json.loads, out.splitlines())
    ]
    assert found == [
        # Zoe: 2501 >= 2500 (the GM requirement, no games condition); also WGM 2300 and WIM
        # 2200 on 2026-10 already, IM 2400 too: not new.
        ("3100003", "GM", "requirement", 2501, 305),
        ("3100002", "FM", "title", 2305, 31),  # 2310 on 2026-10 had 20 games
        ("3100001", "FM", "title", 2300, 40),
        ("3100002", "CM", "title", 2305, 31),
        ("3100004", "WFM", "title", 2100, 36),
    ]
    first = json.loads(out.splitlines()[0])
    assert (first["ratings"], first["min_games"], first["held_title"]) == ("published", None, "IM")
    out = cli_ok(capsys, "players", "title-watch", "--period", "2026-10", url=database.url)
    # The first list: what each reached on it, but what they hold or outrank: Victor (FM) and
    # Zoe (IM: WGM and WIM below IM, and IM itself) show nothing.
    assert {(line["player_id"], line["title"]) for line in map(json.loads, out.splitlines())} == {
        ("3100001", "CM"),
        ("3100004", "WCM"),
    }
    code, _, err = run_cli(capsys, "players", "title-watch", "--category", "fide-rapid",
                           "--period", "2026-11", url=database.url)  # fmt: skip
    assert code == 2
    assert err.startswith("ratingdb players: --category: titles come from fide-standard")
