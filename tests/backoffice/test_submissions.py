"""Submissions through the API and the pages, on SQLite and PostgreSQL: the check report of each
real TRF of ../shared/data/trf against EXPECTED.md with nothing of it stored, a broken file
refused with its line and field, accept storing exactly what ``ratingdb tournaments import``
stores, reject with a reason the arbiter reads, arbiters kept to their own, CSRF on the upload
form, the duplicate warnings, the size limit and the audit log."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ratingdb.backoffice import uploads
from ratingdb.cli import main
from ratingdb.models import SubmissionRow
from tests.backoffice.conftest import Accounts
from tests.databases import copy_sqlite
from tests.services.test_late_reports import publish_until
from tests.support.cli import cli_ok
from tests.support.files import GAMES_HEADER
from tests.support.files import TRF_HEADER as HEADER
from tests.support.files import trf_player as player
from tests.support.rolled_back import RolledBack
from tests.support.sql import query

ROOT = Path(__file__).resolve().parents[2]
TRF_FOLDER = ROOT.parent / "shared" / "data" / "trf"
STORED = ("players", "tournaments", "games", "periods")
CSRF_INPUT = re.compile(r'name="csrf_token" value="([^"]+)"')

#: A small valid TRF: two players with FIDE ids, one game each round.
#: 90 min + 30 s a move (120 min for 60 moves): a standard rate of play for every rating, so
#: the report warns of nothing but what a test makes it warn of.
SMALL_TRF = (
    HEADER
    + "222 5400+30\n"
    + player(1, "Alpha, Ann", ["   2 w 1", "   2 b ="], fide_id="1000001")
    + "\n"
    + player(2, "Beta, Bob", ["   1 b 0", "   1 w ="], fide_id="1000002")
    + "\n"
).encode()


@pytest.fixture(scope="module")
def folder() -> Path:
    if not TRF_FOLDER.is_dir():
        pytest.skip(f"the real TRF files are not here: {TRF_FOLDER} (../shared/data/trf)")
    return TRF_FOLDER


def plain(value: Any) -> str:
    """A value as text, booleans as SQLite returns them (0 and 1)."""
    return str(int(value)) if isinstance(value, bool) else str(value)


def stored(database: RolledBack) -> dict[str, int]:
    return {table: query(database, f"SELECT count(*) FROM {table}")[0][0] for table in STORED}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def send(client: TestClient, token: str, content: bytes, query_string: str) -> Any:
    return client.post(f"/admin/v1/submissions?{query_string}", content=content,
                       headers=bearer(token) | {"Content-Type": "text/plain"})  # fmt: skip


@pytest.fixture
def tokens(users: Accounts) -> dict[str, str]:
    """arbiter1, arbiter2, officer1 (and admin1) with their API tokens."""
    for name, role in (("arbiter1", "arbiter"), ("arbiter2", "arbiter"), ("officer1", "officer"),
                       ("admin1", "admin")):  # fmt: skip
        users.add(name, role)
    return {name: users.token(name) for name in ("arbiter1", "arbiter2", "officer1", "admin1")}


# --- the check report of the real files -------------------------------------------------------

#: file -> (extra query, players in the file, games stored, rated, period): EXPECTED.md (the
#: players are real people, not the bye's pseudo-player; games = played + forfeits).
REAL_FILES = {
    "karl_mala_2005_frankfurt.trf": ("", 283, 980, 970, "2005-10"),
    "open_gros_2010_donostia_crlf.trf": ("", None, 93, 89, "2010-11"),
    "bbp_autotest_issue7_cr_only.trf": ("&period=2026-12", 60, 420, 395, "2026-12"),
    "icu_u19_all_ireland_2010_round_robin.trf": ("", 4, 6, 6, None),
    "icu_ulster_masters_seniors_2022.trf": ("", 16, 36, 36, None),
    "icu_cork_major_2018.trf": ("", 23, 64, 64, None),
    "icu_irish_intermediate_2011_latin1.trf": ("", 21, 44, 44, None),
    "sharly_trf26_individual_fra_nrs.trf": ("", 16, 36, 34, None),
    "tec_grandmommys_cup_trf26_team.trf": ("", 249, 1030, 1030, None),
    "lichess_swiss_2020_05.trf": ("", 13, 56, 56, None),
}


#: The files' time controls as written (TRF 122): only the TEC file encodes one (222
#: 40/6000+30:20/3000+30:1500+30: 100 + 20 + 50 + 10 min for 60 moves, rated), the others are
#: flagged: their games cannot be checked for their rate of play.
WRITTEN_TIME_CONTROLS = {
    "icu_cork_major_2018.trf": "1:30+30sec",
    "icu_irish_intermediate_2011_latin1.trf": "All moves in 90 minutes, plus 10 seconds per move",
    "icu_ulster_masters_seniors_2022.trf": "90 mins + 30sec increment",
    "karl_mala_2005_frankfurt.trf": "40/120, 60",
    "open_gros_2010_donostia_crlf.trf": "moves/time, increment",
}


def time_control_warnings(name: str) -> list[str]:
    if name == "tec_grandmommys_cup_trf26_team.trf":
        return []
    written = WRITTEN_TIME_CONTROLS.get(name)
    said = f" (it says {written!r})" if written else ""
    return [
        (
            f"no encoded time control (TRF26 222 or a time_control column){said}: the rate of play "
            "cannot be checked and every played game will be rated; give it on import"
        )
    ]


def players_without_fide_id(content: bytes) -> list[str]:
    """Read here by hand (TRF 001 columns, docs/formats.md §4.1): the names of the players
    whose FIDE id (columns 58-68) is blank, 0 or not digits (the ICU file's N0001) and who
    met another player at least once (a round with an opponent and a result)."""
    names = []
    for line in re.split(r"\r\n|\r|\n", content.decode("latin-1")):
        if not line.startswith("001"):
            continue
        fide_id = line[57:68].strip()
        rounds = [line[i : i + 8] for i in range(91, len(line), 10)]
        met = any(r[:4].strip() not in ("", "0000") and r[7:8].strip() for r in rounds)
        if met and not (fide_id.isdigit() and int(fide_id) > 0):
            names.append(line[14:47].strip())
    return names


def players_who_played(content: bytes) -> list[str]:
    """Read here by hand: the names (columns 15-47, spaces joined) of the players who met
    another player at least once (the text UTF-8, else Latin-1, as the reader takes it)."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        text = content.decode("latin-1")
    names = []
    for line in re.split(r"\r\n|\r|\n", text.removeprefix("\ufeff")):
        if not line.startswith("001"):
            continue
        rounds = [line[i : i + 8] for i in range(91, len(line), 10)]
        if any(r[:4].strip() not in ("", "0000") and r[7:8].strip() for r in rounds):
            names.append(" ".join(line[14:47].split()))
    return names


def fide_id_warnings(content: bytes) -> list[str]:
    names = players_without_fide_id(content)
    if not names:
        return []
    return [f"{len(names)} player(s) need a FIDE id before FIDE rating"]


@pytest.mark.parametrize("name", sorted(REAL_FILES))
def test_each_real_file_is_checked_and_nothing_is_stored(
    client: TestClient, tokens: dict[str, str], database: RolledBack, folder: Path, name: str
) -> None:
    extra, players, games, rated, period = REAL_FILES[name]
    content = (folder / name).read_bytes()
    response = send(client, tokens["arbiter1"], content,
                    f"category=fide-standard{extra}&filename={name}")  # fmt: skip
    assert response.status_code == 201, response.text
    report = response.json()
    assert report["state"] == "submitted"
    assert (report["games"], report["rated_games"]) == (games, rated)
    # An empty database: every player of the file is new, none matched, no differences.
    if players is not None:
        new_players = report["players"].pop("new_players")
        assert report["players"] == {"matched": 0, "new": players, "mismatches": []}
        # Listed by name: those who play (the TEC file's two players without a game are
        # created, never rated, and not listed).
        assert len(new_players) == len(players_who_played(content))
        assert sorted(p["name"] for p in new_players) == sorted(players_who_played(content))
        assert all(p["likely_duplicates"] == [] for p in new_players)
    if period is not None:
        assert (report["period"], report["late"]) == (period, False)
    # (Players of other federations than the file's 032 are counted: tested on a built file.)
    warnings = [w for w in report["warnings"] if "of other federations than" not in w]
    assert warnings[:1] == time_control_warnings(name)
    # Each player without a FIDE id is named (the first ten by name, then how many more).
    assert [w.split(" (")[0] for w in warnings[1:]] == fide_id_warnings(content)
    for unregistered in sorted(players_without_fide_id(content))[:10]:
        assert unregistered in warnings[1]
    # The check wrote nothing but the submission (and its audit entry).
    assert stored(database) == dict.fromkeys(STORED, 0)
    assert query(database, "SELECT state, filename FROM submissions") == [("submitted", name)]


def test_a_second_file_matches_players_and_reports_differences(
    client: TestClient, tokens: dict[str, str], database: RolledBack
) -> None:
    """Players known by FIDE id are matched; the file's name, federation, birth year and sex
    are compared with the database (worked by hand: Beta's record now says ENG, 1985, f)."""
    first = send(client, tokens["officer1"], SMALL_TRF, "category=fide-standard&accept=true")
    assert first.status_code == 201, first.text
    assert first.json()["state"] == "accepted"
    changed = (
        "012 Second Open\n042 2026/11/12\n052 2026/11/14\n"
        + player(1, "Alpha, Ann", ["   3 w 1"], fide_id="1000001")
        + "\n"
        + player(2, "Beta, Bobby", ["   0 - U"], fide_id="1000002", birth="1985/01/01")
        .replace(" FRA ", " ENG ")
        .replace("001    2 m ", "001    2 f ")
        + "\n"
        + player(3, "Gamma, Gil", ["   1 b 0"])
        + "\n"
    ).encode()
    response = send(client, tokens["arbiter1"], changed, "category=fide-standard")
    assert response.status_code == 201, response.text
    players = response.json()["players"]
    assert (players["matched"], players["new"]) == (2, 1)
    assert sorted(players["mismatches"], key=lambda m: m["field"]) == [
        {"player_id": "1000002", "field": "birth_year", "file": 1985, "database": 1990},
        {"player_id": "1000002", "field": "federation", "file": "ENG", "database": "FRA"},
        {"player_id": "1000002", "field": "name", "file": "Beta, Bobby", "database": "Beta, Bob"},
        {"player_id": "1000002", "field": "sex", "file": "F", "database": "M"},
    ]
    # Nothing of the check stayed: Beta's record is unchanged and Gamma does not exist.
    assert query(database, "SELECT federation, birth_year FROM players WHERE "
                 "player_id = '1000002'") == [("FRA", 1990)]  # fmt: skip
    assert query(database, "SELECT count(*) FROM players")[0][0] == 2


def test_a_broken_file_is_refused_with_line_and_field(
    client: TestClient, tokens: dict[str, str], database: RolledBack
) -> None:
    # Line 5 (Ann), round 1: a result code TRF does not have (column 99).
    broken = SMALL_TRF.replace(b"   2 w 1", b"   2 w Q", 1)
    response = send(client, tokens["arbiter1"], broken, "category=fide-standard&filename=x.trf")
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == (
        "x.trf, line 5, column 99, field round 1 result: unknown result code 'Q' (TRF: 1 = 0 + - "
        "W D L H F U Z or blank)"
    )
    assert stored(database) == dict.fromkeys(STORED, 0)
    assert query(database, "SELECT count(*) FROM submissions") == [(0,)]
    assert query(database, "SELECT count(*) FROM audit_log WHERE actor = 'arbiter1'") == [(0,)]


@pytest.mark.parametrize(
    ("query_string", "field"),
    [("", "category"), ("category=chess960", "category"),
     ("category=fide-standard&period=2026-13", "period"),
     ("category=fide-standard&format=pgn", "format")],
)  # fmt: skip
def test_bad_parameters_are_refused(
    client: TestClient, tokens: dict[str, str], database: RolledBack, query_string: str, field: str
) -> None:
    response = send(client, tokens["arbiter1"], SMALL_TRF, query_string)
    assert response.status_code == 422
    assert f"field {field}" in response.json()["detail"]
    assert query(database, "SELECT count(*) FROM submissions") == [(0,)]


def test_accept_stores_what_the_command_stores(
    client: TestClient,
    tokens: dict[str, str],
    database: RolledBack,
    folder: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    sqlite_template: Path,
) -> None:
    name = "sharly_trf26_individual_fra_nrs.trf"
    sent = client.post(
        "/admin/v1/submissions?category=fide-rapid&category=ffe-rapid",
        files={"file": (name, (folder / name).read_bytes(), "application/octet-stream")},
        headers=bearer(tokens["arbiter1"]),
    )  # multipart/form-data with a `file` field
    assert sent.status_code == 201, sent.text
    submission = sent.json()["submission_id"]
    accepted = client.post(f"/admin/v1/submissions/{submission}/accept",
                           headers=bearer(tokens["officer1"]))  # fmt: skip
    assert accepted.status_code == 200, accepted.text
    assert accepted.json() == {"state": "accepted", "tournament_ids": ["T000001", "T000002"]}
    # The same file through the command into another database.
    other = copy_sqlite(sqlite_template, tmp_path, "command.sqlite3")
    code = main(["tournaments", "import", str(folder / name), "--category", "fide-rapid",
                 "--category", "ffe-rapid", "--database-url", other])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    tables = {
        "players": "SELECT player_id, name, federation, sex, birth_year, birth_date, title, "
        "fide_id, national_federation, national_id, national_rating FROM players",
        "tournaments": "SELECT tournament_id, name, category, start_date, end_date, late, "
        "source_format, source_digest, city, federation, time_control, time_control_code, "
        "group_id FROM tournaments",
        "games": "SELECT tournament_id, round, white_id, black_id, result, rated FROM games",
        "periods": "SELECT category, list_date FROM periods",
    }
    for table, sql in tables.items():
        ours = sorted(tuple(plain(v) for v in row) for row in query(database, sql))
        theirs = sorted(tuple(plain(v) for v in row) for row in query(other, sql))
        assert ours == theirs, table
        assert ours, table
    shown = client.get(f"/admin/v1/submissions/{submission}", headers=bearer(tokens["arbiter1"]))
    assert (shown.json()["state"], shown.json()["reviewer"]) == ("accepted", "officer1")
    # Accepting again, or rejecting it now: 409, nothing more stored.
    again = client.post(f"/admin/v1/submissions/{submission}/accept",
                        headers=bearer(tokens["officer1"]))  # fmt: skip
    assert again.status_code == 409
    late = client.post(f"/admin/v1/submissions/{submission}/reject", json={"reason": "x"},
                       headers=bearer(tokens["officer1"]))  # fmt: skip
    assert late.status_code == 409
    assert stored(database)["tournaments"] == 2
    # The audit log names the users.
    log = client.get("/admin/v1/audit?limit=3", headers=bearer(tokens["officer1"])).json()
    assert [(e["action"], e["actor"]) for e in log] == [
        ("submission-accept", "officer1"),
        ("tournament-import", "officer1"),
        ("submission-upload", "arbiter1"),
    ]
    only = client.get("/admin/v1/audit?action=submission-upload",
                      headers=bearer(tokens["admin1"])).json()  # fmt: skip
    assert [(e["action"], e["actor"]) for e in only] == [("submission-upload", "arbiter1")]


def test_reject_with_a_reason_the_arbiter_reads(
    client: TestClient, tokens: dict[str, str], database: RolledBack
) -> None:
    submission = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard").json()[
        "submission_id"
    ]
    path = f"/admin/v1/submissions/{submission}"
    empty = client.post(f"{path}/reject", json={"reason": "  "}, headers=bearer(tokens["officer1"]))
    assert empty.status_code == 422
    refused = client.post(f"{path}/reject", json={"reason": "round 2 is missing"},
                          headers=bearer(tokens["officer1"]))  # fmt: skip
    assert refused.status_code == 200
    assert refused.json() == {"state": "rejected"}
    seen = client.get(path, headers=bearer(tokens["arbiter1"])).json()
    assert (seen["state"], seen["reason"], seen["reviewer"]) == (
        "rejected", "round 2 is missing", "officer1",
    )  # fmt: skip
    accepted = client.post(f"{path}/accept", headers=bearer(tokens["officer1"]))
    assert accepted.status_code == 409
    assert stored(database) == dict.fromkeys(STORED, 0)
    listed = client.get("/admin/v1/submissions?state=rejected", headers=bearer(tokens["arbiter1"]))
    assert [s["submission_id"] for s in listed.json()] == [submission]
    assert client.get("/admin/v1/submissions?state=accepted",
                      headers=bearer(tokens["arbiter1"])).json() == []  # fmt: skip


