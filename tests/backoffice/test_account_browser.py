"""End to end in headless Chromium: four eyes and a user's own account page. ``ratingdb
backoffice`` in a subprocess, two admins made with ``ratingdb users add``; the first adds an
officer from the Users page, the second approves, the officer signs in, is sent to the account
page until they choose their own password, then issues a token of their own. At a desktop's
width (1280) and a phone's (390), on PostgreSQL and SQLite; the pages fit the phone's width."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api.test_browser import chromium  # noqa: F401
from tests.backoffice.test_browser import (
    PASSWORD,
    appeared,
    backoffice_with,
    browser,
)
from tests.support.browser import WIDTH_BY_DATABASE, follow, screenshot

pytestmark = pytest.mark.slow

FIRST = "first officer password 2026"
OWN = "my very own chess passphrase"


@pytest.fixture
def backoffice(database_url: str, tmp_path: Path) -> Iterator[str]:
    """The back office with two admins, alice and bob."""
    with backoffice_with(database_url, tmp_path, [("alice", "admin"), ("bob", "admin")]) as base:
        yield base


def _sign_in(driver: Any, base: str, username: str, password: str) -> None:
    from selenium.webdriver.common.by import By

    driver.delete_all_cookies()
    driver.get(f"{base}/login")
    driver.find_element(By.NAME, "username").send_keys(username)
    driver.find_element(By.NAME, "password").send_keys(password)
    follow(driver, driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button"))


def _fits(driver: Any) -> bool:
    return bool(
        driver.execute_script(
            "return document.documentElement.scrollWidth <= window.innerWidth + 1"
        )
    )


@WIDTH_BY_DATABASE
def test_four_eyes_and_the_account_page_in_chromium(
    chromium: None,  # noqa: F811
    backoffice: str,
    width: int,
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver = browser(width)
    try:
        # alice adds an officer: the account waits for another admin.
        _sign_in(driver, backoffice, "alice", PASSWORD)
        driver.get(f"{backoffice}/users")
        form = driver.find_element(By.CSS_SELECTOR, "form[action='/users']")
        form.find_element(By.NAME, "username").send_keys("olga")
        Select(form.find_element(By.NAME, "role")).select_by_visible_text("officer")
        form.find_element(By.NAME, "password").send_keys(FIRST)
        form.find_element(By.NAME, "password_again").send_keys(FIRST)
        follow(driver, form.find_element(By.CSS_SELECTOR, "button"))
        assert "awaits another admin's approval (not alice)" in driver.page_source.replace(
            "&#39;", "'"
        )
        assert not driver.find_elements(By.CSS_SELECTOR, "form[action='/users/olga/approve']")
        assert _fits(driver)
        # olga cannot sign in yet.
        _sign_in(driver, backoffice, "olga", FIRST)
        assert "awaits another admin" in driver.find_element(By.CSS_SELECTOR, ".error").text
        # bob approves.
        _sign_in(driver, backoffice, "bob", PASSWORD)
        driver.get(f"{backoffice}/users")
        approve = driver.find_element(By.CSS_SELECTOR, "form[action='/users/olga/approve'] button")
        follow(driver, approve)
        assert "awaits another admin" not in driver.page_source
        assert _fits(driver)  # the users' table scrolls within its box on a phone
        screenshot(driver, f"backoffice-users-{width}", width)
        driver.get(f"{backoffice}/audit")
        assert "<th>Through</th>" in driver.page_source
        assert "user-approve" in driver.page_source
        assert _fits(driver)
        screenshot(driver, f"backoffice-audit-{width}", width)
        # olga signs in: the account page first, until she chooses her own password.
        _sign_in(driver, backoffice, "olga", FIRST)
        assert driver.current_url.endswith("/account")
        assert "An admin chose your password" in driver.page_source
        assert _fits(driver)
        screenshot(driver, f"backoffice-account-must-change-{width}", width)
        form = driver.find_element(By.CSS_SELECTOR, "form[action='/account/password']")
        form.find_element(By.NAME, "current_password").send_keys(FIRST)
        form.find_element(By.NAME, "new_password").send_keys(OWN)
        form.find_element(By.NAME, "new_password_again").send_keys(OWN)
        follow(driver, form.find_element(By.CSS_SELECTOR, "button"))
        assert driver.find_element(By.LINK_TEXT, "Corrections")
        # Her own token, with the least scope she needs.
        follow(driver, driver.find_element(By.CSS_SELECTOR, "header .who"))
        form = driver.find_element(By.CSS_SELECTOR, "form[action='/account/tokens']")
        form.find_element(By.NAME, "label").send_keys("pairing program")
        Select(form.find_element(By.NAME, "scope")).select_by_visible_text("submit")
        follow(driver, form.find_element(By.CSS_SELECTOR, "button"))
        token = driver.find_element(By.CSS_SELECTOR, "code.token").text
        assert len(token) == 43
        assert "scope submit" in driver.find_element(By.TAG_NAME, "main").text
        assert _fits(driver)
        driver.get(f"{backoffice}/account")
        assert "pairing program (submit)" in appeared(driver, "tokens").text
        assert token not in driver.page_source
        screenshot(driver, f"backoffice-account-{width}", width)
    finally:
        driver.quit()
