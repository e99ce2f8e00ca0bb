"""Errors as the contract writes them: JSON ``{"detail": ...}``; write methods 405 on every
path; HEAD as GET without a body."""

from __future__ import annotations

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from ratingdb.api.routes import calculator, catalog, health, lists, pages, players, tournaments

#: One concrete URL per route of the app (pages and API).
PATHS = [
    "/health",
    "/v1/categories",
    "/v1/rules",
    "/v1/lists",
    "/v1/lists/fide-standard/2026-11",
    "/v1/lists/fide-standard/2026-11/diff",
    "/v1/players",
    "/v1/players/1001",
    "/v1/players/1001/history?category=fide-standard",
    "/v1/players/1001/calculations/fide-standard/2026-11",
    "/v1/players/1001/interim",
    "/v1/tournaments/T000001",
    "/v1/calculator?category=fide-standard&period=2026-09&games=1900:1&rating=1850",
    "/",
    "/players/1001",
]


def test_every_route_reads_only() -> None:
    """No write route exists: every route of every router answers GET only (HEAD is served as
    GET by the HeadAsGet middleware), and PATHS names one URL per route."""
    routes = [
        route
        for module in (health, catalog, lists, players, tournaments, calculator, pages)
        for route in module.router.routes
    ]
    assert all(isinstance(route, APIRoute) for route in routes)
    assert len(routes) == len(PATHS)
    for route in routes:
        assert isinstance(route, APIRoute)
        assert route.methods == {"GET"}, route.path


@pytest.mark.parametrize("path", PATHS)
def test_get_and_head(client: TestClient, path: str) -> None:
    got = client.get(path)
    assert got.status_code == 200, got.text
    head = client.head(path)
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers.get("etag") == got.headers.get("etag")


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
@pytest.mark.parametrize("path", PATHS)
def test_write_methods_are_405(client: TestClient, path: str, method: str) -> None:
    response = client.request(method, path, json={"anything": 1})
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
    assert response.json() == {
        "detail": f"{method} is not allowed: the API is read-only (GET, HEAD only)"
    }


def test_unknown_api_path_is_404_json(client: TestClient) -> None:
    for path in ("/v1", "/v1/nothing", "/v1/lists/fide-standard/2026-11/extra"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.headers["content-type"] == "application/json"
        assert response.json() == {"detail": f"nothing at {path}"}


def test_unknown_path_outside_the_api_is_an_html_404_page(client: TestClient) -> None:
    # Issue 15: /lists/... answered a JSON 404; every path for people answers a page, in the
    # reader's language.
    for path in ("/v2/lists", "/no/such/page", "/static/missing.css", "/v1x"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        assert f"There is no page at {path}." in response.text
        assert '<html lang="en">' in response.text
    french = client.get("/nothing/here", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.8"})
    assert french.status_code == 404
    assert '<html lang="fr">' in french.text
    assert "Il n’y a pas de page à l’adresse /nothing/here." in french.text  # noqa: RUF001
    assert "Page introuvable" in french.text
    assert client.head("/nothing").status_code == 404


def test_openapi_documents_the_error_bodies(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert set(document["paths"]) == {
        "/health", "/v1/categories", "/v1/rules", "/v1/lists", "/v1/lists/{category}/{period}",
        "/v1/lists/{category}/{period}/diff", "/v1/lists/{category}/{period}/download",
        "/v1/lists/{category}/{period}/movers", "/v1/top/{category}",
        "/v1/players", "/v1/players/{player_id}",
        "/v1/players/{player_id}/history",
        "/v1/players/{player_id}/calculations/{category}/{period}",
        "/v1/players/{player_id}/interim",
        "/v1/tournaments/{tournament_id}", "/v1/calculator",
    }  # fmt: skip
    for path, operations in document["paths"].items():
        assert set(operations) == {"get"}, path
        responses = operations["get"]["responses"]
        if "422" in responses:
            schema = responses["422"]["content"]["application/json"]["schema"]
            assert schema == {"$ref": "#/components/schemas/ErrorOut"}, path
    assert "HTTPValidationError" not in document["components"]["schemas"]
    assert client.get("/docs").status_code == 200