def test_an_arbiter_sees_only_their_own(client: TestClient, tokens: dict[str, str]) -> None:
    mine = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard").json()
    theirs = send(client, tokens["arbiter2"], SMALL_TRF, "category=fide-rapid").json()
    own = client.get("/admin/v1/submissions", headers=bearer(tokens["arbiter1"])).json()
    assert [s["submission_id"] for s in own] == [mine["submission_id"]]
    other = client.get(f"/admin/v1/submissions/{theirs['submission_id']}",
                       headers=bearer(tokens["arbiter1"]))  # fmt: skip
    missing = client.get("/admin/v1/submissions/999999", headers=bearer(tokens["arbiter1"]))
    # Another's submission answers exactly as one that does not exist.
    assert other.status_code == missing.status_code == 404
    assert other.json()["detail"].replace(theirs["submission_id"], "N") == missing.json()[
        "detail"
    ].replace("999999", "N")
    everyone = client.get("/admin/v1/submissions", headers=bearer(tokens["officer1"])).json()
    assert sorted(s["submitter"] for s in everyone) == ["arbiter1", "arbiter2"]
    # An arbiter may not accept, not even their own in one step.
    assert client.post(f"/admin/v1/submissions/{mine['submission_id']}/accept",
                       headers=bearer(tokens["arbiter1"])).status_code == 403  # fmt: skip
    one_step = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard&accept=true")
    assert one_step.status_code == 403


