"""The web pages, read as HTML (the browser test opens them in Chromium): search, latest lists,
a player's charts and calculations; escaped, usable on a phone, no script."""

from __future__ import annotations

from html.parser import HTMLParser

from fastapi.testclient import TestClient


class Parsed(HTMLParser):
    """The tags and the text of a page."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.texts: list[str] = []
        self.feed(html)
        #: The page's text, one line per text node, spaces collapsed.
        self.text = "\n".join(self.texts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(" ".join(data.split()))

    def all(self, tag: str) -> list[dict[str, str | None]]:
        return [attrs for name, attrs in self.tags if name == tag]


def page(client: TestClient, path: str, status: int = 200) -> Parsed:
    response = client.get(path)
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "script-src" not in response.headers["content-security-policy"]
    assert "default-src 'none'" in response.headers["content-security-policy"]
    parsed = Parsed(response.text)
    assert parsed.all("script") == []
    assert {"name": "viewport", "content": "width=device-width, initial-scale=1"} in parsed.all(
        "meta"
    )
    return parsed


def test_home_shows_the_latest_lists(client: TestClient) -> None:
    parsed = page(client, "/")
    (form,) = parsed.all("form")
    assert (form["method"], form["action"]) == ("get", "/")
    # Category names for people (issue 15), not identifiers.
    assert "FIDE standard · 2026-11" in parsed.text
    assert "FFE rapid · 2026-10" in parsed.text
    links = [a["href"] for a in parsed.all("a")]
    assert "/players/1006" in links
    # "Full list" leads to the list's page, not to JSON (issue 15).
    assert "/lists/fide-standard/2026-11" in links
    assert "/top/fide-standard" in links
    assert not any(href.startswith("/v1/lists/fide-standard/2026-11") for href in links if href)
    assert parsed.text.index("Max, M") < parsed.text.index("Anna, A")
    assert "new" not in parsed.texts  # no first rating on these lists (ffe-rapid: imported)


def test_home_searches_players(client: TestClient) -> None:
    parsed = page(client, "/?q=nina")
    assert "Players matching “nina”" in parsed.text
    assert "/players/1007" in [a["href"] for a in parsed.all("a")]
    assert (
        "No player found. Try the start of the name or of one of its words, or the start of "
        "the id." in page(client, "/?q=zzz").text
    )
    # Each player with their rating on each category's latest list, like FIDE's search:
    # Anna on the fide-standard (2026-11) and ffe-rapid (2026-10) lists, Olga on none.
    found = page(client, "/?q=%C3%A0NNA")  # "àNNA": accents and case ignored
    assert "stack found" in [t.get("class") for t in found.all("table")]
    headers = "Player\nTitle\nFed\nPlayer id\nFIDE standard\nFIDE rapid\nFIDE blitz\nFFE rapid"
    assert headers in found.text
    none = "\u2013"  # the dash of an empty cell
    assert f"Anna, A\n{none}\nFRA\n1001\n1866\n{none}\n{none}\n1700" in found.text
    assert f"Olga, O\n{none}\nESP\n1008" + f"\n{none}" * 4 in page(client, "/?q=olga").text
    # Whatever is typed gives a page, escaped.
    hostile = page(client, "/?q=%3Cscript%3Ealert(1)%3C/script%3E&offset=-5")
    assert "Players matching “<script>alert(1)</script>”" in hostile.text
    page(client, "/?offset=abc")


def test_player_page(client: TestClient) -> None:
    parsed = page(client, "/players/1001")
    assert "Anna, A" in parsed.text
    assert [s["id"] for s in parsed.all("section")] == ["fide-standard", "ffe-rapid"]
    svgs = parsed.all("svg")
    assert [s["id"] for s in svgs] == ["chart-fide-standard", "chart-ffe-rapid"]
    assert svgs[0]["role"] == "img"
    # One step (and one point) per published list: four fide-standard lists, one ffe-rapid.
    assert len(parsed.all("circle")) == 4 + 1
    assert "2026-08: 1850" in parsed.text
    assert "2026-11: 1866" in parsed.text
    # The calculations of each period with games, newest first, with K and the rule version.
    tables = [t["class"] for t in parsed.all("table")]
    assert tables.count("calculation stack") == 3
    assert "2026-11 · fide-standard-2025-10 · K 20" in parsed.text
    assert "Sum of deltas 0.19 × K 20 → change" in parsed.text  # noqa: RUF001
    assert "+4" in parsed.text
    # The draw with Nina, unrated then: the reason written out, not only in a tooltip.
    assert "not rated: the opponent was unrated" in parsed.texts
    links = [a["href"] for a in parsed.all("a")]
    assert "#fide-standard-2026-11" in links  # the history links to each calculation
    assert "#fide-standard-2026-08" not in links  # imported: nothing to explain
    assert {"class": "calculation stack", "id": "fide-standard-2026-11"} in parsed.all("table")


def test_player_page_first_rating_and_pool(client: TestClient) -> None:
    nina = page(client, "/players/1007")
    assert "First rating:" in nina.text
    assert "first" in nina.texts  # the change column of 2026-10
    anna = page(client, "/players/1001")
    assert "first" not in anna.texts  # 2026-08 was imported, not a first rating
    olga = page(client, "/players/1008")
    assert "Not rated on this list yet (games kept for a first rating)." in olga.text
    assert olga.all("svg") == []


def test_unknown_player_page_is_404(client: TestClient) -> None:
    assert "No player 999." in page(client, "/players/999", status=404).text
    assert (
        "'abc' is not a player id (digits only)." in page(client, "/players/abc", status=404).text
    )


def test_stylesheet(client: TestClient) -> None:
    response = client.get("/static/ratingdb.css")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/css")
    assert "@media (max-width" in response.text
