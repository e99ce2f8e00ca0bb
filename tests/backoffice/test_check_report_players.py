"""What the check report says of a file's players and lists (issue 28 item 5), on SQLite and
PostgreSQL, worked by hand: the new players by name, each with the stored player it may be
(the same name whatever its accents, case and word order, born the same year); players of
other federations than the file's (032); a category with no list in force at the start, or a
newer list than the one the tournament is rated with.

Stored: the fide-standard lists of 2026-08 and 2026-10, both Kastelli, Petra (1001, born 1990)
and Zed, Zack (1002). The file (032 FRA, 2026-09-05..06): Petra Kastélli (no FIDE id, born 1990:
new, likely 1001), Müller, Hans (GER, no FIDE id, born 1985: new, foreign) and Zed (1002:
matched)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.backoffice.conftest import Accounts
from tests.backoffice.test_submissions import send, tokens  # noqa: F401
from tests.support.cli import cli_ok
from tests.support.factories import list_csv
from tests.support.files import trf_player as player
from tests.support.rolled_back import RolledBack

LIST = list_csv(
    '1001,"Kastelli, Petra",FRA,F,1990,,1900,60,1900,', '1002,"Zed, Zack",FRA,M,1980,,1800,60,1800,'
)


def trf(start: str, end: str) -> bytes:
    lines = [
        "012 Autumn Open", "032 FRA", f"042 {start}", f"052 {end}", "222 5400+30",
        player(1, "Petra Kastélli", ["   2 w 1", "   3 b =", "        "], birth="1990/03/01"),
        player(2, "Müller, Hans", ["   1 b 0", "        ", "   3 w 1"], birth="1985/05/05").replace(
            " FRA ", " GER ", 1
        ),
        player(3, "Zed, Zack", ["        ", "   1 w =", "   2 b 0"], fide_id="1002"),
    ]  # fmt: skip
    return ("\n".join(lines) + "\n").encode()


def publish(database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = tmp_path / "list.csv"
    listed.write_text(LIST, encoding="utf-8")
    for period in ("2026-08", "2026-10"):
        cli_ok(capsys, "lists", "import", str(listed), "--category", "fide-standard", "--period",
               period, url=database.url)  # fmt: skip


def test_new_players_likely_duplicates_federations_and_the_list_in_force(
    client: TestClient,
    tokens: dict[str, str],  # noqa: F811
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    users: Accounts,
) -> None:
    publish(database, tmp_path, capsys)
    report = send(client, tokens["arbiter1"], trf("2026/09/05", "2026/09/06"),
                  "category=fide-standard").json()  # fmt: skip
    players = report["players"]
    assert (players["matched"], players["new"]) == (1, 2)
    assert players["new_players"] == [
        {"name": "Müller, Hans", "birth_year": 1985, "federation": "GER",
         "likely_duplicates": []},
        {"name": "Petra Kastélli", "birth_year": 1990, "federation": "FRA",
         "likely_duplicates": [
             {"player_id": "1001", "name": "Kastelli, Petra", "birth_year": 1990}]},
    ]  # fmt: skip
    warnings = report["warnings"]
    assert (
        "new player Petra Kastélli (born 1990) may be Kastelli, Petra (id 1001, born 1990), "
        "already stored: merge them after the import if they are one person"
    ) in warnings
    assert "1 player(s) of other federations than the tournament's (FRA): GER 1" in warnings
    assert (
        "fide-standard: the tournament starts before the latest list (2026-10): its games are "
        "rated with the 2026-08 list, in force at its start"
    ) in warnings
    # The page shows them too.
    session_id, _ = users.session("arbiter1")
    client.cookies.set("ratingdb_session", session_id)
    page = client.get(f"/submissions/{report['submission_id']}")
    assert page.status_code == 200
    assert "Petra Kastélli, born 1990, FRA" in page.text
    assert "may be Kastelli, Petra (id 1001, born 1990)" in page.text


def test_no_list_in_force_at_the_start(
    client: TestClient,
    tokens: dict[str, str],  # noqa: F811
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    publish(database, tmp_path, capsys)
    report = send(client, tokens["arbiter1"], trf("2026/07/05", "2026/07/06"),
                  "category=fide-standard").json()  # fmt: skip
    assert (
        "fide-standard: no published list in force at the start (2026-07-05): its players are "
        "rated as unrated (the first list is of 2026-08)"
    ) in report["warnings"]