def test_duplicate_file_and_tournament_warnings(client: TestClient, tokens: dict[str, str]) -> None:
    first = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard").json()
    # arbiter2 learns nothing of arbiter1's submission (test_warnings_by_role); arbiter1 is
    # told of their own.
    second = send(client, tokens["arbiter2"], SMALL_TRF, "category=fide-standard").json()
    assert second["warnings"] == []
    own = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard").json()
    assert own["warnings"] == [
        f"this file was already submitted as submission {first['submission_id']} (submitted)"
    ]
    client.post(f"/admin/v1/submissions/{first['submission_id']}/accept",
                headers=bearer(tokens["officer1"]))  # fmt: skip
    third = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard").json()
    assert third["warnings"][0] == (
        "this file is already stored as tournament T000001 (fide-standard): accepting it again "
        "will be refused"
    )
    assert "'Test Open' from 2026-11-02 to 2026-11-08 is already stored: T000001" in " ".join(
        third["warnings"]
    )
    # The same tournament in another file (one more space at the end of a line).
    retyped = SMALL_TRF.replace(b"Test Open\n", b"Test Open \n")
    fourth = send(client, tokens["arbiter1"], retyped, "category=fide-standard").json()
    assert any("is already stored: T000001" in w for w in fourth["warnings"])
    assert not any("this file" in w for w in fourth["warnings"])
    # Accepting the second copy of the file is refused by the import: 409, nothing stored.
    refused = client.post(f"/admin/v1/submissions/{second['submission_id']}/accept",
                          headers=bearer(tokens["officer1"]))  # fmt: skip
    assert refused.status_code == 409
    assert "already imported for fide-standard as tournament T000001" in refused.json()["detail"]


