"""Every public page passes axe-core's WCAG 2.1 A and AA rules in a real browser (issue 15).

``ratingdb serve`` reads the corrected scenario (tests/api/scenario.py: its lists have a
revision 2, so the archive links revisions and a diff has rows); headless Chromium opens each
page at a desktop's 1280 px and a phone's 390 px, in English and in French, and axe-core
(tests/support/axe.py: a pinned version from the npm registry) runs in it with the rules tagged
``wcag2a``, ``wcag2aa``, ``wcag21a`` and ``wcag21aa``: contrast, table headers, labels, names,
language, ARIA, and scrollable regions a keyboard cannot reach. Any violation fails the test,
listed as rule id, impact, the element (CSS selector) and axe's summary of what to fix. What
axe leaves for a person to review ("incomplete": the chart's SVG labels, whose background it
cannot compute) was reviewed by hand: #5b6572 on white, 5.9:1.

axe cannot press keys, so the keyboard is tried too: Tab goes through every link and control
of the page in order, none of them traps it, and each one shows where the focus is (an
outline) when it has it.

Chromium missing and impossible to install: the test is skipped, as the other browser tests.
axe-core missing: it is fetched (npm); if that is impossible the test fails, saying why.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import quote

import pytest

from tests.api.scenario import TOURNAMENTS
from tests.api.test_browser import chromium, chromium_at
from tests.support.axe import AXE_VERSION, AxeUnavailable, fetch
from tests.support.browser import CORRECTED_ON_SQLITE

pytestmark = pytest.mark.slow
__all__ = ["chromium"]

#: The rules of WCAG 2.0 and 2.1, levels A and AA, as axe-core tags them.
WCAG_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
CALCULATION = "category=fide-standard&period=2026-12&rating=1850&k=20&games=1800:1%0A1650:0.5"
#: Every public page, in the states that show something different.
PAGES = {
    "home": "/",
    "search": "/?q=100",
    "list": "/lists/fide-standard/2026-11",
    "list filtered": "/lists/fide-standard/2026-11?federation=FRA&sex=F&age=&title=&q=",
    "list earlier revision": "/lists/fide-standard/2026-09?revision=1",
    "list bad filter (422)": "/lists/fide-standard/2026-11?sex=X",
    "archive": "/lists",
    "diff": "/lists/fide-standard/2026-11/diff?from=1&to=2",
    "diff of one revision": "/lists/fide-standard/2026-08/diff",
    "tournaments of a list": "/lists/fide-standard/2026-10/tournaments",
    "tournaments of an imported list": "/lists/fide-standard/2026-08/tournaments",
    "top lists": "/top/fide-standard",
    "tournament": f"/tournaments/{TOURNAMENTS['A']}",
    "tournament with a first rating": f"/tournaments/{TOURNAMENTS['B']}",
    "player": "/players/1001",
    "player with a first rating": "/players/1007",
    "player with two events in a period (subtotals)": "/players/1002",
    "calculator": "/calculator",
    "calculator with a result": f"/calculator?{CALCULATION}",
    "calculator, first rating": "/calculator?category=fide-standard&period=2026-12"
    "&games=1800:1%0A1650:0.5%0A1700:0%0A1900:0.5%0A1750:1",
    "calculator, first rating from the standard rating": "/calculator?category=fide-rapid"
    "&period=2024-03&standard_rating=1850&games=1700:1,1900:0.5,2000:0",
    "calculator with mistakes (422)": "/calculator?category=fide-standard&period=2026-13"
    "&rating=abc&games=1800",
    "not found (404)": "/no-such-page",
}

AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
  .then(results => done({violations: results.violations, version: axe.version}))
  .catch(error => done({error: String(error)}));
"""


@pytest.fixture(scope="session")
def axe_script() -> str:
    try:
        return fetch().read_text(encoding="utf-8")
    except AxeUnavailable as error:
        pytest.fail(f"axe-core is needed for the accessibility check: {error}", pytrace=False)


def describe(page: str, violations: list[dict[str, Any]]) -> Iterator[str]:
    """One line per element in violation: page, rule, impact, target, what to fix."""
    for violation in violations:
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            yield (
                f"{page}: {violation['id']} ({violation['impact']}: {violation['help']}) "
                f"at {' '.join(map(str, node['target']))}: {summary}"
            )


