"""The back office names the federation it works for (RATINGDB_FEDERATION_NAME, issue 29), as
the public pages do: in every page's title and header, in English and French, escaped; without
the setting, "ratingdb"."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ratingdb.backoffice.app import create_app
from ratingdb.config import Settings
from tests.backoffice.conftest import Clock
from tests.support.rolled_back import RolledBack


def test_the_pages_name_the_federation(database: RolledBack, clock: Clock) -> None:
    named = Settings(database_url=database.url, federation_name="Échecs <Nord> & Cie")
    with TestClient(create_app(named, clock=clock, sessions=database.sessions)) as client:
        page = client.get("/login").text
        assert " · Échecs &lt;Nord&gt; &amp; Cie back office</title>" in page
        assert 'class="brand">Échecs &lt;Nord&gt; &amp; Cie back office</a>' in page
        french = client.get("/login?lang=fr").text
        assert 'class="brand">Échecs &lt;Nord&gt; &amp; Cie, espace de gestion</a>' in french
    plain = create_app(Settings(database_url=database.url), clock=clock, sessions=database.sessions)
    with TestClient(plain) as client:
        assert 'class="brand">ratingdb back office</a>' in client.get("/login").text
