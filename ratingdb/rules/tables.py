"""FIDE's conversion tables, as printed in the Rating Regulations (B.02 §8.1, docs/rules.md §4).

The tables are normative: FIDE does not use the logistic formula for published ratings and makes
no extrapolation to a third decimal. Values are kept as the strings printed in the handbook; the
lookups below are built from them once, at import.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Final

# Table 8.1.2: rating difference D -> scoring probability PD.
# (D_min, D_max, PD_H for the higher-rated player, PD_L for the lower-rated); D_max None = no bound.
TABLE_8_1_2: Final[tuple[tuple[int, int | None, str, str], ...]] = (
    (0, 3, "0.50", "0.50"),
    (4, 10, "0.51", "0.49"),
    (11, 17, "0.52", "0.48"),
    (18, 25, "0.53", "0.47"),
    (26, 32, "0.54", "0.46"),
    (33, 39, "0.55", "0.45"),
    (40, 46, "0.56", "0.44"),
    (47, 53, "0.57", "0.43"),
    (54, 61, "0.58", "0.42"),
    (62, 68, "0.59", "0.41"),
    (69, 76, "0.60", "0.40"),
    (77, 83, "0.61", "0.39"),
    (84, 91, "0.62", "0.38"),
    (92, 98, "0.63", "0.37"),
    (99, 106, "0.64", "0.36"),
    (107, 113, "0.65", "0.35"),
    (114, 121, "0.66", "0.34"),
    (122, 129, "0.67", "0.33"),
    (130, 137, "0.68", "0.32"),
    (138, 145, "0.69", "0.31"),
    (146, 153, "0.70", "0.30"),
    (154, 162, "0.71", "0.29"),
    (163, 170, "0.72", "0.28"),
    (171, 179, "0.73", "0.27"),
    (180, 188, "0.74", "0.26"),
    (189, 197, "0.75", "0.25"),
    (198, 206, "0.76", "0.24"),
    (207, 215, "0.77", "0.23"),
    (216, 225, "0.78", "0.22"),
    (226, 235, "0.79", "0.21"),
    (236, 245, "0.80", "0.20"),
    (246, 256, "0.81", "0.19"),
    (257, 267, "0.82", "0.18"),
    (268, 278, "0.83", "0.17"),
    (279, 290, "0.84", "0.16"),
    (291, 302, "0.85", "0.15"),
    (303, 315, "0.86", "0.14"),
    (316, 328, "0.87", "0.13"),
    (329, 344, "0.88", "0.12"),
    (345, 357, "0.89", "0.11"),
    (358, 374, "0.90", "0.10"),
    (375, 391, "0.91", "0.09"),
    (392, 411, "0.92", "0.08"),
    (412, 432, "0.93", "0.07"),
    (433, 456, "0.94", "0.06"),
    (457, 484, "0.95", "0.05"),
    (485, 517, "0.96", "0.04"),
    (518, 559, "0.97", "0.03"),
    (560, 619, "0.98", "0.02"),
    (620, 735, "0.99", "0.01"),
    (736, None, "1.00", "0.00"),
)

# Table 8.1.1: fractional score p -> rating difference dp (identical to Title Regulations 1.4.9).
# "For a zero or 1.0 score dp is necessarily indeterminate but is shown notionally as 800."
TABLE_8_1_1: Final[tuple[tuple[str, int], ...]] = (
    ("1.00", 800),
    ("0.99", 677),
    ("0.98", 589),
    ("0.97", 538),
    ("0.96", 501),
    ("0.95", 470),
    ("0.94", 444),
    ("0.93", 422),
    ("0.92", 401),
    ("0.91", 383),
    ("0.90", 366),
    ("0.89", 351),
    ("0.88", 336),
    ("0.87", 322),
    ("0.86", 309),
    ("0.85", 296),
    ("0.84", 284),
    ("0.83", 273),
    ("0.82", 262),
    ("0.81", 251),
    ("0.80", 240),
    ("0.79", 230),
    ("0.78", 220),
    ("0.77", 211),
    ("0.76", 202),
    ("0.75", 193),
    ("0.74", 184),
    ("0.73", 175),
    ("0.72", 166),
    ("0.71", 158),
    ("0.70", 149),
    ("0.69", 141),
    ("0.68", 133),
    ("0.67", 125),
    ("0.66", 117),
    ("0.65", 110),
    ("0.64", 102),
    ("0.63", 95),
    ("0.62", 87),
    ("0.61", 80),
    ("0.60", 72),
    ("0.59", 65),
    ("0.58", 57),
    ("0.57", 50),
    ("0.56", 43),
    ("0.55", 36),
    ("0.54", 29),
    ("0.53", 21),
    ("0.52", 14),
    ("0.51", 7),
    ("0.50", 0),
    ("0.49", -7),
    ("0.48", -14),
    ("0.47", -21),
    ("0.46", -29),
    ("0.45", -36),
    ("0.44", -43),
    ("0.43", -50),
    ("0.42", -57),
    ("0.41", -65),
    ("0.40", -72),
    ("0.39", -80),
    ("0.38", -87),
    ("0.37", -95),
    ("0.36", -102),
    ("0.35", -110),
    ("0.34", -117),
    ("0.33", -125),
    ("0.32", -133),
    ("0.31", -141),
    ("0.30", -149),
    ("0.29", -158),
    ("0.28", -166),
    ("0.27", -175),
    ("0.26", -184),
    ("0.25", -193),
    ("0.24", -202),
    ("0.23", -211),
    ("0.22", -220),
    ("0.21", -230),
    ("0.20", -240),
    ("0.19", -251),
    ("0.18", -262),
    ("0.17", -273),
    ("0.16", -284),
    ("0.15", -296),
    ("0.14", -309),
    ("0.13", -322),
    ("0.12", -336),
    ("0.11", -351),
    ("0.10", -366),
    ("0.09", -383),
    ("0.08", -401),
    ("0.07", -422),
    ("0.06", -444),
    ("0.05", -470),
    ("0.04", -501),
    ("0.03", -538),
    ("0.02", -589),
    ("0.01", -677),
    ("0.00", -800),
)

#: Beyond this |D| the table gives 1.00 / 0.00.
TABLE_LAST_DIFFERENCE: Final = 735


def _build_pd() -> tuple[tuple[Decimal, ...], tuple[Decimal, ...]]:
    higher: list[Decimal] = []
    lower: list[Decimal] = []
    for d_min, d_max, pd_h, pd_l in TABLE_8_1_2:
        if d_min != len(higher):
            raise AssertionError(f"table 8.1.2 has a gap before D={d_min}")
        last = TABLE_LAST_DIFFERENCE + 1 if d_max is None else d_max
        for _ in range(d_min, last + 1):
            higher.append(Decimal(pd_h))
            lower.append(Decimal(pd_l))
    return tuple(higher), tuple(lower)


_PD_HIGHER, _PD_LOWER = _build_pd()
_DP_BY_HUNDREDTHS: Final[dict[int, int]] = {int(Decimal(p) * 100): dp for p, dp in TABLE_8_1_1}
if sorted(_DP_BY_HUNDREDTHS) != list(range(101)):
    raise AssertionError("table 8.1.1 must give dp for every p from 0.00 to 1.00")


def probability_from_table(difference: int) -> Decimal:
    """PD for a player whose rating minus the opponent's is ``difference`` (table 8.1.2).

    D >= 0 reads column PD_H; D < 0 reads column PD_L at |D|.
    """
    if difference >= 0:
        return _PD_HIGHER[min(difference, TABLE_LAST_DIFFERENCE + 1)]
    return _PD_LOWER[min(-difference, TABLE_LAST_DIFFERENCE + 1)]


def rating_difference_for_score(p: Fraction | Decimal) -> int:
    """dp for a fractional score p already rounded to two decimals (table 8.1.1)."""
    hundredths = Fraction(p) * 100
    if hundredths.denominator != 1 or not 0 <= hundredths <= 100:
        raise ValueError(f"p must be a multiple of 0.01 between 0 and 1, got {p}")
    return _DP_BY_HUNDREDTHS[int(hundredths)]