def test_warnings_by_role(client: TestClient, tokens: dict[str, str]) -> None:
    """Duplicate warnings name another arbiter's submissions to officers only: an arbiter reads
    the stored tournaments (public) and their own submissions, in the answer and later on the
    submission's page; an officer reads everyone's, also of submissions sent later."""
    standard = "category=fide-standard"
    first = send(client, tokens["arbiter1"], SMALL_TRF, standard).json()["submission_id"]
    retyped = SMALL_TRF.replace(b"Test Open\n", b"Test Open \n")
    second = send(client, tokens["arbiter2"], retyped, standard).json()
    assert second["warnings"] == []
    same_file = send(client, tokens["arbiter2"], SMALL_TRF, standard).json()
    named = "a tournament named 'Test Open' from 2026-11-02 to 2026-11-08"
    own = f"{named} was already submitted: submission {second['submission_id']} (submitted)"
    assert same_file["warnings"] == [own]
    for submission, arbiter, other in ((second["submission_id"], "arbiter2", first),
                                       (first, "arbiter1", second["submission_id"])):  # fmt: skip
        shown = client.get(f"/admin/v1/submissions/{submission}", headers=bearer(tokens[arbiter]))
        assert f"submission {other}" not in " ".join(shown.json()["report"]["warnings"])
    by_arbiter2_file = (
        f"this file was also submitted by arbiter2 as submission {same_file['submission_id']} "
        "(submitted)"
    )
    by_arbiter2_name = (
        f"{named} was also submitted by others: submission {second['submission_id']} "
        "(submitted) by arbiter2"
    )
    seen = client.get(f"/admin/v1/submissions/{first}", headers=bearer(tokens["officer1"]))
    assert seen.json()["report"]["warnings"] == [by_arbiter2_file, by_arbiter2_name]
    # An officer's upload: everyone's, at once.
    by_officer = send(client, tokens["officer1"], SMALL_TRF, standard).json()
    by_arbiter1_file = f"this file was also submitted by arbiter1 as submission {first} (submitted)"
    assert by_officer["warnings"] == [by_arbiter1_file, by_arbiter2_file, by_arbiter2_name]
    # The audit log keeps the uploader's warnings only.
    log = client.get("/admin/v1/audit?action=submission-upload",
                     headers=bearer(tokens["officer1"])).json()  # fmt: skip
    assert log[0]["details"]["warnings"] == []


