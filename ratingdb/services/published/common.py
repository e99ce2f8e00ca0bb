"""What every read service shares: NotFound, and what a list shows of one entry."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


class NotFound(LookupError):
    """Nothing published under that name: the API answers 404 with this message."""


@dataclass(frozen=True, slots=True)
class EntryFigures:
    """What a published list shows of one entry, defined once: a list's entries
    (``ListEntry``, with the player) and a player's history points (``HistoryPoint``, with the
    list) both are these figures. What they are beside the original list (revision 1) is not
    one of them: ``ComparedEntry`` and ``HistoryPoint`` add it."""

    rating: int
    previous_rating: int | None  # None: a first rating
    change: int | None  # None: a first rating
    games: int  # games rated in the period
    k_factor: int  # the K the next period starts from
    rated_games: int  # rated games in the category so far
    peak_rating: int
    #: Active on the list (rules.activity; an imported list's flag): ranks count active players.
    active: bool


FIGURES = tuple(field.name for field in fields(EntryFigures))


def figures_of(row: Any) -> dict[str, Any]:
    """The figures of an entry read with its columns named as the fields."""
    return {name: getattr(row, name) for name in FIGURES}
