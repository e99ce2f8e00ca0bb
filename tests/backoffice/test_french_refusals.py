"""The services' refusals on the back office's pages in French (issue 28, its last leftover):
a correction form refused (a game that is not stored, a tournament that is not, a player merged
with himself, two records that played the same rounds or each other), a preview confirmed or
discarded too late, a player's record edited with a bad or future birth date or another
player's FIDE id, the tournament browser's bad filters, the title watch before the Title
Regulations ratingdb holds, the norm check's unknown exemption or title. Each is written by
hand here, in French (a no-break space before ":", a narrow one before ";", a curly apostrophe),
and the same page in English says what it said before the refusals were messages (the command
line's and the API's English, byte for byte), but for a date the rules or the database give (a
``Day``): the page writes it the reader's way (January 1, 2024), the command line ISO.

The data: tests/corrections/test_merge_safeguards.py's same rounds (S1, 2026-08-10..11: Ivo
3001 and his duplicate 3099 both played rounds 1 and 2, never each other; Ivo played Jan 3002
in round 1)."""

from __future__ import annotations

import html
import re
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from ratingdb.backoffice.i18n import Reader
from ratingdb.rules.titles import NoTitleRegulations, title_regulations_on
from ratingdb.services.corrections.merges import (
    BIRTH_YEAR,
    SAME_ROUND,
    SEX,
    Comparison,
    Conflict,
    MergeConflicts,
    Record,
)
from ratingdb.services.submissions import described
from tests.backoffice.conftest import Accounts
from tests.backoffice.test_corrections import preview_id, shown_digest, signed_in
from tests.corrections.test_merge import DUP, IVO, JAN, PLAYERS
from tests.corrections.test_merge_safeguards import SAME_ROUNDS
from tests.corrections.test_revision_chain import baseline_csv, build
from tests.support.rolled_back import RolledBack

NB, NN, AP = "\u00a0", "\u202f", "\u2019"  # no-break spaces, apostrophe
FRENCH = Reader("fr", True, ())
REASON = "one person, two ids"


