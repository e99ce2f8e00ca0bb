"""A merge of two records that may be two people, through the pages in headless Chromium
(issue 28): ``ratingdb backoffice`` in a subprocess on the chain of tests/corrections/test_merge
with 3099's sex made F. The officer asks for the merge and is refused: the form shows both
records side by side, the sex row marked, the conflict named, and a box to tick. Ticked, with a
reason, the preview shows both records again with the override; confirmed, the merge is
applied with the figures worked in test_merge (P+1: Ivo 1914). Nothing on the pages is wider
than the screen. At a desktop's width (1280, PostgreSQL) and a phone's (390, SQLite), with
screenshots in $RATINGDB_SCREENSHOTS when set.

The back office is in English only (it has no message catalogs; the public site's French is
not its own), so there is no French page to open here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_browser import chromium, chromium_at  # noqa: F401
from tests.backoffice.test_browser import appeared, sign_in
from tests.backoffice.test_correction_browser import (
    add_officer,
    no_wider_than_the_screen,
    serving,
)
from tests.backoffice.test_merge_pages import OVERRIDE, REASON, sex_conflict
from tests.corrections import test_merge as merges
from tests.corrections.test_merge import DUP, IVO
from tests.corrections.test_revision_chain import entries
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot
from tests.support.sql import query


@pytest.fixture
def conflict_backoffice(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Iterator[str]:
    sex_conflict(capsys, database_url, tmp_path / "db")
    add_officer(database_url)
    with serving(database_url, tmp_path) as base:
        yield base


def records(driver: Any) -> dict[str, list[str]]:
    """The records table: row id -> its cells' text, each cell within the screen."""
    from selenium.webdriver.common.by import By

    width = int(driver.execute_script("return document.documentElement.clientWidth"))
    rows = {}
    for row in driver.find_elements(By.CSS_SELECTOR, "table.records tbody tr"):
        cells = row.find_elements(By.CSS_SELECTOR, "th, td")
        for cell in cells:
            box = cell.rect
            assert box["x"] >= 0, (row.text, box)
            assert box["x"] + box["width"] <= width + 1, (row.text, box)
        rows[str(row.get_attribute("id"))] = [cell.text for cell in cells]
    return rows


@WIDTH_BY_DATABASE
@pytest.mark.slow
def test_a_conflicting_merge_refused_shown_and_overridden_in_chromium(
    chromium: None,  # noqa: F811
    conflict_backoffice: str,
    database_url: str,
    width: int,
) -> None:
    from selenium.webdriver.common.by import By

    base = conflict_backoffice
    driver = chromium_at(width)
    try:
        sign_in(driver, base, "officer1")
        driver.get(f"{base}/corrections/merge")
        appeared(driver, "correction-form")
        assert not driver.find_elements(By.ID, "override-box")
        for name, value in (("keep", IVO), ("drop", DUP), ("reason", REASON)):
            driver.find_element(By.NAME, name).send_keys(value)
        follow(driver, driver.find_element(By.ID, "show-impact"))

        # Refused: both records side by side, the conflict named, a box to tick.
        assert driver.find_element(By.ID, "error").text.startswith(
            f"field override: {IVO} and {DUP} may be two people: sex differs: {IVO} M, {DUP} F."
        )
        shown = records(driver)
        assert shown["record-sex"] == ["Sex (differs)", "M", "F"]
        assert shown["record-player-id"] == ["Player id", IVO, DUP]
        assert shown["record-games"] == ["Games", "2", "2"]
        assert shown["record-lists"] == ["Lists", "fide-standard 2026-08 to 2026-11 (4 lists)",
                                         "none"]  # fmt: skip
        marked = driver.find_element(By.ID, "record-sex")
        assert marked.get_attribute("class") == "conflict"
        assert marked.value_of_css_property("background-color") == "rgba(246, 208, 208, 1)"
        assert [li.text for li in driver.find_elements(By.CSS_SELECTOR, "ul.conflicts li")] == [
            f"Sex differs: {IVO} M, {DUP} F."
        ]
        box = driver.find_element(By.ID, "override-box")
        assert box.is_displayed()
        no_wider_than_the_screen(driver, width)
        screenshot(driver, f"backoffice-merge-refused-{width}", width)
        # The fields kept: tick the box, give the override's reason.
        assert driver.find_element(By.NAME, "keep").get_attribute("value") == IVO
        driver.find_element(By.NAME, "override_ticked").click()
        driver.find_element(By.NAME, "override").send_keys(OVERRIDE)
        follow(driver, driver.find_element(By.ID, "show-impact"))

        assert appeared(driver, "state").text == "previewed"
        assert records(driver)["record-sex"] == ["Sex (differs)", "M", "F"]
        assert driver.find_element(By.ID, "override").text == f"Merged all the same: {OVERRIDE}"
        no_wider_than_the_screen(driver, width)
        screenshot(driver, f"backoffice-merge-preview-{width}", width)
        assert query(database_url, "SELECT count(*) FROM corrections") == [(0,)]

        follow(driver, driver.find_element(By.ID, "confirm"))
        assert appeared(driver, "state").text == "applied"
        no_wider_than_the_screen(driver, width)
    finally:
        driver.quit()
    assert query(database_url, "SELECT kind, actor FROM corrections") == [("merge", "officer1")]
    assert entries(database_url, merges.P1)[IVO] == (1914, 1907, 7, 2, 20)
