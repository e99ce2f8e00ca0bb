"""``/tournaments/{id}`` (issue 15): the crosstable ranked by points then starting rank, the
ratings used, performances and rating changes, games by round with forfeits, in English and
French, on both databases.

The numbers are worked by hand from the scenario (tests/api/scenario.py) and FIDE table 8.1.1
(p -> dp: 1.00 -> 800, .60 -> 72, .50 -> 0, .25 -> -193):

Tournament A (2026-08-10, rated on the 2026-09 list; ratings of the 2026-08 list):
  Max 2450: beats Jo, wins Anna by forfeit (+-)      2 points; Rp 1650 + 800 = 2450
  Bob 1920: loses to Anna, beats Gus                 1;  Rp (1850+1780)/2 + 0 = 1815
  Anna 1850: beats Bob, loses by forfeit             1;  Rp 1920 + 800 = 2720
  Jo 1650: loses to Max, beats Dan                   1;  Rp (2450+2010)/2 + 0 = 2230
  Dan 2010: draws Gus, loses to Jo                   0.5; Rp (1780+1650)/2 - 193 = 1522
  Gus 1780: draws Dan, loses to Bob                  0.5; Rp (2010+1920)/2 - 193 = 1772
  The one-pointers in starting rank (rating) order: Bob 1920, Anna 1850, Jo 1650; then Dan
  2010 before Gus 1780. Changes (K x sum of deltas): Max 10 x .08 = +0.80, Bob 20 x (-.60 +
  .31) = -5.80, Anna 20 x .60 = +12.00, Jo 40 x (-.08 + .90) = +32.80, Dan 20 x (-.29 - .90)
  = -23.80, Gus 20 x (.29 - .31) = -0.40: each rounds to the change on the 2026-09 list (A is
  everyone's only event there).
Tournament B: Nina, unrated, 3/5 against 1862, 1914, 1780, 1986, 1683: Ra 1845, p .60 -> Rp
  1917; her first rating 1882 on the 2026-10 list.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from pathlib import Path

from fastapi.testclient import TestClient

from ratingdb.cli import main
from tests.api.conftest import make_client
from tests.api.scenario import FIDE_BASELINE, SEPTEMBER, TOURNAMENTS, A
from tests.api.test_pages import page

DASH = "\u2013"


class Tables(HTMLParser):
    """Each table's rows, as the text of their cells, by the table's first class; a player's
    title and federation (``<small class="who">``) left out."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.current: str | None = None
        self.cell: list[str] | None = None
        self.who = False
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.current = (dict(attrs).get("class") or "").split()[0]
            self.tables.setdefault(self.current, [])
        elif tag == "tr" and self.current is not None:
            self.tables[self.current].append([])
        elif tag in ("td", "th") and self.current is not None:
            self.cell = []
        elif tag == "small" and dict(attrs).get("class") == "who":
            self.who = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "small":
            self.who = False
        if tag in ("td", "th") and self.current is not None and self.cell is not None:
            self.tables[self.current][-1].append(" ".join(" ".join(self.cell).split()))
            self.cell = None
        elif tag == "table":
            self.current = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None and not self.who:
            self.cell.append(data)


def crosstable(client: TestClient, path: str) -> list[list[str]]:
    page(client, path)
    rows = Tables(client.get(path).text).tables["crosstable"]
    return rows[1:]  # past the header


def test_crosstable_ranked_by_points_then_starting_rank(client: TestClient) -> None:
    rows = crosstable(client, f"/tournaments/{TOURNAMENTS['A']}")
    # rank, player, rating used, R1, R2, points, performance, change
    assert [(r[0], r[1], r[2], r[5], r[6]) for r in rows] == [
        ("1", "Max, M", "2450", "2.0 / 2", "2450"),
        ("2", "Bob, B", "1920", "1.0 / 2", "1815"),
        ("3", "Anna, A", "1850", "1.0 / 2", "2720"),
        ("4", "Jo, J", "1650", "1.0 / 2", "2230"),
        ("5", "Dan, D", "2010", "0.5 / 2", "1522"),
        ("6", "Gus, G", "1780", "0.5 / 2", "1772"),
    ]
    changes = {r[1]: r[7] for r in rows}
    assert changes == {
        "Max, M": "+0.80 (K 10)",
        "Bob, B": "-5.80 (K 20)",
        "Anna, A": "+12.00 (K 20)",
        "Jo, J": "+32.80 (K 40)",
        "Dan, D": "-23.80 (K 20)",
        "Gus, G": "-0.40 (K 20)",
    }
    # A is each player's only event of 2026-09: the change rounds to the list's.
    names = {"1006": "Max, M", "1002": "Bob, B", "1001": "Anna, A", "1005": "Jo, J",
             "1004": "Dan, D", "1003": "Gus, G"}  # fmt: skip
    for player_id, _, _, change, _, _ in SEPTEMBER:
        exact = Decimal(changes[names[player_id]].split()[0])
        assert int(exact.quantize(Decimal(1), ROUND_HALF_UP)) == change
    # Each player's title and federation on the tournament's first day, after the name.
    text = client.get(f"/tournaments/{TOURNAMENTS['A']}").text
    assert '">Max, M</a> <small class="who">IM NOR</small></th>' in text
    assert '">Bob, B</a> <small class="who">FRA</small></th>' in text
    # Rounds: points, colour, opponent's rank; Max's forfeit win over Anna (rank 3), her loss.
    assert (rows[0][3], rows[0][4]) == ("1 b4", "1F w3")
    assert (rows[2][3], rows[2][4]) == ("1 w2", "0F b1")


