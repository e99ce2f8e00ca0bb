"""The services' texts in the French back office (issue 28, last item): the check report's
warnings and quality flags, the publication preview's flags, the norm check's conditions and
the pages' refusals are French, their numbers written the French way (a decimal comma), on
SQLite and PostgreSQL; the JSON API says them in English, as it always has.

The cases are test_quality_flags.py's (the period 2026-12 of fide-standard: Wolf's +110, mean
+4.7, deviation 32.7; the closed group of the Friends Cup) and tests/services/test_norms.py's
(Ada's IM norm: 6.5 points of 9, 72 %, Ra 2284 with 1990 raised to 2050, Rp 2450). French
typography: a no-break space (U+00A0) before ":" and "%", a narrow one (U+202F) before ";"."""

from __future__ import annotations

import html
import re
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ratingdb.backoffice.i18n import Reader
from ratingdb.rules.messages import Message, Number
from tests.backoffice.conftest import Accounts
from tests.backoffice.test_publication import (
    PAGE,
    _csrf,
    _submit_and_accept,
    prepared,  # noqa: F401  (a fixture)
)
from tests.backoffice.test_quality_flags import (
    BIG_OPEN,
    CATEGORY,
    CLUB_1,
    CLUB_2,
    FRIENDS_CUP,
    GAIN,
    PERIOD,
    load,
    pairing,
    send,
    tokens,  # noqa: F401  (a fixture)
)
from tests.services.test_norms import ADA, build
from tests.support.publication import LATE_ENTRY

NB, NN, AP = "\u00a0", "\u202f", "\u2019"  # no-break spaces, apostrophe
FRENCH = Reader("fr", True, ())
ENGLISH = Reader("en", True, ())

GROUP_FR = (
    f"groupe fermé{NB}: Host, Harry (2022), Unr, Una (3001), Unr, Ugo (3002) et Unr, Uma (3003) "
    f"ont joué 12 de leurs 12 parties entre eux (chacun au moins 80{NB}% des siennes){NN}; 3 des "
    f"4 n{AP}étaient pas classés (Unr, Una (3001), Unr, Ugo (3002) et Unr, Uma (3003)), leurs "
    "premiers classements reposent donc les uns sur les autres"
)
GAIN_FR = (
    f"gain important{NB}: Wolf, Walt (2001) a gagné +110, bien au-dessus de la norme {{}} "
    f"(moyenne +4,7, écart type 32,7, sur 12 joueurs classés ayant joué){NB}: plus de 3 écarts "
    "types au-dessus de la moyenne et plus de 100 points"
)
BIRTH_FR = (
    "1 nouveau joueur sans date de naissance (le facteur K des jeunes et les listes par âge en "
    f"ont besoin){NB}: Unr, Ugo (3002)"
)
SEX_FR = (
    f"1 nouveau joueur sans sexe renseigné (les listes féminines en ont besoin){NB}: Unr, Uma "
    "(3003)"
)
NO_TIME_CONTROL = (
    "no encoded time control (TRF26 222 or a time_control column): the rate of play cannot be "
    "checked and every played game will be rated; give it on import"
)
NO_TIME_CONTROL_FR = (
    f"aucune cadence codée (TRF26 222 ou colonne time_control){NB}: la cadence ne peut pas être "
    f"vérifiée et toutes les parties jouées seront comptées{NN}; indiquez-la à l{AP}import"
)


def pairing_fr(events: str) -> str:
    return (
        f"appariement répété{NB}: Pawn, P4 (2014) et Pawn, P5 (2015) se sont rencontrés dans 3 "
        f"tournois de la période ({events}), 3 parties en tout"
    )


def test_a_message_is_worded_in_the_readers_language() -> None:
    message = Message(
        "%(category)s: %(message)s",
        {"category": "fide-standard",
         "message": Message("submission %(id)s (%(state)s)",
                            {"id": 12, "state": Message("accepted")})},
    )  # fmt: skip
    assert ENGLISH.message(message) == "fide-standard: submission 12 (accepted)"
    assert FRENCH.message(message) == f"fide-standard{NB}: soumission 12 (acceptée)"
    # As a report keeps it; a text already worded is shown as it is.
    assert FRENCH.message(message.as_json()) == FRENCH.message(message)
    assert FRENCH.message("file.trf, line 3: bad") == "file.trf, line 3: bad"