def axe_violations(driver: Any, script: str, page: str) -> list[str]:
    """axe-core's WCAG 2.1 AA violations on the page the browser shows, as readable lines."""
    driver.execute_script(script)
    result = driver.execute_async_script(AXE_RUN, list(WCAG_TAGS))
    assert "error" not in result, f"{page}: axe-core failed: {result['error']}"
    assert result["version"] == AXE_VERSION, result["version"]  # the pinned engine, no other
    return list(describe(page, result["violations"]))


#: A page with three faults axe must find: an unlabelled field, grey text on white (#aaa:
#: 2.3:1, under 4.5:1) and a link with no text.
FAULTY = (
    "<!doctype html><html lang='en'><head><title>faulty</title></head><body><main>"
    "<h1>Faulty</h1><p style='color:#aaa'>hard to read</p><input id='nameless'>"
    "<a id='empty' href='/somewhere'></a></main></body></html>"
)


@pytest.mark.usefixtures("chromium")
def test_the_check_finds_faults(axe_script: str) -> None:
    """The check is not vacuous: on a faulty page it names each fault, its rule and element."""
    driver = chromium_at(1280)
    driver.set_script_timeout(60)
    try:
        driver.get("data:text/html;charset=utf-8," + quote(FAULTY))
        found = axe_violations(driver, axe_script, "faulty")
    finally:
        driver.quit()
    rules = {line.split(": ")[1].split(" (")[0]: line for line in found}
    assert set(rules) == {"label", "color-contrast", "link-name"}, found
    assert "at #nameless: Fix any of the following:" in rules["label"]
    assert rules["color-contrast"].startswith("faulty: color-contrast (serious: Elements must")


@CORRECTED_ON_SQLITE
@pytest.mark.usefixtures("chromium")
# Each language at one width: French, whose words are longer, where the screen is narrowest
# (what wraps there is what a width changes for axe: target sizes, reflow); English on the
# desktop. The language sets the text, its lang attribute and the labels at either width.
@pytest.mark.parametrize(("width", "language"), [(1280, "en"), (390, "fr")])
def test_every_page_passes_axe(
    corrected_server: str, axe_script: str, width: int, language: str
) -> None:
    from selenium.webdriver.common.by import By

    driver = chromium_at(width)
    driver.set_script_timeout(60)
    found: list[str] = []
    try:
        for name, path in PAGES.items():
            separator = "&" if "?" in path else "?"
            driver.get(f"{corrected_server}{path}{separator}lang={language}")
            page = f"{name} [{width} px, {language}] {path}"
            assert driver.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
            found += axe_violations(driver, axe_script, page)
            if driver.find_elements(By.CSS_SELECTOR, "details:not([open])"):
                # What the folds hold (a player's earlier calculations) is checked unfolded.
                driver.execute_script(
                    "document.querySelectorAll('details').forEach(d => d.open = true)"
                )
                found += axe_violations(driver, axe_script, f"{page} (unfolded)")
    finally:
        driver.quit()
    assert not found, f"{len(found)} accessibility violations (axe-core, WCAG 2.1 AA):\n" + (
        "\n".join(found)
    )


#: Every element the keyboard reaches with Tab, in document order (a group of radio buttons is
#: one stop: its checked button, else its first); then nothing is focused.
FOCUSABLE = """
// Rendered (not display: none, not visibility: hidden, not in a closed <details>), enabled.
const shown = e => e.checkVisibility({visibilityProperty: true}) && !e.disabled;
const all = [...document.querySelectorAll(
  'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]')]
  .filter(e => e.tabIndex >= 0 && shown(e));
window.__stops = all.filter(e => {
  if (e.type !== 'radio') return true;
  const group = all.filter(o => o.type === 'radio' && o.name === e.name);
  return e === (group.find(o => o.checked) || group[0]);
});
document.activeElement.blur();
return window.__stops.map(e => e.outerHTML.slice(0, 80));
"""
#: Records, from now on, every element that gets the focus: its index among the stops (-1: none
#: of them), the start of its HTML and its outline as it shows while focused.
RECORD_FOCUS = """
window.__reached = [];
document.addEventListener('focusin', event => {
  const e = event.target, style = getComputedStyle(e);
  window.__reached.push([window.__stops.indexOf(e), e.outerHTML.slice(0, 80), style.outlineStyle,
                         parseFloat(style.outlineWidth), style.outlineColor]);
}, true);
"""
#: What got the focus, in order, and where the focus is now (-1: on none of the stops).
REACHED = "return [window.__reached, window.__stops.indexOf(document.activeElement)];"


