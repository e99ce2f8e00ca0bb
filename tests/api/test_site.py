"""The site's basics (issue 29): the federation's name, logo and contact address as settings,
checked at start and shown on the pages; the favicon, robots.txt and the sitemaps; the feed's
stylesheet; on SQLite and PostgreSQL (the scenario of tests/api/scenario.py).

What the scenario holds, worked from its docstring: eight players (1001 Anna to 1008 Olga,
none merged), five published lists (fide-standard 2026-08 imported, 2026-09, 2026-10 and
2026-11 closed; ffe-rapid 2026-10 imported). The browser's view of the feed is in
tests/api/test_feed_browser.py.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.config import ConfigurationError, Settings
from tests.support.cli import run_cli
from tests.support.sql import query

BASE = "https://ratings.example.org"
NAME = "Fédération ruritanienne des échecs"
EMAIL = "ratings@chess.example.org"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
ATOM = "{http://www.w3.org/2005/Atom}"
XSL = "{http://www.w3.org/1999/XSL/Transform}"
#: A 1x1 PNG (signature, IHDR, IDAT, IEND).
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2e3a2"
    "b10000000049454e44ae426082"
)
PLAYERS = [f"100{n}" for n in range(1, 9)]
LISTS = ["fide-standard/2026-08", "fide-standard/2026-09", "fide-standard/2026-10",
         "fide-standard/2026-11", "ffe-rapid/2026-10"]  # fmt: skip


def site_client(url: str, page_size: int = 50_000, **settings: str) -> TestClient:
    return TestClient(
        create_app(
            Settings(database_url=url, read_database_url=url, **settings),
            sitemap_page_size=page_size,
        )
    )


@pytest.fixture
def logo(tmp_path: Path) -> Path:
    path = tmp_path / "logo.png"
    path.write_bytes(PNG)
    return path


@pytest.fixture
def federation(scenario_url: str, logo: Path) -> Iterator[TestClient]:
    """The scenario served with every site setting, three players a sitemap."""
    with site_client(
        scenario_url, 3, public_base_url=BASE, federation_name=NAME,
        federation_logo=str(logo), contact_email=EMAIL,
    ) as client:  # fmt: skip
        yield client


# --- the settings -------------------------------------------------------------------------------


def test_the_site_settings_are_read_from_their_variables(logo: Path) -> None:
    settings = Settings.from_env(
        {"RATINGDB_FEDERATION_NAME": f"  {NAME} ", "RATINGDB_CONTACT_EMAIL": f" {EMAIL}",
         "RATINGDB_FEDERATION_LOGO": str(logo)}
    )  # fmt: skip
    assert (settings.federation_name, settings.contact_email) == (NAME, EMAIL)
    assert settings.federation_logo == str(logo)
    unset = Settings.from_env({})
    assert (unset.federation_name, unset.federation_logo, unset.contact_email) == (None,) * 3
    # serve --workers N hands them on through the environment.
    assert Settings.from_env({k: v for k, v in settings.environment().items() if v}) == settings


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("RATINGDB_CONTACT_EMAIL", "ratings", "not an e-mail address: 'ratings'"),
        ("RATINGDB_CONTACT_EMAIL", "a@b", "not an e-mail address"),
        ("RATINGDB_CONTACT_EMAIL", "a b@chess.org", "not an e-mail address"),
        ("RATINGDB_CONTACT_EMAIL", "a@chess.org, b@chess.org", "not an e-mail address"),
        ("RATINGDB_CONTACT_EMAIL", "a..b@chess.org", "not an e-mail address"),
        ("RATINGDB_CONTACT_EMAIL", "{a}@chess.org", "not an e-mail address"),
        ("RATINGDB_CONTACT_EMAIL", "a" * 250 + "@b.org", "at most 254 characters, got 256"),
        ("RATINGDB_FEDERATION_NAME", "x" * 101, "at most 100 characters, got 101"),
        ("RATINGDB_FEDERATION_NAME", "Chess\u202eClub", "control characters"),
        ("RATINGDB_FEDERATION_LOGO", "https://chess.org/logo.png", "not an address"),
        ("RATINGDB_FEDERATION_LOGO", "/srv/logo.gif", "must be a .jpeg, .jpg, .png, .svg, .webp"),
    ],
)
def test_an_unusable_setting_is_refused_naming_it(variable: str, value: str, says: str) -> None:
    with pytest.raises(ConfigurationError) as raised:
        Settings.from_env({variable: value})
    assert str(raised.value).startswith(f"{variable}: "), raised.value
    assert says in str(raised.value)


def test_serve_refuses_a_bad_address_at_start(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, scenario_url: str
) -> None:
    monkeypatch.setenv("RATINGDB_CONTACT_EMAIL", "ratings at chess.org")
    done = run_cli(capsys, "serve", url=scenario_url)
    assert done.code == 1
    assert done.err.strip().endswith(
        "RATINGDB_CONTACT_EMAIL: not an e-mail address: 'ratings at chess.org' (one address, "
        "such as ratings@federation.org)"
    ), done.err


@pytest.mark.parametrize(
    ("file_name", "content", "says"),
    [
        ("missing.png", None, "cannot read {path}: No such file or directory"),
        ("empty.png", b"", "{path} is empty"),
        ("fake.png", b"GIF89a....", "{path} is not a image/png image"),
        ("fake.svg", b"<html></html>", "{path} is not a image/svg+xml image"),
        ("big.png", PNG + bytes(512 * 1024), "{path} is larger than 512 KiB"),
    ],
)
def test_a_logo_that_cannot_be_shown_stops_the_app(
    scenario_url: str, tmp_path: Path, file_name: str, content: bytes | None, says: str
) -> None:
    path = tmp_path / file_name
    if content is not None:
        path.write_bytes(content)
    settings = Settings(scenario_url, scenario_url, federation_logo=str(path))
    with pytest.raises(ConfigurationError) as raised:
        create_app(settings)
    assert str(raised.value) == f"RATINGDB_FEDERATION_LOGO: {says.format(path=path)}"


def test_serve_refuses_a_missing_logo_at_start(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, scenario_url: str,
    tmp_path: Path,
) -> None:  # fmt: skip
    monkeypatch.setenv("RATINGDB_FEDERATION_LOGO", str(tmp_path / "logo.svg"))
    done = run_cli(capsys, "serve", url=scenario_url)
    assert done.code == 1
    assert "RATINGDB_FEDERATION_LOGO: cannot read" in done.err, done.err


# --- the pages ----------------------------------------------------------------------------------


def test_every_page_names_the_federation_and_where_to_report(federation: TestClient) -> None:
    mailto = f"mailto:{EMAIL}?subject="
    for path in ("/", "/lists", "/lists/fide-standard/2026-11", "/top/fide-standard",
                 "/calculator", "/no-such-page"):  # fmt: skip
        page = federation.get(path).text
        assert re.search(rf"<title>([^<]* · )?{re.escape(NAME)}</title>", page), path
        assert f'<img class="logo" src="/federation-logo" alt="">{NAME}</a>' in page, path
        subject = quote(f"{NAME}: {path}", safe="")
        assert f'<a href="{mailto}{subject}">{EMAIL}</a>' in page, path
    player = federation.get("/players/1001").text
    assert f"<title>Anna, A · {NAME}</title>" in player
    subject = quote(f"{NAME}: Anna, A (1001)", safe="")
    assert f'Please report it: <a href="{mailto}{subject}">{EMAIL}</a>' in player


def test_in_french_too(federation: TestClient) -> None:
    page = federation.get("/players/1001?lang=fr").text
    assert "Une erreur dans cette fiche ? Merci de la signaler :" in page
    assert "Une erreur ? Merci de la signaler :" in federation.get("/?lang=fr").text


def test_without_the_settings_the_pages_say_ratingdb(client: TestClient) -> None:
    page = client.get("/players/1001").text
    assert "<title>Anna, A · ratingdb</title>" in page
    assert '<a class="brand" href="/">ratingdb</a>' in page
    assert "mailto:" not in page
    assert "federation-logo" not in page
    assert client.get("/federation-logo").status_code == 404


def test_the_logo_is_served_as_read_at_start(federation: TestClient) -> None:
    answer = federation.get("/federation-logo")
    assert answer.status_code == 200
    assert answer.content == PNG
    assert answer.headers["content-type"] == "image/png"
    assert "sandbox" in answer.headers["content-security-policy"]


def test_the_favicon(client: TestClient) -> None:
    answer = client.get("/favicon.ico")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/vnd.microsoft.icon"
    # ICO: reserved 0, type 1 (icon), one image of 32 x 32 at 32 bits, a PNG at offset 22.
    reserved, kind, count = struct.unpack("<HHH", answer.content[:6])
    width, height, _, _, _, bits, size, offset = struct.unpack("<BBBBHHII", answer.content[6:22])
    assert (reserved, kind, count, width, height, bits, offset) == (0, 1, 1, 32, 32, 32, 22)
    assert answer.content[offset:].startswith(b"\x89PNG\r\n\x1a\n")
    assert len(answer.content) == offset + size
    page = client.get("/").text
    assert '<link rel="icon" href="/favicon.ico" sizes="32x32">' in page
    svg = client.get("/static/favicon.svg")
    assert svg.status_code == 200
    assert ElementTree.fromstring(svg.content).tag == "{http://www.w3.org/2000/svg}svg"


# --- robots.txt and the sitemaps ----------------------------------------------------------------


def test_robots_txt_names_the_sitemap(federation: TestClient, client: TestClient) -> None:
    answer = federation.get("/robots.txt")
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    lines = answer.text.splitlines()
    assert lines[0] == "User-agent: *"
    assert "Disallow: /v1/" in lines
    assert "Allow: /" in lines
    assert lines[-1] == f"Sitemap: {BASE}/sitemap.xml"
    # Without a public address: no sitemap to name (it would have to be absolute).
    assert "Sitemap" not in client.get("/robots.txt").text


def sitemap(client: TestClient, path: str, root: str) -> list[str]:
    answer = client.get(path)
    assert answer.status_code == 200, (path, answer.text)
    assert answer.headers["content-type"] == "application/xml"
    document = ElementTree.fromstring(answer.content)
    assert document.tag == f"{SITEMAP}{root}"
    return [element.text or "" for element in document.iter(f"{SITEMAP}loc")]


def test_the_sitemaps_name_every_list_and_every_player(
    federation: TestClient, scenario_url: str
) -> None:
    # Eight players, three a page: three pages (3 + 3 + 2).
    assert sitemap(federation, "/sitemap.xml", "sitemapindex") == [
        f"{BASE}/sitemaps/lists.xml", f"{BASE}/sitemaps/players-1.xml",
        f"{BASE}/sitemaps/players-2.xml", f"{BASE}/sitemaps/players-3.xml",
    ]  # fmt: skip
    pages = [sitemap(federation, f"/sitemaps/players-{n}.xml", "urlset") for n in (1, 2, 3)]
    assert [len(page) for page in pages] == [3, 3, 2]
    assert [url for page in pages for url in page] == [f"{BASE}/players/{p}" for p in PLAYERS]
    # The same players as the database holds, unmerged.
    held = query(scenario_url, "SELECT player_id FROM players WHERE merged_into IS NULL")
    assert sorted(row[0] for row in held) == PLAYERS
    assert federation.get("/sitemaps/players-4.xml").status_code == 404
    for junk in ("0", "01", "x", "-1", "9" * 12):
        assert federation.get(f"/sitemaps/players-{junk}.xml").status_code == 404, junk
    lists = sitemap(federation, "/sitemaps/lists.xml", "urlset")
    assert lists[:3] == [f"{BASE}/", f"{BASE}/lists", f"{BASE}/calculator"]
    assert sorted(lists[3:5]) == [f"{BASE}/top/ffe-rapid", f"{BASE}/top/fide-standard"]
    assert sorted(lists[5:]) == sorted(f"{BASE}/lists/{name}" for name in LISTS)
    # Every address answers a page.
    for url in lists + [url for page in pages for url in page]:
        assert federation.get(url.removeprefix(BASE) or "/").status_code == 200, url


def test_each_list_carries_the_date_of_its_latest_revision(federation: TestClient) -> None:
    document = ElementTree.fromstring(federation.get("/sitemaps/lists.xml").content)
    dated = [url for url in document if url.find(f"{SITEMAP}lastmod") is not None]
    assert len(dated) == len(LISTS)
    for url in dated:
        assert len(url.findtext(f"{SITEMAP}lastmod") or "") == len("2026-11-28")


def test_without_a_public_address_there_is_no_sitemap(client: TestClient) -> None:
    for path in ("/sitemap.xml", "/sitemaps/lists.xml", "/sitemaps/players-1.xml"):
        answer = client.get(path)
        assert answer.status_code == 404
        assert "RATINGDB_PUBLIC_BASE_URL is not set" in answer.text


# --- the feed and its stylesheet ----------------------------------------------------------------


def test_the_feed_names_its_stylesheet(federation: TestClient) -> None:
    answer = federation.get("/feeds/lists.atom")
    assert answer.headers["content-type"] == "application/atom+xml"
    # Accept: the content type depends on it; Accept-Encoding: gzip (api/compression.py).
    assert answer.headers["vary"] == "Accept, Accept-Encoding"
    head = answer.text.splitlines()[:2]
    assert head == [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<?xml-stylesheet type="text/xsl" href="/feeds/lists.xsl"?>',
    ]
    feed = ElementTree.fromstring(answer.content)
    assert feed.findtext(f"{ATOM}title") == f"{NAME}: published rating lists"
    assert feed.findtext(f"{ATOM}author/{ATOM}name") == NAME
    assert feed.findtext(f"{ATOM}author/{ATOM}email") == EMAIL
    assert feed.findtext(f"{ATOM}logo") == f"{BASE}/federation-logo"
    # A browser (HTML first) gets the same document as XML, which it renders with the
    # stylesheet; a feed reader that names Atom gets Atom.
    browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    for accept, kind in ((browser, "application/xml"), ("*/*", "application/atom+xml"),
                         ("application/atom+xml, text/html", "application/atom+xml")):  # fmt: skip
        again = federation.get("/feeds/lists.atom", headers={"Accept": accept})
        assert again.headers["content-type"] == kind, accept
        assert again.content == answer.content


def test_the_stylesheet_is_xslt_in_the_readers_language(federation: TestClient) -> None:
    answer = federation.get("/feeds/lists.xsl", headers={"Accept-Language": "fr"})
    assert answer.headers["content-type"] == "application/xslt+xml"
    assert answer.headers["content-language"] == "fr"
    stylesheet = ElementTree.fromstring(answer.content)
    assert stylesheet.tag == f"{XSL}stylesheet"
    assert stylesheet.get("version") == "1.0"
    text = answer.text
    assert "<script" not in text
    assert "Flux des listes publiées" in text
    assert NAME in text
    assert f'href="mailto:{EMAIL}"' in text


# --- the list files -----------------------------------------------------------------------------


def test_the_list_csv_ends_with_change_and_games(client: TestClient) -> None:
    answer = client.get("/v1/lists/fide-standard/2026-11/download?format=csv")
    lines = answer.text.splitlines()
    assert lines[0] == ("player_id,name,federation,sex,birth_year,title,rating,rated_games,"
                        "peak_rating,k_factor,active,change,games")  # fmt: skip
    rows = {line.split(",")[0]: line for line in lines[1:]}
    # 2026-11: Anna 1862 -> 1866 from two games (+4), her 60 imported games + 1 in 2026-09
    # + 2; Max drew with Anna, -0.42 x K 10 -> -4; Nina lost to Jo, -30.
    assert rows["1001"].endswith(",1866,63,1866,20,1,4,2")
    assert rows["1006"].split(",")[-2:] == ["-4", "1"]
    assert rows["1007"].split(",")[-2:] == ["-30", "1"]


def test_the_list_json_carries_sex_title_and_birth_year(client: TestClient) -> None:
    entries = client.get("/v1/lists/fide-standard/2026-11/download?format=json").json()["entries"]
    by_id = {entry["player_id"]: entry for entry in entries}
    assert {k: by_id["1006"][k] for k in ("sex", "title", "birth_year")} == {
        "sex": "M", "title": "IM", "birth_year": 1995,
    }  # fmt: skip
    assert {k: by_id["1001"][k] for k in ("sex", "title", "birth_year", "change", "games")} == {
        "sex": "F", "title": None, "birth_year": 1990, "change": 4, "games": 2,
    }  # fmt: skip
