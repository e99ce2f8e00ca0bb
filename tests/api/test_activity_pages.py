"""Activity on the public pages (issue 27 item 3): list pages and top lists rank the active
players by default, everyone on request; the player page says since when a player is
inactive, and ranks only the active. SQLite and PostgreSQL.

The FFE rapid chain of tests/services/test_activity_on_lists.py, worked there: on the 2026-03
list Ada (2001) and Cal (2003) are active, Ben (2002) inactive since the 2026-02 list. Their
ratings keep the order of the imported list (Ada 1800, Ben 1700, Cal 1600: two draws moved
them by a few points only), so Ada ranks 1 and Cal 2 among the active players; among every
player, Ada 1, Ben 2, Cal 3.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.api.conftest import make_client
from tests.services.test_activity_on_lists import ADA, BEN, CAL, build

ROW = re.compile(
    r'<tr><td class="num">(\d+)</td>(?:<td class="num">\d+</td>)?\s*'
    r'<td class="name"><a href="/players/(\d+)'
)


def rows(html: str) -> list[tuple[int, str]]:
    """(rank, player id) of each row of a list table, in order."""
    return [(int(rank), player) for rank, player in ROW.findall(html)]


def test_ranks_count_active_players_unless_asked_for_everyone(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(capsys, database_url, tmp_path)
    with make_client(database_url) as client:
        active = client.get("/lists/ffe-rapid/2026-03")
        assert active.status_code == 200
        assert rows(active.text) == [(1, ADA), (2, CAL)]
        assert "Show inactive players too" in active.text
        everyone = client.get("/lists/ffe-rapid/2026-03?inactive=1")
        assert rows(everyone.text) == [(1, ADA), (2, BEN), (3, CAL)]
        assert everyone.text.count('<span class="inactive">inactive</span>') == 1
        # Filters keep the choice: a federation's page of everyone, still with Ben.
        fra = client.get("/lists/ffe-rapid/2026-03?inactive=1&federation=FRA")
        assert rows(fra.text) == [(1, ADA), (2, BEN), (3, CAL)]
        assert rows(client.get("/lists/ffe-rapid/2026-03?federation=FRA").text) == [
            (1, ADA),
            (2, CAL),
        ]
        # 2026-02: nobody active (Ada and Ben last rated on 2025-02, Cal on 2025-01).
        assert rows(client.get("/lists/ffe-rapid/2026-02").text) == []
        assert rows(client.get("/lists/ffe-rapid/2026-02?inactive=1").text) == [
            (1, ADA), (2, BEN), (3, CAL),
        ]  # fmt: skip
        # The top lists: active players only.
        top = client.get("/top/ffe-rapid")
        assert rows(top.text.split('id="top-women"')[0]) == [(1, ADA), (2, CAL)]
        # The player pages: Ben inactive since 2026-02, not ranked; Cal ranked among the active.
        ben = client.get(f"/players/{BEN}").text
        assert "Inactive since the 2026-02 list" in ben
        assert "Rank among the active players" not in ben
        cal = client.get(f"/players/{CAL}").text
        assert "Rank among the active players of the 2026-03 list: 2, 2 in FRA" in cal
        assert "Inactive since" not in cal
        # The JSON list: every entry, with its flag.
        entries = client.get("/v1/lists/ffe-rapid/2026-03").json()["entries"]
        assert [(e["player_id"], e["active"]) for e in entries] == [
            (ADA, True), (BEN, False), (CAL, True),
        ]  # fmt: skip
