"""The packed column of list_chunks (ratingdb.db.chunks): every field of every entry comes back
as it went in, in its order; what cannot be packed is refused."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.db.chunks import CHUNK_SIZE, chunk_rows, list_order, pack, unpack

ADA = ("2001", 1807, 1800, 7, 1, 20, 20, Decimal("0.3600"), 61, 1807)
NEW = ("NAT-17", 1523, None, None, 9, 40, None, None, 9, 1523)
CARRIED = ("2002", 1700, 1700, 0, 0, 20, None, None, 60, 1750)

optional_int = st.none() | st.integers(-1000, 4000)
entry = st.tuples(
    st.text(st.sampled_from("0123456789ABXYZ-_é "), min_size=1, max_size=20),
    st.integers(0, 4000), optional_int, optional_int, st.integers(0, 200), st.integers(0, 40),
    optional_int,
    st.none() | st.decimals(-999, 999, places=4, allow_nan=False, allow_infinity=False),
    st.integers(0, 10_000), st.integers(0, 4000),
)  # fmt: skip


def test_fields_come_back_as_written() -> None:
    assert list(unpack(pack([ADA, NEW, CARRIED]))) == [ADA, NEW, CARRIED]
    assert list(unpack(pack([]))) == []


def test_sum_delta_keeps_four_decimals() -> None:
    (back,) = unpack(pack([(*ADA[:7], Decimal("0.36"), *ADA[8:])]))
    assert str(back[7]) == "0.3600"


@given(st.lists(entry, max_size=30))
def test_any_entries_round_trip(entries: list[tuple[Any, ...]]) -> None:
    back = list(unpack(pack(entries)))
    assert back == [
        (*e[:7], None if e[7] is None else e[7].quantize(Decimal("0.0001")), *e[8:])
        for e in entries
    ]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (("20\t01", *ADA[1:]), "tab"),
        ((*ADA[:1], None, *ADA[2:]), "rating is None"),
        ((*ADA[:8], None, *ADA[9:]), "rated_games is None"),
    ],
)
def test_what_cannot_be_packed_is_refused(bad: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pack([bad])


def test_chunk_rows_cut_a_list_in_order() -> None:
    entries = sorted(
        (
            (str(3000 + n), 2000 - n // 3, None, None, 0, 20, None, None, 0, 2000)
            for n in range(450)
        ),
        key=list_order,
    )
    rows = list(chunk_rows(7, entries))
    assert [(r["chunk"], r["size"]) for r in rows] == [(0, CHUNK_SIZE), (1, CHUNK_SIZE), (2, 50)]
    assert [e for r in rows for e in unpack(r["entries"])] == entries
    assert (rows[1]["top_rating"], rows[1]["bottom_rating"]) == (entries[200][1], entries[399][1])
