"""The calculator page ``/calculator`` (issue 15), on both databases (the app reads none for it,
but starts on each): the worked examples of the seeds (/work/shared/seeds/, French) come out of
the page with the numbers the seeds print, and the form's refusals are written next to their
fields with status 422.

The seeds print rounded numbers (0,57 for 0.5715, +8,6 for +8.57): the page shows every digit,
so each of its numbers is compared at the precision the seed prints it; totals and ratings are
compared exactly. Every expected number is also worked by hand in the comments (FIDE table
8.1.2 as seed 002 prints it; the formula 1 / (1 + 10^(-D/400)) worked with ln 10 = 2.302585).
"""

from __future__ import annotations

from decimal import Decimal
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

from fastapi.testclient import TestClient

from tests.api.test_pages import page


class Calculator(HTMLParser):
    """The page's answer: the cells of each game (by class) and the summary (by id), and the
    form's errors (by field)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.rows: list[dict[str, str]] = []
        self.summary: dict[str, str] = {}
        self.errors: dict[str, str] = {}
        self.invalid: list[str] = []
        self._cell: tuple[str, dict[str, str]] | None = None
        self._text: list[str] = []
        self._in_body = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if found.get("aria-invalid") == "true":
            self.invalid.append(found.get("id", "") or found.get("name", ""))
        if tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self.rows.append({})
        elif tag == "td" and self._in_body:
            classes = found.get("class", "").split()
            self._cell = ("td", {"name": classes[-1] if classes else ""})
            self._text = []
        elif tag == "dd" and found.get("id"):
            self._cell = ("dd", {"name": found["id"]})
            self._text = []
        elif tag == "p" and found.get("class") == "error" and found.get("id"):
            self._cell = ("p", {"name": found["id"].removesuffix("-error")})
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False
        if self._cell is None or tag != self._cell[0]:
            return
        text = " ".join("".join(self._text).split())
        name = self._cell[1]["name"]
        if tag == "td":
            self.rows[-1][name] = text
        elif tag == "dd":
            self.summary[name] = text
        else:
            self.errors[name] = text
        self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._text.append(data)

    def column(self, name: str) -> list[str]:
        return [row[name] for row in self.rows]


def number(text: str) -> Decimal:
    """A number as the page writes it, in English or French (``+0,4285``, ``-5.50``)."""
    return Decimal(text.split()[0].replace("\u202f", "").replace(",", ".").replace("+", ""))


def at_precision_of(printed: str, shown: str) -> bool:
    """The page's number ``shown``, rounded as the seed ``printed`` it, is the seed's."""
    seed = number(printed.replace("\u2212", "-"))
    return number(shown).quantize(seed) == seed


def calculate(client: TestClient, status: int = 200, **query: str) -> Calculator:
    parsed = page(client, f"/calculator?{urlencode(query)}", status=status)
    response = client.get(f"/calculator?{urlencode(query)}")
    assert "Traceback" not in response.text
    assert parsed.all("form")[-1]["action"] == "/calculator"
    return Calculator(response.text)


# --- Seed 002: the 1848 player of March 2009 --------------------------------------------------
#
# "Je suis un joueur classé à 1848 ... j'ai joué moins de 30 parties" (K 25, quarterly lists
# and the 350-point rule before July 2009: period 2009-04). The seed prints, per game,
# Evolution 0.24, -0.22, 0.72, 0.23, -0.22, 0.17 with Coef. 25 and K*Evolution 6, -5.5, 18,
# 5.75, -5.5, 4.25, and "La somme de chaque variation donne le Elo définitif":
# 6 - 5.5 + 18 + 5.75 - 5.5 + 4.25 = 23 -> 1848 + 23 = 1871.
# Our side of the table: 2035 D -187 (180-188) .26; 2071 D -223 (216-225) .22; 2015 D -167
# (163-170) .28; 2024 D -176 (171-179) .27; 2067 D -219 .22; 1571 D +277 (268-278) .83.

SEED_002: dict[str, Any] = {
    "category": "fide-standard",
    "period": "2009-04",
    "rating": "1848",
    "games": "2035:0.5,2071:0,2015:1,2024:0.5,2067:0,1571:1",
}


def test_seed_002_with_k_25(client: TestClient) -> None:
    out = calculate(client, **SEED_002, k="25", lang="fr")
    assert out.column("opponent") == ["2035", "2071", "2015", "2024", "2067", "1571"]
    assert [number(t) for t in out.column("difference")] == [-187, -223, -167, -176, -219, 277]
    assert out.column("expected") == ["0,26", "0,22", "0,28", "0,27", "0,22", "0,83"]
    for printed, shown in zip(
        ["0.24", "-0.22", "0.72", "0.23", "-0.22", "0.17"], out.column("delta"), strict=True
    ):
        assert at_precision_of(printed, shown)
    assert out.column("k") == ["25"] * 6
    for printed, shown in zip(
        ["6", "-5.5", "18", "5.75", "-5.5", "4.25"], out.column("change"), strict=True
    ):
        assert number(shown) == Decimal(printed)
    assert number(out.summary["sum-delta"]) == Decimal("0.92")
    assert out.summary["change"].startswith("+23")
    assert out.summary["new-rating"] == "1848 → 1871"


def test_seed_002_with_k_from_fewer_than_30_games(client: TestClient) -> None:
    # "j'ai joué moins de 30 parties depuis que j'ai obtenu mon classement": K 25 from the status.
    out = calculate(client, **SEED_002, rated_games="12")
    assert out.column("k") == ["25"] * 6
    assert out.column("change") == ["+6.00", "-5.50", "+18.00", "+5.75", "-5.50", "+4.25"]
    assert out.summary["new-rating"] == "1848 → 1871"


# --- Seed 003: "Comment marche l'Elo rapide", 1500 (K 20), three games --------------------------
#
# | 1450 | 1 | 0,57 | +8,6 |  E = 1 / (1 + 10^-0.125) = 1 / 1.749894 = 0.5715; 20 x 0.4285 = 8.57
# | 1620 | ½ | 0,33 | +3,3 |  E = 1 / (1 + 10^0.3) = 1 / 2.995262 = 0.3339; 20 x 0.1661 = 3.322
# | 1580 | 0 | 0,39 | -7,7 |  E = 1 / (1 + 10^0.2) = 1 / 2.584893 = 0.3869; 20 x -0.3869 = -7.738
# "Total : environ +4 points, soit un nouveau classement de 1504": 20 x 0.2077 = 4.154 -> +4.

SEED_003: dict[str, Any] = {
    "category": "ffe-rapid",
    "period": "2027-04",  # "Rapide Avril 2027"
    "rating": "1500",
    "k": "20",
    "games": "1450:1,1620:0.5,1580:0",
}


def test_seed_003_ffe_rapid(client: TestClient) -> None:
    out = calculate(client, **SEED_003, lang="fr")
    for printed, shown in zip(["0,57", "0,33", "0,39"], out.column("expected"), strict=True):
        assert at_precision_of(printed.replace(",", "."), shown)
    assert out.column("expected") == ["0,5715", "0,3339", "0,3869"]
    for printed, shown in zip(["+8.6", "+3.3", "\u22127.7"], out.column("change"), strict=True):
        assert at_precision_of(printed, shown)
    assert out.summary["change"].startswith("+4")
    assert out.summary["new-rating"] == "1500 → 1504"


def test_seed_003_in_english_writes_the_same_numbers_the_english_way(client: TestClient) -> None:
    out = calculate(client, **SEED_003)
    assert out.column("expected") == ["0.5715", "0.3339", "0.3869"]
    assert out.column("change") == ["+8.57", "+3.322", "-7.738"]
    assert out.summary["new-rating"] == "1500 → 1504"


# --- Seed 000: the online calculator (formula, "Période" or "À la suite") -----------------------
#
# "À classement égal, E vaut 0,5 ; avec 100 points d'avance environ 0,64, avec 200 environ
# 0,76", "environ 0,91 à 400". Player 2000, K 20, formula:
#   D 0: 0.5; D 100: 1 / (1 + 10^-0.25) = 1 / 1.562341 = 0.6401; D 200: 1 / 1.316228 = 0.7597;
#   D 400: 1 / 1.1 = 0.9091 (not above 400: no cap).
# "Nouvel Elo = ancien Elo + K x (résultat - résultat attendu)": a draw and three wins:
#   0 + 0.3599 + 0.2403 + 0.0909 = 0.6911; 20 x 0.6911 = 13.822 -> +14 -> 2014.
# "À la suite": 2000 draw 2000 -> 0 -> 2000; 2000 vs 1900 W: 20 x 0.3599 = 7.198 -> +7 -> 2007;
#   2007 vs 1800 W: D 207, 10^-0.5175 = 0.303769, 1 / 1.303769 = 0.7670 -> 20 x 0.2330 = 4.66
#   -> +5 -> 2012; 2012 vs 1600 W: D 412 (under 2650: capped to 400) -> 0.9091 -> 1.818 -> +2
#   -> 2014.

SEED_000: dict[str, Any] = {
    "category": "fide-standard",
    "period": "2026-12",
    "rating": "2000",
    "k": "20",
    "expected": "formula",
    "games": "2000:0.5\n1900:1\n1800:1\n1600:1",
}


def test_seed_000_period_mode(client: TestClient) -> None:
    out = calculate(client, **SEED_000, lang="fr")
    for printed, shown in zip(["0,5", "0,64", "0,76", "0,91"], out.column("expected"), strict=True):
        assert at_precision_of(printed.replace(",", "."), shown)
    assert out.column("expected") == ["0,50", "0,6401", "0,7597", "0,9091"]
    assert number(out.summary["sum-delta"]) == Decimal("0.6911")
    assert out.summary["change"].startswith("+14")
    assert out.summary["new-rating"] == "2000 → 2014"


def test_seed_000_sequential_mode(client: TestClient) -> None:
    out = calculate(client, **SEED_000, mode="sequential")
    assert out.column("before") == ["2000", "2000", "2007", "2012"]
    assert out.column("expected") == ["0.50", "0.6401", "0.767", "0.9091"]  # 0.7670
    assert out.column("difference")[3].startswith("+400")  # 412, capped
    assert out.column("change") == ["0", "+7", "+5", "+2"]
    assert out.summary["new-rating"] == "2000 → 2014"


# --- Seed 004: the FIDE-style calculator's instructions ---------------------------------------


def test_seed_004_difference_used_after_the_cap_and_the_2650_exemption(client: TestClient) -> None:
    # "le nombre entre parenthèses est l'écart de classement réellement utilisé après
    # plafonnement": 2000 loses to 1500, D 500 -> 400 used -> table .92 -> -0.92, K 20 -> -18.4
    # -> -18 -> 1982.
    capped = calculate(client, category="fide-standard", period="2026-12", rating="2000",
                       k="20", games="1500:0")  # fmt: skip
    assert capped.column("difference") == ["+400 (+500 capped)"]
    assert capped.column("expected") == ["0.92"]
    assert capped.summary["new-rating"] == "2000 → 1982"
    # "à partir de 2650, l'écart réel est utilisé dans tous les cas": 2700 (K 10: published
    # 2400 or more) beats 2200: D 500 (485-517) .96 -> +0.04 x 10 = 0.4 -> 0 -> 2700.
    exempt = calculate(client, category="fide-standard", period="2026-12", rating="2700",
                       games="2200:1")  # fmt: skip
    assert exempt.column("difference") == ["+500"]
    assert exempt.column("expected") == ["0.96"]
    assert exempt.column("k") == ["10"]
    assert exempt.summary["new-rating"] == "2700 → 2700"


def test_seed_004_half_rounded_away_from_zero_and_performance(client: TestClient) -> None:
    # "arrondi à l'entier, un demi étant arrondi en s'éloignant de zéro": 2400 (K 10) loses to
    # 2590: D -190 (189-197) .25 -> -0.25 x 10 = -2.5 -> -3 -> 2397. Performance: p 0 -> dp
    # -800 -> 2590 - 800 = 1790.
    out = calculate(client, category="fide-standard", period="2026-12", rating="2400",
                    games="2590:0")  # fmt: skip
    assert out.column("expected") == ["0.25"]
    assert out.column("change") == ["-2.50"]
    assert out.summary["change"].startswith("-3")
    assert out.summary["new-rating"] == "2400 → 2397"
    assert out.summary["performance"] == "1790"


def test_seed_004_k_rules(client: TestClient) -> None:
    # K 40 during the first 30 games; 40 for a junior (until the end of the year of the 18th
    # birthday: born 2008, lists of 2026) under 2300; 10 once 2400 was published, even after
    # dropping; otherwise 20. One win against an equal opponent: .50 -> +0.5 x K.
    base: dict[str, Any] = {"category": "fide-standard", "period": "2026-12", "games": "1900:1"}
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"rating": "1900", "rated_games": "12"}, "40", "1900 → 1920"),
        ({"rating": "1900", "rated_games": "200", "birth_year": "2008"}, "40", "1900 → 1920"),
        ({"rating": "1900", "rated_games": "200", "peak_rating": "2410"}, "10", "1900 → 1905"),
        ({"rating": "1900", "rated_games": "200", "birth_year": "1990"}, "20", "1900 → 1910"),
    ]
    for status, k, new in cases:
        out = calculate(client, **base, **status)
        assert out.column("k") == [k], status
        assert out.summary["new-rating"] == new, status


def test_seed_004_rapid_and_blitz_use_the_same_arithmetic(client: TestClient) -> None:
    # "Les règlements rapide et blitz utilisent la même table de probabilité et les mêmes règles
    # de K": 1900 (K 20) draws 1800: D 100 (99-106) .64 -> -0.14 x 20 = -2.8 -> -3.
    for category in ("fide-standard", "fide-rapid", "fide-blitz"):
        out = calculate(client, category=category, period="2026-12", rating="1900",
                        rated_games="100", games="1800:0.5")  # fmt: skip
        assert out.column("expected") == ["0.64"], category
        assert out.summary["new-rating"] == "1900 → 1897", category


# --- What else the page does -------------------------------------------------------------------


def test_the_form_alone(client: TestClient) -> None:
    parsed = page(client, "/calculator")
    (_search, form) = parsed.all("form")
    assert (form["method"], form["action"]) == ("get", "/calculator")
    options = [o["value"] for o in parsed.all("option")]
    assert options == ["fide-standard", "fide-rapid", "fide-blitz", "ffe-rapid"]
    names = ["FIDE standard", "FIDE rapid", "FIDE blitz", "FFE rapid"]
    assert [text for text in parsed.texts if text in names] == names
    assert "Rules in force: fide-standard-2025-10 (from October 1, 2025)." in parsed.text
    assert "Result" not in parsed.texts
    # Linked from every page's navigation.
    assert "/calculator" in [a["href"] for a in page(client, "/").all("a")]


def test_the_rules_in_force_in_french(client: TestClient) -> None:
    parsed = page(client, "/calculator?period=2012-03&category=fide-rapid&lang=fr")
    assert "Règles en vigueur : fide-rapid-2012-01 (depuis le 1er janvier 2012)." in parsed.text


def test_2022_sequential_caps_once_per_event_on_the_page(client: TestClient) -> None:
    # fide-standard-2022-01: 2000 (K 20) beats 1500 and 1550. The widest game (D 500) is capped:
    # 400 -> .92 -> 1.6 -> +2 -> 2002; then 2002 vs 1550: D 452 (433-456) .94 -> 1.2 -> +1 ->
    # 2003.
    out = calculate(client, category="fide-standard", period="2023-01", rating="2000", k="20",
                    games="1500:1,1550:1", mode="sequential")  # fmt: skip
    assert out.column("before") == ["2000", "2002"]
    assert out.column("difference") == ["+400 (+500 capped)", "+452"]
    assert out.column("change") == ["+2", "+1"]
    assert out.summary["new-rating"] == "2000 → 2003"


def test_first_rating_when_the_rating_is_empty(client: TestClient) -> None:
    # 2024 method: Ra = (1800 + 1900 + 1700 + 1750 + 1650 + 2 x 1800) / 7 = 12400 / 7 = 1771.43;
    # p = (3 + 1) / 7 = 0.571 -> .57 -> dp +50 (table 8.1.1); Ru = 1821.43 -> 1821.
    out = calculate(client, category="fide-standard", period="2026-12",
                    games="1800:1\n1900:0.5\n1700:0,5\n1750:1\n1650:0")  # fmt: skip
    assert out.summary["initial-games"] == "5"
    assert out.summary["initial-points"] == "3"
    assert out.summary["initial-average"] == "(8800 + 2 × 1800) / 7 = 1771.43"  # noqa: RUF001
    assert out.summary["initial-p"] == "(3 + 1) / 7 = 0.57"
    assert out.summary["initial-dp"] == "+50"
    assert out.summary["initial-unrounded"] == "1821.43"
    assert out.summary["first-rating"] == "1821 (rounded half up)"
    french = calculate(client, category="fide-standard", period="2026-12", lang="fr",
                       games="1800:1\n1900:0.5\n1700:0,5\n1750:1\n1650:0")  # fmt: skip
    assert french.summary["initial-average"] == "(8800 + 2 × 1800) / 7 = 1771,43"  # noqa: RUF001


def test_refusals_next_to_their_fields_with_422(client: TestClient) -> None:
    # The contract's month without a list (issue 15): quarterly lists until 2009-07.
    out = calculate(client, 422, category="fide-standard", period="2009-05", rating="1848",
                    games="2035:0.5")  # fmt: skip
    assert out.errors == {
        "period": "FIDE standard has no list in 2009-05; the lists around it are 2009-04 and "
        "2009-07."
    }
    assert out.invalid == ["period"]
    assert out.rows == []
    bad = calculate(client, 422, category="chess960", period="20-1", rating="abc", k="0",
                    games="1800:1\n1800-1", mode="blitz", expected="guess")  # fmt: skip
    assert set(bad.errors) == {"category", "period", "rating", "k", "games", "mode", "expected"}
    assert bad.errors["games"].startswith("Game 2: write the opponent's rating, a colon")
    assert bad.errors["rating"] == "Enter a whole number from 0 to 4000."
    peak = calculate(client, 422, period="2026-12", rating="2000", peak_rating="1900",
                     games="1800:1")  # fmt: skip
    assert peak.errors == {"peak_rating": "The peak cannot be below the rating (2000)."}
    french = calculate(client, 422, period="2009-05", games="1800:1", lang="fr")
    assert french.errors == {
        "period": "FIDE standard n’a pas de liste en 2009-05 ; les listes voisines sont 2009-04 "  # noqa: RUF001
        "et 2009-07."
    }
    early = calculate(client, 422, period="1999-01", games="1800:1")
    assert early.errors == {"period": "FIDE standard has no rules before January 1, 2000."}


def test_whatever_is_typed_gives_a_page(client: TestClient) -> None:
    queries = [
        "games=%3Cscript%3E",
        "rating=99999999999999999999&games=1800:1",
        "games=" + "1800:1," * 300,
        "period=%00&games=1:1",
        "lang=xx&games=1800:1",
    ]
    for query in queries:
        response = client.get(f"/calculator?{query}")
        assert response.status_code in (200, 422), query
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        assert "<script>" not in response.text


def test_a_first_rating_from_the_standard_rating(client: TestClient) -> None:
    # Rapid 2024-03 (B.02 rapid/blitz §7.2.1): unrated, standard 1850, no rapid games: K 40.
    # D +150 -> .70, -50 -> .43, -150 -> .30 (table 8.1.2); sum (1 - .70) + (.5 - .43) +
    # (0 - .30) = +.07; 40 x .07 = 2.80 -> +3; 1850 + 3 = 1853.
    query = {"category": "fide-rapid", "period": "2024-03", "standard_rating": "1850",
             "rated_games": "0", "games": "1700:1\n1900:0.5\n2000:0"}  # fmt: skip
    out = calculate(client, 200, **query)
    assert out.column("expected") == ["0.70", "0.43", "0.30"]
    assert out.summary["initial-method"] == (
        "the standard rating, as a rated player (FIDE rapid and blitz from March 2024)"
    )
    assert out.summary["initial-standard"] == "1850"
    assert out.summary["sum-delta"] == "+0.07"
    assert out.summary["k-times-sum"] == "40 × +0.07 = +2.80"  # noqa: RUF001
    assert out.summary["change"] == "+3 (rounded once, 0.5 away from zero)"
    assert out.summary["first-rating"] == "1850 + 3 = 1853"
    assert "new-rating" not in out.summary
    french = calculate(client, 200, lang="fr", **query)
    assert french.summary["initial-method"] == (
        "le classement standard, comme un joueur classé (FIDE rapide et blitz depuis mars 2024)"
    )
    assert french.summary["first-rating"] == "1850 + 3 = 1853"
    # Without the standard rating, the same games are pooled: 3 games, 5 needed.
    pooled = calculate(client, 200, **{**query, "standard_rating": ""})
    assert pooled.summary["first-rating"].startswith("none yet: 3 games against rated opponents")


def test_the_older_methods_working(client: TestClient) -> None:
    # Standard 2013-02 (ra_plus_12_5): 1600 to 2000 by 50, 6 points of 9: Ra = 16200 / 9 =
    # 1800.00; 2 x 6 - 9 = 3 half points above 50 % x 12.5 = +37.5; 1837.50 -> 1838 (half up).
    games = "\n".join(f"{1550 + 50 * i}:{1 if i <= 6 else 0}" for i in range(1, 10))
    out = calculate(client, category="fide-standard", period="2013-02", games=games)
    assert out.summary["initial-average"] == "16200 / 9 = 1800.00"
    assert out.summary["initial-bonus"] == "3 half points above 50 % × 12.5 = +37.5"  # noqa: RUF001
    assert out.summary["initial-unrounded"] == "1837.50"
    assert out.summary["first-rating"] == "1838 (rounded half up)"
    french = calculate(client, category="fide-standard", period="2013-02", games=games, lang="fr")
    assert french.summary["initial-bonus"] == (
        "3 demi-points au-dessus de 50 % × 12,5 = +37,5"  # noqa: RUF001
    )
