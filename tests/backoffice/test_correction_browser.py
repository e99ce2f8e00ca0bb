"""A correction through the web pages in headless Chromium at a desktop's width (1280 px):
``ratingdb backoffice`` in a subprocess on the published chain of tests/corrections; an officer
signs in, opens Corrections, corrects Ada-Ben's result (1-0 made a forfeit), reads the impact
(every list revised, Ada -7 and Ben +7, as worked by hand in test_revision_chain) and confirms.
Nothing on the pages is wider than the screen; a screenshot of the impact page is saved in
$RATINGDB_SCREENSHOTS when set. On SQLite and PostgreSQL.

Each correction form says, next to its reason field, that the reason is published on the
public diff page (issue 25): in the HTML, and in Chromium at a desktop's and a phone's width
(1280 and 390 px), where the note is shown just above the field, within the screen."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.services import accounts
from tests.api.test_browser import chromium, chromium_at  # noqa: F401
from tests.api.test_pages import Parsed
from tests.backoffice.conftest import PASSWORD, Accounts
from tests.backoffice.test_browser import appeared, sign_in
from tests.backoffice.test_corrections import FORFEIT_IMPACT, forfeit_ratings, ratings
from tests.corrections.test_revision_chain import ADA, BEN, CATEGORY, PERIODS, P, build, entries
from tests.support.browser import follow, screenshot
from tests.support.server import running_server
from tests.support.sql import query

WIDTH = 1280
#: A phone's screen (CSS pixels).
PHONE_WIDTH = 390

#: The forms of /corrections, by address.
FORMS = ("game", "tournament", "merge", "list", "withdraw")
#: What each form says next to its reason field.
REASON_IS_PUBLIC = (
    "The reason is public: it is published as written here on the public diff page of each "
    "list the correction changes. Write nothing that must stay private."
)


def add_account(database_url: str, username: str, role: str) -> None:
    """An account made as ``ratingdb users add`` makes it (no approval, no new password)."""
    engine = make_engine(database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            accounts.add_user(session, username, role, PASSWORD, by=None, actor="test",
                              now=datetime.now(UTC))  # fmt: skip
    finally:
        engine.dispose()


def add_officer(database_url: str) -> None:
    add_account(database_url, "officer1", "officer")


@contextmanager
def serving(database_url: str, tmp_path: Path) -> Iterator[str]:
    """The back office on a free port: its base URL."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RATINGDB_")}
    with running_server(
        "backoffice", ["--database-url", database_url], env=env,
        log=tmp_path / "backoffice.log", ready="/login",
    ) as base:  # fmt: skip
        yield base


@pytest.fixture
def chain_backoffice(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> Iterator[tuple[str, dict[str, str]]]:
    """The chain published, officer1, and the back office serving them: (base URL, the
    tournaments' ids)."""
    ids = build(capsys, database_url, tmp_path / "chain")
    add_officer(database_url)
    with serving(database_url, tmp_path) as base:
        yield base, ids


@pytest.fixture
def officer_backoffice(database_url: str, tmp_path: Path) -> Iterator[str]:
    """officer1 and the back office (no data: the forms need none): its base URL."""
    add_officer(database_url)
    with serving(database_url, tmp_path) as base:
        yield base


def no_wider_than_the_screen(driver: Any, width: int = WIDTH) -> None:
    found = driver.execute_script("return document.documentElement.scrollWidth")
    assert int(found) <= width, f"the page is {found} px wide on a {width} px screen"


def test_the_forms_say_the_reason_is_public(client: TestClient, users: Accounts) -> None:
    users.add("officer1", "officer")
    session_id, _ = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)
    for slug in FORMS:
        form = client.get(f"/corrections/{slug}")
        assert form.status_code == 200, slug
        parsed = Parsed(form.text)
        assert REASON_IS_PUBLIC in parsed.texts, slug
        (note,) = [i for i, (_, attrs) in enumerate(parsed.tags)
                   if attrs.get("id") == "reason-is-public"]  # fmt: skip
        (reason,) = [i for i, (tag, attrs) in enumerate(parsed.tags)
                     if tag == "textarea" and attrs.get("name") == "reason"]  # fmt: skip
        # Next to the field: only the field's label between them.
        assert [tag for tag, _ in parsed.tags[note + 1 : reason]] == ["label"], slug
        # Read out with the field by a screen reader, as it is shown next to it.
        assert parsed.tags[reason][1]["aria-describedby"] == "reason-is-public", slug


