"""Migration 0017 (digest versions): on the chain of tests/services/test_activity_on_lists.py,
published at head (version 2 digests, the activity flag included), taken down to 0016: every
list's digest is the version-1 digest of the same entries, as the definition gives it (computed
here from the chunks); up again, those lists are version 1 and ``periods verify --all`` proves
each one with its own version. SQLite and PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from ratingdb.db import current_revision, downgrade, head_revision, upgrade
from ratingdb.db.chunk_format_v2 import columns
from tests.corrections.test_revision_chain import ok
from tests.services.test_activity_on_lists import build
from tests.support.sql import query

SIX = ("player_id", "rating", "previous_rating", "change", "games", "k_factor")


def version_1(url: str, list_id: int) -> str:
    """SHA-256 of the compact JSON of the sorted six fields of every entry (the definition)."""
    entries: list[tuple[Any, ...]] = []
    for (packed,) in query(url, "SELECT entries FROM list_chunks WHERE list_id = :l "
                           "ORDER BY chunk", l=list_id):  # fmt: skip
        entries.extend(zip(*columns(bytes(packed), SIX), strict=True))
    text = json.dumps([list(e) for e in sorted(entries)], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def test_version_2_digests_down_and_up(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database_url
    build(capsys, url, tmp_path)
    published = query(url, "SELECT id, digest, digest_version FROM rating_lists ORDER BY id")
    assert {version for _, _, version in published} == {2}
    expected = {list_id: version_1(url, list_id) for list_id, _, _ in published}
    # Version 1 is not version 2: the flags are part of the digest now.
    assert all(expected[list_id] != digest for list_id, digest, _ in published)
    downgrade(url, "0016")
    assert current_revision(url) == "0016"
    assert dict(query(url, "SELECT id, digest FROM rating_lists")) == expected
    upgrade(url)
    assert current_revision(url) == head_revision()
    assert query(url, "SELECT DISTINCT digest_version FROM rating_lists") == [(1,)]
    ok(capsys, "periods", "verify", "--all", url=url)
