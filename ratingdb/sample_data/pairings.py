"""The games of the sample tournaments: results drawn from the players' strengths, a plain
Swiss pairing and an all-play-all."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ratingdb.formats.trf import PLAYED


@dataclass(frozen=True)
class Pairing:
    opponent: int | None  # index in the event's field
    colour: str
    code: str


def play(rng: random.Random, white: float, black: float) -> tuple[str, str]:
    """TRF codes for white and black from the players' strengths (logistic, 30 % of draws
    between equals, fewer between unequal players)."""
    expected = 1 / (1 + math.pow(10, (black - white - 20) / 400))
    draws = 0.3 * (1 - abs(expected - 0.5))
    roll = rng.random()
    if roll < expected - draws / 2:
        return "1", "0"
    if roll < expected + draws / 2:
        return "=", "="
    return "0", "1"


def swiss(
    rng: random.Random, strengths: Sequence[float], rounds: int
) -> list[list[Pairing | None]]:
    """A plain Swiss: score groups paired top-down without rematches, colours balanced, the
    odd player out gets the pairing bye (U), now and then a half-point bye (H), a forfeit or a
    withdrawal (no entries after it)."""
    count = len(strengths)
    table: list[list[Pairing | None]] = [[None] * rounds for _ in range(count)]
    scores = [0.0] * count
    whites = [0] * count
    met: set[tuple[int, int]] = set()
    had_bye: set[int] = set()
    withdrawn: set[int] = set()
    points = {"1": 1.0, "+": 1.0, "U": 1.0, "=": 0.5, "H": 0.5}
    for r in range(rounds):
        active = [i for i in range(count) if i not in withdrawn]
        resting = {i for i in active if r < rounds - 1 and rng.random() < 0.03}
        for i in resting:
            table[i][r] = Pairing(None, "-", "H")
        order = sorted((i for i in active if i not in resting), key=lambda i: (-scores[i], i))
        if len(order) % 2:
            bye = next(i for i in reversed(order) if i not in had_bye)
            order.remove(bye)
            had_bye.add(bye)
            table[bye][r] = Pairing(None, "-", "U")
        paired: set[int] = set()
        for i in order:
            if i in paired:
                continue
            candidates = [j for j in order if j != i and j not in paired]
            j = next((j for j in candidates if (min(i, j), max(i, j)) not in met), candidates[0])
            paired |= {i, j}
            met.add((min(i, j), max(i, j)))
            white, black = (i, j) if (whites[i], i % 2 + r) <= (whites[j], j % 2 + r) else (j, i)
            whites[white] += 1
            if rng.random() < 0.012:
                codes = ("+", "-") if rng.random() < 0.5 else ("-", "+")
            else:
                codes = play(rng, strengths[white], strengths[black])
            table[white][r] = Pairing(black, "w", codes[0])
            table[black][r] = Pairing(white, "b", codes[1])
        for i in active:
            cell = table[i][r]
            if cell is not None:
                scores[i] += points.get(cell.code, 0.0)
        for i in active:
            if 2 < r < rounds - 1 and rng.random() < 0.01:
                withdrawn.add(i)
    return table


def round_robin(rng: random.Random, strengths: Sequence[float]) -> list[tuple[int, int, int, str]]:
    """(round, white, black, result) of an all-play-all by the circle method."""
    count = len(strengths)
    seats: list[int | None] = [*range(count), *([None] if count % 2 else [])]
    games = []
    for r in range(len(seats) - 1):
        for board in range(len(seats) // 2):
            a, b = seats[board], seats[-1 - board]
            if a is None or b is None:
                continue
            white, black = (a, b) if (r + board) % 2 == 0 else (b, a)
            codes = play(rng, strengths[white], strengths[black])
            result = PLAYED[codes]
            games.append((r + 1, white, black, result))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return games
