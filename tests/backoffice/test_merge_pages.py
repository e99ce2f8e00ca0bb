"""Merges that cannot be wrong, in the back office (issue 28, item 3), on SQLite and
PostgreSQL: the chain of tests/corrections/test_merge (3099 is Ivo again), with 3099's sex made
F. Through the API, the merge is refused (422 naming the conflict: the field and both values)
unless ``override`` gives a reason; through the pages, the refusal shows both records side by
side and the conflict, with a box to tick and a reason to give; the preview shows them again,
with the override, before Confirm. The override and its reason are kept with the correction and
audited. The figures once merged are test_merge's, worked by hand there (P+1: Ivo 1914)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.backoffice.conftest import Accounts
from tests.backoffice.test_corrections import (
    audit_entries,
    bearer,
    preview_id,
    shown_digest,
    signed_in,
    snapshot,
    tokens,  # noqa: F401
)
from tests.corrections import test_merge as merges
from tests.corrections.test_merge import DUP, IVO
from tests.corrections.test_revision_chain import build, entries
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, execute, query

REASON = "one person, two ids"
OVERRIDE = "3099's sex was typed wrong on the arbiter's report; checked with his licence"
REFUSAL = (
    f"{IVO} and {DUP} may be two people: sex differs: {IVO} M, {DUP} F. Check both records; to "
    "merge them all the same, give an override with its reason"
)
CONFLICT = {"kind": "sex", "keep": "M", "drop": "F"}


def sex_conflict(capsys: pytest.CaptureFixture[str], where: Where, folder: Path) -> None:
    """test_merge's chain, 3099's sex made F: in the test's transaction, or in a database of
    the test's own (its URL)."""
    url = where.url if isinstance(where, RolledBack) else where
    build(capsys, url, folder, tournaments=merges.chain(DUP), players=merges.PLAYERS,
          periods=merges.PERIODS)  # fmt: skip
    assert execute(where, "UPDATE players SET sex = 'F' WHERE player_id = :p", p=DUP) == 1


def stored_after(where: Where) -> Any:
    ((after,),) = query(where, "SELECT after FROM corrections")
    return json.loads(after) if isinstance(after, str) else after


