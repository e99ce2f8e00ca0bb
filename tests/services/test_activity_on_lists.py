"""Activity on the lists a close writes (issue 27 item 3; rules.activity, docs/rules.md §10.1),
on SQLite and PostgreSQL, every flag worked by counting months by hand.

FFE rapid (12 months without rated games: inactive). The imported list of 2025-01 holds Ada,
Ben and Cal, active (an imported list's active players count as rated on it). Tournament T1
(2025-01-10) Ada-Ben is rated on the 2025-02 list; T2 (2026-02-10) Cal-Ada on the 2026-03 list.
Every list from 2025-02 to 2026-03 is closed in turn.

- Cal, last rated on 2025-01: active through the 2025-12 list (11 months), inactive on 2026-01
  (12 months) and 2026-02; T2 makes him active on 2026-03.
- Ada and Ben, last rated on 2025-02: inactive from the 2026-02 list on; Ada active again on
  2026-03 (T2), Ben not.

A list stores an entry of its own only where something changed: the players who played, and
those whose flag turned (Cal on 2026-01; Ada and Ben on 2026-02).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from tests.corrections.test_revision_chain import ok
from tests.support import factories
from tests.support.rolled_back import RolledBack
from tests.support.sql import Where, entries_where

CATEGORY = "ffe-rapid"
ADA, BEN, CAL = "2001", "2002", "2003"
PERIODS = [f"2025-{m:02d}" for m in range(2, 13)] + ["2026-01", "2026-02", "2026-03"]


def build(capsys: pytest.CaptureFixture[str], url: str, folder: Path) -> None:
    baseline = folder / "baseline.csv"
    baseline.write_text(
        factories.list_csv(
            *(f'{p},"{n}",FRA,M,1990,,{r},60,{r},' for p, n, r in
              ((ADA, "Ada, A", 1800), (BEN, "Ben, B", 1700), (CAL, "Cal, C", 1600)))
        ),
        encoding="utf-8",
    )  # fmt: skip
    ok(capsys, "lists", "import", str(baseline), "--category", CATEGORY, "--period", "2025-01",
       url=url)  # fmt: skip
    for name, day, white, black in (("T1", "2025-01-10", ADA, BEN), ("T2", "2026-02-10", CAL, ADA)):
        path = folder / f"{name}.csv"
        path.write_text(factories.games_csv(f"{name},{day},{day},1,{white},{black},1/2-1/2"))
        ok(capsys, "tournaments", "import", str(path), "--category", CATEGORY, url=url)
    for period in PERIODS:
        closed = json.loads(
            ok(capsys, "periods", "close", "--category", CATEGORY, "--period", period, url=url)
        )
        assert closed["state"] == "published", closed


def activity(where: Where) -> dict[str, dict[str, tuple[bool, date | None]]]:
    """period -> player -> (active, last rated list), from the lists' chunks."""
    found: dict[str, dict[str, tuple[bool, date | None]]] = {}
    for period in ["2025-01", *PERIODS]:
        rows = entries_where(
            where, "l.category = :c AND l.list_date = :d", ("player_id", "active", "last_rated"),
            c=CATEGORY, d=f"{period}-01",
        )  # fmt: skip
        found[period] = {p: (a, last) for p, a, last in rows}
    return found


def test_players_turn_inactive_after_twelve_months_and_active_on_their_next_games(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    build(capsys, url, tmp_path)
    jan, feb = date(2025, 1, 1), date(2025, 2, 1)
    expected: dict[str, dict[str, tuple[bool, date | None]]] = {
        "2025-01": {ADA: (True, jan), BEN: (True, jan), CAL: (True, jan)}
    }
    for period in PERIODS[:-3]:  # 2025-02 .. 2025-12
        expected[period] = {ADA: (True, feb), BEN: (True, feb), CAL: (True, jan)}
    expected["2026-01"] = {ADA: (True, feb), BEN: (True, feb), CAL: (False, jan)}
    expected["2026-02"] = {ADA: (False, feb), BEN: (False, feb), CAL: (False, jan)}
    mar = date(2026, 3, 1)
    expected["2026-03"] = {ADA: (True, mar), BEN: (False, feb), CAL: (True, mar)}
    assert activity(database) == expected
    # The rows of their own: who played, and whose flag turned.
    own = database.rows(
        "SELECT l.list_date, e.player_id FROM list_entries e JOIN rating_lists l "
        "ON l.id = e.list_id WHERE l.category = :c AND l.source = 'close' "
        "ORDER BY l.list_date, e.player_id",
        c=CATEGORY,
    )
    assert [(str(d)[:7], p) for d, p in own] == [
        ("2025-02", ADA), ("2025-02", BEN), ("2026-01", CAL), ("2026-02", ADA),
        ("2026-02", BEN), ("2026-03", ADA), ("2026-03", CAL),
    ]  # fmt: skip
    # Every list verifies, its activity recomputed (ok: exit status 0).
    ok(capsys, "periods", "verify", "--all", url=url)