def test_first_rating_and_unrated_opponents(client: TestClient) -> None:
    rows = {r[1]: r for r in crosstable(client, f"/tournaments/{TOURNAMENTS['B']}")}
    nina = rows["Nina, N"]
    assert (nina[0], nina[2], nina[-3], nina[-2]) == ("1", "unrated", "3.0 / 5", "1917")
    assert nina[-1] == "first rating 1882"
    assert rows["Anna, A"][-1] == "no rated game"  # her only game: against unrated Nina
    assert rows["Anna, A"][-2] == DASH


def test_games_by_round_forfeits_and_links(client: TestClient) -> None:
    parsed = page(client, f"/tournaments/{TOURNAMENTS['A']}")
    rows = Tables(client.get(f"/tournaments/{TOURNAMENTS['A']}").text).tables["games-round"]
    games = [r for r in rows if r and r[0] != "White"]
    assert games[-1] == ["Max, M (1)", f"1{DASH}0 forfeit", "Anna, A (3)"]
    assert ["Anna, A (3)", f"1{DASH}0", "Bob, B (2)"] in games
    links = [a["href"] for a in parsed.all("a")]
    assert {"/players/1006", "/players/1001", "/players/1001#fide-standard-2026-09"} <= set(links)
    # The player page links each game's tournament to this page.
    player = page(client, "/players/1001")
    assert f"/tournaments/{TOURNAMENTS['A']}" in [a["href"] for a in player.all("a")]


def test_french(client: TestClient) -> None:
    parsed = page(client, f"/tournaments/{TOURNAMENTS['A']}?lang=fr")
    assert "Grille américaine" in parsed.text
    assert "Ronde 2" in parsed.texts
    rows = crosstable(client, f"/tournaments/{TOURNAMENTS['A']}?lang=fr")
    assert rows[0][-1] == "+0,80 (K 10)"
    assert rows[0][4] == "1F b3"  # b: blancs
    assert f"1{DASH}0 par forfait" in parsed.texts
    assert "/players/1006?lang=fr" in [a["href"] for a in parsed.all("a")]


def test_unknown_tournament_is_an_html_404(client: TestClient) -> None:
    parsed = page(client, "/tournaments/T999999", status=404)
    assert "No tournament T999999." in parsed.texts
    assert client.get("/v1/tournaments/T999999").json() == {"detail": "no tournament T999999"}
    page(client, "/tournaments/" + "T" * 41, status=404)


def test_not_yet_rated(database_url: str, tmp_path: Path) -> None:
    """Before its period is closed: the ratings of the list in force at the start, and no
    change yet."""
    (tmp_path / "fide.csv").write_text(FIDE_BASELINE, encoding="utf-8")
    (tmp_path / "A.csv").write_text(A, encoding="utf-8")
    for args in (
        ["lists", "import", str(tmp_path / "fide.csv"), "--category", "fide-standard",
         "--period", "2026-08"],
        ["tournaments", "import", str(tmp_path / "A.csv"), "--category", "fide-standard"],
    ):  # fmt: skip
        assert main([*args, "--database-url", database_url]) == 0
    with make_client(database_url) as client:
        parsed = page(client, "/tournaments/T000001")
        assert "the FIDE standard list of 2026-09 is not published yet." in parsed.text
        rows = crosstable(client, "/tournaments/T000001")
        assert [(r[1], r[2], r[6], r[7]) for r in rows] == [
            ("Max, M", "2450", "2450", "not yet rated"),
            ("Bob, B", "1920", "1815", "not yet rated"),
            ("Anna, A", "1850", "2720", "not yet rated"),
            ("Jo, J", "1650", "2230", "not yet rated"),
            ("Dan, D", "2010", "1522", "not yet rated"),
            ("Gus, G", "1780", "1772", "not yet rated"),
        ]
