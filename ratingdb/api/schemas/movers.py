"""``/v1/lists/{category}/{period}/movers`` and ``/v1/top/{category}``."""

from __future__ import annotations

from datetime import date

from pydantic import Field

from ratingdb.api.schemas.common import ACTIVE, PeriodText, Schema
from ratingdb.api.schemas.lists import ListEntryOut
from ratingdb.rules import Category
from ratingdb.services.published.lists import ListSummary, RankedEntry
from ratingdb.services.published.movers import MoverList, Movers


class MoverOut(Schema):
    player_id: str
    name: str
    federation: str | None
    title: str | None = Field(description="the player's title now (titles are not kept per list)")
    rating: int
    previous_rating: int | None = Field(
        description="the rating on the list compared with (null: not on it, a first rating)"
    )
    change: int | None = Field(description="rating - previous_rating (null for a new player)")
    games: int = Field(description="games rated in the period")
    active: bool = Field(description=ACTIVE)


class MoverListOut(Schema):
    total: int = Field(description="how many players of this kind (the list holds the first)")
    players: list[MoverOut]

    @classmethod
    def of(cls, found: MoverList) -> MoverListOut:
        return cls(
            total=found.total,
            players=[
                MoverOut(
                    player_id=m.player_id,
                    name=m.name,
                    federation=m.federation,
                    title=m.title,
                    rating=m.rating,
                    previous_rating=m.previous_rating,
                    change=m.change,
                    games=m.games,
                    active=m.active,
                )
                for m in found.movers
            ],
        )


class MoversOut(Schema):
    category: Category
    period: PeriodText
    list_date: date
    revision: int
    compared_with: PeriodText | None = Field(
        description="the period of the list compared with: a computed list's parent, an "
        "imported list's previous list (null: the category's first list, no movers)"
    )
    federation: str | None
    gainers: MoverListOut = Field(description="by change descending, then rating, player_id")
    losers: MoverListOut = Field(description="by change ascending, then rating, player_id")
    new_players: MoverListOut = Field(description="first ratings, by rating descending")
    new_titles: MoverListOut = Field(
        description="players awarded a title (recorded with its date) since the list compared "
        "with, by rating descending; `title`: the new one"
    )
    became_active: MoverListOut = Field(description="active here, inactive on the list before")
    became_inactive: MoverListOut = Field(description="inactive here, active on the list before")

    @classmethod
    def of(cls, found: Movers, federation: str | None) -> MoversOut:
        summary = found.summary
        return cls(
            category=summary.category,
            period=str(summary.period),
            list_date=summary.period.list_date,
            revision=summary.revision,
            compared_with=None if found.compared_period is None else str(found.compared_period),
            federation=federation,
            gainers=MoverListOut.of(found.gainers),
            losers=MoverListOut.of(found.losers),
            new_players=MoverListOut.of(found.new_players),
            new_titles=MoverListOut.of(found.new_titles),
            became_active=MoverListOut.of(found.became_active),
            became_inactive=MoverListOut.of(found.became_inactive),
        )


class TopEntryOut(ListEntryOut):
    rank: int = Field(description="rank among the active players of the list")
    federation_rank: int | None = Field(
        description="rank among the federation's active players (with ?federation= only)"
    )


class TopOut(Schema):
    category: Category
    period: PeriodText
    list_date: date
    revision: int
    total: int = Field(description="active players matching the filters")
    entries: list[TopEntryOut]

    @classmethod
    def of(cls, summary: ListSummary, total: int, entries: tuple[RankedEntry, ...]) -> TopOut:
        return cls.model_validate(
            {
                "category": summary.category,
                "period": str(summary.period),
                "list_date": summary.period.list_date,
                "revision": summary.revision,
                "total": total,
                "entries": [
                    {
                        **ListEntryOut.fields_of(r.entry),
                        "rank": r.rank,
                        "federation_rank": r.federation_rank,
                    }
                    for r in entries
                ],
            }
        )
