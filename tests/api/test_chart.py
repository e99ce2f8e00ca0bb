"""The step chart's geometry (no database): one step per list, months on x, round rating ticks."""

from __future__ import annotations

import re

from ratingdb.api.chart import HEIGHT, LEFT, RIGHT, TOP, WIDTH, step_chart
from ratingdb.rules import Period


def test_no_points_no_chart() -> None:
    assert step_chart([]) is None


def test_one_step_per_list() -> None:
    points = [(Period(2026, 8), 1850), (Period(2026, 9), 1862), (Period(2026, 10), 1862),
              (Period(2026, 11), 1866)]  # fmt: skip
    chart = step_chart(points)
    assert chart is not None
    assert [(s.period, s.rating) for s in chart.steps] == [(str(p), r) for p, r in points]
    # Four months over the plot's width: each step is a quarter of it, back to back.
    width = (WIDTH - RIGHT - LEFT) / 4
    for index, step in enumerate(chart.steps):
        assert abs(step.x_start - (LEFT + index * width)) < 0.11
        assert abs(step.x_end - (LEFT + (index + 1) * width)) < 0.11
    # Higher ratings are higher up (smaller y); equal ratings at the same height.
    ys = [s.y for s in chart.steps]
    assert ys[0] > ys[1] == ys[2] > ys[3]
    assert all(TOP <= y <= HEIGHT for y in ys)
    # The path: a horizontal move per list and a riser at each change.
    assert chart.path.startswith(f"M{LEFT},")
    assert len(re.findall(r"H", chart.path)) == 4
    assert len(re.findall(r"V", chart.path)) == 2
    assert [t.label for t in chart.y_ticks] == ["1850", "1855", "1860", "1865", "1870"]
    assert [t.label for t in chart.x_ticks] == ["2026-08", "2026-09", "2026-10", "2026-11"]
    assert chart.description == (
        "4 published lists from 2026-08 to 2026-11: rating 1850 to 1866 (lowest 1850, highest 1866)"
    )


def test_gaps_and_long_histories() -> None:
    """A gap between lists is a longer step; at most six period labels."""
    points = [(Period(2020, 1).plus_months(3 * i), 1500 + 37 * i) for i in range(20)]
    points.append((Period(2026, 1), 1400))
    chart = step_chart(points)
    assert chart is not None
    assert len(chart.steps) == 21
    assert 1 <= len(chart.x_ticks) <= 6
    assert len(chart.y_ticks) <= 6
    last, before = chart.steps[-1], chart.steps[-2]
    assert before.x_end == last.x_start
    assert before.x_end - before.x_start > 3 * (last.x_end - last.x_start)


def test_a_single_list() -> None:
    chart = step_chart([(Period(2026, 10), 1880)])
    assert chart is not None
    assert [t.label for t in chart.y_ticks] == ["1875", "1880", "1885"]
    # A point in the middle of the plot, no line (issue 15): there is no change to draw.
    assert chart.single
    assert chart.path == ""
    middle = (LEFT + WIDTH - RIGHT) / 2
    assert (chart.steps[0].x_start, chart.steps[0].x_end) == (middle, middle)
    assert [t.position for t in chart.x_ticks] == [middle]
