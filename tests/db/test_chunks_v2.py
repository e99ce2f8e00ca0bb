"""The packed column of list_chunks, format 2 (ratingdb.db.chunk_format_v2, frozen: migration
0015 writes it; live code reads and writes it through ratingdb.db.chunks): format 1 and two
int32 columns, each entry's last rated list (a month index) and activity flag. The layout byte
for byte on a hand-worked example, every field back as it went in, and what cannot be packed
refused."""

from __future__ import annotations

import zlib
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.db import chunk_format_v1, chunks
from ratingdb.db.chunk_format_v2 import ENTRY, columns, pack, unpack
from tests.db.test_chunks import ADA, NEW, entry

ADA2 = (*ADA, date(2026, 9, 1), True)
NEW2 = (*NEW, None, False)

#: [ADA2, NEW2] packed, worked by hand: format 1's columns with the header's version 2, then
#: last_rated as a month index (2026 x 12 + 9 - 1 = 24320 = 0x5f00; None: 00000080) and
#: active (1, 0), before sum_delta and the ids.
ADA_AND_NEW = bytes.fromhex(
    "02 02000000"
    "0f070000 f3050000"  # rating 1807, 1523
    "08070000 00000080"  # previous_rating 1800, None
    "07000000 00000080"  # change 7, None
    "01000000 09000000"  # games 1, 9
    "14000000 28000000"  # k_factor 20, 40
    "14000000 00000080"  # k_used 20, None
    "3d000000 09000000"  # rated_games 61, 9
    "0f070000 f3050000"  # peak_rating 1807, 1523
    "005f0000 00000080"  # last_rated 2026-09, None
    "01000000 00000000"  # active True, False
    "100e000000000000 0000000000000080"  # sum_delta 0.3600, None
) + b"2001\nNAT-17"  # fmt: skip

LIST_DATES = st.none() | st.dates(date(1900, 1, 1), date(2200, 12, 1)).map(
    lambda d: d.replace(day=1)
)


def test_the_layout_is_the_hand_worked_one() -> None:
    assert zlib.decompress(pack([ADA2, NEW2])) == ADA_AND_NEW
    assert unpack(zlib.compress(ADA_AND_NEW)) == [ADA2, NEW2]
    assert columns(pack([ADA2, NEW2]), ("last_rated", "active")) == [
        [date(2026, 9, 1), None],
        [True, False],
    ]


def test_live_code_packs_format_2() -> None:
    assert chunks.FORMAT == 2
    assert chunks.ENTRY == ENTRY


@given(entries=st.lists(st.tuples(entry, LIST_DATES, st.booleans()), max_size=5))
def test_every_field_comes_back_as_written(
    entries: list[tuple[tuple[object, ...], date | None, bool]],
) -> None:
    rows = [(*first, last, active) for first, last, active in entries]
    assert unpack(pack(rows)) == rows


def test_what_format_2_cannot_hold_is_refused() -> None:
    with pytest.raises(ValueError, match="last_rated is not a date: '2026-09-01'"):
        pack([(*ADA, "2026-09-01", True)])
    with pytest.raises(ValueError, match="active is not a bool: 1"):
        pack([(*ADA, None, 1)])
    with pytest.raises(ValueError, match="not of the 12 fields"):
        pack([ADA])
    # Format 1's bytes are not read as format 2 (nor the reverse).
    with pytest.raises(ValueError, match="format 1, not 2"):
        unpack(chunk_format_v1.pack([ADA]))
    with pytest.raises(ValueError, match="format 2, not 1"):
        chunk_format_v1.unpack(pack([ADA2]))
