"""A tournament file the upload form cannot read is refused in the officer's language (issue
28's leftover, "still English on French pages"): the reader's refusal, where it is (file, line,
column) and the field it names. A TRF names its fields in words, translated (``champ rang de
départ``); a games CSV names its columns as its header writes them (``champ result``). The
English page and the JSON API say what they always said.

The expected texts are written by hand. French typography: a no-break space (U+00A0) before
":", a narrow one (U+202F) before ";" and "?" and between thousands, U+2019 for the
apostrophe."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.backoffice.conftest import Accounts
from tests.corrections.test_revision_chain import P, build
from tests.support.files import GAMES_HEADER
from tests.support.files import TRF_HEADER as HEADER
from tests.support.files import trf_player as player
from tests.support.rolled_back import RolledBack

NB, NN, AP = "\u00a0", "\u202f", "\u2019"

ANN = player(1, "Alpha, Ann", ["   2 w 1"], fide_id="1000001")
BOB = player(2, "Beta, Bob", ["   1 b 0"], fide_id="1000002")
#: Line 2 of a games CSV, but for its result.
GAME = "Cup,2026-11-02,2026-11-08,1,1000001,1000002,"
CONTROLS_EN = "control characters, line breaks and bidi overrides are not allowed in a text field"
CONTROLS_FR = (
    f"les caractères de contrôle, les sauts de ligne et les forçages de sens d{AP}écriture ne "
    "sont pas admis dans un champ de texte"
)

#: (file name, content, the English page's refusal, the French page's).
REFUSALS = [
    # A bad number in a player line (rating, columns 49-52 of line 4).
    (
        "t.trf",
        HEADER + player(1, "Alpha, Ann", ["   2 w 1"], rating="12x4") + "\n" + BOB + "\n",
        "t.trf, line 4, column 49, field rating: must be a number, got '12x4'",
        f"t.trf, ligne 4, colonne 49, champ classement{NB}: doit être un nombre, reçu '12x4'",
    ),
    # A starting rank on two lines.
    (
        "t.trf",
        HEADER + ANN + "\n" + BOB + "\n" + player(2, "Gamma, Gil", []) + "\n",
        "t.trf, line 6, column 5, field starting rank: starting rank 2 is already on line 5",
        (
            f"t.trf, ligne 6, colonne 5, champ rang de départ{NB}: le rang de départ 2 figure "
            "déjà à la ligne 5"
        ),
    ),
    # A FIDE id on two lines: the field's words are not the column heading.
    (
        "t.trf",
        HEADER + ANN + "\n" + player(2, "Beta, Bob", ["   1 b 0"], fide_id="1000001") + "\n",
        "t.trf, line 5, column 58, field FIDE id: FIDE id 1000001 is already on line 4",
        (
            f"t.trf, ligne 5, colonne 58, champ identifiant FIDE{NB}: l{AP}identifiant FIDE "
            "1000001 figure déjà à la ligne 4"
        ),
    ),
    # A line over 64 KiB, refused before it is read.
    (
        "t.trf",
        HEADER + ANN + "\n" + BOB + "\n" + "###" + "x" * 70_000 + "\n",
        (
            "t.trf, line 6: the line is longer than 65,536 bytes: no field of this file can be "
            "that long (is it the right file?)"
        ),
        (
            f"t.trf, ligne 6{NB}: la ligne dépasse 65{NN}536 octets{NB}: aucun champ de ce "
            f"fichier ne peut être aussi long (est-ce le bon fichier{NN}?)"
        ),
    ),
    # A control character in a name (BEL, the 17th character of the line).
    (
        "t.trf",
        HEADER + ANN.replace("Alpha", "Al\x07pha") + "\n" + BOB + "\n",
        (
            "t.trf, line 4, column 17, field name: holds the control character U+0007 at "
            f"character 17: {CONTROLS_EN}"
        ),
        (
            f"t.trf, ligne 4, colonne 17, champ nom{NB}: contient le caractère de contrôle "
            f"U+0007 en position 17{NB}: {CONTROLS_FR}"
        ),
    ),
    # A round's result code TRF does not have.
    (
        "t.trf",
        HEADER + ANN.replace("2 w 1", "2 w Q") + "\n" + BOB + "\n",
        (
            "t.trf, line 4, column 99, field round 1 result: unknown result code 'Q' (TRF: 1 = 0 "
            "+ - W D L H F U Z or blank)"
        ),
        (
            f"t.trf, ligne 4, colonne 99, champ résultat de la ronde 1{NB}: code de résultat "
            f"inconnu 'Q' (TRF{NB}: 1 = 0 + - W D L H F U Z ou vide)"
        ),
    ),
    # An encoded time control (TRF26 222) that cannot be read: the rules' refusal.
    (
        "t.trf",
        HEADER + "222 90+x\n" + ANN + "\n" + BOB + "\n",
        (
            "t.trf, line 4, column 5, field 222 encoded time control: time control '90+x': "
            "'90+x' is not a period such as 5400+30 or 40/6000+30 (seconds, moves before the "
            "slash)"
        ),
        (
            f"t.trf, ligne 4, colonne 5, champ 222 cadence codée{NB}: cadence '90+x'{NB}: "
            f"'90+x' n{AP}est pas une période comme 5400+30 ou 40/6000+30 (en secondes, le "
            "nombre de coups avant la barre oblique)"
        ),
    ),
    # An end date before the start date, written the French way.
    (
        "t.trf",
        "012 Test Open\n042 2026/11/08\n052 2026/11/01\n" + ANN + "\n" + BOB + "\n",
        # (The English page writes its dates as every page does; the API, ISO: the next test.)
        (
            "t.trf, line 3, column 5, field 052 end date: November 1, 2026 is before the start "
            "date November 8, 2026"
        ),
        (
            f"t.trf, ligne 3, colonne 5, champ 052 date de fin{NB}: le 1er novembre 2026 précède "
            "la date de début (8 novembre 2026)"
        ),
    ),
    # A games CSV with a result it does not have: its column named as its header names it.
    (
        "g.csv",
        GAMES_HEADER + GAME + "2-0\n",
        "g.csv, line 2, field result: must be one of +-, -+, --, 0-1, 1-0, 1/2-1/2; got '2-0'",
        (
            f"g.csv, ligne 2, champ result{NB}: doit être l{AP}une des valeurs +-, -+, --, 0-1, "
            f"1-0, 1/2-1/2{NN}; reçu '2-0'"
        ),
    ),
    # A games CSV without one of its columns.
    (
        "g.csv",
        (
            "tournament,start_date,end_date,round,white_id,result\n"
            "Cup,2026-11-02,2026-11-08,1,1000001,1-0\n"
        ),
        (
            "g.csv, line 1, field black_id: missing column (the header needs: tournament, "
            "start_date, end_date, round, white_id, black_id, result)"
        ),
        (
            f"g.csv, ligne 1, champ black_id{NB}: colonne manquante (l{AP}en-tête doit "
            f"avoir{NB}: tournament, start_date, end_date, round, white_id, black_id, result)"
        ),
    ),
    # A row with fewer fields than the header: the count agrees on a page (the API's English
    # says "1 fields", as ever: the next test).
    (
        "g.csv",
        GAMES_HEADER + "Cup\n",
        "g.csv, line 2: has 1 field, the header has 7",
        f"g.csv, ligne 2{NB}: compte 1 champ, l{AP}en-tête en compte 7",
    ),
    # A games CSV naming a player the database does not have.
    (
        "g.csv",
        GAMES_HEADER + GAME + "1-0\n",
        (
            "g.csv, line 2, field white_id: unknown player 1000001 (import a list or a TRF "
            "with this player first)"
        ),
        (
            f"g.csv, ligne 2, champ white_id{NB}: joueur inconnu 1000001 (importez d{AP}abord "
            "une liste ou un TRF où figure ce joueur)"
        ),
    ),
]


def _alert(page: str) -> str:
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', page, re.S)
    assert found, "no error shown"
    return html.unescape(found[1])


def _refusal(
    client: TestClient, csrf: str, name: str, content: str, *, query: str = "",
    headers: dict[str, str] | None = None,
) -> str:  # fmt: skip
    """The upload form's refusal of the file ``name`` holding ``content``."""
    answer = client.post(
        f"/submissions{query}",
        data={"csrf_token": csrf, "category": "fide-standard"},
        files={"file": (name, content.encode(), "application/octet-stream")},
        headers=headers,
    )
    assert answer.status_code == 422, answer.text
    return _alert(answer.text)