def test_a_report_kept_before_shows_an_arbiter_only_their_own(
    client: TestClient, tokens: dict[str, str], database: RolledBack
) -> None:
    """A report kept by an earlier version named everyone's submissions: an arbiter reading it
    now is shown none of another's (an officer still reads it whole)."""
    standard = "category=fide-standard"
    first = send(client, tokens["arbiter1"], SMALL_TRF, standard).json()["submission_id"]
    own = send(client, tokens["arbiter2"], SMALL_TRF, standard).json()["submission_id"]
    second = send(client, tokens["arbiter2"], SMALL_TRF, standard).json()["submission_id"]
    kept = [
        f"this file was already submitted as submission {first} (submitted)",
        f"this file was already submitted as submission {own} (submitted)",
        "a tournament named 'Test Open' from 2026-11-02 to 2026-11-08 is already stored: T000001",
    ]
    with database.sessions.begin() as session:
        row = session.get(SubmissionRow, int(second))
        assert row is not None
        # As kept before the warnings were also kept as messages (warnings_i18n).
        old = {k: v for k, v in row.report.items() if k != "warnings_i18n"}
        row.report = old | {"warnings": kept}
    shown = client.get(f"/admin/v1/submissions/{second}", headers=bearer(tokens["arbiter2"]))
    assert shown.json()["report"]["warnings"] == kept[1:]
    seen = client.get(f"/admin/v1/submissions/{second}", headers=bearer(tokens["officer1"]))
    assert seen.json()["report"]["warnings"][:3] == kept


