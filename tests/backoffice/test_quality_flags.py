"""The quality-control flags (issue 28 item 8) in the check report and in the publication
preview, on SQLite and PostgreSQL, worked by hand; neither ever refuses anything.

The fide-standard list of 2026-11: Wolf 1600 (5 rated games: K 40), Rook 1-3 at 2000 and
Pawn 4-11 at 1800 (K 20), Host 1800, and three unrated players: Una (born 2005, F), Ugo (no
birth year, M), Uma (born 2006, no sex). Period 2026-12 (closing date 2026-11-28):

- Club Night 1 (11-05): Pawn 4 - Pawn 5 and Pawn 8 - Pawn 9 drawn; Club Night 2 (11-19): Pawn
  5 - Pawn 4 drawn.
- Big Open (11-10..12): Wolf beats Rook 1, 2 and 3 (D -400: PD 0.08, table 8.1.2: each +36.8
  at K 40, +110.4 in all, +110; each Rook 20 x -0.92 = -18.4, -18); Pawn 4-5, 6-7, 8-9, 10-11
  drawn (equal ratings: 0).
- Friends Cup (11-14..15): Host, Una, Ugo and Uma, a double round robin (12 games).

Flags: the closed group Host, Una, Ugo, Uma (12 of 12 games among themselves, 3 of the 4
unrated); Pawn 4 and Pawn 5 met in 3 events (Pawn 8 and 9 in 2: no flag); Wolf's +110 against
the 12 rated players who played (+110, -18 x 3, 0 x 8: mean 56/12 = +4.7, variance 13072/12 -
(14/3)^2 = 1067.6, deviation 32.7; 105.3 above the mean is more than 3 x 32.7 = 98.0, and more
than 100); Ugo without a birth date, Uma without sex. Host played only unrated players: no
rated game, not in the norm."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.backoffice.conftest import Accounts
from tests.support.cli import cli_ok
from tests.support.factories import games_csv, list_csv
from tests.support.files import TRF_HEADER, trf_player
from tests.support.rolled_back import RolledBack

CATEGORY, PERIOD = "fide-standard", "2026-12"
PAWNS = {n: str(2010 + n) for n in range(4, 12)}  # Pawn 4 is 2014 ... Pawn 11 is 2021
LIST = list_csv(
    '2001,"Wolf, Walt",FRA,M,1990,,1600,5,1600,',
    *[f'20{10 + n},"Rook, R{n}",FRA,M,1980,,2000,60,2000,' for n in (1, 2, 3)],
    *[f'{pid},"Pawn, P{n}",FRA,M,1980,,1800,60,1800,' for n, pid in PAWNS.items()],
    '2022,"Host, Harry",FRA,M,1970,,1800,60,1800,',
    '3001,"Unr, Una",FRA,F,2005,,,,,',
    '3002,"Unr, Ugo",FRA,M,,,,,,',
    '3003,"Unr, Uma",FRA,,2006,,,,,',
)
CLUB_1 = games_csv(
    "Club Night 1,2026-11-05,2026-11-05,1,2014,2015,1/2-1/2",
    "Club Night 1,2026-11-05,2026-11-05,1,2018,2019,1/2-1/2",
)
CLUB_2 = games_csv("Club Night 2,2026-11-19,2026-11-19,1,2015,2014,1/2-1/2")
BIG = "Big Open,2026-11-10,2026-11-12"
BIG_OPEN = games_csv(
    f"{BIG},1,2001,2011,1-0",
    f"{BIG},2,2012,2001,0-1",
    f"{BIG},3,2001,2013,1-0",
    *[f"{BIG},1,{PAWNS[n]},{PAWNS[n + 1]},1/2-1/2" for n in (4, 6, 8, 10)],
)
FRIENDS = "Friends Cup,2026-11-14,2026-11-15"
FRIENDS_CUP = games_csv(
    *[
        f"{FRIENDS},{r},{a},{b},1/2-1/2"
        for r, (a, b) in enumerate(
            [("2022", "3001"), ("2022", "3002"), ("2022", "3003"), ("3001", "3002"),
             ("3001", "3003"), ("3002", "3003")] * 2, start=1)
    ]
)  # fmt: skip

GROUP = (
    "closed group: Host, Harry (2022), Unr, Una (3001), Unr, Ugo (3002) and Unr, Uma (3003) "
    "played 12 of their 12 games among themselves (each at least 80% of their own); 3 of the 4 "
    "were unrated (Unr, Una (3001), Unr, Ugo (3002) and Unr, Uma (3003)), so their first "
    "ratings rest on each other"
)
GAIN = (
    "large gain: Wolf, Walt (2001) gained +110, far above {} norm (mean +4.7, standard "
    "deviation 32.7, over 12 rated players who played): more than 3 standard deviations above "
    "the mean and more than 100 points"
)
BIRTH = (
    "1 new player without a birth date (the K factor of juniors and the age lists need it): "
    "Unr, Ugo (3002)"
)
SEX = "1 new player without sex (the women's lists need it): Unr, Uma (3003)"


def pairing(events: str, games: int = 3) -> str:
    return (
        f"repeated pairing: Pawn, P4 (2014) and Pawn, P5 (2015) met in 3 events of the period "
        f"({events}), {games} games in all"
    )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def tokens(users: Accounts) -> dict[str, str]:
    for name, role in (("arbiter1", "arbiter"), ("officer1", "officer")):
        users.add(name, role)
    return {name: users.token(name) for name in ("arbiter1", "officer1")}


def load(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], *files: str) -> list[str]:
    """The list, then each games CSV as ``tournaments import``: their tournament ids. ``url``:
    the test's rolled-back database (``database.url``), or a database of its own."""
    listed = tmp_path / "list.csv"
    listed.write_text(LIST, encoding="utf-8")
    cli_ok(capsys, "lists", "import", str(listed), "--category", CATEGORY, "--period", "2026-11",
           url=url)  # fmt: skip
    ids = []
    for index, content in enumerate(files):
        path = tmp_path / f"t{index}.csv"
        path.write_text(content, encoding="utf-8")
        out = cli_ok(capsys, "tournaments", "import", str(path), "--category", CATEGORY, url=url)
        ids.append(json.loads(out.strip().splitlines()[-1])["tournament_id"])
    return ids


