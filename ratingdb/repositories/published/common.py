"""What the read queries share: the latest revision of a list, a player search, a count, and
the columns of a list entry."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeAlias

from sqlalchemy import (
    ColumnElement,
    Row,
    Select,
    and_,
    case,
    exists,
    false,
    func,
    or_,
    select,
    true,
)
from sqlalchemy.orm import Session, aliased

from ratingdb.formats.names import search_words
from ratingdb.models import PlayerRow, RatingListRow

#: A result row of any shape (the columns are named in each query).
AnyRow: TypeAlias = Row[*tuple[Any, ...]]


#: The later revision :func:`is_current` looks for. One alias for the process: its columns are
#: adapted once, where an alias made at each call cost about a tenth of a player page's CPU.
_NEWER = aliased(RatingListRow)


def is_current(upto: int | ColumnElement[int] | None = None) -> ColumnElement[bool]:
    """``RatingListRow`` is the latest revision of its list (``upto``: the latest revision up
    to that number; combine with ``revision <= upto``)."""
    condition = exists().where(
        _NEWER.category == RatingListRow.category,
        _NEWER.list_date == RatingListRow.list_date,
        _NEWER.revision > RatingListRow.revision,
    )
    if upto is not None:
        condition = condition.where(_NEWER.revision <= upto)
    return ~condition


def name_matches(words: Sequence[str]) -> ColumnElement[bool]:
    """Every word (normalised as :func:`ratingdb.formats.names.search_words` makes them:
    letters and digits only, so no LIKE wildcard) starts a word of the player's search key:
    "kast" and "petra" find "Kastelli, Petra" (key "kastelli petra"), "astel" does not.
    The start of the key is a prefix LIKE its index serves; a later word's start is not."""
    if not words:
        return true()
    key = PlayerRow.search_name
    return and_(*(or_(key.like(f"{word}%"), key.like(f"% {word}%")) for word in words))


def player_matches(text: str) -> ColumnElement[bool]:
    """A search: a player id or FIDE id starting with ``text`` (when it is digits), or a name
    each word of ``text`` starts a word of, whatever the accents, case, punctuation and
    order (ratingdb.formats.names)."""
    words = search_words(text)
    by_name = name_matches(words) if words else false()
    if text.isascii() and text.isdigit():
        return or_(
            PlayerRow.player_id.like(f"{text}%"), PlayerRow.fide_id.like(f"{text}%"), by_name
        )
    return by_name


def exact_id_first(text: str | None) -> ColumnElement[int]:
    """0 for the player whose id or FIDE id is ``text``, 1 for the others: a search's order."""
    wanted = text or ""
    return case((or_(PlayerRow.player_id == wanted, PlayerRow.fide_id == wanted), 0), else_=1)


def count_rows(session: Session, statement: Select[*tuple[Any, ...]]) -> int:
    total = session.scalar(select(func.count()).select_from(statement.subquery()))
    return int(total or 0)


#: Who a player is, as every read shows them.
PLAYER_COLUMNS = (
    PlayerRow.player_id,
    PlayerRow.name,
    PlayerRow.federation,
    PlayerRow.sex,
    PlayerRow.birth_year,
    PlayerRow.title,
)


#: What a published list shows of an entry (its exports, the API's page), as fields of a packed
#: entry (ratingdb.db.chunks.ENTRY).
SHOWN_FIELDS = ("rating", "previous_rating", "change", "games", "k_factor", "rated_games",
                "peak_rating", "active")  # fmt: skip
