"""The history's JSON written from its columns (``schemas.players.history_json``), without a
model a point: a hand-made history of three lists against its JSON worked by hand, and the
same bytes as the documented model (``HistoryOut``) writes for any history."""

from __future__ import annotations

import json
from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from ratingdb.api.schemas import HistoryOut, HistoryPointOut
from ratingdb.api.schemas.players import history_json
from ratingdb.rules import Category
from ratingdb.rules.carry_forward import Entry
from ratingdb.services.published import HistoryColumns
from ratingdb.services.published.players import NO_HISTORY, history_columns

#: Three lists of player 1503014, as carry_forward resolves them: a first rating of 1850 on
#: the list of 2026-09; +12 on revision 2 of 2026-10 (1858 on the original list); carried
#: forward on revision 2 of 2026-11 (not on its original list), K 20 and inactive from then.
DAYS = [date(2026, 9, 1), date(2026, 10, 1), date(2026, 11, 1)]
REVISIONS = [1, 2, 2]
RULES = ["fide-2024", "fide-2024", None]
ENTRIES = [
    Entry("1503014", 1850, None, None, 0, 40, None, None, 9, 1850, None, True),
    Entry("1503014", 1862, 1850, 12, 3, 40, 40, None, 12, 1862, date(2026, 10, 1), True),
    Entry("1503014", 1862, 1862, 0, 0, 20, None, None, 12, 1862, date(2026, 10, 1), False),
]
ORIGINALS = [1850, 1858, None]

WORKED = (
    '{"player_id":"1503014","category":"fide-standard","revision":null,"points":['
    '{"period":"2026-09","list_date":"2026-09-01","revision":1,"rating":1850,'
    '"original_rating":1850,"previous_rating":null,"change":null,"games":0,"k_factor":40,'
    '"active":true},'
    '{"period":"2026-10","list_date":"2026-10-01","revision":2,"rating":1862,'
    '"original_rating":1858,"previous_rating":1850,"change":12,"games":3,"k_factor":40,'
    '"active":true},'
    '{"period":"2026-11","list_date":"2026-11-01","revision":2,"rating":1862,'
    '"original_rating":null,"previous_rating":1862,"change":0,"games":0,"k_factor":20,'
    '"active":false}]}'
)


def _model_json(
    player_id: str, category: Category, revision: int | None, history: HistoryColumns
) -> bytes:
    """What the route wrote before: a model a point (HistoryOut, as documented)."""
    points = [HistoryPointOut.of(history.point(i, category)) for i in range(len(history))]
    out = HistoryOut(player_id=player_id, category=category, revision=revision, points=points)
    return out.model_dump_json().encode()


def test_a_hand_made_history_as_worked_by_hand() -> None:
    history = history_columns(DAYS, REVISIONS, RULES, ENTRIES, ORIGINALS)
    assert list(history.ratings) == [1850, 1862, 1862]
    assert list(history.k_used) == [None, 40, None]
    assert list(history.actives) == [True, True, False]
    body = history_json("1503014", Category.FIDE_STANDARD, None, history)
    assert body == WORKED.encode()
    assert body == _model_json("1503014", Category.FIDE_STANDARD, None, history)
    # The same history asked for at a revision: only the head says so.
    at_two = history_json("1503014", Category.FIDE_STANDARD, 2, history)
    assert at_two == WORKED.replace('"revision":null', '"revision":2', 1).encode()


def test_no_history() -> None:
    assert history_columns([], [], [], [], []) is NO_HISTORY
    body = history_json("1008", Category.FFE_RAPID, 1, NO_HISTORY)
    assert body == b'{"player_id":"1008","category":"ffe-rapid","revision":1,"points":[]}'
    assert body == _model_json("1008", Category.FFE_RAPID, 1, NO_HISTORY)


_OPTIONAL = st.none() | st.integers(-(2**40), 2**40)
_ENTRY = st.tuples(
    st.integers(0, 3000),
    _OPTIONAL,
    _OPTIONAL,
    st.integers(0, 500),
    st.sampled_from([10, 15, 20, 40]),
    st.booleans(),
    st.integers(1, 9),
    _OPTIONAL,
)


@given(
    st.lists(_ENTRY, max_size=30),
    st.sampled_from(list(Category)),
    st.none() | st.integers(1, 99),
    st.from_regex(r"[0-9]{1,20}", fullmatch=True),
)
def test_the_same_bytes_as_the_model(
    rows: list[tuple[int, int | None, int | None, int, int, bool, int, int | None]],
    category: Category,
    revision: int | None,
    player_id: str,
) -> None:
    days = [date(1971 + i // 12, i % 12 + 1, 1) for i in range(len(rows))]
    entries = [
        Entry(player_id, rating, previous, change, games, k, None, None, 0, rating, None, active)
        for rating, previous, change, games, k, active, _, _ in rows
    ]
    history = history_columns(
        days, [row[6] for row in rows], [None] * len(rows), entries, [row[7] for row in rows]
    )
    body = history_json(player_id, category, revision, history)
    assert body == _model_json(player_id, category, revision, history)
    assert [p["rating"] for p in json.loads(body)["points"]] == [row[0] for row in rows]
