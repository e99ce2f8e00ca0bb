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
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ratingdb.backoffice import uploads
from ratingdb.backoffice.i18n import Reader
from ratingdb.errors import InputError
from ratingdb.formats.trf import parse_trf
from ratingdb.models import SubmissionRow
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import (
    Day,
    Message,
    Number,
    counted,
    from_json,
    game_count,
    worded,
)
from ratingdb.services import accounts, passwords
from ratingdb.services.publication.preview import parse_digest, parse_period
from ratingdb.services.submissions import described
from ratingdb.services.submissions.checks import check_tournament_size
from ratingdb.services.tournaments import check_categories, check_in_time, late_message
from ratingdb.services.unregistered import fide_categories
from tests.backoffice.conftest import PASSWORD, Accounts
from tests.backoffice.test_norm_pages import norm_scenario  # noqa: F401  (a fixture)
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
from tests.corrections import test_revision_chain as chain
from tests.services.test_norms import ADA
from tests.support.files import trf_player
from tests.support.publication import LATE_ENTRY
from tests.support.rolled_back import RolledBack

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
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    club_1, club_2, big, _ = load(database.url, tmp_path, capsys, CLUB_1, CLUB_2, BIG_OPEN,
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
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    club_1, club_2 = load(database.url, tmp_path, capsys, CLUB_1, CLUB_2)
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


@pytest.mark.usefixtures("norm_scenario")
def test_the_norm_check_in_french(client: TestClient) -> None:
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


@pytest.mark.usefixtures("norm_scenario")
def test_refusals_in_french(client: TestClient) -> None:
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


# --- The rest of issue 28 item 9: a TRF's notes, the forms' refusals, dates and counts -------


def test_a_day_is_iso_in_english_and_the_readers_date_on_a_page() -> None:
    message = Message("from %(day)s", {"day": Day(date(2026, 11, 1))})
    assert message.english() == "from 2026-11-01"  # the command line and the API, as ever
    assert ENGLISH.message(message) == "from November 1, 2026"
    assert FRENCH.message(message) == "from 1er novembre 2026"  # (no catalogue entry: the values)
    assert from_json(message.as_json()) == message
    assert message.as_json() == {"text": "from %(day)s", "params": {"day": {"day": "2026-11-01"}}}


@pytest.mark.parametrize(
    ("count", "api", "english", "french"),
    [
        (0, "0 games", "0 games", "0 partie"),
        (1, "1 games", "1 game", "1 partie"),
        (2, "2 games", "2 games", "2 parties"),
        (1000, "1000 games", "1000 games", "1000 parties"),
    ],
)
def test_a_count_agrees_on_a_page_and_the_api_keeps_its_english(
    count: int, api: str, english: str, french: str
) -> None:
    """French puts 0 and 1 in the singular, English 1 only; the API's English never changed
    (its plural for every count, as it always wrote)."""
    message = game_count(count)
    assert message.english() == api
    assert ENGLISH.message(message) == english
    assert FRENCH.message(message) == french
    # Stored with a report and read back, the same.
    assert FRENCH.message(message.as_json()) == french
    nested = Message("%(category)s: %(message)s", {"category": "fide-rapid", "message": message})
    assert FRENCH.message(nested) == f"fide-rapid{NB}: {french}"


def test_a_counted_message_names_a_whole_count() -> None:
    with pytest.raises(ValueError, match="both a plural and a count"):
        Message("%(n)s game", {"n": 1}, plural="%(n)s games")
    with pytest.raises(ValueError, match="not a whole number"):
        Message("%(n)s game", {"n": "1"}, plural="%(n)s games", count="n")
    with pytest.raises(ValueError, match="not a whole number"):
        Message("%(n)s game", {}, plural="%(n)s games", count="n")


#: One round, two players: Ann's sex is "x" and she declares 0.0 points (she won: 1); no end
#: date (052).
NOTED_TRF = (
    "012 Test Open\n042 2026/11/02\n222 5400+30\n"
    + trf_player(1, "Alpha, Ann", ["   2 w 1"], fide_id="1000001").replace(" m    ", " x    ")
    + "\n"
    + trf_player(2, "Beta, Bob", ["   1 b 0"], fide_id="1000002")
    + "\n"
).encode()
NOTES_API = [
    "small.trf: TRF26, UTF-8, LF line ends; 'Test Open', 2026-11-02 to 2026-11-02, 1 rounds",
    (
        "players: 2 records; 2 players (2 with a FIDE id, 0 with a national id only, 0 with "
        "neither); created 2 by FIDE id, 0 by national id, 0 with a local id; already known 0"
    ),
    (
        "games: 1 stored = 1 played (rated candidates) + 0 forfeits + 0 shorter than one move "
        "(never rated)"
    ),
    "byes (no opponent, not games): 0; absent: 0",
    "note: line 4: sex 'X' (column 10) not m/w: ignored",
    "note: line 4: #1 declares 0.0 points, the results give 1",
    "note: no end date (052): the start date, 2026-11-02, is used",
]
NOTES_EN = [
    (
        "small.trf: TRF26, UTF-8, LF line ends; 'Test Open', November 2, 2026 to November 2, 2026, "
        "1 round"
    ),
    *NOTES_API[1:6],
    "note: no end date (052): the start date, November 2, 2026, is used",
]
NOTES_FR = [
    (
        f"small.trf{NB}: TRF26, UTF-8, fins de ligne LF{NN}; 'Test Open', du 2 novembre 2026 au 2 "
        "novembre 2026, 1 ronde"
    ),
    (
        f"joueurs{NB}: fiches 2{NN}; joueurs 2 (avec un identifiant FIDE 2, avec un identifiant "
        f"national seulement 0, sans aucun des deux 0){NN}; créés par identifiant FIDE 2, par "
        f"identifiant national 0, avec un identifiant local 0{NN}; déjà connus 0"
    ),
    (
        f"parties{NB}: enregistrées 1 = jouées 1 (candidates au classement) + forfaits 0 + de "
        f"moins d{AP}un coup 0 (jamais comptées)"
    ),
    f"exemptions (sans adversaire, pas des parties){NB}: 0{NN}; absences{NB}: 0",
    f"note{NB}: ligne 4{NB}: sexe 'X' (colonne 10), ni m ni w{NB}: ignoré",
    f"note{NB}: ligne 4{NB}: n° 1, points déclarés 0,0, selon ses résultats 1",
    f"note{NB}: pas de date de fin (052){NB}: la date de début, le 2 novembre 2026, est utilisée",
]


def _alert(page: str) -> str:
    found = re.search(r'<p class="error" role="alert">(.*?)</p>', page, re.S)
    assert found, "no error shown"
    return html.unescape(found[1])


def test_a_trfs_notes_in_the_french_check_report_and_the_api_in_english(
    client: TestClient, users: Accounts
) -> None:
    users.add("officer1", "officer")
    session_id, csrf = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    sent = client.post(
        "/submissions?lang=fr",
        data={"csrf_token": csrf, "category": "fide-standard"},
        files={"file": ("small.trf", NOTED_TRF, "application/octet-stream")},
    )
    assert sent.status_code == 303, sent.text
    location = sent.headers["location"]
    assert location.endswith("?lang=fr")
    french = client.get(location).text
    assert _items(french, "notes") == NOTES_FR
    english = client.get(location.replace("lang=fr", "lang=en")).text
    assert _items(english, "notes") == NOTES_EN
    # One game, one rated: each count agrees with its words (it said "1 games, 1 rated").
    assert '<dd id="games">1 partie, 1 comptée pour le classement</dd>' in french
    assert '<dd id="games">1 game, 1 rated</dd>' in english
    # The API: the notes as the import always wrote them (ISO dates, "1 rounds").
    submission = location.split("/")[2].split("?")[0]
    shown = client.get(f"/admin/v1/submissions/{submission}",
                       headers={"Authorization": f"Bearer {users.token('officer1')}"})  # fmt: skip
    assert shown.json()["report"]["notes"] == NOTES_API
    # Accepted, then sent again: the warnings' dates the reader's way too.
    accepted = client.post(f"/submissions/{submission}/accept?lang=fr", data={"csrf_token": csrf})
    assert accepted.status_code == 303, accepted.text
    again = client.post(
        "/submissions?lang=fr",
        data={"csrf_token": csrf, "category": "fide-standard"},
        files={"file": ("other.trf", NOTED_TRF, "application/octet-stream")},
    )
    page = client.get(again.headers["location"]).text
    warnings = re.search(r'<ul class="warnings">(.*?)</ul>', page, re.S)
    assert warnings
    assert (
        f"un tournoi nommé 'Test Open' du 2 novembre 2026 au 2 novembre 2026 est déjà "
        f"enregistré{NB}: T000001"
    ) in [html.unescape(w) for w in re.findall(r"<li>(.*?)</li>", warnings[1])]
    english = client.get(again.headers["location"].replace("lang=fr", "lang=en")).text
    assert (
        "a tournament named &#39;Test Open&#39; from November 2, 2026 to November 2, 2026 is "
        "already stored: T000001" in english
    )
    second = again.headers["location"].split("/")[2].split("?")[0]
    answer = client.get(f"/admin/v1/submissions/{second}",
                        headers={"Authorization": f"Bearer {users.token('officer1')}"})  # fmt: skip
    assert (
        "a tournament named 'Test Open' from 2026-11-02 to 2026-11-02 is already stored: T000001"
        in answer.json()["report"]["warnings"]
    )


def _odd(line: str) -> str:
    """A 001 line with an unknown title, a federation and a FIDE id that are none, and points
    that are no number."""
    line = line[:10] + "ZZ " + line[13:]  # title, columns 11-13
    line = line[:53] + "F1A" + line[56:]  # federation, 54-56
    line = line[:57] + "       12ab" + line[68:]  # FIDE id, 58-68
    return line[:80] + " x.y" + line[84:]  # points, 81-84


def test_a_trfs_lenient_readings_in_french_and_english() -> None:
    """Every note of the TRF reader: the command line's English as it was, the page's French."""
    text = (
        "012 Test Open\n012 Other Name\n032 F1\n042 26.11.02\n052 26.11.08\n"
        "132 26/11/02  26/13/45\n"
        + _odd(trf_player(1, "Alpha, Ann", ["   2 - 1"]))
        + "\n"
        + trf_player(2, "Béta, Bob", ["   1 - 0"])
        + "\n"
    )
    notes = parse_trf(text.encode("latin-1"), source="odd.trf").notes
    assert [note.english() for note in notes] == [
        "line 2: a second 012 record ignored",
        "line 7: title 'ZZ' (columns 11-13) unknown: ignored",
        "line 7: federation 'F1A' is not a 3-letter code",
        "line 7: '12ab' in the FIDE id column is not an id",
        "line 7: points 'x.y' (columns 81-84) not a number",
        "read as Latin-1 (not valid UTF-8)",
        "line 7: round 1 game without colours, #1 stored as white",
        "line 6: round date '26/13/45' ignored",
        (
            "line 4: 042 '26.11.02' read as 2026-11-02 (YY.MM.DD, the only plausible reading "
            "of its two-digit year)"
        ),
        (
            "line 5: 052 '26.11.08' read as 2026-11-08 (YY.MM.DD, the only plausible reading "
            "of its two-digit year)"
        ),
        "032 'F1' is not a federation code: ignored",
    ]
    assert [ENGLISH.message(note) for note in notes][8] == (
        "line 4: 042 '26.11.02' read as November 2, 2026 (YY.MM.DD, the only plausible reading "
        "of its two-digit year)"
    )
    assert [FRENCH.message(note) for note in notes] == [
        f"ligne 2{NB}: un second enregistrement 012, ignoré",
        f"ligne 7{NB}: titre 'ZZ' (colonnes 11-13) inconnu{NB}: ignoré",
        f"ligne 7{NB}: la fédération 'F1A' n{AP}est pas un code de 3 lettres",
        f"ligne 7{NB}: '12ab' dans la colonne de l{AP}identifiant FIDE n{AP}est pas un identifiant",
        f"ligne 7{NB}: points 'x.y' (colonnes 81-84), pas un nombre",
        f"lu en Latin-1 (pas de l{AP}UTF-8 valide)",
        f"ligne 7{NB}: ronde 1, partie sans couleurs, le n° 1 enregistré avec les blancs",
        f"ligne 6{NB}: date de ronde '26/13/45' ignorée",
        (
            f"ligne 4{NB}: 042 '26.11.02' lu comme le 2 novembre 2026 (YY.MM.DD, seule lecture "
            "plausible de son année à deux chiffres)"
        ),
        (
            f"ligne 5{NB}: 052 '26.11.08' lu comme le 8 novembre 2026 (YY.MM.DD, seule lecture "
            "plausible de son année à deux chiffres)"
        ),
        f"032 'F1' n{AP}est pas un code de fédération{NB}: ignoré",
    ]


def test_a_report_kept_before_its_notes_were_messages_shows_them_as_written(
    client: TestClient, users: Accounts, database: RolledBack
) -> None:
    """A report kept without ``notes_i18n`` (before this change): its English notes."""
    users.add("officer1", "officer")
    session_id, csrf = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    sent = client.post("/submissions", data={"csrf_token": csrf, "category": "fide-standard"},
                       files={"file": ("small.trf", NOTED_TRF, "text/plain")})  # fmt: skip
    location = sent.headers["location"]
    with database.sessions.begin() as session:
        row = session.get(SubmissionRow, int(location.split("/")[2]))
        assert row is not None
        row.report = {k: v for k, v in row.report.items() if k != "notes_i18n"}
    assert _items(client.get(f"{location}?lang=fr").text, "notes") == NOTES_API


def _upload_refusal(client: TestClient, language: str, csrf: str, fields: dict[str, str]) -> str:
    """The upload form's refusal of ``fields`` (``content``: the file's text)."""
    data = {"csrf_token": csrf} | {k: v for k, v in fields.items() if k != "content"}
    content = fields.get("content", "012 x\n").encode()
    files = {"file": ("t.trf", content, "application/octet-stream")}
    answer = client.post(f"/submissions?lang={language}", data=data, files=files)
    assert answer.status_code == 422, answer.text
    return _alert(answer.text)


UPLOAD_REFUSALS = [
    (
        {"category": "fide-bullet"},
        (
            "field category: unknown category 'fide-bullet' (expected one of: fide-standard, "
            "fide-rapid, fide-blitz, ffe-rapid)"
        ),
        (
            f"champ category{NB}: catégorie 'fide-bullet' inconnue (attendu l{AP}une de{NB}: "
            "fide-standard, fide-rapid, fide-blitz, ffe-rapid)"
        ),
    ),
    (
        {"category": "fide-standard", "period": "2026-13"},
        "field period: period month must be 1..12, got 13",
        f"champ period{NB}: le mois de la période doit être de 1 à 12, reçu 13",
    ),
    (
        {"category": "fide-standard", "period": "11/2026"},
        "field period: period must be YYYY-MM, got '11/2026'",
        f"champ period{NB}: la période doit s{AP}écrire AAAA-MM, reçu '11/2026'",
    ),
    (
        {"category": "fide-standard", "format": "pgn"},
        "field format: must be one of trf, csv",
        f"champ format{NB}: doit être l{AP}une des valeurs trf, csv",
    ),
    (
        {},
        "field category: give at least one category",
        f"champ category{NB}: indiquez au moins une catégorie",
    ),
]


def test_the_upload_forms_refusals_in_french_and_english(
    client: TestClient, users: Accounts
) -> None:
    users.add("arbiter1", "arbiter")
    session_id, csrf = users.session("arbiter1")
    client.cookies.set("ratingdb_session", session_id)
    for fields, english, french in UPLOAD_REFUSALS:
        assert _upload_refusal(client, "fr", csrf, fields) == french
        assert _upload_refusal(client, "en", csrf, fields) == english
    # The API, in English as before.
    bearer = {"Authorization": f"Bearer {users.token('arbiter1')}"}
    answer = client.post("/admin/v1/submissions?category=fide-bullet&filename=t.trf",
                         content=b"012 x\n", headers=bearer)  # fmt: skip
    assert answer.status_code == 422
    assert answer.json()["detail"] == UPLOAD_REFUSALS[0][1]


def test_a_busy_upload_is_refused_in_the_officers_language() -> None:
    slots = uploads.UploadSlots(1)
    with slots.held(1):
        with pytest.raises(uploads.Busy) as again, slots.held(1):
            pass
        with pytest.raises(uploads.Busy) as full, slots.held(2):
            pass
    assert again.value.detail == (
        "another upload of yours is being checked: send this one once it is done"
    )
    assert FRENCH.message(again.value.text) == (
        f"un autre de vos envois est en cours de vérification{NB}: envoyez celui-ci une fois "
        f"qu{AP}il est terminé"
    )
    assert ENGLISH.message(again.value.text) == again.value.detail
    # The API's English as ever ("1 uploads"); the page's agrees.
    assert full.value.detail == (
        "the back office is checking 1 uploads already: try again in 10 seconds"
    )
    assert ENGLISH.message(full.value.text) == (
        "the back office is checking 1 upload already: try again in 10 seconds"
    )
    assert FRENCH.message(full.value.text) == (
        f"l{AP}espace de gestion vérifie déjà 1 envoi{NB}: réessayez dans 10 secondes"
    )
    two = uploads.UploadSlots(2)
    with two.held(1), two.held(2), pytest.raises(uploads.Busy) as more, two.held(3):
        pass
    assert FRENCH.message(more.value.text) == (
        f"l{AP}espace de gestion vérifie déjà 2 envois{NB}: réessayez dans 10 secondes"
    )


def test_a_too_large_tournament_file_in_french() -> None:
    with pytest.raises(InputError) as refused:
        check_tournament_size(bytes(4 * 1024 * 1024 + 1))
    assert str(refused.value) == (
        "file: a tournament file of 4,194,305 bytes is larger than the 4 MB a tournament file "
        "may have"
    )
    assert FRENCH.message(described(refused.value)) == (
        f"champ file{NB}: un fichier de tournoi de 4{NN}194{NN}305 octets dépasse les 4 Mo "
        f"qu{AP}un fichier de tournoi peut avoir"
    )


def _form_refusal(client: TestClient, path: str, fields: dict[str, str], status: int) -> str:
    answer = client.post(path, data=fields)
    assert answer.status_code == status, answer.text
    return _alert(answer.text)


def test_the_account_forms_refusals_in_french_and_english(
    client: TestClient, users: Accounts
) -> None:
    users.add("admin1", "admin")
    session_id, csrf = users.session("admin1")
    client.cookies.set("ratingdb_session", session_id)
    good = "plum orbit canvas seventy"
    cases = [
        ("/users", {"username": "Ben!", "role": "arbiter", "password": good,
                    "password_again": good}, 422,
         ("username: must be 1..64 of a-z, 0-9, '.', '_', '-' (starting with a letter or digit), "
         "got 'Ben!'"),
         (f"username{NB}: doit compter 1 à 64 caractères parmi a-z, 0-9, '.', '_', '-' (en "
         "commençant par une lettre ou un chiffre), reçu 'Ben!'")),
        ("/users", {"username": "ben", "role": "boss", "password": good,
                    "password_again": good}, 422,
         "role: must be one of arbiter, officer, admin, got 'boss'",
         f"role{NB}: doit être l{AP}une des valeurs arbiter, officer, admin, reçu 'boss'"),
        ("/users", {"username": "ben", "role": "arbiter", "password": "short",
                    "password_again": "short"}, 422,
         "password: must have at least 12 characters",
         f"password{NB}: doit compter au moins 12 caractères"),
        ("/users", {"username": "ben", "role": "arbiter", "password": "abcabcabcabcabc",
                    "password_again": "abcabcabcabcabc"}, 422,
         "password: must not be a character or a short pattern repeated",
         f"password{NB}: ne doit pas être un caractère ou un court motif répété"),
        ("/users", {"username": "admin1", "role": "arbiter", "password": good,
                    "password_again": good}, 422,
         "username: a user 'admin1' already exists",
         f"username{NB}: un utilisateur 'admin1' existe déjà"),
        ("/users/nobody/disable", {}, 404,
         "username: no user 'nobody'", f"username{NB}: aucun utilisateur 'nobody'"),
        ("/users/admin1/disable", {}, 403,
         "username: you cannot disable yourself",
         f"username{NB}: vous ne pouvez pas vous désactiver vous-même"),
        ("/users/admin1/enable", {}, 422,
         "username: user 'admin1' is not disabled",
         f"username{NB}: l{AP}utilisateur 'admin1' n{AP}est pas désactivé"),
        ("/users/admin1/approve", {}, 422,
         "username: user 'admin1' awaits no approval",
         f"username{NB}: l{AP}utilisateur 'admin1' n{AP}attend aucune approbation"),
        ("/users/admin1/password", {"password": good}, 403,
         "username: change your own password from your account page",
         f"username{NB}: changez votre propre mot de passe depuis la page de votre compte"),
        ("/account/password", {"current_password": PASSWORD, "new_password": PASSWORD,
                               "new_password_again": PASSWORD}, 422,
         "new_password: must differ from the current password",
         f"new_password{NB}: doit différer du mot de passe actuel"),
        ("/account/password", {"current_password": "wrong", "new_password": good,
                               "new_password_again": good}, 422,
         "current_password: is not your current password",
         f"current_password{NB}: n{AP}est pas votre mot de passe actuel"),
        ("/account/tokens", {"label": "ci", "days": "ten", "scope": "read"}, 422,
         "days: must be a whole number, got 'ten'",
         f"days{NB}: doit être un nombre entier, reçu 'ten'"),
        ("/account/tokens", {"label": "ci", "days": "400", "scope": "read"}, 422,
         "days: must be 1..366, got 400", f"days{NB}: doit être de 1 à 366, reçu 400"),
        ("/account/tokens", {"label": "ci", "days": "30", "scope": "everything"}, 422,
         "scope: must be one of read, submit, full, got 'everything'",
         f"scope{NB}: doit être l{AP}une des valeurs read, submit, full, reçu 'everything'"),
    ]  # fmt: skip
    for path, fields, status, english, french in cases:
        with_csrf = fields | {"csrf_token": csrf}
        assert _form_refusal(client, f"{path}?lang=fr", with_csrf, status) == french, path
        assert _form_refusal(client, f"{path}?lang=en", with_csrf, status) == english, path
    # An account the admin made: another admin approves it.
    added = client.post("/users", data={"csrf_token": csrf, "username": "ben", "role": "arbiter",
                                        "password": good, "password_again": good})  # fmt: skip
    assert added.status_code == 303
    assert _form_refusal(client, "/users/ben/approve?lang=fr", {"csrf_token": csrf}, 403) == (
        f"username{NB}: un autre administrateur doit l{AP}approuver{NB}: vous avez choisi son "
        f"mot de passe, ou c{AP}est votre propre compte"
    )
    assert _form_refusal(client, "/users/ben/approve?lang=en", {"csrf_token": csrf}, 403) == (
        "username: another admin must approve it: you chose its password, or it is your own account"
    )


def test_the_publication_modes_refusals_in_french_and_english(
    client: TestClient, users: Accounts
) -> None:
    users.add("admin1", "admin")
    session_id, csrf = users.session("admin1")
    client.cookies.set("ratingdb_session", session_id)
    cases = [
        ("fide-standard", {"mode": "sometimes", "reason": "why not"},
         "field mode: must be automatic or approval, not 'sometimes'",
         f"champ mode{NB}: doit être automatic ou approval, pas 'sometimes'"),
        ("fide-standard", {"mode": "approval", "reason": "  "},
         "field reason: say why the mode changes (it is kept in the audit log)",
         (f"champ reason{NB}: dites pourquoi le mode change (c{AP}est gardé dans le journal "
         f"d{AP}audit)")),
        ("fide-standard", {"mode": "approval", "reason": "x" * 501},
         "field reason: at most 500 characters, got 501",
         f"champ reason{NB}: au plus 500 caractères, reçu 501"),
        ("fide-bullet", {"mode": "approval", "reason": "why not"},
         ("field category: unknown category 'fide-bullet' (expected one of: fide-standard, "
         "fide-rapid, fide-blitz, ffe-rapid)"),
         (f"champ category{NB}: catégorie 'fide-bullet' inconnue (attendu l{AP}une de{NB}: "
         "fide-standard, fide-rapid, fide-blitz, ffe-rapid)")),
    ]  # fmt: skip
    for category, fields, english, french in cases:
        path = f"/settings/publication/{category}"
        with_csrf = fields | {"csrf_token": csrf}
        assert _form_refusal(client, f"{path}?lang=fr", with_csrf, 422) == french
        assert _form_refusal(client, f"{path}?lang=en", with_csrf, 422) == english
    # The JSON API: English, as before.
    answer = client.post("/admin/v1/publication/modes/fide-standard",
                         json={"mode": "sometimes", "reason": "why not"},
                         headers={"Authorization": f"Bearer {users.token('admin1')}"})  # fmt: skip
    assert answer.status_code == 422
    assert answer.json()["detail"] == cases[0][2]


def test_a_server_setting_refusal_in_french() -> None:
    refusal = Message(
        "%(category)s is published with approval by the server's setting "
        "RATINGDB_PUBLICATION_APPROVAL, which the back office cannot override: remove it from "
        "the setting of every process first",
        {"category": "fide-rapid"},
    )
    assert FRENCH.message(refusal) == (
        f"fide-rapid est publiée avec approbation par le réglage du serveur "
        f"RATINGDB_PUBLICATION_APPROVAL, que l{AP}espace de gestion ne peut pas outrepasser{NB}: "
        f"retirez-la d{AP}abord du réglage de chaque processus"
    )


def test_a_corrected_files_notes_in_the_french_preview(
    client: TestClient,
    users: Accounts,
    tokens: dict[str, str],  # noqa: F811
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """tests/backoffice/test_corrections.py's case: T1 (7 games, 10-12 August 2026) corrected
    with Ada-Ben a forfeit (Fay-Ada was one already): 5 games played; the games CSV's summary
    in French and English."""
    chain.build(capsys, database.url, tmp_path / "chain")
    session_id, csrf = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    corrected = chain.games_csv(chain.T1, {(1, chain.ADA, chain.BEN): "+-"}).encode()
    sent = client.post(
        "/corrections/tournament?lang=fr",
        data={"csrf_token": csrf, "tournament": "T000001", "reason": "Ben did not show up"},
        files={"file": ("T1.csv", corrected)},
    )
    assert sent.status_code == 303, sent.text
    assert sent.headers["location"].endswith("?lang=fr")
    assert _items(client.get(sent.headers["location"]).text, "notes") == [
        (
            f"T1.csv{NB}: CSV de parties, 'T1', du 10 août 2026 au 12 août 2026{NB}: 7 parties, "
            "5 jouées (candidates au classement)"
        )
    ]
    english = client.get(sent.headers["location"].replace("lang=fr", "lang=en")).text
    assert _items(english, "notes") == [
        (
            "T1.csv: games CSV, 'T1', August 10, 2026 to August 12, 2026: 7 games, 5 played (rated "
            "candidates)"
        )
    ]


#: A tournament ending 2026-08-20 reported for the 2026-12 list: one too late.
LATE = (Category.FIDE_STANDARD, date(2026, 8, 20), Period(2026, 12))


def _refused(check: Callable[[], object]) -> InputError:
    with pytest.raises(InputError) as refused:
        check()
    return refused.value


@pytest.mark.parametrize(
    ("check", "english", "french"),
    [
        (
            lambda: passwords.check(" " * 15, "ben"),
            "password: must not be only spaces",
            f"champ password{NB}: ne doit pas être fait que d{AP}espaces",
        ),
        (
            lambda: passwords.check("Ben-the-arbiter", "ben-the-arbiter"),
            "password: must not be the user name",
            f"champ password{NB}: ne doit pas être le nom d{AP}utilisateur",
        ),
        (
            lambda: passwords.check("x" * 1025, "ben"),
            "password: must have at most 1024 characters",
            f"champ password{NB}: doit compter au plus 1024 caractères",
        ),
        # zxcvbn's own reason, which it words in English only, translated by ours.
        (
            lambda: passwords.check("password1234", "ben"),
            (
                "password: is too easy to guess (this is a very common password): use a longer "
                "phrase of unrelated words"
            ),
            (
                f"champ password{NB}: est trop facile à deviner (c{AP}est un mot de passe très "
                f"courant){NB}: utilisez une phrase plus longue de mots sans rapport entre eux"
            ),
        ),
        (
            lambda: passwords.check("asdfghjkl;zxcv", "ben"),
            (
                "password: is too easy to guess (straight rows of keys are easy to guess): use "
                "a longer phrase of unrelated words"
            ),
            (
                f"champ password{NB}: est trop facile à deviner (les rangées de touches du "
                f"clavier sont faciles à deviner){NB}: utilisez une phrase plus longue de mots "
                "sans rapport entre eux"
            ),
        ),
        (
            lambda: accounts.check_label(""),
            "label: must be 1..100 printable characters",
            f"champ label{NB}: doit compter 1 à 100 caractères imprimables",
        ),
        (
            lambda: check_categories([]),
            "category: give at least one category",
            f"champ category{NB}: indiquez au moins une catégorie",
        ),
        (
            lambda: check_categories([Category.FIDE_RAPID, Category.FIDE_RAPID]),
            "category: fide-rapid is given twice",
            f"champ category{NB}: fide-rapid est donnée deux fois",
        ),
        # FIDE standard lists were quarterly until 2009-07 (rules.md): none in February.
        (
            lambda: parse_period(Category.FIDE_STANDARD, "2009-02"),
            (
                "period: fide-standard has no list in 2009-02 under fide-standard-2000-01 (list "
                "months: 1, 4, 7, 10); the lists around it are 2009-01 and 2009-04"
            ),
            (
                f"champ period{NB}: fide-standard n{AP}a pas de liste en 2009-02 selon "
                f"fide-standard-2000-01 (mois des listes{NB}: 1, 4, 7, 10){NN}; les listes qui "
                f"l{AP}entourent sont 2009-01 et 2009-04"
            ),
        ),
        (
            lambda: parse_period(Category.FIDE_STANDARD, "1960-01"),
            "period: fide-standard has no rules before 2000-01-01 (asked for 1960-01-01)",
            (
                f"champ period{NB}: fide-standard n{AP}a pas de règles avant le 1er janvier 2000 "
                "(demandé pour le 1er janvier 1960)"
            ),
        ),
        (
            lambda: parse_digest("abc"),
            "digest: must be the 64 hexadecimal digits of a preview's digest, got 'abc'",
            (
                f"champ digest{NB}: doit être les 64 chiffres hexadécimaux de l{AP}empreinte "
                f"d{AP}un aperçu, reçu 'abc'"
            ),
        ),
        (
            lambda: fide_categories([Category.FFE_RAPID]),
            (
                "category: ffe-rapid rates players by their national id: only FIDE's "
                "categories need a FIDE id"
            ),
            (
                f"champ category{NB}: ffe-rapid classe les joueurs par leur identifiant "
                f"national{NB}: seules les catégories de la FIDE demandent un identifiant FIDE"
            ),
        ),
        # A report too late for FIDE (B.02 §9.1: the third list after its end at the latest).
        (
            lambda: check_in_time(*LATE, None),
            (
                "late_reason: the tournament ended on 2026-08-20: the last fide-standard list "
                "it may be rated on is 2026-11 (the third after its end), and the next open "
                "list is 2026-12; FIDE does not rate it (FIDE Handbook B.02 (1 Mar 2024) §9.1): "
                "give a reason to rate it anyway"
            ),
            (
                f"champ late_reason{NB}: le tournoi s{AP}est terminé le 20 août 2026{NB}: la "
                "dernière liste fide-standard sur laquelle il peut être calculé est 2026-11 (la "
                "troisième après sa fin), et la prochaine liste ouverte est 2026-12"
                f"{NN}; la FIDE ne le calcule pas (FIDE Handbook B.02 (1 Mar 2024) §9.1){NB}: "
                "donnez une raison pour le classer quand même"
            ),
        ),
        (
            lambda: check_in_time(*LATE, "x" * 501),
            "late_reason: at most 500 characters",
            f"champ late_reason{NB}: au plus 500 caractères",
        ),
    ],
)
def test_the_services_refusals_in_french_and_english(
    check: Callable[[], object], english: str, french: str
) -> None:
    refused = _refused(check)
    assert str(refused) == english
    assert FRENCH.message(described(refused)) == french


def test_a_period_refused_by_the_rules_in_french() -> None:
    with pytest.raises(ValueError, match="period year out of range: 1800") as refused:
        Period(1800, 1)
    assert FRENCH.message(worded(refused.value)) == "année de la période hors limites\u00a0: 1800"
    assert worded(ValueError("plain")) == "plain"


def test_a_late_tournaments_end_date_the_readers_way() -> None:
    late = late_message(Category.FIDE_STANDARD, date(2026, 8, 20), Period(2026, 12))
    assert late is not None
    source = "FIDE Handbook B.02 (1 Mar 2024) §9.1"
    assert late.english() == (
        "the tournament ended on 2026-08-20: the last fide-standard list it may be rated on is "
        f"2026-11 (the third after its end), and the next open list is 2026-12; FIDE does not "
        f"rate it ({source})"
    )
    assert ENGLISH.message(late).startswith("the tournament ended on August 20, 2026: ")
    assert FRENCH.message(late) == (
        f"le tournoi s{AP}est terminé le 20 août 2026{NB}: la dernière liste fide-standard sur "
        f"laquelle il peut être calculé est 2026-11 (la troisième après sa fin), et la prochaine "
        f"liste ouverte est 2026-12{NN}; la FIDE ne le calcule pas ({source})"
    )


ONE, TWO = 1, 2


@pytest.mark.parametrize(
    ("message", "english", "french"),
    [
        # Texts no test above reaches through a page: the catalogue's wording, by hand.
        (
            Message("a token is issued only to its owner, by themself"),
            "a token is issued only to its owner, by themself",
            f"un jeton n{AP}est délivré qu{AP}à son titulaire, par lui-même",
        ),
        (
            Message("user %(user)s is disabled", {"user": "'ben'"}),
            "user 'ben' is disabled",
            f"l{AP}utilisateur 'ben' est désactivé",
        ),
        (
            Message("give the reason the submitter will read"),
            "give the reason the submitter will read",
            f"indiquez le motif que lira l{AP}auteur de l{AP}envoi",
        ),
        (
            Message("at most %(count)s characters", {"count": 500}),
            "at most 500 characters",
            "au plus 500 caractères",
        ),
        (Message("the file is empty"), "the file is empty", "le fichier est vide"),
        (
            Message("no tournament name (012): named after the file, %(name)s", {"name": "'open'"}),
            "no tournament name (012): named after the file, 'open'",
            f"pas de nom de tournoi (012){NB}: nommé d{AP}après le fichier, 'open'",
        ),
        (
            Message(
                "no start date (042): the first round date, %(day)s, is used",
                {"day": Day(date(2026, 11, 2))},
            ),
            "no start date (042): the first round date, November 2, 2026, is used",
            (
                f"pas de date de début (042){NB}: la date de la première ronde, le 2 novembre "
                "2026, est "
                "utilisée"
            ),
        ),
        (
            Message(
                "no end date (052): the last round date, %(day)s, is used",
                {"day": Day(date(2026, 11, 8))},
            ),
            "no end date (052): the last round date, November 8, 2026, is used",
            (
                f"pas de date de fin (052){NB}: la date de la dernière ronde, le 8 novembre 2026, "
                "est "
                "utilisée"
            ),
        ),
        (
            Message(
                "no start date (042): the end date, %(day)s, is used",
                {"day": Day(date(2026, 11, 8))},
            ),
            "no start date (042): the end date, November 8, 2026, is used",
            f"pas de date de début (042){NB}: la date de fin, le 8 novembre 2026, est utilisée",
        ),
        (
            Message(
                "no dates in the file: the closing date of %(period)s (%(day)s) is used as the "
                "start and end date",
                {"period": "2026-12", "day": Day(date(2026, 11, 30))},
            ),
            (
                "no dates in the file: the closing date of 2026-12 (November 30, 2026) is used as "
                "the "
                "start and end date"
            ),
            (
                f"aucune date dans le fichier{NB}: la date de clôture de 2026-12 (30 novembre "
                "2026) sert "
                "de date de début et de fin"
            ),
        ),
        (
            Message(
                "read as %(encoding)s (not valid UTF-8, despite its UTF-8 byte order mark, "
                "dropped)",
                {"encoding": "Latin-1"},
            ),
            "read as Latin-1 (not valid UTF-8, despite its UTF-8 byte order mark, dropped)",
            (
                f"lu en Latin-1 (pas de l{AP}UTF-8 valide, malgré sa marque d{AP}ordre des octets "
                "UTF-8, retirée)"
            ),
        ),
        (
            Message(
                "line %(line)s: a second national record for #%(rank)s ignored",
                {"line": 9, "rank": 3},
            ),
            "line 9: a second national record for #3 ignored",
            f"ligne 9{NB}: un second enregistrement national pour le n° 3, ignoré",
        ),
        (
            Message(
                "skipped: #%(rank)s %(name)s (line %(line)s) stands for the bye: no player created",
                {"rank": 9, "name": "'spielfrei'", "line": 12},
            ),
            "skipped: #9 'spielfrei' (line 12) stands for the bye: no player created",
            (
                f"écarté{NB}: le n° 9 'spielfrei' (ligne 12) représente l{AP}exemption{NB}: aucun "
                "joueur créé"
            ),
        ),
        (
            Message(
                "skipped: #%(rank)s %(name)s (line %(line)s) has no id and no game: no player "
                "created",
                {"rank": 4, "name": "'Doe, J'", "line": 7},
            ),
            "skipped: #4 'Doe, J' (line 7) has no id and no game: no player created",
            (
                f"écarté{NB}: le n° 4 'Doe, J' (ligne 7) n{AP}a ni identifiant ni partie{NB}: "
                "aucun "
                "joueur créé"
            ),
        ),
        (
            Message("records ignored: %(records)s", {"records": "### 2, XXR 1"}),
            "records ignored: ### 2, XXR 1",
            f"enregistrements ignorés{NB}: ### 2, XXR 1",
        ),
        (
            counted(
                (
                    "skipped: %(count)s pairing without a result",
                    "skipped: %(count)s pairings without a result",
                ),
                "count",
                {"count": ONE},
            ),
            "skipped: 1 pairing without a result",
            f"écarté{NB}: 1 appariement sans résultat",
        ),
        (
            counted(
                (
                    "skipped: %(count)s pairing without a result",
                    "skipped: %(count)s pairings without a result",
                ),
                "count",
                {"count": TWO},
            ),
            "skipped: 2 pairings without a result",
            f"écartés{NB}: 2 appariements sans résultat",
        ),
        (
            counted(
                (
                    (
                        "tournament %(name)s is no longer rated in the period (%(was)s rated game "
                        "at "
                        "the preview)"
                    ),
                    (
                        "tournament %(name)s is no longer rated in the period "
                        "(%(was)s rated games at the preview)"
                    ),
                ),
                "was",
                {"name": "T9", "was": ONE},
            ),
            "tournament T9 is no longer rated in the period (1 rated game at the preview)",
            f"le tournoi T9 n{AP}est plus calculé dans la période (1 partie comptée à l{AP}aperçu)",
        ),
        (
            counted(
                (
                    (
                        "tournament %(name)s was corrected or replaced since the preview: %(was)s "
                        "rated game at the preview, %(now)s now"
                    ),
                    (
                        "tournament %(name)s was corrected "
                        "or replaced since the preview: %(was)s rated games at the preview, "
                        "%(now)s "
                        "now"
                    ),
                ),
                "was",
                {"name": "T9", "was": TWO, "now": 3},
            ),
            (
                "tournament T9 was corrected or replaced since the preview: 2 rated games at the "
                "preview, 3 now"
            ),
            (
                f"le tournoi T9 a été corrigé ou remplacé depuis l{AP}aperçu{NB}: 2 parties "
                "comptées à "
                f"l{AP}aperçu, 3 maintenant"
            ),
        ),
        (
            counted(
                (
                    "%(count)s entry differs (and %(more)s more): %(entries)s",
                    "%(count)s entries differ (and %(more)s more): %(entries)s",
                ),
                "count",
                {"count": 25, "more": 5, "entries": "…"},
            ),
            "25 entries differ (and 5 more): …",
            f"25 entrées diffèrent (et 5 autres){NB}: …",
        ),
        (
            counted(
                ("%(count)s entry differs: %(entries)s", "%(count)s entries differ: %(entries)s"),
                "count",
                {"count": ONE, "entries": "…"},
            ),
            "1 entry differs: …",
            f"1 entrée diffère{NB}: …",
        ),
    ],
)
def test_the_other_new_texts_in_french_and_english(
    message: Message, english: str, french: str
) -> None:
    assert ENGLISH.message(message) == english
    assert FRENCH.message(message) == french