def contrast(color: str, against: tuple[int, int, int] = (255, 255, 255)) -> float:
    """WCAG 2.1 contrast ratio of an ``rgb(r, g, b)`` colour against another (white)."""
    inside = color[color.index("(") + 1 : color.index(")")]
    channels = [int(part) for part in inside.split(",")[:3]]

    def luminance(rgb: Sequence[int]) -> float:
        linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    lighter, darker = sorted((luminance(channels), luminance(against)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def test_contrast_is_worked_as_wcag_says() -> None:
    """Known pairs: black on white 21:1, white on white 1:1, the accent #1f5fa8 on white
    about 6.4:1 (by hand: linear 0.0137, 0.1144, 0.3916 -> L 0.1130; 1.05 / 0.1630 = 6.44)."""
    assert contrast("rgb(0, 0, 0)") == pytest.approx(21.0)
    assert contrast("rgb(31, 95, 168)") == pytest.approx(6.44, abs=0.01)
    assert contrast("rgb(255, 255, 255)") == pytest.approx(1.0)


def keyboard_problems(driver: Any, name: str) -> list[str]:
    """Tab pressed through the page the browser shows: where it goes out of document order or
    does not leave the page, and each element whose focus outline is not a solid 2 px at 3:1."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    problems: list[str] = []
    stops = driver.execute_script(FOCUSABLE)
    assert stops, name  # every page has at least the site's header
    driver.execute_script(RECORD_FOCUS)
    # Every Tab in one go (one round trip to the browser, not two a Tab).
    ActionChains(driver).send_keys(Keys.TAB * (len(stops) + 1)).perform()
    focused, last = driver.execute_script(REACHED)
    for index, html, style, thickness, color in focused:
        if index >= 0 and (style != "solid" or thickness < 2 or contrast(color) < 3):
            problems.append(f"{name}: {html}: outline {style} {thickness}px {color}")
    # The last Tab leaves the page: no element of it gets the focus.
    reached = [index for index, *_ in focused] + [last]
    expected = [*range(len(stops)), -1]
    if reached != expected:
        step = next(
            (i for i, (a, b) in enumerate(zip(reached, expected, strict=False)) if a != b),
            min(len(reached), len(expected)) - 1,
        )
        went = stops[reached[step]] if reached[step] >= 0 else "(nothing)"
        wanted = stops[expected[step]] if expected[step] >= 0 else "(nothing)"
        problems.append(
            f"{name}: Tab number {step + 1} went to {went}, not {wanted} "
            f"(the focus went to {reached[:-1]}, then {reached[-1]})"
        )
    return problems


#: A page the keyboard check must fault twice: a link without a focus outline, and a field
#: that Tab reaches first (tabindex 1) although it comes last in the document.
KEYBOARD_FAULTY = (
    "<!doctype html><html lang='en'><head><title>faulty</title><style>"
    "a:focus{outline:3px solid #000} #bare:focus{outline:none}</style></head><body><main>"
    "<a id='first' href='/a'>first</a> <a id='bare' href='/b'>bare</a> "
    "<input id='jumper' tabindex='1' aria-label='jumper' style='outline-offset:0'>"
    "</main></body></html>"
)


@pytest.mark.usefixtures("chromium")
def test_the_keyboard_check_finds_faults() -> None:
    """The keyboard check is not vacuous: it names the link without a visible focus and the
    field Tab reaches out of order."""
    driver = chromium_at(1280)
    try:
        driver.get("data:text/html;charset=utf-8," + quote(KEYBOARD_FAULTY))
        problems = keyboard_problems(driver, "faulty")
    finally:
        driver.quit()
    assert any('id="bare"' in line and "outline none" in line for line in problems), problems
    assert any('Tab number 1 went to <input id="jumper"' in line for line in problems), problems


@CORRECTED_ON_SQLITE
@pytest.mark.usefixtures("chromium")
@pytest.mark.parametrize("width", [1280, 390])
def test_every_page_works_from_the_keyboard(corrected_server: str, width: int) -> None:
    """Tab reaches every link and control in document order, one after the other, and leaves
    the last one (no trap); each shows a solid outline of at least 2 px with 3:1 contrast
    against the white page while it has the focus (WCAG 2.1.1, 2.1.2, 2.4.3, 2.4.7, 1.4.11)."""

    driver = chromium_at(width)
    problems: list[str] = []
    try:
        for name, path in PAGES.items():
            driver.get(f"{corrected_server}{path}")
            problems += keyboard_problems(driver, name)
    finally:
        driver.quit()
    assert not problems, f"keyboard problems at {width} px:\n" + "\n".join(problems)
