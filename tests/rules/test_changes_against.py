"""ratingdb.rules.carry_forward.changes_against, the rows a list keeps in list_entries from the
whole list and its parent's (what ``ratingdb periods rebuild-changes`` writes): on a hand-made
case, and as the inverse of ``shown`` on generated lists."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ratingdb.rules.carry_forward import Entry, carried, changes_against, shown


def entry(player_id: str, rating: int, *, games: int = 0, active: bool = True) -> Entry:
    """An entry as a close writes it: a player who played (``games``) moved from 1800."""
    if games:
        return Entry(player_id, rating, 1800, rating - 1800, games, 20, 20, Decimal("1.5"),
                     40 + games, max(rating, 1800), date(2026, 10, 1), active)  # fmt: skip
    return Entry(player_id, rating, rating, 0, 0, 20, None, None, 40, rating, date(2025, 1, 1),
                 active)  # fmt: skip


def test_a_list_keeps_what_differs_from_its_parent_carried_forward() -> None:
    # The parent: Ada played (carried forward she is Ada with change 0 and no games), Ben did
    # not, Cal and Dee are on it.
    parent = {e.player_id: e for e in (entry("ada", 1812, games=3), entry("ben", 1700),
                                       entry("cal", 1650), entry("dee", 2000))}  # fmt: skip
    listed = [
        carried(parent["ada"]),  # did not play: the parent's carried forward, no row
        entry("ben", 1700),  # unchanged: no row
        entry("cal", 1650, active=False),  # turned inactive: a row
        entry("eve", 1500, games=9),  # new on the list: a row
    ]  # Dee is gone: a marker
    rows, markers = changes_against(parent, listed)
    assert [e.player_id for e in rows] == ["cal", "eve"]
    assert markers == ["dee"]


def test_a_list_without_a_parent_keeps_every_entry() -> None:
    listed = [entry("ada", 1812, games=3), entry("ben", 1700)]
    assert changes_against(None, listed) == (listed, [])


PLAYER_IDS = st.sampled_from([f"p{n}" for n in range(12)])


@st.composite
def entries(draw: st.DrawFn) -> Entry:
    player_id = draw(PLAYER_IDS)
    rating = draw(st.integers(1000, 2900))
    if draw(st.booleans()):
        return entry(player_id, rating, games=draw(st.integers(1, 9)), active=draw(st.booleans()))
    return entry(player_id, rating, active=draw(st.booleans()))


def by_player(drawn: list[Entry]) -> dict[str, Entry]:
    return {e.player_id: e for e in drawn}


@given(st.lists(entries(), max_size=12).map(by_player),
       st.lists(entries(), max_size=12).map(by_player), st.booleans())  # fmt: skip
def test_the_rows_give_the_list_back(
    parent: dict[str, Entry], listed: dict[str, Entry], carry: bool
) -> None:
    if carry:  # some of the list carried forward from the parent, as a close writes them
        listed |= {p: carried(e) for p, e in list(parent.items())[::2]}
    rows, markers = changes_against(parent, listed.values())
    own: dict[str, Entry | tuple[None, ...]] = {e.player_id: e for e in rows}
    own |= {player_id: (player_id, *(None,) * 11) for player_id in markers}  # type: ignore[misc]
    for player_id in set(parent) | set(listed):
        assert shown(own.get(player_id), parent.get(player_id)) == listed.get(player_id)
    # And no row more than needed: every row differs from the parent's carried forward.
    assert all(p not in parent or carried(parent[p]) != e for p, e in by_player(rows).items())
