"""What a list page keeps of a list (EntryFilter: federation, sex, title, age group, a
search), as conditions on the players table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, and_, bindparam, select
from sqlalchemy.orm import Session

from ratingdb.models import LatestEntryRow, PlayerRow
from ratingdb.repositories.published.common import player_matches

#: The age groups of the list pages, from the birth year against the list's year (FIDE's way:
#: a junior is under 20 on 1 January, a senior reaches 50 or 65 during the year).
AGE_GROUPS = ("juniors", "girls", "seniors-50", "seniors-65")
JUNIOR_AGE = 20


@dataclass(frozen=True, slots=True)
class EntryFilter:
    """What a list page keeps of a list: each field None keeps everyone."""

    federation: str | None = None
    sex: str | None = None
    title: str | None = None
    age: str | None = None  # one of AGE_GROUPS
    search: str | None = None
    #: Only the players active on the list: last rated on this list date or later (the
    #: list's rules.activity.earliest_active); their ranks are then among active players.
    active_since: date | None = None

    @property
    def is_empty(self) -> bool:
        values = (self.federation, self.sex, self.title, self.age, self.search,
                  self.active_since)  # fmt: skip
        return all(value is None for value in values)

    @property
    def asks_players(self) -> bool:
        """Whether the filter has conditions on the players table (anything but activity)."""
        values = (self.federation, self.sex, self.title, self.age, self.search)
        return any(value is not None for value in values)

    def keeps(self, last_rated: date | None) -> bool:
        """Whether the activity part of the filter keeps an entry last rated then."""
        since = self.active_since
        return since is None or (last_rated is not None and last_rated >= since)


def _age_condition(age: str, list_year: int) -> ColumnElement[bool]:
    born = PlayerRow.birth_year
    if age == "juniors":
        return born >= list_year - JUNIOR_AGE
    if age == "girls":
        return and_(born >= list_year - JUNIOR_AGE, PlayerRow.sex == "F")
    if age == "seniors-50":
        return born <= list_year - 50
    if age == "seniors-65":
        return born <= list_year - 65
    raise ValueError(f"unknown age group {age!r} (one of {', '.join(AGE_GROUPS)})")


def filter_conditions(wanted: EntryFilter, list_year: int) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if wanted.federation is not None:
        conditions.append(PlayerRow.federation == wanted.federation)
    if wanted.sex is not None:
        conditions.append(PlayerRow.sex == wanted.sex)
    if wanted.title is not None:
        conditions.append(PlayerRow.title == wanted.title)
    if wanted.age is not None:
        conditions.append(_age_condition(wanted.age, list_year))
    if wanted.search is not None:
        conditions.append(player_matches(wanted.search))
    return conditions


def bound_filter(
    wanted: EntryFilter, list_year: int
) -> tuple[tuple[Any, ...] | None, list[ColumnElement[bool]], dict[str, Any]]:
    """The filter's conditions on latest_entries and the players for a statement built once
    per shape: (the shape, or None with a search (its words shape the statement: the
    conditions hold their values), the conditions, their parameters ``f_*``)."""
    active = [] if wanted.active_since is None else [latest_active()]
    parameters: dict[str, Any] = {}
    if wanted.active_since is not None:
        parameters["f_active_since"] = wanted.active_since
    if wanted.search is not None:
        return None, [*filter_conditions(wanted, list_year), *active], parameters
    conditions: list[ColumnElement[bool]] = list(active)
    for name, column in (
        ("federation", PlayerRow.federation),
        ("sex", PlayerRow.sex),
        ("title", PlayerRow.title),
    ):
        value = getattr(wanted, name)
        if value is not None:
            conditions.append(column == bindparam(f"f_{name}"))
            parameters[f"f_{name}"] = value
    born = PlayerRow.birth_year
    if wanted.age in ("juniors", "girls"):
        conditions.append(born >= bindparam("f_born"))
        parameters["f_born"] = list_year - JUNIOR_AGE
        if wanted.age == "girls":
            conditions.append(PlayerRow.sex == "F")
    elif wanted.age in ("seniors-50", "seniors-65"):
        conditions.append(born <= bindparam("f_born"))
        parameters["f_born"] = list_year - (50 if wanted.age == "seniors-50" else 65)
    elif wanted.age is not None:
        raise ValueError(f"unknown age group {wanted.age!r} (one of {', '.join(AGE_GROUPS)})")
    shape = (wanted.federation is not None, wanted.sex is not None, wanted.title is not None,
             wanted.age, wanted.active_since is not None)  # fmt: skip
    return shape, conditions, parameters


def latest_active() -> ColumnElement[bool]:
    """latest_entries' players active on their list (``:f_active_since``: EntryFilter)."""
    return LatestEntryRow.last_rated >= bindparam("f_active_since")


def players_matching(session: Session, conditions: Sequence[ColumnElement[bool]]) -> set[str]:
    found = session.connection().execute(select(PlayerRow.player_id).where(*conditions))
    return set(found.scalars())
