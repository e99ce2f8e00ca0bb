"""End to end in headless Chromium, from the arbiter's file to the public site: ``ratingdb
backoffice`` and ``ratingdb serve`` in subprocesses on one database holding the FIDE standard
list of 2010-09 (the players of the file with their ratings, imported as a FIDE TXT). An arbiter
signs in, uploads a real TRF of ../shared/data/trf and sees its check report; an officer signs
in, accepts it, opens Publication, previews the 2010-11 list and approves it; the public site
then shows the new list and the change of the player the preview shows as the largest gain,
as the preview showed them. At a desktop's width (1280) and a phone's (390), screenshots in the
test's folder. On SQLite and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_browser import chromium, chromium_at  # noqa: F401
from tests.backoffice.test_browser import PASSWORD, TRF_NAME, appeared, sign_in
from tests.backoffice.test_submissions import TRF_FOLDER
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot
from tests.support.cli import cli_ok, run_cli
from tests.support.files import FIDE_STANDARD_HEADER, fixed
from tests.support.server import running_server

#: Slow (two servers and a headless Chromium).
pytestmark = pytest.mark.slow


def starting_list(trf: Path) -> str:
    """The players of the TRF with a FIDE id and a rating, as FIDE's standard list of 2010-09
    (read by the TRF16 columns: sex 10, name 15-47, rating 49-52, federation 54-56, FIDE id
    58-68, birth year 70-73); K 10 from 2400, else 15 (the 2009-07 rules' established K)."""
    lines = [FIDE_STANDARD_HEADER]
    for line in trf.read_text(encoding="utf-8").splitlines():
        if not line.startswith("001"):
            continue
        rating, fide_id = line[48:52].strip(), line[57:68].strip()
        if not rating.isdigit() or int(rating) == 0 or not fide_id.isdigit() or fide_id == "0":
            continue
        lines.append(fixed(FIDE_STANDARD_HEADER, {
            "ID Number": fide_id, "Name": line[14:47].strip(), "Fed": line[53:56].strip(),
            "Sex": line[9].strip().upper() or "M", "SRtng": rating, "SGm": "0",
            "SK": "10" if int(rating) >= 2400 else "15", "B-day": line[69:73].strip(),
        }))  # fmt: skip
    return "\n".join(lines) + "\n"


@pytest.fixture
def sites(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Iterator[tuple[str, str]]:
    """The back office (an arbiter and an officer) and the public site on one database with
    the 2010-09 list; their base URLs."""
    if not TRF_FOLDER.is_dir():
        pytest.skip(f"the real TRF files are not here: {TRF_FOLDER} (../shared/data/trf)")
    listed = tmp_path / "standard_sep10.txt"
    listed.write_text(starting_list(TRF_FOLDER / TRF_NAME), encoding="utf-8")
    cli_ok(capsys, "lists", "import", str(listed), "--format", "fide-txt", "--category",
           "fide-standard", "--period", "2010-09", "--actor", "setup",
           url=database_url)  # fmt: skip
    for name, role in (("arbiter1", "arbiter"), ("officer1", "officer")):
        added = run_cli(capsys, "users", "add", name, "--role", role, "--password-stdin",
                        "--actor", "setup", url=database_url, stdin=PASSWORD + "\n")  # fmt: skip
        assert added.code == 0, added.err
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGDB_")}
    with (
        running_server("backoffice", ["--database-url", database_url], env=env,
                       log=tmp_path / "backoffice.log", ready="/login") as backoffice,
        running_server("serve", ["--database-url", database_url], env=env,
                       log=tmp_path / "serve.log") as public,
    ):  # fmt: skip
        yield backoffice, public


def cells(row: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [str(cell.text) for cell in row.find_elements(By.TAG_NAME, "td")]


@WIDTH_BY_DATABASE
def test_from_the_arbiters_file_to_the_public_list(
    chromium: None,  # noqa: F811
    sites: tuple[str, str],
    width: int,
) -> None:
    from selenium.webdriver.common.by import By

    backoffice, public = sites
    driver = chromium_at(width)
    try:
        # The arbiter sends the file and reads the check report.
        sign_in(driver, backoffice, "arbiter1")
        follow(driver, driver.find_element(By.LINK_TEXT, "Send a tournament file"))
        driver.find_element(By.NAME, "file").send_keys(str(TRF_FOLDER / TRF_NAME))
        driver.find_element(By.CSS_SELECTOR, "input[name=category][value=fide-standard]").click()
        follow(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/submissions'] button"))
        assert appeared(driver, "state").text == "submitted"
        # EXPECTED.md: 93 games stored, 89 of them played (rated); the period 2010-11.
        assert driver.find_element(By.ID, "games").text == "93 games, 89 rated"
        assert "fide-standard: period 2010-11" in driver.page_source
        report_url = driver.current_url
        # The officer accepts it, then previews the 2010-11 list from the Publication page.
        sign_in(driver, backoffice, "officer1")
        driver.get(report_url)
        follow(driver, driver.find_element(By.ID, "accept"))
        assert appeared(driver, "tournaments").text == "T000001"
        driver.get(f"{backoffice}/")
        follow(driver, driver.find_element(By.PARTIAL_LINK_TEXT, "Publication"))
        row = appeared(driver, "next-fide-standard")
        assert "automatic" in row.text
        follow(driver, row.find_element(By.LINK_TEXT, "2010-11"))
        assert appeared(driver, "state").text == "open"
        entries = int(driver.find_element(By.ID, "entries").text)
        assert driver.find_element(By.ID, "games").text.startswith("89 games")
        assert cells(driver.find_element(By.ID, "tournament-T000001"))[2:] == ["93", "89"]
        assert driver.find_element(By.ID, "rule-version").text == "fide-standard-2009-07"
        gain = driver.find_element(By.CSS_SELECTOR, "#gains tbody tr")
        player_id = gain.get_attribute("id").removeprefix("gains-")
        _, previous, rating, change, *_ = cells(gain)
        assert int(rating) - int(previous) == int(change) > 0
        screenshot(driver, f"backoffice-preview-{width}", width)
        follow(driver, driver.find_element(By.ID, "approve"))
        assert appeared(driver, "published").text.endswith(
            f"fide-standard 2010-11 is published (revision 1, {entries} entries): a published "
            "list never changes"
        )
        # The public site shows the new list and the player's change, as previewed.
        driver.get(f"{public}/lists/fide-standard/2010-11")
        assert f"{entries} rated players" in driver.find_element(By.CSS_SELECTOR, "p.meta").text
        listed = driver.find_element(
            By.XPATH, f"//table[contains(@class, 'list')]//tr[td/a[contains(@href, "
            f"'/players/{player_id}')]]",
        )  # fmt: skip
        assert cells(listed)[-3:-1] == [rating, change]
        screenshot(driver, f"backoffice-public-list-{width}", width)
        driver.get(f"{public}/players/{player_id}")
        latest = driver.find_element(By.CSS_SELECTOR, "table.history tbody tr")
        assert cells(latest)[:3] == ["2010-11", rating, change]
    finally:
        driver.quit()
