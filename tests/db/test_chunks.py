"""The packed column of list_chunks, format 1 (ratingdb.db.chunk_format_v1, frozen: the
migrations import it): the layout byte for byte on a
hand-worked example, every field of every entry back as it went in (a property test over the
layout's edges: None, negative values, the int32 and int64 bounds, the widest ids), and what
cannot be packed refused."""

from __future__ import annotations

import zlib
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.db.chunk_format_v1 import (
    CHUNK_SIZE,
    ENTRY,
    chunk_rows,
    columns,
    list_order,
    pack,
    unpack,
)

ADA = ("2001", 1807, 1800, 7, 1, 20, 20, Decimal("0.3600"), 61, 1807)
NEW = ("NAT-17", 1523, None, None, 9, 40, None, None, 9, 1523)
CARRIED = ("2002", 1700, 1700, 0, 0, 20, None, None, 60, 1750)

#: [ADA, NEW] packed, worked by hand: the header (format 1, 2 entries), then a column per
#: numeric field, little-endian (None: 00000080, the int32's smallest value; for sum_delta the
#: int64's), sum_delta in ten-thousandths (0.3600 -> 3600 = 0x0e10), the ids joined by "\n".
ADA_AND_NEW = bytes.fromhex(
    "01 02000000"
    "0f070000 f3050000"  # rating 1807, 1523
    "08070000 00000080"  # previous_rating 1800, None
    "07000000 00000080"  # change 7, None
    "01000000 09000000"  # games 1, 9
    "14000000 28000000"  # k_factor 20, 40
    "14000000 00000080"  # k_used 20, None
    "3d000000 09000000"  # rated_games 61, 9
    "0f070000 f3050000"  # peak_rating 1807, 1523
    "100e000000000000 0000000000000080"  # sum_delta 0.3600, None
) + b"2001\nNAT-17"  # fmt: skip

INT32 = st.integers(-(2**31) + 1, 2**31 - 1)
optional = st.none() | INT32
#: Player ids: any text without a line break, up to the column's 20 characters, multi-byte
#: characters included (up to 80 bytes of UTF-8); no lone surrogate, which neither database
#: can store and UTF-8 cannot encode.
player_id = st.text(st.characters(codec="utf-8", exclude_characters="\n"), max_size=20)
sum_delta = st.none() | st.decimals(
    Decimal("-999999.9999"), Decimal("999999.9999"), places=4, allow_nan=False
)
entry = st.tuples(
    player_id, INT32, optional, optional, INT32, INT32, optional, sum_delta, INT32, INT32
)


def test_the_layout_is_the_hand_worked_one() -> None:
    assert zlib.decompress(pack([ADA, NEW])) == ADA_AND_NEW
    assert unpack(zlib.compress(ADA_AND_NEW)) == [ADA, NEW]


def test_fields_come_back_as_written() -> None:
    assert unpack(pack([ADA, NEW, CARRIED])) == [ADA, NEW, CARRIED]
    assert unpack(pack([])) == []
    assert zlib.decompress(pack([])) == bytes.fromhex("0100000000")


def test_columns_are_decoded_alone() -> None:
    packed = pack([ADA, NEW, CARRIED])
    assert columns(packed, ("player_id", "k_used", "sum_delta")) == [
        ["2001", "NAT-17", "2002"],
        [20, None, None],
        [Decimal("0.3600"), None, None],
    ]


def test_sum_delta_keeps_four_decimals() -> None:
    (back,) = unpack(pack([(*ADA[:7], Decimal("0.36"), *ADA[8:])]))
    assert str(back[7]) == "0.3600"
    (back,) = unpack(pack([(*ADA[:7], Decimal("-1.25"), *ADA[8:])]))
    assert str(back[7]) == "-1.2500"
    assert zlib.decompress(pack([(*ADA[:7], Decimal("-1.25"), *ADA[8:])]))[37:45] == (
        bytes.fromhex("2ccfffffffffffff")  # -12500 in two's complement
    )


@pytest.mark.parametrize(
    "extreme",
    [
        Decimal("999999.9999"),
        Decimal("-999999.9999"),
        Decimal("0.0001"),
        Decimal("-0.0001"),
        Decimal("0.0000"),
        # The int64 column's own bounds, beyond Numeric(10, 4)'s.
        Decimal("922337203685477.5807"),
        Decimal("-922337203685477.5807"),
    ],
)
def test_sum_delta_extremes_round_trip(extreme: Decimal) -> None:
    (back,) = unpack(pack([(*ADA[:7], extreme, *ADA[8:])]))
    assert (back[7], str(back[7])) == (extreme, str(extreme))


def test_int32_bounds_and_widest_ids_round_trip() -> None:
    widest = (
        "9" * 20,
        2**31 - 1,
        -(2**31) + 1,
        -(2**31) + 1,
        0,
        2**31 - 1,
        -(2**31) + 1,
        None,
        2**31 - 1,
        2**31 - 1,
    )
    wide_chars = ("\U0001f600" * 20, *widest[1:])  # 80 bytes of UTF-8
    assert unpack(pack([widest, wide_chars, ("", *ADA[1:])])) == [
        widest,
        wide_chars,
        ("", *ADA[1:]),
    ]


@given(st.lists(entry, max_size=CHUNK_SIZE))
def test_any_entries_round_trip(entries: list[tuple[Any, ...]]) -> None:
    back = unpack(pack(entries))
    assert back == entries
    assert [str(e[7]) for e in back] == [str(e[7]) for e in entries]
    for name in ENTRY:
        index = ENTRY.index(name)
        assert columns(pack(entries), (name,)) == [[e[index] for e in entries]]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (("20\n01", *ADA[1:]), "line break"),
        ((None, *ADA[1:]), "player_id is None"),
        ((*ADA[:1], None, *ADA[2:]), "rating is None"),
        ((*ADA[:8], None, *ADA[9:]), "rated_games is None"),
        ((*ADA[:1], -(2**31), *ADA[2:]), "rating out of the int32 range"),
        ((*ADA[:2], -(2**31), *ADA[3:]), "previous_rating out of the int32 range"),
        ((*ADA[:3], 2**31, *ADA[4:]), "change out of the int32 range"),
        ((*ADA[:7], Decimal(-(2**63)).scaleb(-4), *ADA[8:]), "sum_delta out of the int64"),
        ((*ADA[:7], Decimal(2**63).scaleb(-4), *ADA[8:]), "sum_delta out of the int64"),
        (ADA[:9], "not of the 10 fields"),
    ],
)
def test_what_cannot_be_packed_is_refused(bad: tuple[Any, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pack([bad])


def test_what_cannot_be_unpacked_is_refused() -> None:
    with pytest.raises(ValueError, match="of format 2, not 1"):
        unpack(zlib.compress(b"\x02" + ADA_AND_NEW[1:]))
    with pytest.raises(ValueError, match="cut short"):
        unpack(zlib.compress(ADA_AND_NEW[:40]))
    with pytest.raises(ValueError, match="3 player ids for 2"):
        unpack(zlib.compress(ADA_AND_NEW + b"\nX"))


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