@pytest.mark.parametrize("width", [WIDTH, PHONE_WIDTH])
@pytest.mark.slow
def test_the_forms_say_the_reason_is_public_in_chromium(
    chromium: None,  # noqa: F811
    officer_backoffice: str,
    width: int,
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_at(width)
    try:
        sign_in(driver, officer_backoffice, "officer1")
        for slug in FORMS:
            driver.get(f"{officer_backoffice}/corrections/{slug}")
            appeared(driver, "correction-form")
            note = driver.find_element(By.ID, "reason-is-public")
            reason = driver.find_element(By.NAME, "reason")
            assert note.is_displayed(), slug
            assert note.text == REASON_IS_PUBLIC, slug
            assert reason.get_attribute("aria-describedby") == "reason-is-public", slug
            # Within the screen, and just above the field: only the field's label between.
            box, field = note.rect, reason.rect
            assert box["x"] >= 0, (slug, box)
            assert box["x"] + box["width"] <= width, (slug, box)
            assert box["y"] + box["height"] <= field["y"] <= box["y"] + box["height"] + 80, (
                slug, box, field,
            )  # fmt: skip
            no_wider_than_the_screen(driver, width)
            screenshot(driver, f"backoffice-correction-{slug}-form-{width}", width)
    finally:
        driver.quit()


@pytest.mark.slow
def test_a_game_result_corrected_in_chromium(
    chromium: None,  # noqa: F811
    chain_backoffice: tuple[str, dict[str, str]],
    database_url: str,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    base, ids = chain_backoffice
    driver = chromium_at(WIDTH)
    try:
        sign_in(driver, base, "officer1")
        follow(driver, driver.find_element(By.LINK_TEXT, "Corrections"))
        follow(driver, appeared(driver, "correct-game"))
        appeared(driver, "correction-form")
        no_wider_than_the_screen(driver)
        screenshot(driver, f"backoffice-correction-form-{WIDTH}", WIDTH)
        for name, value in (("tournament", ids["T1"]), ("round", "1"), ("white", ADA),
                            ("black", BEN), ("reason", "Ben never came: a forfeit")):  # fmt: skip
            driver.find_element(By.NAME, name).send_keys(value)
        Select(driver.find_element(By.NAME, "result")).select_by_value("+-")
        follow(driver, driver.find_element(By.ID, "show-impact"))

        # The impact: every list of the chain revised, Ada and Ben with their new ratings.
        assert appeared(driver, "state").text == "previewed"
        assert driver.find_element(By.ID, "result").text == "1-0 → +-"
        reason_term = "//dt[following-sibling::dd[1][@id='reason']]"
        assert driver.find_element(By.XPATH, reason_term).text == (
            "Reason (published on the public diff page once confirmed)"
        )
        summary = driver.find_element(By.ID, "impact-summary").text
        assert summary == "4 lists would get a new revision, 2 players changed."
        tables = driver.find_elements(By.CSS_SELECTOR, "table.impact")
        assert len(tables) == len(PERIODS)
        for table, period in zip(tables, PERIODS, strict=True):
            rows = [
                [cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                for row in table.find_elements(By.CSS_SELECTOR, "tbody tr")
            ]
            expected = FORFEIT_IMPACT[period]
            assert rows == [
                [player, name, str(was), str(becomes), f"{difference:+d}"]
                for (player, (was, becomes, difference)), name in zip(
                    expected.items(), ("Ada, A", "Ben, B"), strict=True
                )
            ], period
        no_wider_than_the_screen(driver)
        screenshot(driver, f"backoffice-correction-impact-{WIDTH}", WIDTH)
        # Nothing applied yet.
        assert query(database_url, "SELECT count(*) FROM corrections") == [(0,)]

        follow(driver, driver.find_element(By.ID, "confirm"))
        assert appeared(driver, "state").text == "applied"
        assert driver.find_element(By.ID, "correction").text.startswith("correction ")
        assert driver.find_element(By.XPATH, reason_term).text == (
            "Reason (published on the public diff page)"
        )
        assert not driver.find_elements(By.ID, "confirm")
        no_wider_than_the_screen(driver)
        follow(driver, driver.find_element(By.LINK_TEXT, "Corrections"))
        appeared(driver, "correct-list")
        no_wider_than_the_screen(driver)
        screenshot(driver, f"backoffice-corrections-{WIDTH}", WIDTH)
    finally:
        driver.quit()
    assert query(database_url, "SELECT kind, actor, reason FROM corrections") == [
        ("game", "officer1", "Ben never came: a forfeit")
    ]
    assert entries(database_url, P)[ADA] == (1800, 1800, 0, 0, 20)
    for period in PERIODS:
        assert ratings(database_url, period) == forfeit_ratings(period), (CATEGORY, period)