@pytest.mark.parametrize(
    ("number", "english", "french"),
    [
        (Number(56 / 12, "+.1f"), "+4.7", "+4,7"),
        (Number(-18.35, ".1f"), "-18.4", "-18,4"),
        (Number(110, "+d"), "+110", "+110"),
        (Number(6.5, "g"), "6.5", "6,5"),
        (Number(1234567, ",d"), "1,234,567", f"1{NN}234{NN}567"),
    ],
)
def test_a_number_keeps_its_format_with_the_languages_signs(
    number: Number, english: str, french: str
) -> None:
    """As before in English; in French the decimal comma (as Reader.decimal writes it)."""
    assert number.english() == english
    assert ENGLISH.message(Message("%(n)s", {"n": number})) == english
    assert FRENCH.message(Message("%(n)s", {"n": number})) == french
    if "f" in number.spec:
        assert FRENCH.decimal(Decimal(english.lstrip("+")), 1) == french.lstrip("+")


def _signed_in(client: TestClient, users: Accounts) -> None:
    session_id, _ = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)


def _items(page: str, list_id: str) -> list[str]:
    """The texts of a list's items, as written (no-break spaces kept)."""
    found = re.search(rf'<ul [^>]*id="{list_id}"[^>]*>(.*?)</ul>', page, re.S)
    assert found, f"no list {list_id}"
    return [html.unescape(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", found[1], re.S)]


def test_the_preview_flags_in_french(
    client: TestClient,
    tokens: dict[str, str],  # noqa: F811
    users: Accounts,
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    club_1, club_2, big, _ = load(database_url, tmp_path, capsys, CLUB_1, CLUB_2, BIG_OPEN,
                                  FRIENDS_CUP)  # fmt: skip
    events = ", ".join(sorted([club_1, club_2, big]))
    _signed_in(client, users)
    french = client.get(f"/publication/{CATEGORY}/{PERIOD}?lang=fr")
    assert french.status_code == 200, french.text
    assert _items(french.text, "quality") == [
        GROUP_FR,
        pairing_fr(events),
        GAIN_FR.format("de la période"),
        BIRTH_FR,
        SEX_FR,
    ]
    english = client.get(f"/publication/{CATEGORY}/{PERIOD}?lang=en")
    assert _items(english.text, "quality")[1:3] == [pairing(events),
                                                    GAIN.format("the period's")]  # fmt: skip


def test_the_check_report_in_french_and_the_api_in_english(
    client: TestClient,
    tokens: dict[str, str],  # noqa: F811
    users: Accounts,
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    club_1, club_2 = load(database_url, tmp_path, capsys, CLUB_1, CLUB_2)
    first = send(client, tokens["arbiter1"], BIG_OPEN, "big.csv")
    again = send(client, tokens["arbiter1"], BIG_OPEN, "big.csv")
    # The API: English, as before.
    assert [f["message"] for f in first["quality"]] == [
        pairing(f"{club_1}, {club_2}, this file"), GAIN.format("this file's")]  # fmt: skip
    submitted = (
        f"this file was already submitted as submission {first['submission_id']} (submitted)"
    )
    assert again["warnings"] == [submitted, NO_TIME_CONTROL]
    shown = client.get(f"/admin/v1/submissions/{again['submission_id']}",
                       headers={"Authorization": f"Bearer {tokens['officer1']}"})  # fmt: skip
    assert shown.json()["report"]["warnings"] == [submitted, NO_TIME_CONTROL]
    # The page, in French.
    _signed_in(client, users)
    page = client.get(f"/submissions/{again['submission_id']}?lang=fr")
    assert page.status_code == 200, page.text
    assert _items(page.text, "quality") == [
        pairing_fr(f"{club_1}, {club_2}, ce fichier"),
        GAIN_FR.format("de ce fichier"),
    ]
    warnings = re.search(r'<ul class="warnings">(.*?)</ul>', page.text, re.S)
    assert warnings
    assert [html.unescape(w) for w in re.findall(r"<li>(.*?)</li>", warnings[1])] == [
        f"ce fichier a déjà été soumis comme soumission {first['submission_id']} (soumise)",
        NO_TIME_CONTROL_FR,
    ]
    # The officer accepts it with a reason only when it is too late: not asked here.
    assert 'name="late_reason"' not in page.text


def _cells(page: str, row_id: str) -> list[str]:
    found = re.search(rf'<tr [^>]*id="{row_id}">(.*?)</tr>', page, re.S)
    assert found, f"no row {row_id}"
    cells = re.findall(r"<td>(.*?)</td>", found[1], re.S)
    return [html.unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells]


def test_the_norm_check_in_french(
    client: TestClient,
    users: Accounts,
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    build(capsys, database_url, tmp_path)
    users.add("officer1", "officer")
    _signed_in(client, users)
    page = client.get("/norms/tournaments/T000001?lang=fr").text
    prefix = f"c-{ADA}-IM"
    # Key, article, required, found, verdict.
    assert _cells(page, f"{prefix}-score") == [
        "score",
        "§1.4.8 b",
        f"au moins 35{NB}% de 9 parties",
        f"6,5 points (72{NB}%)",
        "remplie",
    ]
    assert _cells(page, f"{prefix}-average")[2:4] == [
        f"Ra d{AP}au moins 2230",
        "Ra 2284, 1990 relevé à 2050",
    ]
    assert _cells(page, f"{prefix}-performance")[2:4] == [
        f"Rp d{AP}au moins 2450",
        "Rp 2450 = Ra 2284 + dp 166",
    ]
    assert _cells(page, f"{prefix}-other_federations")[2:4] == [
        "au moins 2 fédérations autres que FRA",
        "4 (ESP, GER, ITA, NED)",
    ]
    assert _cells(page, f"{prefix}-games")[2:4] == ["au moins 9 parties", "9 parties"]
    # The certificate shows the same conditions.
    certificate = client.get(f"/norms/tournaments/T000001/certificates/{ADA}/IM?lang=fr").text
    assert _cells(certificate, "certificate-performance")[2] == f"Rp d{AP}au moins 2450"
    # The command line's English, unchanged (docs/cli.md).
    english = client.get("/norms/tournaments/T000001?lang=en").text
    assert _cells(english, f"{prefix}-score")[2:4] == ["at least 35 % of 9 games",
                                                     "6.5 points (72 %)"]  # fmt: skip


def test_refusals_in_french(
    client: TestClient,
    users: Accounts,
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    build(capsys, database_url, tmp_path)
    users.add("officer1", "officer")
    _signed_in(client, users)
    missing = client.get("/norms/tournaments/T999999?lang=fr")
    assert missing.status_code == 422
    assert f"champ tournament{NB}: aucun tournoi 'T999999'" in html.unescape(missing.text)
    rapid = client.get("/titles/watch?category=fide-rapid&period=2026-11&lang=fr")
    assert rapid.status_code == 422
    assert (
        f"champ category{NB}: les titres viennent des classements fide-standard seulement "
        "(Règlement des titres §0.5), pas fide-rapid" in html.unescape(rapid.text)
    )
    early = client.get("/publication/fide-standard/2026-10?lang=fr")
    assert early.status_code == 422
    assert (
        f"champ period{NB}: fide-standard 2026-10 précède la dernière liste publiée (2026-11)"
        f"{NB}: la prochaine liste à publier est 2026-12" in html.unescape(early.text)
    )


def test_a_refused_approval_in_french(
    client: TestClient,
    users: Accounts,
    tokens: dict[str, str],  # noqa: F811
    prepared: str,  # noqa: F811
) -> None:
    """tests/backoffice/test_publication.py's case: a tournament accepted after the preview."""
    session_id, _ = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    page = client.get(f"{PAGE}?lang=fr").text
    digest = re.search(r'name="digest" value="([0-9a-f]{64})"', page)
    assert digest is not None
    tournament = _submit_and_accept(client, tokens, LATE_ENTRY)
    client.cookies.set("ratingdb_session", session_id)
    refused = client.post(f"{PAGE}/approve?lang=fr",
                          data={"csrf_token": _csrf(page), "digest": digest[1]})  # fmt: skip
    assert refused.status_code == 409
    text = html.unescape(refused.text)
    assert (
        f"la liste fide-standard 2026-12 qu{AP}une clôture calcule maintenant n{AP}est pas celle "
        f"de l{AP}aperçu (empreinte {digest[1][:12]}…" in text
    )
    reasons = _items(refused.text, "reasons")
    assert reasons[0] == (
        f"le tournoi {tournament} (Club Evening, du 20 novembre 2026 au 20 novembre 2026) a été "
        f"ajouté depuis l{AP}aperçu{NB}: 1 partie comptée"
    )
    # Dan (K 20) beat Anna: +6 on his own (test_publication.py works it).
    assert reasons[1].startswith(f"2 entrées diffèrent{NB}: 1001 ")
    assert reasons[1].endswith(
        f"{NN}; 1004 Dan, D{NB}: inchangée à l{AP}aperçu, 2016, +6, 1 partie, K 20 maintenant"
    )