def messages(flags: list[dict[str, Any]]) -> list[str]:
    return [flag["message"] for flag in flags]


def page_text(client: TestClient, users: Accounts, path: str) -> str:
    session_id, _ = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    answer = client.get(path)
    client.cookies.clear()
    assert answer.status_code == 200, answer.text
    return html.unescape(answer.text)


def flags_on(page: str) -> list[str]:
    found = re.search(r'<ul class="quality" id="quality">(.*?)</ul>', page, re.S)
    assert found, "no quality flags on the page"
    return [re.sub(r"\s+", " ", item) for item in re.findall(r"<li[^>]*>(.*?)</li>", found[1])]


def test_the_preview_flags_the_period_and_approving_it_publishes_all_the_same(
    client: TestClient,
    tokens: dict[str, str],
    users: Accounts,
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    club_1, club_2, big, _ = load(database.url, tmp_path, capsys, CLUB_1, CLUB_2, BIG_OPEN,
                                  FRIENDS_CUP)  # fmt: skip
    preview = f"/admin/v1/periods/{CATEGORY}/{PERIOD}/preview"
    answer = client.get(preview, headers=bearer(tokens["officer1"]))
    assert answer.status_code == 200, answer.text
    shown = answer.json()
    gains = {c["player_id"]: c["change"] for c in shown["changes"] if c["change"] is not None}
    assert (gains["2001"], gains["2011"], gains["2014"], gains["2018"]) == (110, -18, 0, 0)
    expected = [GROUP, pairing(", ".join(sorted([club_1, club_2, big]))),
                GAIN.format("the period's"), BIRTH, SEX]  # fmt: skip
    assert messages(shown["quality_flags"]) == expected
    kinds = [(f["kind"], f["players"]) for f in shown["quality_flags"]]
    assert kinds == [
        ("closed-group", ["2022", "3001", "3002", "3003"]),
        ("repeated-pairing", ["2014", "2015"]),
        ("large-gain", ["2001"]),
        ("missing-identity", ["3002"]),
        ("missing-identity", ["3003"]),
    ]
    group = shown["quality_flags"][0]
    assert (group["games"], group["inside"]) == (12, 12)
    assert [m["unrated"] for m in group["members"]] == [False, True, True, True]
    gain = shown["quality_flags"][2]
    assert (gain["change"], gain["mean"], gain["deviation"], gain["rated_players"]) == (
        110, 4.67, 32.67, 12)  # fmt: skip
    # The page shows them, in words, above the decision.
    page = page_text(client, users, f"/publication/{CATEGORY}/{PERIOD}")
    assert flags_on(page) == expected
    assert page.index('id="quality"') < page.index("<h2>Decision</h2>")
    # Never a refusal: the list is approved and published as previewed.
    approve = client.post(
        f"/admin/v1/periods/{CATEGORY}/{PERIOD}/approve",
        json={"digest": shown["digest"]},
        headers=bearer(tokens["officer1"]),
    )
    assert approve.status_code == 200, approve.text
    assert approve.json()["state"] == "published"


def test_a_period_without_anything_to_flag_says_none(
    client: TestClient,
    tokens: dict[str, str],
    users: Accounts,
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(database.url, tmp_path, capsys, CLUB_1)
    answer = client.get(f"/admin/v1/periods/{CATEGORY}/{PERIOD}/preview",
                        headers=bearer(tokens["officer1"]))  # fmt: skip
    assert answer.json()["quality_flags"] == []
    page = page_text(client, users, f"/publication/{CATEGORY}/{PERIOD}")
    assert '<p id="quality">None.</p>' in page


def send(client: TestClient, token: str, content: str | bytes, name: str) -> dict[str, Any]:
    body = content.encode() if isinstance(content, str) else content
    answer = client.post(
        f"/admin/v1/submissions?category={CATEGORY}&filename={name}",
        content=body,
        headers=bearer(token) | {"Content-Type": "text/plain"},
    )
    assert answer.status_code == 201, answer.text
    result: dict[str, Any] = answer.json()
    return result


def test_the_check_report_flags_what_the_file_brings_and_accepting_it_works_all_the_same(
    client: TestClient,
    tokens: dict[str, str],
    users: Accounts,
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    club_1, club_2 = load(database.url, tmp_path, capsys, CLUB_1, CLUB_2)
    # The Big Open: Pawn 4 and 5 meet a third time (8 and 9 a second time: no flag); Wolf's
    # +110 from the file alone, against the file's own 12 rated players (the same numbers).
    report = send(client, tokens["arbiter1"], BIG_OPEN, "big.csv")
    expected = [pairing(f"{club_1}, {club_2}, this file"), GAIN.format("this file's")]
    assert messages(report["quality"]) == expected
    big = report["submission_id"]
    # The Friends Cup: the closed group (no stored game of theirs: the file alone).
    friends = send(client, tokens["arbiter1"], FRIENDS_CUP, "friends.csv")
    assert messages(friends["quality"]) == [GROUP]
    # The pages show them to the officer.
    assert flags_on(page_text(client, users, f"/submissions/{big}")) == expected
    assert flags_on(page_text(client, users, f"/submissions/{friends['submission_id']}")) == [
        GROUP]  # fmt: skip
    # Never a refusal: the officer accepts both.
    for submission in (big, friends["submission_id"]):
        accepted = client.post(f"/admin/v1/submissions/{submission}/accept",
                               headers=bearer(tokens["officer1"]))  # fmt: skip
        assert accepted.status_code == 200, accepted.text


def test_the_check_report_flags_the_new_players_without_a_birth_date_or_sex(
    client: TestClient,
    tokens: dict[str, str],
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    load(database.url, tmp_path, capsys)
    no_sex = trf_player(1, "Nosex, Nat", ["   2 w 1"], birth="1999/01/01")
    no_sex = no_sex[:9] + " " + no_sex[10:]  # the sex column (10) left blank
    no_birth = trf_player(2, "Nobirth, Ned", ["   1 b 0"], birth="")
    both = trf_player(3, "Known, Kim", ["   4 w ="], birth="2000/02/02")
    rated = trf_player(4, "Pawn, P4", ["   3 b ="], fide_id="2014")
    content = TRF_HEADER + "222 5400+30\n" + "\n".join([no_sex, no_birth, both, rated]) + "\n"
    report = send(client, tokens["arbiter1"], content, "new.trf")
    (birth, sex) = report["quality"]
    assert (birth["kind"], birth["field"], sex["kind"], sex["field"]) == (
        "missing-identity", "birth date", "missing-identity", "sex")  # fmt: skip
    assert re.fullmatch(
        r"1 new player without a birth date \(the K factor of juniors and the age lists need "
        r"it\): Nobirth, Ned \(\w+\)", birth["message"])  # fmt: skip
    assert re.fullmatch(
        r"1 new player without sex \(the women's lists need it\): Nosex, Nat \(\w+\)",
        sex["message"])  # fmt: skip


@pytest.mark.parametrize(("outside", "flagged"), [(1, True), (2, False)])
def test_the_stored_games_of_the_period_count_in_a_files_closed_group(
    client: TestClient,
    tokens: dict[str, str],
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    outside: int,
    flagged: bool,
) -> None:
    # Una played Pawn 4 (and 8) at a stored club night of the period: with one game outside
    # she played 6 of 7 in the Friends Cup (6/7 >= 4/5): the group stands, 12 of 13 games;
    # with two, 6 of 8 (3/4 < 4/5): she is peeled off, then Host (4 of 6), Ugo and Uma. Pawn
    # 4 played Pawn 5 twice, Pawn 8 Pawn 9 once, at the club nights (1 of 3 and 1 of 2 games
    # with Una): peeled off at once, outside.
    stored = games_csv(*[f"Club Night 3,2026-11-06,2026-11-06,{n + 1},3001,{PAWNS[4 + 4 * n]},0-1"
                         for n in range(outside)])  # fmt: skip
    load(database.url, tmp_path, capsys, CLUB_1, CLUB_2, stored)
    report = send(client, tokens["arbiter1"], FRIENDS_CUP, "friends.csv")
    expected = [GROUP.replace("12 of their 12", "12 of their 13")] if flagged else []
    assert messages(report["quality"]) == expected
