"""``/v1/lists``: the published lists, one page of a list, and the differences between two
revisions of a list."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import ConfigDict, Field

from ratingdb.api.schemas.common import ACTIVE, ORIGINAL_RATING, PeriodText, Schema
from ratingdb.rules import Category
from ratingdb.services import published as svc


class ListOut(Schema):
    category: Category
    period: PeriodText
    list_date: date
    published_at: datetime
    entries: int = Field(description="number of rated players on the list")
    rule_version: str | None = Field(description="null for a list imported as a starting point")
    revision: int = Field(description="the latest revision (1: the original list)")
    revisions: int = Field(description="how many revisions the list has (1: never corrected)")
    correction_id: int | None = Field(
        description="the correction this revision was published for (null: the original)"
    )
    source: Literal["import", "close"]

    @classmethod
    def of(cls, summary: svc.ListSummary) -> ListOut:
        return cls(
            category=summary.category,
            period=str(summary.period),
            list_date=summary.period.list_date,
            published_at=summary.published_at,
            entries=summary.entries,
            rule_version=summary.rule_version,
            revision=summary.revision,
            revisions=summary.revisions,
            correction_id=summary.correction_id,
            source="import" if summary.source == "import" else "close",
        )


class ListsOut(Schema):
    lists: list[ListOut]


class ListEntryOut(Schema):
    player_id: str
    name: str
    federation: str | None
    rating: int
    previous_rating: int | None = Field(description="null for a first rating")
    change: int | None = Field(description="null for a first rating")
    games: int = Field(description="games rated in the period")
    k_factor: int = Field(description="the K the next period starts from")
    active: bool = Field(description=ACTIVE)
    original_rating: int | None = Field(description=ORIGINAL_RATING)

    @staticmethod
    def fields_of(entry: svc.ComparedEntry) -> dict[str, Any]:
        return {
            "player_id": entry.player_id,
            "name": entry.name,
            "federation": entry.federation,
            "rating": entry.rating,
            "previous_rating": entry.previous_rating,
            "change": entry.change,
            "games": entry.games,
            "k_factor": entry.k_factor,
            "active": entry.active,
            "original_rating": entry.original_rating,
        }


class ListPageOut(Schema):
    category: Category
    period: PeriodText
    list_date: date
    revision: int = Field(description="the revision shown (1: the original list)")
    revisions: int = Field(description="how many revisions the list has (the latest's number)")
    correction_id: int | None = Field(
        description="the correction this revision was published for (null: the original)"
    )
    rule_version: str | None
    published_at: datetime
    total: int = Field(description="entries matching the filters")
    limit: int
    offset: int
    entries: list[ListEntryOut]

    @classmethod
    def of(
        cls,
        summary: svc.ListSummary,
        total: int,
        limit: int,
        offset: int,
        entries: tuple[svc.ComparedEntry, ...],
    ) -> ListPageOut:
        # One validation of the whole page (pydantic-core), not one model per entry: a page of
        # 1,000 entries is the API's largest answer.
        return cls.model_validate(
            {
                "category": summary.category,
                "period": str(summary.period),
                "list_date": summary.period.list_date,
                "revision": summary.revision,
                "revisions": summary.revisions,
                "correction_id": summary.correction_id,
                "rule_version": summary.rule_version,
                "published_at": summary.published_at,
                "total": total,
                "limit": limit,
                "offset": offset,
                "entries": [ListEntryOut.fields_of(entry) for entry in entries],
            }
        )


# --- revisions: differences between two revisions of a list -----------------------------------


class DiffEntryOut(Schema):
    """A player's entry on one of the two revisions compared."""

    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int


class DiffChangeOut(Schema):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    player_id: str
    name: str | None
    from_: DiffEntryOut | None = Field(
        alias="from", description="the entry on the from revision (null: not on it)"
    )
    to: DiffEntryOut | None = Field(description="the entry on the to revision (null: not on it)")
    rating_difference: int | None = Field(
        description="to rating - from rating (null: on one revision only)"
    )


#: Who a correction is by, on public pages and in the public API: never the back-office
#: account's user name (a name to guess a password for), only the role.
PUBLIC_ACTOR = "rating officer"


class DiffCorrectionOut(Schema):
    correction_id: int
    kind: Literal["game", "tournament", "merge", "list-replace"]
    reason: str
    actor: Literal["rating officer"] = Field(
        description='always "rating officer": the public API names no back-office account'
    )
    created_at: datetime
    tournament_id: str | None
    withdrawn: bool = Field(
        description="a tournament correction that withdrew the tournament (no game left)"
    )


class DiffOut(Schema):
    category: Category
    period: PeriodText
    from_revision: int
    to_revision: int
    players_changed: int
    corrections: list[DiffCorrectionOut] = Field(
        description="the corrections that published the revisions between the two"
    )
    changes: list[DiffChangeOut] = Field(
        description="every player whose entry differs, by player_id"
    )

    @classmethod
    def of(cls, document: dict[str, Any]) -> DiffOut:
        """The diff of ``revisions.diff``, each correction's actor replaced by the role."""
        corrections = [{**c, "actor": PUBLIC_ACTOR} for c in document["corrections"]]
        return cls.model_validate(
            {**document, "corrections": corrections, "players_changed": len(document["changes"])}
        )
