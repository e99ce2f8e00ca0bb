"""An officer's decisions refused, in French on the pages and in English on the API as before:
a late report accepted without a reason, a submission decided twice, a file naming players not
stored, the audit page's bad date. The French is the catalogue's, written here by hand."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.backoffice.conftest import Accounts
from tests.backoffice.test_french_texts import AP, NB, NN, _alert
from tests.backoffice.test_submissions import SMALL_TRF, bearer, send, signed_in, tokens
from tests.services.test_late_reports import publish_until
from tests.support.files import GAMES_HEADER
from tests.support.rolled_back import RolledBack

__all__ = ["tokens"]  # a fixture

SOURCE = "FIDE Handbook B.02 (1 Mar 2024) §9.1"


def test_a_late_report_accepted_without_a_reason_and_again(
    client: TestClient,
    tokens: dict[str, str],
    users: Accounts,
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Lists to 2026-11 out; a tournament ending 2026-08-12 may be rated on 2026-11 at the
    latest (B.02 §9.1, the third list after its end): the next open list is 2026-12."""
    publish_until(database.url, tmp_path, capsys, "2026-11")
    content = (GAMES_HEADER + "Late Open,2026-08-10,2026-08-12,1,1001,1002,1-0\n").encode()
    sent = send(client, tokens["officer1"], content, "category=fide-standard&filename=late.csv")
    assert sent.status_code == 201, sent.text
    number = sent.json()["submission_id"]
    csrf = signed_in(client, users, "officer1")
    accept = f"/submissions/{number}/accept"
    french = client.post(f"{accept}?lang=fr", data={"csrf_token": csrf, "late_reason": ""})
    assert french.status_code == 409
    assert _alert(french.text) == (
        f"late.csv, champ late_reason{NB}: le tournoi s{AP}est terminé le 12 août 2026{NB}: la "
        "dernière liste fide-standard sur laquelle il peut être calculé est 2026-11 (la "
        "troisième après sa fin), et la prochaine liste ouverte est 2026-12"
        f"{NN}; la FIDE ne le calcule pas ({SOURCE}){NB}: donnez une raison pour le classer "
        "quand même"
    )
    english = client.post(f"{accept}?lang=en", data={"csrf_token": csrf, "late_reason": ""})
    assert english.status_code == 409
    assert _alert(english.text) == (
        "late.csv, field late_reason: the tournament ended on August 12, 2026: the last "
        "fide-standard list it may be rated on is 2026-11 (the third after its end), and the "
        f"next open list is 2026-12; FIDE does not rate it ({SOURCE}): give a reason to rate it "
        "anyway"
    )
    # The API's text is the English of before, dates in ISO.
    client.cookies.clear()
    api = client.post(f"/admin/v1/submissions/{number}/accept", headers=bearer(tokens["officer1"]))
    assert api.status_code == 409
    assert api.json()["detail"] == (
        "late.csv, field late_reason: the tournament ended on 2026-08-12: the last "
        "fide-standard list it may be rated on is 2026-11 (the third after its end), and the "
        f"next open list is 2026-12; FIDE does not rate it ({SOURCE}): give a reason to rate it "
        "anyway"
    )
    # Accepted with a reason, then accepted again: decided already.
    csrf = signed_in(client, users, "officer1")
    done = client.post(accept, data={"csrf_token": csrf, "late_reason": "report resent"})
    assert done.status_code == 303
    again = client.post(f"{accept}?lang=fr", data={"csrf_token": csrf, "late_reason": "x"})
    assert again.status_code == 409
    assert _alert(again.text) == f"la soumission {number} est déjà acceptée"
    again = client.post(f"{accept}?lang=en", data={"csrf_token": csrf, "late_reason": "x"})
    assert _alert(again.text) == f"submission {number} is already accepted"