def test_uploads_over_the_limit_are_refused(
    client: TestClient,
    tokens: dict[str, str],
    database: RolledBack,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(uploads, "MAX_UPLOAD_BYTES", 1000)
    big = SMALL_TRF + b"   " * 400
    assert send(client, tokens["arbiter1"], big, "category=fide-standard").status_code == 413
    as_form = client.post(
        "/admin/v1/submissions?category=fide-standard",
        files={"file": ("a.trf", big)},
        headers=bearer(tokens["arbiter1"]),
    )
    assert as_form.status_code == 413
    assert query(database, "SELECT count(*) FROM submissions") == [(0,)]


def test_a_tournament_file_over_4_mb_is_refused_before_it_is_read(
    client: TestClient, tokens: dict[str, str], database: RolledBack
) -> None:
    """Reading a TRF holds about 36 times the file: a tournament file is at most 4 MB (a real
    one is under 100 KB), whatever the 20 MB a corrected list file may have."""
    big = SMALL_TRF + b" " * (4 * 1024 * 1024 + 1 - len(SMALL_TRF))
    answer = send(client, tokens["arbiter1"], big, "category=fide-standard")
    assert answer.status_code == 422
    assert "4 MB a tournament file may have" in answer.json()["detail"]
    assert "field file" in answer.json()["detail"]
    assert query(database, "SELECT count(*) FROM submissions") == [(0,)]
    replaced = client.post("/admin/v1/corrections/tournament/T000001?reason=r&dry_run=true",
                           content=big, headers=bearer(tokens["officer1"]))  # fmt: skip
    assert replaced.status_code == 422
    assert "4 MB a tournament file may have" in replaced.json()["detail"]


# --- the pages --------------------------------------------------------------------------------


def signed_in(client: TestClient, users: Accounts, username: str) -> str:
    session_id, csrf = users.session(username)
    client.cookies.clear()
    client.cookies.set("ratingdb_session", session_id)
    return csrf


def test_the_pages_upload_show_and_accept(
    client: TestClient, users: Accounts, tokens: dict[str, str], database: RolledBack
) -> None:
    csrf = signed_in(client, users, "arbiter1")
    form = client.get("/submissions/new")
    assert form.status_code == 200
    assert 'enctype="multipart/form-data"' in form.text
    assert "Accept it at once" not in form.text  # officers only
    fields = {"csrf_token": csrf, "category": "fide-standard", "period": "", "format": ""}
    files = {"file": ("small.trf", SMALL_TRF, "application/octet-stream")}
    # Without the CSRF token: 403 and nothing stored.
    refused = client.post("/submissions", data={"category": "fide-standard"}, files=files)
    assert refused.status_code == 403
    assert query(database, "SELECT count(*) FROM submissions") == [(0,)]
    sent = client.post("/submissions", data=fields, files=files)
    assert sent.status_code == 303, sent.text
    location = sent.headers["location"]
    page = client.get(location)
    assert page.status_code == 200
    assert "2 games, 2 rated" in page.text
    assert "0 matched, 2 new" in page.text
    assert "/accept" not in page.text  # no decision for an arbiter
    # A file that does not parse: the form again, with the line and the field.
    broken = client.post("/submissions", data=fields,
                         files={"file": ("bad.trf", b"001 xx\n", "text/plain")})  # fmt: skip
    assert broken.status_code == 422
    assert "bad.trf, line 1" in broken.text
    # The officer accepts it from the page.
    csrf = signed_in(client, users, "officer1")
    page = client.get(location)
    assert f'action="{location}/accept"' in page.text
    no_token = client.post(f"{location}/accept", data={"csrf_token": "wrong"})
    assert no_token.status_code == 403
    accepted = client.post(f"{location}/accept", data={"csrf_token": csrf})
    assert accepted.status_code == 303
    assert "T000001" in client.get(location).text
    assert stored(database)["tournaments"] == 1
    # Another arbiter's page: not found.
    signed_in(client, users, "arbiter2")
    assert client.get(location).status_code == 404
    # The audit page, filtered by user.
    signed_in(client, users, "admin1")
    audit = client.get("/audit?actor=arbiter1")
    assert audit.status_code == 200
    assert "submission-upload" in audit.text
    assert "submission-accept" not in audit.text
    assert client.get("/audit?since=2026-13-01").status_code == 422


def test_the_pages_reject(client: TestClient, users: Accounts, tokens: dict[str, str]) -> None:
    submission = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard").json()[
        "submission_id"
    ]
    csrf = signed_in(client, users, "officer1")
    rejected = client.post(f"/submissions/{submission}/reject",
                           data={"csrf_token": csrf, "reason": "wrong event"})  # fmt: skip
    assert rejected.status_code == 303
    signed_in(client, users, "arbiter1")
    page = client.get(f"/submissions/{submission}")
    assert "Rejected by officer1: wrong event" in page.text


