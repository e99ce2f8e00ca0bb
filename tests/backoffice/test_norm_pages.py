"""The title norm pages (issue 28 item 1), on SQLite and PostgreSQL: an officer opens the norm
index, the issue's tournament (tests/services/test_norms.py builds it: Ada's IM norm, Ra 2284,
Rp 2450, 1990 raised to 2050), Ada's draft IM certificate, and the title watch; bad inputs are
refused on the page with the reason; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.backoffice.conftest import Accounts
from tests.services.test_norms import ADA, build
from tests.support.rolled_back import RolledBack


def _officer(client: TestClient, users: Accounts) -> None:
    users.add("officer1", "officer")
    session_id, _ = users.session("officer1")
    client.cookies.set("ratingdb_session", session_id)


@pytest.fixture
def norm_scenario(
    client: TestClient,
    users: Accounts,
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The issue's tournament stored (tests/services/test_norms.py), an officer signed in."""
    build(capsys, database.url, tmp_path)
    _officer(client, users)


def test_an_officer_reads_the_norm_check_and_the_certificate(
    client: TestClient, norm_scenario: None, database: RolledBack
) -> None:
    before = database.rows("SELECT count(*) FROM audit_log")
    index = client.get("/norms")
    assert index.status_code == 200
    assert 'href="/norms/tournaments/T000001"' in index.text
    page = client.get("/norms/tournaments/T000001")
    assert page.status_code == 200
    assert "the FIDE standard list of November 1, 2026" in page.text
    assert f'id="check-{ADA}-IM">IM norm: <span class="verdict met">yes</span>' in page.text
    assert "Ra 2284 (1990 raised to 2050; without the raise Ra 2278, Rp 2444)" in page.text
    assert f'id="check-{ADA}-GM">GM norm: <span class="verdict unmet">no</span>' in page.text
    assert f'<a href="#check-{ADA}-IM">Ada, A: IM norm</a> (Rp 2450)' in page.text
    assert f'<a href="#check-{ADA}-WGM">Ada, A: WGM norm</a> (Rp 2445)' in page.text
    link = f"/norms/tournaments/T000001/certificates/{ADA}/IM"
    assert f'href="{link}"' in page.text
    certificate = client.get(link)
    assert certificate.status_code == 200
    text = certificate.text
    assert "Draft IM norm certificate" in text
    assert "<dt>Rp</dt><dd>2450</dd>" in text
    assert "raised to 2050" in text
    assert "Not a norm" not in text
    gm = client.get(f"/norms/tournaments/T000001/certificates/{ADA}/GM")
    assert gm.status_code == 200
    assert 'id="not-a-norm"' in gm.text
    # An exemption declared on the page's form is kept in its links.
    exempt = client.get("/norms/tournaments/T000001?exemption=zonal")
    assert "declared zonal" in exempt.text
    assert f'href="{link}?exemption=zonal"' in exempt.text
    assert database.rows("SELECT count(*) FROM audit_log") == before


def test_refusals_are_shown_with_their_reason(client: TestClient, norm_scenario: None) -> None:
    missing = client.get("/norms/tournaments/T999999")
    assert missing.status_code == 422
    assert "field tournament: no tournament &#39;T999999&#39;" in missing.text
    bad = client.get("/norms/tournaments/T000001?exemption=club")
    assert bad.status_code == 422
    assert "unknown exemption &#39;club&#39;" in bad.text
    assert client.get(f"/norms/tournaments/T000001/certificates/{ADA}/FM").status_code == 404
    assert client.get("/norms/tournaments/T000001/certificates/3000001/IM").status_code == 404
    watch = client.get("/titles/watch?period=2026-13")
    assert watch.status_code == 422
    assert "field period" in watch.text


def test_the_title_watch_page(client: TestClient, norm_scenario: None) -> None:
    assert "Title watch" in client.get("/titles/watch").text
    page = client.get("/titles/watch?period=2026-11")
    assert page.status_code == 200
    # The first list: Ada (WIM, 2300, 80 games) reached WFM, WCM, CM, FM and the WGM and WIM
    # ratings on it; the opponents theirs.
    assert f'id="reached-{ADA}-FM"' in page.text
    assert f'id="reached-{ADA}-WGM"' in page.text
    assert f'id="reached-{ADA}-IM"' not in page.text
