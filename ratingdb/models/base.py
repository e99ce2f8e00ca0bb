"""The declarative base shared by every table, and the checks several tables repeat."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from sqlalchemy import CheckConstraint, Enum
from sqlalchemy.orm import DeclarativeBase

from ratingdb.db.naming import make_metadata
from ratingdb.rules.categories import Category

#: Longest category name (``fide-standard``) with room to spare.
CATEGORY_LENGTH = 20


class Base(DeclarativeBase):
    metadata = make_metadata()


def in_values(column: str, values: Iterable[str]) -> str:
    """SQL ``column IN ('a', 'b')`` for a CHECK (values are code constants, never user input)."""
    quoted = ", ".join("'" + value.replace("'", "''") + "'" for value in values)
    return f"{column} IN ({quoted})"


def _values(enum: type[StrEnum]) -> list[str]:
    return [member.value for member in enum]


def enum_column(enum: type[StrEnum], length: int) -> Enum:
    """The column type of a StrEnum (``Mapped[PeriodState]``): a VARCHAR(``length``) holding
    the members' values, the same on SQLite and PostgreSQL (no native ENUM type); rows come
    back as members. What refuses a value that is not a member is the column's CHECK, the
    table's own (``enum_check``, one name on both databases), whoever writes the row."""
    return Enum(
        enum, native_enum=False, create_constraint=False, length=length, values_callable=_values
    )


def enum_check(column: str, enum: type[StrEnum]) -> CheckConstraint:
    """``ck_<table>_<column>``: the column holds one of the enum's values."""
    return CheckConstraint(in_values(column, _values(enum)), name=column)


def category_check() -> CheckConstraint:
    """``ck_<table>_category``: one of the four categories."""
    return enum_check("category", Category)


def category_column() -> Enum:
    return enum_column(Category, CATEGORY_LENGTH)