@pytest.fixture
def same_rounds(
    client: TestClient,
    users: Accounts,
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> tuple[str, str]:
    """S1 stored (its id), and the client signed in as an officer (the CSRF token)."""
    ids = build(capsys, database.url, tmp_path / "db", tournaments=SAME_ROUNDS,
                players=PLAYERS, periods=("2026-09",))  # fmt: skip
    users.add("officer1", "officer")
    return ids["S1"], signed_in(client, users, "officer1")


def _shown(page: str, pattern: str) -> str:
    """The text of the element ``pattern`` finds (its inner HTML the first group), unescaped."""
    found = re.search(pattern, page, re.S)
    assert found is not None, page
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def _alert(page: str) -> str:
    return _shown(page, r'<p class="error" role="alert" id="error">(.*?)</p>')


def _refused(
    client: TestClient,
    path: str,
    fields: dict[str, str],
    status: int = 422,
    files: dict[str, tuple[str, bytes]] | None = None,
) -> str:
    """The alert of a form sent in French, then the same in English: "French | English"."""
    answers = []
    for language in ("fr", "en"):
        answer = client.post(f"{path}?lang={language}", data=fields, files=files)
        assert answer.status_code == status, answer.text
        answers.append(_alert(answer.text))
    return " | ".join(answers)


def test_a_correction_form_refused_in_french_and_english(
    client: TestClient, same_rounds: tuple[str, str]
) -> None:
    s1, csrf = same_rounds
    game = {"csrf_token": csrf, "tournament": s1, "round": "3", "white": IVO, "black": JAN,
            "result": "1-0", "reason": REASON}  # fmt: skip
    assert _refused(client, "/corrections/game", game) == (
        f"champ white{NB}: le tournoi {s1} n{AP}a pas de partie {IVO} - {JAN} à la ronde 3 "
        f"(les blancs d{AP}abord)"
        f" | field white: tournament {s1} has no game {IVO} - {JAN} in round 3 (white first)"
    )
    assert _refused(client, "/corrections/game", game | {"tournament": "T999999"}) == (
        f"champ tournament{NB}: aucun tournoi T999999 | field tournament: no tournament T999999"
    )
    assert _refused(client, "/corrections/game", game | {"round": "first"}) == (
        f"champ round{NB}: doit être un numéro de ronde (1, 2, ...), reçu 'first'"
        " | field round: must be a round number (1, 2, ...), got 'first'"
    )
    assert _refused(client, "/corrections/game", game | {"reason": " "}) == (
        f"champ reason{NB}: une correction demande une raison"
        " | field reason: a correction needs a reason"
    )
    withdraw = {"csrf_token": csrf, "tournament": "T999999", "reason": REASON}
    assert _refused(client, "/corrections/withdraw", withdraw) == (
        f"champ tournament{NB}: aucun tournoi T999999 | field tournament: no tournament T999999"
    )


def test_merges_refused_in_french_and_english(
    client: TestClient, same_rounds: tuple[str, str]
) -> None:
    s1, csrf = same_rounds
    merge = {"csrf_token": csrf, "keep": IVO, "drop": DUP, "reason": REASON}
    assert _refused(client, "/corrections/merge", merge | {"drop": IVO}) == (
        f"champ drop{NB}: un joueur ne peut pas être fusionné avec lui-même"
        " | field drop: a player cannot be merged into himself"
    )
    assert _refused(client, "/corrections/merge", merge | {"drop": "3999"}) == (
        f"champ drop{NB}: aucun joueur 3999 | field drop: no player 3999"
    )
    assert _refused(client, "/corrections/merge", merge | {"drop": JAN}) == (
        f"champ drop{NB}: {IVO} et {JAN} ont joué l{AP}un contre l{AP}autre (tournoi {s1}, ronde 1)"
        f"{NB}: ce sont deux joueurs"
        f" | field drop: {IVO} and {JAN} played each other (tournament {s1}, round 1): they are "
        "two players"
    )
    assert _refused(client, "/corrections/merge", merge) == (
        f"champ override{NB}: {IVO} et {DUP} sont peut-être deux personnes{NB}: tous deux ont "
        f"joué les rondes 1, 2 du tournoi {s1} (S1). Vérifiez les deux fiches{NN}; pour les "
        "fusionner quand même, cochez la case et donnez-en la raison"
        f" | field override: {IVO} and {DUP} may be two people: both played rounds 1, 2 of "
        f"tournament {s1} (S1). Check both records; to merge them all the same, give an "
        "override with its reason"
    )
    ticked = merge | {"override_ticked": "1", "override": "  "}
    assert _refused(client, "/corrections/merge", ticked) == (
        f"champ override{NB}: forcer la fusion demande une raison"
        " | field override: an override needs a reason"
    )
    # Nothing stored: the merge still refused the same way.
    assert "3099" in _refused(client, "/corrections/merge", merge)


def _list_refused(client: TestClient, fields: dict[str, str], content: bytes) -> str:
    """The list replacement form's alert, with ``content`` as the corrected file: French |
    English."""
    return _refused(client, "/corrections/list", fields, files={"file": ("corrected.csv", content)})


def test_a_list_replacement_refused_in_french_and_english(
    client: TestClient, same_rounds: tuple[str, str]
) -> None:
    _, csrf = same_rounds
    fields = {"csrf_token": csrf, "category": "fide-standard", "period": "2026-08",
              "reason": REASON}  # fmt: skip
    # The uploaded file's name, not its temporary copy's.
    assert _list_refused(client, fields, baseline_csv([]).encode()) == (
        f"corrected.csv{NB}: la liste n{AP}a aucune entrée | corrected.csv: the list has no entries"
    )
    assert _list_refused(client, fields | {"period": "2026-12"}, b"x") == (
        f"champ period{NB}: la période fide-standard 2026-12 n{AP}a pas de liste publiée à "
        f"remplacer{NN}; importez plutôt la liste comme une nouvelle liste"
        " | field period: fide-standard 2026-12 has no published list to replace; import the "
        "list as a new one instead"
    )
    assert _list_refused(client, fields | {"format": "xls"}, b"x") == (
        f"champ format{NB}: doit être l{AP}une des valeurs csv, fide-txt, fide-xml, ou vide "
        f"(d{AP}après le nom du fichier) | field format: must be one of csv, fide-txt, "
        "fide-xml, or empty (from the file's name)"
    )


def _record(name: str, sex: str | None, birth_year: int | None) -> Record:
    return Record(name, "Ivo, I", None, None, "FRA", sex, birth_year, None, 2, ())


def test_several_conflicts_follow_one_another_in_either_language() -> None:
    """One round, then two fields that differ: ";" between them (narrow no-break space in
    French), the singular "round" for one round, as the English always wrote it."""
    conflicts = (
        Conflict(SAME_ROUND, tournament_id="T000007", tournament="Open de Paris", rounds=(4,)),
        Conflict(SEX, keep="M", drop="F"),
        Conflict(BIRTH_YEAR, keep=1990, drop=1991),
    )
    refused = MergeConflicts(Comparison(_record("3001", "M", 1990), _record("3099", "F", 1991),
                                        conflicts))  # fmt: skip
    assert str(refused) == (
        "override: 3001 and 3099 may be two people: both played round 4 of tournament T000007 "
        "(Open de Paris); sex differs: 3001 M, 3099 F; birth year differs: 3001 1990, 3099 "
        "1991. Check both records; to merge them all the same, give an override with its reason"
    )
    assert FRENCH.message(described(refused)) == (
        f"champ override{NB}: 3001 et 3099 sont peut-être deux personnes{NB}: tous deux ont joué "
        f"la ronde 4 du tournoi T000007 (Open de Paris){NN}; le sexe diffère{NB}: 3001 M, 3099 "
        f"F{NN}; l{AP}année de naissance diffère{NB}: 3001 1990, 3099 1991. Vérifiez les deux "
        f"fiches{NN}; pour les fusionner quand même, cochez la case et donnez-en la raison"
    )


def test_a_preview_confirmed_or_discarded_too_late_in_french_and_english(
    client: TestClient, same_rounds: tuple[str, str]
) -> None:
    s1, csrf = same_rounds
    game = {"csrf_token": csrf, "tournament": s1, "round": "1", "white": IVO, "black": JAN,
            "result": "0-1", "reason": REASON}  # fmt: skip
    shown = preview_id(client.post("/corrections/game", data=game))
    page = client.get(f"/corrections/previews/{shown}?lang=fr").text
    digest = shown_digest(page)
    stale = {"csrf_token": csrf, "impact_digest": "0" * len(digest)}
    assert _refused(client, f"/corrections/previews/{shown}/confirm", stale, 409) == (
        f"la page confirmée ne montre pas le dernier impact de l{AP}aperçu de correction {shown}"
        f"{NB}: rechargez-la et relisez l{AP}impact"
        f" | the page confirmed does not show correction preview {shown}'s latest impact: "
        "reload it and read the impact again"
    )
    discarded = client.post(f"/corrections/previews/{shown}/discard?lang=fr",
                            data={"csrf_token": csrf})  # fmt: skip
    assert discarded.status_code == 303, discarded.text
    assert _refused(client, f"/corrections/previews/{shown}/discard", {"csrf_token": csrf},
                    409) == (
        f"la correction de l{AP}aperçu {shown} est déjà abandonnée"
        f" | correction preview {shown} is already discarded"
    )  # fmt: skip
    missing = client.get("/corrections/previews/99999?lang=fr")
    assert missing.status_code == 404
    assert _shown(missing.text, r'<p class="error">(.*?)</p>') == (
        "aucun aperçu de correction 99999"
    )


def _edit(client: TestClient, csrf: str, player_id: str, **changes: str) -> dict[str, str]:
    """The player's form as it is (its version), with ``changes`` and a reason."""
    page = client.get(f"/players/{player_id}").text
    version = re.search(r'name="version" value="([^"]*)"', page)
    assert version is not None
    return {"csrf_token": csrf, "version": version.group(1), "reason": "licence checked",
            **changes}  # fmt: skip


def test_a_player_record_edit_refused_in_french_and_english(
    client: TestClient, same_rounds: tuple[str, str], database: RolledBack
) -> None:
    _, csrf = same_rounds
    path = f"/players/{IVO}"
    assert _refused(client, path, _edit(client, csrf, IVO, birth_date="1990-13-01")) == (
        f"champ birth_date{NB}: une date AAAA-MM-JJ, reçu '1990-13-01'"
        " | field birth_date: a date YYYY-MM-DD, got '1990-13-01'"
    )
    # The app's clock: December 1, 2026. The form's dates as its fields take them, YYYY-MM-DD.
    assert _refused(client, path, _edit(client, csrf, IVO, birth_date="2030-01-15")) == (
        f"champ birth_date{NB}: 2030-01-15 est une date future (aujourd{AP}hui{NB}: 2026-12-01)"
        " | field birth_date: 2030-01-15 is after today (2026-12-01)"
    )
    year = _edit(client, csrf, IVO, birth_date="1990-05-06", birth_year="1991")
    assert _refused(client, path, year) == (
        f"champ birth_year{NB}: 1991 n{AP}est pas l{AP}année de la date de naissance "
        "(1990-05-06) | field birth_year: 1991 is not the year of the birth date 1990-05-06"
    )
    assert _refused(client, path, _edit(client, csrf, IVO, reason="")) == (
        f"champ reason{NB}: dites pourquoi la fiche change (le motif est conservé dans le "
        f"journal d{AP}audit) | field reason: say why the record changes (it is kept in the audit "
        "log)"
    )
    updated = database.connection.execute(
        text("UPDATE players SET fide_id = '12345678' WHERE player_id = :p"), {"p": JAN}
    )
    assert updated.rowcount == 1
    taken = _edit(client, csrf, IVO, fide_id="12345678")
    assert _refused(client, path, taken, 409) == (
        f"champ fide_id{NB}: l{AP}identifiant FIDE 12345678 est celui du joueur {JAN} "
        f"(fusionnez les deux fiches s{AP}il s{AP}agit d{AP}une seule personne)"
        f" | field fide_id: FIDE id 12345678 is player {JAN}'s (merge the two records if they "
        "are one person)"
    )
    stale = _edit(client, csrf, IVO, name="Ivo, Igor") | {"version": "0123456789abcdef"}
    assert _refused(client, path, stale, 409) == (
        f"champ version{NB}: la fiche du joueur {IVO} a été modifiée depuis que vous l{AP}avez "
        f"ouverte{NB}: rouvrez-la, vérifiez ce qui a changé et refaites votre modification"
        f" | field version: player {IVO} was changed since you opened it: open it again, check "
        "what changed, and make your edit again"
    )
    missing = client.get("/players/9999?lang=fr")
    assert missing.status_code == 404
    assert _shown(missing.text, r'<p class="error">(.*?)</p>') == "aucun joueur 9999"


def _browse(client: TestClient, query: str) -> str:
    """The tournament browser's refusal (its field's, else the page's), French | English."""
    answers = []
    for language in ("fr", "en"):
        answer = client.get(f"/tournaments?{query}&lang={language}")
        assert answer.status_code == 422, answer.text
        page = answer.text
        field = r'<span class="field-error">(.*?)</span>'
        answers.append(_shown(page, field) if 'class="field-error"' in page else _alert(page))
    return " | ".join(answers)


def test_a_tournament_browse_with_a_bad_filter_in_french_and_english(
    client: TestClient, same_rounds: tuple[str, str]
) -> None:
    assert _browse(client, "from=2026-13") == (
        f"champ from{NB}: le mois de la période doit être de 1 à 12, reçu 13"
        " | field from: period month must be 1..12, got 13"
    )
    assert _browse(client, "from=2026-08&to=2026-03") == (
        f"champ to{NB}: 2026-03 précède 2026-08 | field to: 2026-03 is before 2026-08"
    )
    assert _browse(client, "federation=F1") == (
        f"champ federation{NB}: un code de 3 lettres, reçu 'F1'"
        " | field federation: a 3-letter code, got 'F1'"
    )
    assert _browse(client, "page=0") == (
        f"champ page{NB}: un numéro de page (1, 2, ...), reçu '0'"
        " | field page: a page number (1, 2, ...), got '0'"
    )
    missing = client.get("/tournaments/T999999?lang=fr")
    assert missing.status_code == 404
    assert _shown(missing.text, r'<p class="error">(.*?)</p>') == "aucun tournoi T999999"


def _refusal(client: TestClient, path: str, status: int = 422) -> str:
    answers = []
    for language in ("fr", "en"):
        answer = client.get(f"{path}&lang={language}" if "?" in path else f"{path}?lang={language}")
        assert answer.status_code == status, answer.text
        answers.append(_shown(answer.text, r'<p class="error[^"]*">(.*?)</p>'))
    return " | ".join(answers)


def test_the_title_watch_and_the_norm_check_refused_in_french_and_english(
    client: TestClient, same_rounds: tuple[str, str]
) -> None:
    s1, _ = same_rounds
    assert _refusal(client, "/titles/watch?category=fide-standard&period=2023-06") == (
        f"champ period{NB}: ratingdb ne connaît le Règlement des titres de la FIDE qu{AP}à "
        "partir du 1er janvier 2024 (demandé pour le 1er juin 2023)"
        " | field period: ratingdb holds the FIDE Title Regulations from January 1, 2024 only "
        "(asked for June 1, 2023)"
    )
    # Its dates are the page's (Day); the command line's English keeps them ISO.
    with pytest.raises(NoTitleRegulations) as early:
        title_regulations_on(date(2023, 6, 1))
    assert str(early.value) == (
        "ratingdb holds the FIDE Title Regulations from 2024-01-01 only (asked for 2023-06-01)"
    )
    assert _refusal(client, "/titles/watch?category=fide-standard&period=2026-13") == (
        f"champ period{NB}: le mois de la période doit être de 1 à 12, reçu 13"
        " | field period: period month must be 1..12, got 13"
    )
    assert _refusal(client, f"/norms/tournaments/{s1}?exemption=olympiad") == (
        f"champ exemption{NB}: exemption 'olympiad' inconnue (attendu l{AP}une de{NB}: "
        "national-championship, national-team-championship, zonal, swiss-foreign-field)"
        " | field exemption: unknown exemption 'olympiad' (expected one of: "
        "national-championship, national-team-championship, zonal, swiss-foreign-field)"
    )
    assert _refusal(client, f"/norms/tournaments/{s1}/certificates/{IVO}/GMX", 404) == (
        f"titre 'GMX' inconnu (attendu l{AP}un de{NB}: GM, IM, FM, CM, WGM, WIM, WFM, WCM)"
        " | unknown title 'GMX' (expected one of: GM, IM, FM, CM, WGM, WIM, WFM, WCM)"
    )
