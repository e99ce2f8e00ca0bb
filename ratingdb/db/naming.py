"""Constraint and index names, so that migrations can name what they alter or drop."""

from __future__ import annotations

from sqlalchemy import MetaData

#: ``ck`` names take the constraint's own short name: ``CheckConstraint(..., name="sex")`` on
#: ``players`` becomes ``ck_players_sex``.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def make_metadata() -> MetaData:
    """A MetaData carrying ratingdb's naming convention."""
    return MetaData(naming_convention=NAMING_CONVENTION)
