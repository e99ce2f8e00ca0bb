"""The back office in French in headless Chromium (issue 28 item 9): ``ratingdb backoffice`` in
a subprocess on the title-norm case of tests/services/test_norms.py (a FIDE standard list and
one tournament); an officer signs in from the French sign-in page and goes from page to page
by their French links (the language kept by every link, form and redirect), and an admin
opens the users and the publication modes. French is longer than English: nothing on any page
is wider than the screen. At a desktop's width (1280, PostgreSQL) and a phone's (390, SQLite),
a screenshot of each page in $RATINGDB_SCREENSHOTS when set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.api.test_browser import chromium, chromium_at  # noqa: F401
from tests.backoffice.conftest import PASSWORD
from tests.backoffice.test_browser import appeared
from tests.backoffice.test_correction_browser import (
    add_account,
    no_wider_than_the_screen,
    serving,
)
from tests.backoffice.test_french_texts import NOTED_TRF
from tests.services.test_norms import ADA, build
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot


def sign_in_in_french(driver: Any, base: str, username: str) -> None:
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{base}/login?lang=fr")
    assert driver.find_element(By.TAG_NAME, "h1").text == "Se connecter"
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(PASSWORD)
    follow(driver, driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
    assert driver.current_url == f"{base}/?lang=fr"
    assert driver.find_element(By.TAG_NAME, "h1").text == f"Bienvenue, {username}"


def seen(driver: Any, name: str, width: int) -> None:
    """The page is French and no wider than the screen; its screenshot."""
    from selenium.webdriver.common.by import By

    assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == "fr", name
    assert "lang=fr" in driver.current_url, name
    no_wider_than_the_screen(driver, width)
    screenshot(driver, f"backoffice-fr-{name}-{width}", width)


@WIDTH_BY_DATABASE
@pytest.mark.slow
def test_the_back_office_in_french_in_chromium(
    chromium: None,  # noqa: F811
    database_url: str,
    width: int,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from selenium.webdriver.common.by import By

    build(capsys, database_url, tmp_path)
    add_account(database_url, "officer1", "officer")
    add_account(database_url, "admin1", "admin")
    with serving(database_url, tmp_path) as base:
        driver = chromium_at(width)
        try:
            sign_in_in_french(driver, base, "officer1")
            seen(driver, "home", width)

            def home_link(text: str) -> None:
                driver.get(f"{base}/?lang=fr")
                follow(driver, driver.find_element(By.PARTIAL_LINK_TEXT, text))

            home_link("Tournois : parcourir")
            appeared(driver, "tournaments")
            assert "Parties" in driver.find_element(By.CSS_SELECTOR, "#tournaments thead").text
            seen(driver, "tournaments", width)
            follow(driver, driver.find_element(By.CSS_SELECTOR, "#tournaments tbody a"))
            assert "du 2 novembre 2026 au 8 novembre 2026" in driver.page_source
            seen(driver, "tournament", width)
            follow(driver, driver.find_element(By.CSS_SELECTOR, "table.games a"))
            assert driver.find_element(By.ID, "show-impact").text == "Voir l’impact"  # noqa: RUF001
            seen(driver, "correction-form", width)

            home_link("Normes de titre")
            table = appeared(driver, "norm-tournaments")
            seen(driver, "norms", width)
            follow(driver, table.find_element(By.CSS_SELECTOR, "tbody a"))
            # (Selenium's text writes the no-break space before ":" as a space.)
            assert appeared(driver, f"check-{ADA}-IM").text == "Norme IM : oui"
            # The conditions' figures, worded by the services, in French too.
            condition = driver.find_element(By.ID, f"c-{ADA}-IM-performance").text
            assert "Rp d\u2019au moins 2450" in condition
            assert "Rp 2450 = Ra 2284 + dp 166" in condition
            assert "6,5 points" in driver.find_element(By.ID, f"c-{ADA}-IM-score").text
            seen(driver, "norm-check", width)
            section = driver.find_element(By.ID, f"player-{ADA}")
            follow(driver, section.find_element(By.LINK_TEXT, "Projet de certificat"))
            appeared(driver, "certificate-result")
            seen(driver, "norm-certificate", width)

            home_link("Joueurs : les rechercher")
            driver.find_element(By.ID, "player-search").send_keys("ada")
            follow(driver, driver.find_element(By.CSS_SELECTOR, "form[role=search] button"))
            table = appeared(driver, "players")
            assert "Fédération" in table.find_element(By.TAG_NAME, "thead").text
            seen(driver, "players", width)
            follow(driver, table.find_element(By.CSS_SELECTOR, "tbody a"))
            assert driver.find_element(By.ID, "save").text == "Enregistrer la fiche"
            seen(driver, "player", width)

            home_link("Publication : prévisualiser")
            appeared(driver, "next-periods")
            seen(driver, "publication", width)
            follow(driver, driver.find_element(By.CSS_SELECTOR, "#next-fide-standard a"))
            assert driver.find_element(By.ID, "mode").text == "automatique"
            seen(driver, "publication-preview", width)

            for text, name in (("Envoyer un fichier de tournoi", "submission-new"),
                               ("Soumissions", "submissions"), ("Corrections", "corrections"),
                               ("Journal d’audit", "audit")):  # noqa: RUF001  # fmt: skip
                home_link(text)
                seen(driver, name, width)
            # A TRF sent from the French form: its check report's notes in French.
            trf = tmp_path / "small.trf"
            trf.write_bytes(NOTED_TRF)
            home_link("Envoyer un fichier de tournoi")
            driver.find_element(By.NAME, "file").send_keys(str(trf))
            driver.find_element(
                By.CSS_SELECTOR, "input[name=category][value=fide-standard]"
            ).click()
            follow(driver, driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]"))
            assert appeared(driver, "games").text == "1 partie, 1 comptée pour le classement"
            driver.find_element(By.CSS_SELECTOR, "details summary").click()
            notes = driver.find_element(By.ID, "notes").text
            assert "'Test Open', du 2 novembre 2026 au 2 novembre 2026, 1 ronde" in notes
            assert "la date de début, le 2 novembre 2026, est utilisée" in notes
            seen(driver, "submission", width)
            follow(driver, driver.find_element(By.CSS_SELECTOR, "header a.who"))
            assert driver.find_element(By.TAG_NAME, "h1").text == "Votre compte"
            seen(driver, "account", width)

            sign_in_in_french(driver, base, "admin1")
            home_link("Utilisateurs")
            seen(driver, "users", width)
            home_link("Modes de publication")
            appeared(driver, "modes")
            seen(driver, "publication-modes", width)
            # The switch: the same page in English.
            follow(driver, driver.find_element(By.CSS_SELECTOR, "nav.languages a[hreflang=en]"))
            assert driver.find_element(By.TAG_NAME, "h1").text == "Publication modes"
        finally:
            driver.quit()
