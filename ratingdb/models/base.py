"""The declarative base shared by every table, and the checks several tables repeat."""

from __future__ import annotations

from sqlalchemy import CheckConstraint
from sqlalchemy.orm import DeclarativeBase

from ratingdb.db.naming import make_metadata
from ratingdb.rules.categories import Category

#: Longest category name (``fide-standard``) with room to spare.
CATEGORY_LENGTH = 20


class Base(DeclarativeBase):
    metadata = make_metadata()


def in_values(column: str, values: list[str]) -> str:
    """SQL ``column IN ('a', 'b')`` for a CHECK (values are code constants, never user input)."""
    quoted = ", ".join("'" + value.replace("'", "''") + "'" for value in values)
    return f"{column} IN ({quoted})"


def category_check() -> CheckConstraint:
    """``ck_<table>_category``: one of the four categories."""
    return CheckConstraint(in_values("category", [c.value for c in Category]), name="category")