def test_a_file_naming_players_not_stored_in_french(
    client: TestClient, tokens: dict[str, str], users: Accounts
) -> None:
    csrf = signed_in(client, users, "arbiter1")
    content = (GAMES_HEADER + "Club Cup,2026-11-02,2026-11-02,1,4241,4242,1-0\n").encode()
    fields = {"csrf_token": csrf, "category": "fide-standard", "period": "", "format": ""}
    files = {"file": ("club.csv", content, "text/csv")}
    french = client.post("/submissions?lang=fr", data=fields, files=files)
    assert french.status_code == 422
    assert _alert(french.text) == (
        f"club.csv, ligne 2, champ white_id{NB}: joueur inconnu 4241 (importez d{AP}abord une "
        "liste ou un TRF où figure ce joueur)"
    )
    english = client.post("/submissions?lang=en", data=fields, files=files)
    assert _alert(english.text) == (
        "club.csv, line 2, field white_id: unknown player 4241 (import a list or a TRF with "
        "this player first)"
    )


@pytest.mark.parametrize(
    ("role", "french_path", "french", "english_path", "english"),
    [
        (
            "admin1",
            "/audit?since=2026-13-01",
            f"champ since{NB}: doit être une date AAAA-MM-JJ, reçu '2026-13-01'",
            "/audit?until=1.12.2026",
            "field until: must be a date YYYY-MM-DD, got '1.12.2026'",
        ),
        (
            "officer1",
            "/submissions?state=lost",
            f"champ state{NB}: doit être l{AP}une des valeurs submitted, accepted, rejected",
            "/submissions?state=lost",
            "field state: must be one of submitted, accepted, rejected",
        ),
    ],
)
def test_a_pages_bad_filter_in_french(
    client: TestClient,
    tokens: dict[str, str],
    users: Accounts,
    role: str,
    french_path: str,
    french: str,
    english_path: str,
    english: str,
) -> None:
    signed_in(client, users, role)
    answer = client.get(f"{french_path}&lang=fr")
    assert answer.status_code == 422
    assert _alert(answer.text) == french
    answer = client.get(f"{english_path}&lang=en")
    assert answer.status_code == 422
    assert _alert(answer.text) == english


def test_a_valid_file_still_goes_through(client: TestClient, users: Accounts) -> None:
    """The refusals above are refusals: the same form takes a good file."""
    users.add("arbiter9", "arbiter")
    csrf = signed_in(client, users, "arbiter9")
    fields = {"csrf_token": csrf, "category": "fide-standard", "period": "", "format": ""}
    sent = client.post("/submissions?lang=fr", data=fields,
                       files={"file": ("small.trf", SMALL_TRF, "text/plain")})  # fmt: skip
    assert sent.status_code == 303


def test_a_submission_not_found_in_french(
    client: TestClient, tokens: dict[str, str], users: Accounts
) -> None:
    signed_in(client, users, "officer1")
    french = client.get("/submissions/9999?lang=fr")
    assert french.status_code == 404
    assert '<p class="error">aucune soumission 9999</p>' in french.text
    assert '<p class="error">no submission 9999</p>' in client.get("/submissions/9999").text


def test_the_audit_page_in_french_words(
    client: TestClient, tokens: dict[str, str], users: Accounts
) -> None:
    """An upload's entry: the action and its names in French, its values as stored."""
    sent = send(client, tokens["arbiter1"], SMALL_TRF, "category=fide-standard&filename=s.trf")
    number = sent.json()["submission_id"]
    signed_in(client, users, "admin1")
    page = html.unescape(client.get("/audit?action=submission-upload&lang=fr").text)
    assert "fichier de tournoi envoyé <small>(submission-upload)</small>" in page
    assert (
        f"<small>parties{NB}: 2{NN}; numéro de soumission{NB}: {number}{NN}; fichier{NB}: "
        f"s.trf{NN}; catégories{NB}: fide-standard</small>"
    ) in page
    english = html.unescape(client.get("/audit?action=submission-upload&lang=en").text)
    assert (
        f"<small>games: 2; submission id: {number}; file: s.trf; categories: fide-standard</small>"
    ) in english