LIST_HEADER = (
    "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor\n"
)


def test_ratings_against_the_list_in_force_and_a_late_tournament(
    client: TestClient,
    tokens: dict[str, str],
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Lists of November and December 2026 published: the file (2 to 8 November, both players
    rated 1800 in it) is compared with the November list (in force on 2 November: Ann 1800,
    Bob 1750), and is late (its natural period, 2026-12, is out): rated in 2027-01."""
    for period, bob in (("2026-11", 1750), ("2026-12", 1770)):
        listed = tmp_path / f"{period}.csv"
        listed.write_text(
            LIST_HEADER + f'1000001,"Alpha, Ann",FRA,M,1990,,1800,60,1800,20\n'
            f'1000002,"Beta, Bob",FRA,M,1990,,{bob},60,{bob},20\n',
            encoding="utf-8",
        )
        assert cli_ok(capsys, "lists", "import", str(listed), "--category", "fide-standard",
                      "--period", period, url=database.url) is not None  # fmt: skip
    report = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard").json()
    assert (report["period"], report["late"]) == ("2027-01", True)
    assert report["players"] == {
        "matched": 2,
        "new": 0,
        "mismatches": [{"player_id": "1000002", "field": "rating", "file": 1800, "database": 1750}],
        "new_players": [],
    }


def test_a_games_csv(client: TestClient, tokens: dict[str, str], database: RolledBack) -> None:
    """A games CSV names stored players: matched by id; an unknown one is refused at once."""
    assert send(client, tokens["officer1"], SMALL_TRF, "category=fide-standard&accept=true")
    games = (
        "tournament,start_date,end_date,round,white_id,black_id,result\n"
        "Club night,2026-11-20,2026-11-20,1,1000001,1000002,1/2-1/2\n"
    )
    report = send(client, tokens["arbiter1"], games.encode(),
                  "category=fide-standard&format=csv").json()  # fmt: skip
    assert report["players"] == {"matched": 2, "new": 0, "mismatches": [], "new_players": []}
    assert (report["games"], report["rated_games"], report["period"]) == (1, 1, "2026-12")
    unknown = games.replace("1000002", "4242")
    refused = send(client, tokens["arbiter1"], unknown.encode(),
                   "category=fide-standard&filename=club.csv")  # fmt: skip
    assert refused.status_code == 422
    assert refused.json()["detail"] == (
        "club.csv, line 2, field black_id: unknown player 4242 (import a list or a TRF with "
        "this player first)"
    )
    assert query(database, "SELECT count(*) FROM submissions") == [(2,)]


@pytest.mark.parametrize(
    ("category", "control", "warnings"),
    [
        # 90 min + 30 s: 120 min for 60 moves, every standard band.
        ("fide-standard", "5400+30", []),
        # 60 min + 30 s: 90 min, enough below 2400 only.
        ("fide-standard", "3600+30",
         [("fide-standard: games with a player rated 2400 or more will not be rated: rate of play "
          "90 min for 60 moves, below the 120 min required when a player is rated 2400 or more")]),
        # 30 min + 30 s: 60 min, enough when both are below 1800.
        ("fide-standard", "1800+30",
         [("fide-standard: games with a player rated 1800 or more will not be rated: rate of play "
          "60 min for 60 moves, below the 90 min required when a player is rated 1800 or more")]),
        ("fide-rapid", "5400+30",
         [("fide-rapid: no game will be rated: rate of play 120 min for 60 moves, fide-rapid "
          "needs more than 10 and less than 60 minutes")]),
        ("fide-blitz", "180+2", []),
    ],
)  # fmt: skip
def test_the_report_says_which_games_the_rate_of_play_keeps_out(
    client: TestClient, tokens: dict[str, str], category: str, control: str, warnings: list[str]
) -> None:
    content = SMALL_TRF.replace(b"222 5400+30", f"222 {control}".encode())
    report = send(client, tokens["arbiter1"], content, f"category={category}").json()
    assert report["warnings"] == warnings


def test_the_officer_downloads_the_players_who_need_a_fide_id(
    client: TestClient, tokens: dict[str, str], users: Accounts
) -> None:
    """Accepted into FIDE standard: Ann has a FIDE id, Cid none (a local id is made for him).
    The download names Cid with what FIDE's registration asks; an arbiter may not have it."""
    content = (
        HEADER + "222 5400+30\n"
        + player(1, "Alpha, Ann", ["   2 w 1"], fide_id="1000001") + "\n"
        + player(2, "Cid, Carl", ["   1 b 0"], birth="1999/12/31") + "\n"
    ).encode()  # fmt: skip
    sent = send(client, tokens["officer1"], content, "category=fide-standard&accept=true")
    assert sent.status_code == 201, sent.text
    client.cookies.set("ratingdb_session", users.session("officer1")[0])
    answer = client.get("/players/unregistered.csv")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/csv; charset=utf-8"
    assert "unregistered-players.csv" in answer.headers["content-disposition"]
    # TRF_HEADER's tournament ends 2026-11-08; trf_player writes sex m and federation FRA.
    assert answer.text.splitlines()[1:] == [
        '900000000001,"Cid, Carl",M,1999-12-31,1999,FRA,,,1,2026-11-08'
    ]
    client.cookies.set("ratingdb_session", users.session("arbiter1")[0])
    assert client.get("/players/unregistered.csv").status_code == 403


def test_a_report_too_late_for_fide_is_accepted_only_with_a_reason(
    client: TestClient,
    tokens: dict[str, str],
    users: Accounts,
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Lists to 2026-11 out; a tournament ending 2026-08-12 (third list 2026-11, B.02 §9.1;
    tests/services/test_late_reports.py works the calendar) is reported: the check report
    warns, accepting without a reason is refused (409), with one it is stored and audited."""
    publish_until(database.url, tmp_path, capsys, "2026-11")
    content = (GAMES_HEADER + "Late Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n").encode()
    sent = send(client, tokens["officer1"], content, "category=fide-standard&filename=late.csv")
    assert sent.status_code == 201, sent.text
    report = sent.json()
    late = [w for w in report["warnings"] if w.startswith("too late for FIDE")]
    assert late == [
        (
            "too late for FIDE: the tournament ended on 2026-08-12: the last fide-standard list it "
            "may be rated on is 2026-11 (the third after its end), and the next open list is "
            "2026-12; FIDE does not rate it (FIDE Handbook B.02 (1 Mar 2024) §9.1); an officer "
            "accepts it only with a reason"
        )
    ]
    number = report["submission_id"]
    client.cookies.set("ratingdb_session", users.session("officer1")[0])
    page = client.get(f"/submissions/{number}")
    assert 'name="late_reason"' in page.text
    client.cookies.clear()
    refused = client.post(f"/admin/v1/submissions/{number}/accept",
                          headers=bearer(tokens["officer1"]))  # fmt: skip
    assert refused.status_code == 409
    assert "give a reason to rate it anyway" in refused.json()["detail"]
    accepted = client.post(
        f"/admin/v1/submissions/{number}/accept",
        params={"late_reason": "report lost by the organiser; resent 2026-11-30"},
        headers=bearer(tokens["officer1"]),
    )
    assert accepted.status_code == 200, accepted.text
    (details,) = query(
        database, "SELECT details FROM audit_log WHERE action = 'tournament-import'"
    )[0]
    details = details if isinstance(details, dict) else json.loads(details)
    assert details["late_reason"] == "report lost by the organiser; resent 2026-11-30"
