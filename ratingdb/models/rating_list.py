"""Published lists and what they say about each player: entries for the rated players, a
status for the others who have a history in the category."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Date,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    Numeric,
    SmallInteger,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from ratingdb.db.types import UtcDateTime
from ratingdb.enums import ListSource
from ratingdb.models.base import Base, category_check, category_column, enum_check, enum_column
from ratingdb.models.player import PLAYER_ID_LENGTH
from ratingdb.rules.categories import Category

#: How the digest of a list written now is computed (services.lists.digest): version 2 covers
#: each entry's activity flag, version 1 (lists written before migration 0017) does not.
DIGEST_VERSION = 2
DIGEST_VERSIONS = (1, 2)


class RatingListRow(Base):
    """One published list. Never changed once written: a correction is a new revision."""

    __tablename__ = "rating_lists"
    __table_args__ = (
        # The last guard against closing a period twice: a second close of the same period
        # cannot publish a second revision 1.
        UniqueConstraint("category", "list_date", "revision"),
        category_check(),
        enum_check("source", ListSource),
        CheckConstraint("revision >= 1", name="revision_positive"),
        CheckConstraint("entry_count >= 0", name="entry_count_not_negative"),
        CheckConstraint("digest_version IN (1, 2)", name="digest_version_known"),
        # What a list's parent must be, guarded here (migration 0013): a list of the same
        # category (the composite key), written before it (a player's entry is read from
        # their nearest row below the list: repositories.list_storage.changes.resolve).
        UniqueConstraint("id", "category"),
        CheckConstraint(
            "parent_list_id IS NULL OR parent_list_id < id", name="parent_written_before"
        ),
        ForeignKeyConstraint(
            ["parent_list_id", "category"], ["rating_lists.id", "rating_lists.category"]
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    period_id: Mapped[int] = mapped_column(ForeignKey("periods.id"))
    category: Mapped[Category] = mapped_column(category_column())
    list_date: Mapped[date] = mapped_column(Date)
    revision: Mapped[int] = mapped_column(Integer, server_default="1")
    source: Mapped[ListSource] = mapped_column(enum_column(ListSource, 10))
    #: The rule version that computed the list (None for an imported list).
    rule_version: Mapped[str | None] = mapped_column(String(40))
    published_at: Mapped[datetime] = mapped_column(UtcDateTime)
    entry_count: Mapped[int] = mapped_column(Integer)
    #: SHA-256 (hex) of the list's canonical export, to show it never changed.
    digest: Mapped[str | None] = mapped_column(String(64))
    #: What ``digest`` covers (DIGEST_VERSIONS; services.lists.digest): a list keeps the
    #: version it was published with (1 for those before migration 0017).
    digest_version: Mapped[int] = mapped_column(SmallInteger, server_default="1")
    #: The correction this revision was published for (None for the original list).
    cause_correction_id: Mapped[int | None] = mapped_column(ForeignKey("corrections.id"))
    #: The last correction included in its inputs (0: none): what it is verified against.
    corrections_applied: Mapped[int] = mapped_column(Integer, server_default="0")
    #: The list this one was computed from (its period's previous list, the revision then
    #: current); None for an imported list or a category's first list.
    parent_list_id: Mapped[int | None] = mapped_column(Integer)


#: The fields of a list entry that a marker row leaves NULL and an entry row always has.
ENTRY_REQUIRED = ("rating", "games", "k_factor", "rated_games", "peak_rating", "active")
#: The fields that may be NULL in an entry row too (a first rating, a period without games).
ENTRY_OPTIONAL = ("previous_rating", "change", "k_used", "sum_delta", "last_rated")


def _entry_or_marker() -> str:
    """The CHECK of a list_entries row: an entry (its required fields all set) or a marker
    (every field NULL)."""
    entry = " AND ".join(f"{name} IS NOT NULL" for name in ENTRY_REQUIRED)
    marker = " AND ".join(f"{name} IS NULL" for name in (*ENTRY_REQUIRED, *ENTRY_OPTIONAL))
    return f"({entry}) OR ({marker})"


class ListEntryRow(Base):
    """A player's entry on a list where it differs from the entry on the list's parent carried
    forward (rules.carry_forward.carried), or a marker row (every field NULL) where a
    player on the parent is not on the list: a computed list stores only its changes (issue
    16, stage (b)); a list without a parent (an import, a category's first) stores every
    entry. A player's entry on a list is their row on the nearest list of its ancestry
    (repositories.list_storage.changes.resolve); the whole list, in list order, is its chunks.

    Keyed by player first: a player's history, and a player's rows along an ancestry, are one
    range of the key. Indexed by list too, for the reads of one list's own rows (``periods
    verify``'s, latest_entries written from an import); its whole entries are its chunks."""

    __tablename__ = "list_entries"
    __table_args__ = (
        CheckConstraint("games >= 0", name="games_not_negative"),
        CheckConstraint("rated_games >= 0", name="rated_games_not_negative"),
        CheckConstraint(_entry_or_marker(), name="entry_or_marker"),
    )

    player_id: Mapped[str] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"), primary_key=True
    )
    list_id: Mapped[int] = mapped_column(
        ForeignKey("rating_lists.id"), primary_key=True, index=True
    )
    #: None only in a marker row (the player left the list), as every field then.
    rating: Mapped[int | None] = mapped_column(Integer)
    #: The base the change applied to (after any one-time adjustment); None for a first rating.
    previous_rating: Mapped[int | None] = mapped_column(Integer)
    change: Mapped[int | None] = mapped_column(Integer)
    #: Games rated for the player in the period.
    games: Mapped[int | None] = mapped_column(Integer)
    #: K status after this list: the K the next period starts from (docs/rules.md §3, A3).
    k_factor: Mapped[int | None] = mapped_column(Integer)
    #: K applied this period, after K x n <= 700; None when no game was rated.
    k_used: Mapped[int | None] = mapped_column(Integer)
    #: Sum over the period's rated games of (score - expected), exact.
    sum_delta: Mapped[Decimal | None] = mapped_column(Numeric(10, 4))
    #: Rated games in the category so far, this list included (the 30-game rule).
    rated_games: Mapped[int | None] = mapped_column(Integer)
    #: Highest published rating so far (2400: permanent K 10; 2300 ends junior K).
    peak_rating: Mapped[int | None] = mapped_column(Integer)
    #: The list date of the last period that rated games of the player (None: none known; an
    #: imported list's active player: its own date). Migration 0015.
    last_rated: Mapped[date | None] = mapped_column(Date)
    #: Whether the list shows the player active (rules.activity; an imported list's flag).
    active: Mapped[bool | None] = mapped_column(Boolean)