def test_a_conflicting_merge_through_the_api_needs_an_override(
    client: TestClient, tokens: dict[str, str], database: RolledBack,  # noqa: F811
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    sex_conflict(capsys, database, tmp_path / "db")
    officer = bearer(tokens["officer1"])
    body: dict[str, Any] = {"keep": IVO, "drop": DUP, "reason": REASON}
    before = snapshot(database)
    for extra, message in (
        ({}, f"field override: {REFUSAL}"),
        ({"override": "  "}, "field override: an override needs a reason"),
    ):
        answer = client.post("/admin/v1/corrections/merge", json=body | extra, headers=officer)
        assert answer.status_code == 422, answer.text
        assert answer.json()["detail"] == message
    assert snapshot(database) == before

    body["override"] = OVERRIDE
    dry = client.post("/admin/v1/corrections/merge?dry_run=true", json=body, headers=officer)
    assert dry.status_code == 200, dry.text
    summary = dry.json()["summary"]
    assert (summary["conflicts"], summary["override"]) == ([CONFLICT], OVERRIDE)
    assert (summary["players"]["keep"]["sex"], summary["players"]["drop"]["sex"]) == ("M", "F")
    assert snapshot(database) == before

    done = client.post("/admin/v1/corrections/merge", json=body, headers=officer)
    assert done.status_code == 201, done.text
    assert entries(database, merges.P1)[IVO] == (1914, 1907, 7, 2, 20)  # worked in test_merge
    assert stored_after(database) == {"keep": IVO, "games": 2, "override": OVERRIDE,
                                 "conflicts": [CONFLICT]}  # fmt: skip
    (entry,) = audit_entries(client, tokens["officer1"], "merge")
    assert entry["actor"] == "officer1"
    assert (entry["details"]["override"], entry["details"]["conflicts"]) == (OVERRIDE, [CONFLICT])


def rows_of_records(page: str) -> dict[str, list[str]]:
    """The records table: row id -> its cells' text (the heading first)."""
    table = re.search(r'<table class="records">(.*?)</table>', page, re.S)
    assert table is not None, page
    rows = {}
    for row_id, row in re.findall(r'<tr id="record-([a-z-]+)"[^>]*>(.*?)</tr>', table.group(1),
                                  re.S):  # fmt: skip
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows[row_id] = [re.sub(r"<[^>]+>", " ", c).split() for c in cells]
    return {k: [" ".join(words) for words in v] for k, v in rows.items()}


def test_a_conflicting_merge_through_the_pages_shows_both_records_then_needs_an_override(
    client: TestClient, users: Accounts, tokens: dict[str, str],  # noqa: F811
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    sex_conflict(capsys, database, tmp_path / "db")
    csrf = signed_in(client, users, "officer1")
    form = client.get("/corrections/merge")
    assert 'id="override-box"' not in form.text  # shown once a conflict is found
    fields = {"csrf_token": csrf, "keep": IVO, "drop": DUP, "reason": REASON}
    before = snapshot(database)

    refused = client.post("/corrections/merge", data=fields)
    assert refused.status_code == 422
    assert f"field override: {REFUSAL}" in refused.text.replace("&#39;", "'")
    rows = rows_of_records(refused.text)
    assert rows["name"] == ["Name", "Ivo, I", "Ivo, I"]
    assert rows["player-id"] == ["Player id", IVO, DUP]
    assert rows["sex"] == ["Sex (differs)", "M", "F"]
    assert rows["birth-year"] == ["Birth year", "1990", "1990"]
    assert rows["games"] == ["Games", "2", "2"]
    # Ivo on the baseline and the three closed lists; 3099 on none (unrated, 2 games).
    assert rows["lists"] == ["Lists", "fide-standard 2026-08 to 2026-11 (4 lists)", "none"]
    assert re.search(r'<tr id="record-sex" class="conflict">', refused.text)
    assert f"<li>Sex differs: {IVO} M, {DUP} F.</li>" in refused.text
    assert 'id="override-box"' in refused.text
    assert re.search(r'name="override"[^>]*aria-invalid="true"', refused.text)

    for extra, message in (
        ({"override_ticked": "on", "override": " "}, "field override: an override needs a reason"),
        ({"override": OVERRIDE}, "field override: tick the box to merge them all the same"),
    ):
        answer = client.post("/corrections/merge", data=fields | extra)
        assert answer.status_code == 422, extra
        assert message in answer.text, (extra, answer.text[:3000])
    assert snapshot(database) == before

    number = preview_id(
        client.post("/corrections/merge", data=fields | {"override_ticked": "on",
                                                          "override": OVERRIDE})
    )  # fmt: skip
    page = client.get(f"/corrections/previews/{number}")
    assert page.status_code == 200
    assert rows_of_records(page.text)["sex"] == ["Sex (differs)", "M", "F"]
    assert f"<li>Sex differs: {IVO} M, {DUP} F.</li>" in page.text
    assert OVERRIDE.replace("'", "&#39;") in page.text
    assert query(database, "SELECT count(*) FROM corrections") == [(0,)]
    confirm = {"csrf_token": csrf, "impact_digest": shown_digest(page.text)}
    done = client.post(f"/corrections/previews/{number}/confirm", data=confirm)
    assert done.status_code == 303, done.text
    assert 'id="state">applied<' in client.get(done.headers["location"]).text
    assert entries(database, merges.P1)[IVO] == (1914, 1907, 7, 2, 20)  # worked in test_merge
    assert stored_after(database)["override"] == OVERRIDE
    (entry,) = audit_entries(client, tokens["officer1"], "merge")
    assert (entry["details"]["override"], entry["details"]["conflicts"]) == (OVERRIDE, [CONFLICT])


def test_a_merge_without_conflict_shows_both_records_and_says_so(
    client: TestClient, users: Accounts, tokens: dict[str, str],  # noqa: F811
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    build(capsys, database.url, tmp_path / "db", tournaments=merges.chain(DUP),
          players=merges.PLAYERS, periods=merges.PERIODS)  # fmt: skip
    csrf = signed_in(client, users, "officer1")
    fields = {"csrf_token": csrf, "keep": IVO, "drop": DUP, "reason": REASON}
    number = preview_id(client.post("/corrections/merge", data=fields))
    page = client.get(f"/corrections/previews/{number}")
    assert rows_of_records(page.text)["sex"] == ["Sex", "M", "M"]
    assert "None: no round both played, no other sex or birth year." in page.text
    assert 'class="conflict"' not in page.text
    # An override with nothing to override is refused, naming the field.
    needless = {"override_ticked": "on", "override": "just in case"}
    answer = client.post("/corrections/merge", data=fields | needless)
    assert answer.status_code == 422
    assert f"field override: {IVO} and {DUP} have no conflict" in answer.text
