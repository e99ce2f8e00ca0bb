"""A player's standing (docs/rules.md §22), on SQLite and PostgreSQL: Dan, recorded deceased
from 2026-08-20, is left out of the list of 2026-09 that the close computes (a marker where the
list of 2026-08 had him), while his game still rates Anna; ``periods verify`` proves the list; a
suspended player stays listed; a standing dated on or before a list that exists is refused.

Hand-worked (FIDE table 8.1.2, K 20): Anna 1850 beats Bob 1920 (D 70: she expected 0.40,
+0.60) and Dan 2010 (D 160: 0.29, +0.71): +1.31 x 20 = +26.2, 1876. Bob: -0.60 x 20 = -12, 1908.
Gus, suspended, played nothing: 1780 as he was."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from ratingdb.errors import InputError
from ratingdb.services import player_records
from tests.corrections.test_revision_chain import ok
from tests.support import factories
from tests.support.rolled_back import RolledBack

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
GAMES = factories.games_csv(
    "Late Summer Open,2026-08-10,2026-08-12,1,1001,1002,1-0",
    "Late Summer Open,2026-08-10,2026-08-12,2,1004,1001,0-1",
)


def _standing(database: RolledBack, player_id: str, status: str, since: str) -> None:
    with database.sessions.begin() as session:
        version = player_records.record(session, player_id).version
        player_records.edit(session, player_id, {"status": status, "status_from": since},
                            reason="federation notice", version=version, actor="officer1",
                            now=NOW)  # fmt: skip


def test_deceased_left_out_suspended_kept(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    listed = tmp_path / "list.csv"
    listed.write_text(factories.list_csv(factories.ANNA, factories.BOB, factories.GUS,
                                         factories.DAN), encoding="utf-8")  # fmt: skip
    games = tmp_path / "games.csv"
    games.write_text(GAMES, encoding="utf-8")
    ok(capsys, "lists", "import", str(listed), "--category", "fide-standard", "--period",
       "2026-08", url=url)  # fmt: skip
    ok(capsys, "tournaments", "import", str(games), "--category", "fide-standard", url=url)
    _standing(database, "1004", "deceased", "2026-08-20")
    _standing(database, "1003", "suspended", "2026-08-20")
    ok(capsys, "periods", "close", "--category", "fide-standard", "--period", "2026-09", url=url)
    out = tmp_path / "2026-09.csv"
    ok(capsys, "lists", "export", "--category", "fide-standard", "--period", "2026-09",
       "--format", "csv", "--output", str(out), url=url)  # fmt: skip
    rows = {line.split(",")[0]: line for line in out.read_text(encoding="utf-8").splitlines()[1:]}
    assert sorted(rows) == ["1001", "1002", "1003"]  # Dan left out
    ratings = dict(
        database.rows(
            "SELECT player_id, rating FROM latest_entries WHERE category = 'fide-standard'"
        )
    )
    assert ratings == {"1001": 1876, "1002": 1908, "1003": 1780}
    # Dan's row on the new list: a marker (off the list), as for anyone the parent listed.
    markers = database.rows(
        "SELECT e.player_id FROM list_entries e JOIN rating_lists l ON l.id = e.list_id "
        "WHERE l.list_date = '2026-09-01' AND e.rating IS NULL",
    )
    assert markers == [("1004",)]
    ok(capsys, "periods", "verify", "--all", url=url)
    # A standing reaching back to a list that exists is refused, naming the date's field.
    with pytest.raises(InputError, match="lists up to 2026-09-01 are published") as refused:
        _standing(database, "1002", "withdrawn", "2026-09-01")
    assert refused.value.field == "status_from"
    _standing(database, "1002", "withdrawn", "2026-09-02")  # after it: accepted