class ListChunkRow(Base):
    """A list's entries in list order (rating descending, then player_id), ``CHUNK_SIZE`` a
    row (the last row fewer): every field of each entry, packed (ratingdb.db.chunks), so that a
    whole list, a page or a rank is read without one row per entry."""

    __tablename__ = "list_chunks"
    __table_args__ = (
        CheckConstraint("chunk >= 0", name="chunk_not_negative"),
        CheckConstraint("top_rating >= bottom_rating", name="top_not_below_bottom"),
        CheckConstraint("size > 0", name="size_positive"),
        # ratingdb.db.chunks.CHUNK_SIZE, frozen with the packed format (versions 1 and 2).
        CheckConstraint("size <= 200", name="size_at_most_chunk_size"),
    )

    list_id: Mapped[int] = mapped_column(ForeignKey("rating_lists.id"), primary_key=True)
    #: 0 for the top of the list: chunk c holds entries c x CHUNK_SIZE + 1 onwards.
    chunk: Mapped[int] = mapped_column(Integer, primary_key=True)
    top_rating: Mapped[int] = mapped_column(Integer)
    bottom_rating: Mapped[int] = mapped_column(Integer)
    #: How many entries the chunk holds.
    size: Mapped[int] = mapped_column(Integer)
    entries: Mapped[bytes] = mapped_column(LargeBinary)


class LatestEntryRow(Base):
    """The category's latest list (LatestListRow) as the close starts from it: one row per
    player on it, with the fields a close reads. Rewritten, for the players whose row changes,
    whenever a list of the category at or after that list is published (repositories.
    list_storage.latest.write_latest), so that the next close reads it as one table, not the list's
    chunks joined to their players."""

    __tablename__ = "latest_entries"
    __table_args__ = (
        # The entries above a rating (a rank on the latest list), with their players' ids for
        # a federation's count (no read of the table's rows).
        Index(None, "category", "rating", "player_id"),
        category_check(),
        CheckConstraint("rated_games >= 0", name="rated_games_not_negative"),
    )

    category: Mapped[Category] = mapped_column(category_column(), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"), primary_key=True
    )
    rating: Mapped[int] = mapped_column(Integer)
    rated_games: Mapped[int] = mapped_column(Integer)
    peak_rating: Mapped[int] = mapped_column(Integer)
    #: As list_entries.last_rated: the close carries it, and ranks of active players read it.
    last_rated: Mapped[date | None] = mapped_column(Date)


class LatestListRow(Base):
    """Which list of its category latest_entries holds: the latest written (by list date, then
    revision). A read for another list reads that list's chunks."""

    __tablename__ = "latest_lists"
    __table_args__ = (
        category_check(),
        # The list is of the category it stands for (migration 0013).
        ForeignKeyConstraint(["list_id", "category"], ["rating_lists.id", "rating_lists.category"]),
    )

    category: Mapped[Category] = mapped_column(category_column(), primary_key=True)
    list_id: Mapped[int] = mapped_column(Integer)


class PlayerStatusRow(Base):
    """A player with a history in the category who is not on the list: unrated and pooling
    games for a first rating, or dropped below the floor."""

    __tablename__ = "player_status"
    __table_args__ = (CheckConstraint("rated_games >= 0", name="rated_games_not_negative"),)

    list_id: Mapped[int] = mapped_column(ForeignKey("rating_lists.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(PLAYER_ID_LENGTH), ForeignKey("players.player_id"), primary_key=True
    )
    rated_games: Mapped[int] = mapped_column(Integer)
    peak_rating: Mapped[int | None] = mapped_column(Integer)
    #: Pooled events, oldest first: ``[{"period": "2026-11", "tournament_id": "T000012",
    #: "games": [{"opponent_rating": 1800, "score": "0.5"}]}]``.
    pool: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
