"""The rating-history step chart of the player page, computed here and drawn as inline SVG by
the template: no JavaScript, no image files.

A rating holds from its list date until the next list, so the history is a step function: one
horizontal step per published list, a vertical riser at each change. The x axis is calendar
months (a gap between lists shows as a longer step), the y axis the rating; both axes carry a
title (the template writes it in the reader's language). A history of one list is one point in
the middle of the plot, not a line: there is no change to show.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ratingdb.rules import Period

WIDTH = 480
HEIGHT = 220
LEFT = 64  # room for the rating labels and the axis title
RIGHT = 16
TOP = 14
BOTTOM = 50  # room for the period labels and the axis title
MAX_X_LABELS = 5
_STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True, slots=True)
class Tick:
    position: float  # x for the period axis, y for the rating axis
    label: str


@dataclass(frozen=True, slots=True)
class Step:
    """One published list: its rating held from ``x_start`` to ``x_end`` at height ``y``."""

    x_start: float
    x_end: float
    y: float
    period: str
    rating: int


@dataclass(frozen=True, slots=True)
class StepChart:
    width: int
    height: int
    left: int
    right: float  # x of the plot's right edge
    top: int
    bottom: float  # y of the plot's bottom edge (the period axis)
    path: str  # the step line, an SVG path ("" for a single list: a point, no line)
    steps: tuple[Step, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    description: str

    @property
    def single(self) -> bool:
        """One list: drawn as a point."""
        return len(self.steps) == 1

    @property
    def middle_x(self) -> float:
        return round((self.left + self.right) / 2, 1)

    @property
    def middle_y(self) -> float:
        return round((self.top + self.bottom) / 2, 1)


def _rating_scale(low: int, high: int) -> tuple[int, int, int]:
    """Bounds and tick step: round numbers around the ratings, at most six ticks."""
    for step in _STEPS:
        bottom = math.floor(low / step) * step
        top = math.ceil(high / step) * step
        if top == bottom:
            bottom, top = bottom - step, top + step
        if (top - bottom) / step <= 5:
            return bottom, top, step
    step = _STEPS[-1]
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def step_chart(points: Sequence[tuple[Period, int]]) -> StepChart | None:
    """The chart of ``points`` (period, rating), oldest first; None when there are none."""
    if not points:
        return None
    plot_right = WIDTH - RIGHT
    plot_bottom = HEIGHT - BOTTOM
    first = points[0][0].index
    last = points[-1][0].index + 1  # the latest rating holds for (at least) its month
    span = last - first

    def x(index: int) -> float:
        return round(LEFT + (index - first) / span * (plot_right - LEFT), 1)

    ratings = [rating for _, rating in points]
    low, high, step = _rating_scale(min(ratings), max(ratings))

    def y(rating: int) -> float:
        return round(plot_bottom - (rating - low) / (high - low) * (plot_bottom - TOP), 1)

    steps = tuple(
        Step(
            x(period.index),
            x(points[i + 1][0].index) if i + 1 < len(points) else x(last),
            y(rating),
            str(period),
            rating,
        )
        for i, (period, rating) in enumerate(points)
    )
    if len(steps) == 1:  # a point in the middle, no line
        middle = round((LEFT + plot_right) / 2, 1)
        steps = (Step(middle, middle, steps[0].y, steps[0].period, steps[0].rating),)
        path = ""
    else:
        path = f"M{steps[0].x_start:g},{steps[0].y:g}"
        for current, following in itertools.pairwise(steps):
            path += f" H{current.x_end:g}"
            if following.y != current.y:  # a riser where the rating changed
                path += f" V{following.y:g}"
        path += f" H{steps[-1].x_end:g}"
    every = math.ceil(len(points) / MAX_X_LABELS)
    x_ticks = tuple(Tick(s.x_start, s.period) for i, s in enumerate(steps) if i % every == 0)
    y_ticks = tuple(Tick(y(value), str(value)) for value in range(low, high + 1, step))
    description = (
        f"{len(points)} published lists from {points[0][0]} to {points[-1][0]}: "
        f"rating {points[0][1]} to {points[-1][1]} (lowest {min(ratings)}, "
        f"highest {max(ratings)})"
    )
    return StepChart(
        WIDTH, HEIGHT, LEFT, plot_right, TOP, plot_bottom, path, steps, x_ticks, y_ticks,
        description,
    )  # fmt: skip
