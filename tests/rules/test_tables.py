"""FIDE tables 8.1.2 (D -> PD) and 8.1.1 (p -> dp), checked at every row boundary.

The rows below are typed from docs/rules.md §4.1 (and match seed 002's 2009 table), independently of
ratingdb.rules.tables.
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import pytest

from ratingdb.rules import (
    ExpectedScoreMethod,
    expected_score,
    probability_from_table,
    rating_difference_for_score,
)

# (D_min, D_max, PD_H) from docs/rules.md §4.1; PD_L = 1 - PD_H.
TABLE_8_1_2_ROWS = [
    (0, 3, "0.50"),
    (4, 10, "0.51"),
    (11, 17, "0.52"),
    (18, 25, "0.53"),
    (26, 32, "0.54"),
    (33, 39, "0.55"),
    (40, 46, "0.56"),
    (47, 53, "0.57"),
    (54, 61, "0.58"),
    (62, 68, "0.59"),
    (69, 76, "0.60"),
    (77, 83, "0.61"),
    (84, 91, "0.62"),
    (92, 98, "0.63"),
    (99, 106, "0.64"),
    (107, 113, "0.65"),
    (114, 121, "0.66"),
    (122, 129, "0.67"),
    (130, 137, "0.68"),
    (138, 145, "0.69"),
    (146, 153, "0.70"),
    (154, 162, "0.71"),
    (163, 170, "0.72"),
    (171, 179, "0.73"),
    (180, 188, "0.74"),
    (189, 197, "0.75"),
    (198, 206, "0.76"),
    (207, 215, "0.77"),
    (216, 225, "0.78"),
    (226, 235, "0.79"),
    (236, 245, "0.80"),
    (246, 256, "0.81"),
    (257, 267, "0.82"),
    (268, 278, "0.83"),
    (279, 290, "0.84"),
    (291, 302, "0.85"),
    (303, 315, "0.86"),
    (316, 328, "0.87"),
    (329, 344, "0.88"),
    (345, 357, "0.89"),
    (358, 374, "0.90"),
    (375, 391, "0.91"),
    (392, 411, "0.92"),
    (412, 432, "0.93"),
    (433, 456, "0.94"),
    (457, 484, "0.95"),
    (485, 517, "0.96"),
    (518, 559, "0.97"),
    (560, 619, "0.98"),
    (620, 735, "0.99"),
]


@pytest.mark.parametrize(("d_min", "d_max", "pd_h"), TABLE_8_1_2_ROWS)
def test_table_8_1_2_row_boundaries(d_min: int, d_max: int, pd_h: str) -> None:
    higher = Decimal(pd_h)
    lower = Decimal(1) - higher
    for d in (d_min, d_max):
        assert probability_from_table(d) == higher, d
        assert probability_from_table(-d) == lower, -d
        assert expected_score(d, ExpectedScoreMethod.TABLE) == higher, d


def test_table_8_1_2_rows_cover_0_to_735_without_gaps() -> None:
    # The hand-typed rows themselves: contiguous, so the boundary test covers every row.
    assert TABLE_8_1_2_ROWS[0][0] == 0
    assert TABLE_8_1_2_ROWS[-1][1] == 735
    for (_, d_max, _), (next_min, _, _) in itertools.pairwise(TABLE_8_1_2_ROWS):
        assert next_min == d_max + 1


@pytest.mark.parametrize(
    ("difference", "pd"),
    [
        (0, "0.50"),
        (3, "0.50"),
        (-3, "0.50"),
        (4, "0.51"),
        (-4, "0.49"),
        (10, "0.51"),
        (11, "0.52"),
        (100, "0.64"),
        (-100, "0.36"),
        (400, "0.92"),
        (-400, "0.08"),
        (735, "0.99"),
        (-735, "0.01"),
        (736, "1.00"),
        (-736, "0.00"),
        (1026, "1.00"),
        (5000, "1.00"),
        (-5000, "0.00"),
    ],
)
def test_table_8_1_2_spot_checks(difference: int, pd: str) -> None:
    assert probability_from_table(difference) == Decimal(pd)


@pytest.mark.parametrize(
    ("p", "dp"),
    [
        ("1.00", 800),
        ("0.99", 677),
        ("0.98", 589),
        ("0.90", 366),
        ("0.80", 240),
        ("0.79", 230),
        ("0.75", 193),
        ("0.64", 102),
        ("0.57", 50),
        ("0.56", 43),
        ("0.51", 7),
        ("0.50", 0),
        ("0.49", -7),
        ("0.43", -50),
        ("0.38", -87),
        ("0.37", -95),
        ("0.33", -125),
        ("0.21", -230),
        ("0.01", -677),
        ("0.00", -800),
    ],
)
def test_table_8_1_1_spot_checks(p: str, dp: int) -> None:
    assert rating_difference_for_score(Decimal(p)) == dp


def test_table_8_1_1_accepts_fractions() -> None:
    assert rating_difference_for_score(Fraction(57, 100)) == 50
    assert rating_difference_for_score(Fraction(1, 2)) == 0
    assert rating_difference_for_score(Fraction(1)) == 800


def test_table_8_1_1_is_antisymmetric() -> None:
    # dp(1 - p) = -dp(p) (docs/rules.md §4.2), for every p in hundredths.
    for hundredths in range(101):
        p = Fraction(hundredths, 100)
        assert rating_difference_for_score(1 - p) == -rating_difference_for_score(p)


@pytest.mark.parametrize(
    "p", [Fraction(555, 1000), Fraction(1, 3), Fraction(101, 100), Fraction(-1)]
)
def test_table_8_1_1_refuses_p_not_in_hundredths_or_out_of_range(p: Fraction) -> None:
    with pytest.raises(ValueError, match=r"multiple of 0\.01"):
        rating_difference_for_score(p)
