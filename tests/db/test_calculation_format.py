"""The packed column of player_calculations, format 1 (ratingdb.db.calculation_format_v1,
frozen: migration 0020 writes it): the layout byte for byte on a hand-worked example, every
field back as it went in (and as the table it replaced gave it: four places, a score of one),
and what cannot be packed refused by name."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratingdb.db.calculation_format_v1 import FIELDS, StoredCalculation, pack, unpack

#: A rated win, worked by hand from the FIDE table: 1800 against 1700, D = 100, PD 0.64,
#: delta 1 - 0.64 = 0.36.
WIN = StoredCalculation(
    7, 1800, 1700, 100, 100, Decimal("0.6400"), Decimal("1.0"), Decimal("0.3600"), True, None
)
#: A game not rated: the opponent unrated (no opponent rating, no difference, no PD).
UNRATED = StoredCalculation(
    70000, 1800, None, None, None, None, Decimal("0.5"), None, False, "opponent unrated"
)
#: A loss to a player 450 above, the difference capped at 400 (PD 0.08, delta -0.08).
CAPPED = StoredCalculation(
    8, 1800, 2250, -450, -400, Decimal("0.0800"), Decimal("0.0"), Decimal("-0.0800"), True,
    None,
)  # fmt: skip

#: [WIN, UNRATED, CAPPED] packed, worked by hand (little-endian; None is 0x8000).
PACKED = bytes.fromhex(
    "01 0300"  # format 1, 3 calculations
    "07000000 05"  # game 7; rated, 2 half points (1 | 2 << 1)
    "0807 a406 6400 6400 0019 100e"  # 1800 1700 100 100, 6400 and 3600 ten-thousandths
    "70110100 0a"  # game 70000; not rated, 1 half point, a reason (1 << 1 | 8)
    "0807 0080 0080 0080 0080 0080"  # 1800, then five None
    "1000" + b"opponent unrated".hex() +  # the reason: 16 bytes of UTF-8
    "08000000 01"  # game 8; rated, 0 half points
    "0807 ca08 3efe 70fe 2003 e0fc"  # 1800 2250 -450 -400, 800 and -800 ten-thousandths
)  # fmt: skip


def test_the_layout_is_the_hand_worked_one() -> None:
    assert pack([WIN, UNRATED, CAPPED]) == PACKED
    assert unpack(PACKED) == [WIN, UNRATED, CAPPED]


def test_read_as_the_replaced_columns_gave_them() -> None:
    """Four places for PD and delta, one for the score (Numeric(6, 4), Numeric(2, 1)): the
    pages print them as they did."""
    win, unrated, capped = unpack(PACKED)
    assert [str(win.expected), str(win.score), str(win.delta)] == ["0.6400", "1.0", "0.3600"]
    assert str(unrated.score) == "0.5"
    assert [str(capped.score), str(capped.delta)] == ["0.0", "-0.0800"]
    # Packed from the engine's own values (two places, scores as whole numbers): the same.
    engine_made = WIN._replace(expected=Decimal("0.64"), score=Decimal(1), delta=Decimal("0.36"))
    assert pack([engine_made]) == pack([WIN])


ints16 = st.none() | st.integers(-32767, 32767)
ten_thousandths = st.none() | st.integers(-32767, 32767).map(lambda n: Decimal(n).scaleb(-4))
calculation = st.builds(
    StoredCalculation,
    st.integers(-(2**31), 2**31 - 1),
    ints16,
    ints16,
    ints16,
    ints16,
    ten_thousandths,
    st.sampled_from([Decimal("0.0"), Decimal("0.5"), Decimal("1.0")]),
    ten_thousandths,
    st.booleans(),
    st.none() | st.text(max_size=300),
).filter(lambda c: c.rated or c.reason is not None)


@given(calculations=st.lists(calculation, max_size=20))
def test_every_field_back_as_it_went_in(calculations: list[StoredCalculation]) -> None:
    assert unpack(pack(calculations)) == calculations


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("game_id", 2**31, "game_id out of the int32 range"),
        ("rating_used", 40000, "rating_used out of the int16 range"),
        ("opponent_rating_used", -32768, "opponent_rating_used out of the int16 range"),
        ("expected", Decimal("0.64001"), "expected has more than 4 places"),
        ("delta", Decimal("4"), "delta out of the int16 range"),
        ("score", Decimal("0.25"), "score is not 0, 0.5 or 1"),
    ],
)
def test_what_cannot_be_packed_is_refused_by_name(field: str, value: Any, message: str) -> None:
    changed: dict[str, Any] = {field: value}
    with pytest.raises(ValueError, match=message):
        pack([WIN._replace(**changed)])


def test_a_game_not_rated_names_why() -> None:
    with pytest.raises(ValueError, match="game 7: a calculation not rated names why"):
        pack([WIN._replace(rated=False)])


def test_a_calculation_has_every_field() -> None:
    with pytest.raises(ValueError, match=f"has {len(FIELDS)} fields, not 3"):
        pack([(1, 2, 3)])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x01", "shorter than their header"),
        (b"\x02\x00\x00", "of format 2, not 1"),
        (PACKED + b"\x00", "1 bytes after the last"),
    ],
)
def test_what_is_not_format_1_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        unpack(data)
