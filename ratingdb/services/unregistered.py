"""Players FIDE's lists leave out for want of a FIDE id (issue 27 item 4): the list a rating
officer sends to FIDE's registration, with what it asks (name, birth date, sex, federation)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.unregistered_csv import Unregistered
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category
from ratingdb.rules.messages import N_, Message


def fide_categories(given: Sequence[Category]) -> list[Category]:
    """The FIDE categories asked for (every one when none is given); a national one refused."""
    for category in given:
        if not category.needs_fide_id:
            raise InputError(
                Message(
                    N_(
                        "%(category)s rates players by their national id: only FIDE's "
                        "categories need a FIDE id"
                    ),
                    {"category": category.value},
                ),
                field="category",
            )
    return list(given) or [c for c in Category if c.needs_fide_id]


def unregistered_players(session: Session, categories: Sequence[Category]) -> list[Unregistered]:
    """Every player without a FIDE id who played in a tournament of ``categories``."""
    return [
        Unregistered(
            p.player_id,
            p.name,
            p.sex,
            p.birth_date,
            p.birth_year,
            p.federation,
            p.national_federation,
            p.national_id,
            tournaments,
            last,
        )
        for p, tournaments, last in player_repo.unregistered_with_fide_games(
            session, fide_categories(categories)
        )
    ]
