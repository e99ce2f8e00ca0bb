"""Migration 0015 (activity on every list entry): the chain of
tests/services/test_activity_on_lists.py, written by the closes at head, taken down to 0014
(format 1 chunks, no activity columns) and up again: the migration works out every list's
activity as the closes did (who turned inactive after twelve months, who came back), the same
rows of their own, the same chunks, the same latest_entries. SQLite and PostgreSQL."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import pytest

from ratingdb.db import current_revision, downgrade, head_revision, upgrade
from ratingdb.db.chunk_format_v1 import unpack as unpack_v1
from tests.services.test_activity_on_lists import build
from tests.support.sql import query


def stored(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every stored form of the lists, in a stable order."""
    return {
        "entries": query(
            url,
            "SELECT list_id, player_id, rating, games, rated_games, peak_rating, last_rated, "
            "active FROM list_entries ORDER BY list_id, player_id",
        ),
        "chunks": query(
            url, "SELECT list_id, chunk, size, entries FROM list_chunks ORDER BY list_id, chunk"
        ),
        "latest": query(
            url,
            "SELECT category, player_id, rating, last_rated FROM latest_entries "
            "ORDER BY category, player_id",
        ),
    }


def test_activity_worked_out_as_the_closes_did(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database_url
    build(capsys, url, tmp_path)
    written = stored(url)
    downgrade(url, "0014")
    assert current_revision(url) == "0014"
    # Format 1 again: ten fields an entry.
    for (packed,) in query(url, "SELECT entries FROM list_chunks"):
        assert {len(entry) for entry in unpack_v1(bytes(packed))} == {10}
    upgrade(url)
    assert current_revision(url) == head_revision()
    again = stored(url)
    assert again["latest"] == written["latest"]
    assert again["entries"] == written["entries"]
    # The same bytes once inflated (the migration deflates at the format's level, the close
    # at ratingdb.db.chunks.WRITE_LEVEL).
    assert [(*row[:3], zlib.decompress(row[3])) for row in again["chunks"]] == [
        (*row[:3], zlib.decompress(row[3])) for row in written["chunks"]
    ]
