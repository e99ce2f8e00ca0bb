"""``/docs`` and ``/redoc`` work without internet: every asset they load is served by ratingdb
itself (from ``ratingdb/api/static/docs``), under a Content-Security-Policy allowing scripts
from 'self' only; and every response says ``X-Content-Type-Options: nosniff``."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ratingdb.api import create_app
from ratingdb.config import Settings
from tests.api.test_browser import CHROMEDRIVER, CHROMIUM, FLAGS, chromium  # noqa: F401
from tests.databases import copy_sqlite
from tests.support.browser import ON_SQLITE

STATIC_DOCS = Path(__file__).resolve().parents[2] / "ratingdb" / "api" / "static" / "docs"


class Links(HTMLParser):
    """The URLs a page loads or links to (src and href)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.urls.extend(v for k, v in attrs if k in ("src", "href", "spec-url") and v)


def links(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    return parser.urls


def directives(policy: str) -> dict[str, list[str]]:
    parts = (part.split() for part in policy.split(";") if part.strip())
    return {name: values for name, *values in parts}


@pytest.mark.parametrize(
    ("path", "assets"),
    [
        ("/docs", {
            "/static/docs/swagger-ui/swagger-ui.css": "text/css",
            "/static/docs/swagger-ui/swagger-ui-bundle.js": "javascript",
            "/static/docs/swagger-init.js": "javascript",
            "/static/docs/swagger-ui/favicon-32x32.png": "image/png",
        }),
        ("/redoc", {
            "/static/docs/redoc/redoc.standalone.js": "javascript",
            "/static/docs/swagger-ui/favicon-32x32.png": "image/png",
            "/openapi.json": "application/json",
        }),
    ],
)  # fmt: skip
def test_docs_load_only_local_assets(client: TestClient, path: str, assets: dict[str, str]) -> None:
    page = client.get(path)
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    urls = links(page.text)
    assert set(urls) == set(assets), urls
    assert "<script>" not in page.text  # no inline script
    for url, content_type in assets.items():
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert content_type in answer.headers["content-type"], (url, answer.headers)
        assert answer.headers["x-content-type-options"] == "nosniff", url
    policy = directives(page.headers["content-security-policy"])
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'"]
    for name, sources in policy.items():
        for source in sources:
            assert source in ("'self'", "'none'", "'unsafe-inline'", "data:", "blob:"), name
    # Swagger UI needs no inline style; ReDoc draws nothing without (styled-components).
    assert policy["style-src"] == (["'self'"] if path == "/docs" else ["'self'", "'unsafe-inline'"])
    assert page.headers["x-content-type-options"] == "nosniff"


def test_the_swagger_ui_page_starts_it_with_the_openapi_document(client: TestClient) -> None:
    page = client.get("/docs").text
    assert 'data-openapi-url="/openapi.json"' in page
    script = client.get("/static/docs/swagger-init.js").text
    assert "SwaggerUIBundle(" in script
    assert "validatorUrl: null" in script  # no badge from validator.swagger.io


def test_the_bundled_assets_keep_their_licences() -> None:
    assert "Apache License" in (STATIC_DOCS / "swagger-ui" / "LICENSE").read_text()
    assert (STATIC_DOCS / "swagger-ui" / "NOTICE").is_file()
    assert "MIT License" in (STATIC_DOCS / "redoc" / "LICENSE").read_text()


@pytest.mark.parametrize(
    "path",
    ["/health", "/v1/lists", "/v1/players/999999", "/v1/lists/nope/2026-11", "/", "/players/1001",
     "/static/ratingdb.css", "/openapi.json", "/nowhere"],
)  # fmt: skip
def test_every_response_says_nosniff(client: TestClient, path: str) -> None:
    for method in ("GET", "HEAD"):
        answer = client.request(method, path)
        assert answer.headers.get_list("x-content-type-options") == ["nosniff"], (method, path)
    answer = client.post(path)
    assert answer.status_code in (404, 405)
    assert answer.headers.get_list("x-content-type-options") == ["nosniff"]


#: The one outside URL in redoc.standalone.js that the page would load.
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


def _operations(document: dict[str, Any]) -> int:
    methods = {"get", "put", "post", "delete", "patch", "head", "options"}
    return sum(len(set(item) & methods) for item in document["paths"].values())


@ON_SQLITE
@pytest.mark.slow  # a server and a headless Chromium, as every browser test
@pytest.mark.usefixtures("chromium")
def test_docs_render_in_chromium_without_internet(server: str) -> None:
    """Swagger UI and ReDoc draw every operation, with every host but this machine's
    unresolvable, and the browser reports no Content-Security-Policy violation."""
    import json
    import time
    import urllib.request

    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    with urllib.request.urlopen(f"{server}/openapi.json", timeout=5) as answer:
        operations = _operations(json.load(answer))
    options = Options()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument("--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    try:
        for path, selector in (
            ("/docs", ".opblock"),
            ("/redoc", "[data-section-id^='operation/']"),
        ):
            driver.get(f"{server}{path}")
            deadline = time.monotonic() + 30
            found = []
            while time.monotonic() < deadline:
                found = driver.find_elements(By.CSS_SELECTOR, selector)
                if len(found) >= operations:
                    break
                time.sleep(0.2)
            assert len(found) == operations, (path, len(found), operations)
            loaded = driver.execute_script(
                "return performance.getEntriesByType('resource').map(e => e.name)"
            )
            messages = [entry["message"] for entry in driver.get_log("browser")]  # type: ignore[no-untyped-call]
            refused = [m for m in messages if "Content Security Policy" in m]
            if path == "/redoc":
                # ReDoc's bundle always draws Redocly's logo from its CDN: the policy stops it
                # before any request leaves (and ReDoc hides the image when it fails).
                assert len(refused) == 1, refused
                assert REDOC_LOGO in refused[0], refused
                loaded.remove(REDOC_LOGO)
            else:
                assert refused == [], refused
            assert loaded
            assert all(url.startswith(server) for url in loaded), loaded
    finally:
        driver.quit()


def test_a_server_error_says_nosniff_too(tmp_path: Path, sqlite_template: Path) -> None:
    """A 500 is answered from outside the app's middleware (Starlette's ServerErrorMiddleware)."""
    url = copy_sqlite(sqlite_template, tmp_path, "api.sqlite3")
    app = create_app(Settings(url, url))

    async def broken() -> None:
        raise RuntimeError("a bug")

    app.add_api_route("/_test/broken", broken)
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/_test/broken")
    assert answer.status_code == 500
    assert answer.json() == {"detail": "internal server error"}
    assert answer.headers.get_list("x-content-type-options") == ["nosniff"]