def test_a_file_that_cannot_be_read_is_refused_in_french_and_english(
    client: TestClient, users: Accounts
) -> None:
    users.add("arbiter1", "arbiter")
    session_id, csrf = users.session("arbiter1")
    client.cookies.set("ratingdb_session", session_id)
    for name, content, english, french in REFUSALS:
        assert _refusal(client, csrf, name, content, query="?lang=fr") == french
        assert _refusal(client, csrf, name, content, query="?lang=en") == english
    # The language of the browser, with no ?lang=.
    name, content, _, french = REFUSALS[1]
    assert _refusal(client, csrf, name, content, headers={"Accept-Language": "fr"}) == french


def test_the_api_says_a_files_refusal_in_english_as_before(
    client: TestClient, users: Accounts
) -> None:
    users.add("arbiter1", "arbiter")
    bearer = {"Authorization": f"Bearer {users.token('arbiter1')}"}
    ends = (
        "t.trf, line 3, column 5, field 052 end date: 2026-11-01 is before the start date "
        "2026-11-08"
    )
    in_english = [
        REFUSALS[0][:3],
        REFUSALS[1][:3],
        REFUSALS[8][:3],
        ("t.trf", REFUSALS[7][1], ends),
        ("g.csv", REFUSALS[10][1], "g.csv, line 2: has 1 fields, the header has 7"),
    ]
    for name, content, english in in_english:
        answer = client.post(
            f"/admin/v1/submissions?category=fide-standard&filename={name}",
            content=content.encode(),
            headers=bearer | {"Content-Type": "text/plain", "Accept-Language": "fr"},
        )
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"] == english


def test_a_corrected_file_that_cannot_be_read_is_refused_in_french(
    client: TestClient, users: Accounts, database: RolledBack, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """The correction form replacing a tournament by a corrected file says the same."""
    ids = build(capsys, database.url, tmp_path / "chain", periods=[P])
    users.add("officer1", "officer")
    session_id, csrf = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    _, content, english, french = REFUSALS[1]
    data = {"csrf_token": csrf, "tournament": ids["T1"], "reason": "the report was wrong"}
    for language, expected in (("fr", french), ("en", english)):
        answer = client.post(
            f"/corrections/tournament?lang={language}",
            data=data,
            files={"file": ("t.trf", content.encode(), "application/octet-stream")},
        )
        assert answer.status_code == 422, answer.text
        assert _alert(answer.text.replace(' id="error"', "")) == expected
