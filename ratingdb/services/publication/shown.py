"""What the publication pages and API show: the modes, the refusals, a preview's players and
tournaments, an approval's outcome, and each category's next period."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.repositories import players as player_repo
from ratingdb.repositories import publication as repo
from ratingdb.repositories.published.tournaments import tournament_summaries
from ratingdb.rules import Category, Period, PeriodResult
from ratingdb.rules.messages import Message
from ratingdb.services.close import Computation
from ratingdb.services.close.computation import changes

AUTOMATIC = "automatic"
APPROVAL = "approval"
AWAITING_APPROVAL = "awaiting-approval"
#: How many of the largest gains and losses a preview lists.
LARGEST = 10


class PublicationConflict(Exception):
    """The period is not in a state that allows this (409): published already, automatic
    before its cut-off, or a list that is no longer the one previewed (``reasons``)."""

    def __init__(self, message: str | Message, reasons: Sequence[str | Message] = ()) -> None:
        #: In the back office's words (``rules.messages``); ``message`` and ``reasons`` are
        #: their English, the JSON API's.
        self.text = message if isinstance(message, Message) else Message(message)
        self.explained = [r if isinstance(r, Message) else Message(r) for r in reasons]
        self.message = self.text.english()
        self.reasons = [reason.english() for reason in self.explained]
        super().__init__(self.message)


class AlreadyPublished(PublicationConflict):
    """The period's list is out: nothing to preview or approve (409)."""


class ListChanged(PublicationConflict):
    """The list a close would publish now is not the one previewed: ``digest`` is the list
    computed now; preview again."""

    def __init__(
        self, message: str | Message, reasons: Sequence[str | Message], digest: str
    ) -> None:
        super().__init__(message, reasons)
        self.digest = digest


def mode_of(category: Category, approval: Collection[Category]) -> str:
    """``approval`` when the category's scheduled close waits for an officer, else
    ``automatic``."""
    return APPROVAL if category in approval else AUTOMATIC


# --- what a preview shows --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """A player whose entry changes (who played, whose rating or K moves, a first rating)."""

    player_id: str
    name: str | None
    previous_rating: int | None  # None: not on the previous list
    rating: int | None  # None: off the new list (below the floor)
    change: int | None
    games: int  # rated in the period
    k_factor: int | None  # applied in the period (None without rated games)
    previous_k_factor: int | None  # on the previous list
    next_k_factor: int | None  # on the new list
    first_rating: bool

    @property
    def k_changed(self) -> bool:
        return (
            self.previous_k_factor is not None
            and self.next_k_factor is not None
            and self.previous_k_factor != self.next_k_factor
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "name": self.name,
            "previous_rating": self.previous_rating,
            "rating": self.rating,
            "change": self.change,
            "games": self.games,
            "k_factor": self.k_factor,
            "previous_k_factor": self.previous_k_factor,
            "next_k_factor": self.next_k_factor,
            "first_rating": self.first_rating,
        }


@dataclass(frozen=True, slots=True)
class IncludedTournament:
    tournament_id: str
    name: str
    start_date: date
    end_date: date
    late: bool
    games: int  # stored and in force (forfeits included)
    rated_games: int  # rated in the computed list

    def as_json(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "name": self.name,
            "start_date": self.start_date.isoformat(),
            "end_date": self.end_date.isoformat(),
            "late": self.late,
            "games": self.games,
            "rated_games": self.rated_games,
        }


@dataclass(frozen=True, slots=True)
class Approval:
    """An approval given before the cut-off, of the list with ``digest``."""

    digest: str
    by: str
    at: datetime

    def as_json(self) -> dict[str, Any]:
        return {"digest": self.digest, "by": self.by, "at": self.at.isoformat()}


@dataclass(frozen=True, slots=True)
class Preview:
    """The list a close of the period would publish now, and where the period stands."""

    category: Category
    period: Period
    mode: str
    state: str  # the period's: open or awaiting-approval
    closing_date: date
    cut_off_passed: bool
    rule_version: str
    digest: str
    entries: int
    games: int
    players_with_games: int
    below_floor: int
    starts_from: tuple[Period, int] | None  # the previous list and its revision
    changes: tuple[Change, ...]
    tournaments: tuple[IncludedTournament, ...]
    computed_at: datetime | None  # awaiting approval: when the scheduled close computed it
    computed_digest: str | None
    approvals: tuple[Approval, ...]  # given before the cut-off
    #: Quality-control flags (services.quality), each with its ``kind``, ``players`` and the
    #: ``message`` that explains it; never a refusal.
    quality_flags: tuple[dict[str, Any], ...] = ()

    @property
    def largest_gains(self) -> list[Change]:
        gains = [c for c in self.changes if c.change is not None and c.change > 0]
        return sorted(gains, key=lambda c: (-(c.change or 0), c.player_id))[:LARGEST]

    @property
    def largest_losses(self) -> list[Change]:
        losses = [c for c in self.changes if c.change is not None and c.change < 0]
        return sorted(losses, key=lambda c: (c.change or 0, c.player_id))[:LARGEST]

    @property
    def first_ratings(self) -> list[Change]:
        return [c for c in self.changes if c.first_rating]

    @property
    def k_changes(self) -> list[Change]:
        return [c for c in self.changes if c.k_changed]

    @property
    def dropped(self) -> list[Change]:
        """Players on the previous list who are off the new one (below the floor)."""
        return [c for c in self.changes if c.previous_rating is not None and c.rating is None]

    @property
    def approved(self) -> Approval | None:
        """The approval of this very list, if one was given before the cut-off."""
        return next((a for a in self.approvals if a.digest == self.digest), None)

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "mode": self.mode,
            "state": self.state,
            "closing_date": self.closing_date.isoformat(),
            "cut_off_passed": self.cut_off_passed,
            "rule_version": self.rule_version,
            "digest": self.digest,
            "starts_from": None
            if self.starts_from is None
            else {"period": str(self.starts_from[0]), "revision": self.starts_from[1]},
            "entries": self.entries,
            "games": self.games,
            "players_with_games": self.players_with_games,
            "below_floor": self.below_floor,
            "changes": [c.as_json() for c in self.changes],
            "largest_gains": [c.as_json() for c in self.largest_gains],
            "largest_losses": [c.as_json() for c in self.largest_losses],
            "first_ratings": [c.as_json() for c in self.first_ratings],
            "k_changes": [c.as_json() for c in self.k_changes],
            "tournaments": [t.as_json() for t in self.tournaments],
            "computed_at": None if self.computed_at is None else self.computed_at.isoformat(),
            "computed_digest": self.computed_digest,
            "approvals": [a.as_json() for a in self.approvals],
            "quality_flags": list(self.quality_flags),
        }


@dataclass(frozen=True, slots=True)
class Approved:
    """What an approval did: ``published`` now, or ``approved`` for the scheduled close."""

    category: Category
    period: Period
    state: str
    digest: str
    entries: int
    rule_version: str | None
    closing_date: date
    list_id: int | None = None
    revision: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "state": self.state,
            "digest": self.digest,
            "entries": self.entries,
            "rule_version": self.rule_version,
            "closing_date": self.closing_date.isoformat(),
            "list_id": self.list_id,
            "revision": self.revision,
        }


@dataclass(frozen=True, slots=True)
class NextPeriod:
    """A category's next period to publish, for the Publication page."""

    category: Category
    mode: str
    period: Period | None  # None: no list and no tournament yet
    state: str
    closing_date: date | None
    cut_off_passed: bool
    tournaments: int
    games: int
    latest_published: Period | None
    computed_at: datetime | None
    approvals: tuple[Approval, ...]


# --- from a computed period ---------------------------------------------------------------


def changes_of(
    session: Session,
    computation: Computation,
    moved: Sequence[tuple[str, int | None, int | None]] | None = None,
) -> Iterator[Change]:
    """Who changes: every player who played or whose rating moves (a dry run's ``changes``,
    given as ``moved`` when the dry run has them already), and every player whose K for the
    next period is not the previous list's."""
    results = computation.results
    previous_k = (
        {} if computation.previous is None else repo.k_factors_on(session, computation.previous.id)
    )
    moved_ids = {player_id for player_id, _, _ in (changes(results) if moved is None else moved)}
    k_moved = {
        player_id
        for player_id, r in results.items()
        if r.new_rating is not None
        and player_id in previous_k
        and previous_k[player_id] != r.next_k_factor
    }
    wanted = sorted(moved_ids | k_moved)
    names: dict[str, str] = {}
    for chunk in player_repo.chunks(wanted):
        names |= player_repo.names(session, chunk)
    for player_id in wanted:
        r = results[player_id]
        previous = previous_rating(r)
        yield Change(
            player_id=player_id,
            name=names.get(player_id),
            previous_rating=previous,
            rating=r.new_rating,
            change=None if previous is None or r.new_rating is None else r.new_rating - previous,
            games=r.rated_games,
            k_factor=r.k_factor if r.rated_games else None,
            previous_k_factor=previous_k.get(player_id),
            next_k_factor=r.next_k_factor if r.new_rating is not None else None,
            first_rating=r.is_first_rating,
        )


def previous_rating(r: PeriodResult) -> int | None:
    """The rating the change starts from (after a one-time adjustment), as a dry run shows it."""
    return r.base_rating if r.published_rating is not None else None


def games_used(computation: Computation) -> dict[str, list[int]]:
    """tournament id -> the ids of its games the computation used, sorted."""
    used: dict[str, set[int]] = defaultdict(set)
    for key, game_ids in computation.loaded.game_ids.items():
        used[computation.loaded.tournament_of[key]].update(game_ids)
    return {tournament_id: sorted(ids) for tournament_id, ids in used.items()}


def tournaments_of(session: Session, computation: Computation) -> Iterator[IncludedTournament]:
    rules = computation.rules
    used = games_used(computation)
    for row in tournament_summaries(session, rules.category, rules.period.list_date):
        yield IncludedTournament(
            row.tournament_id, row.name, row.start_date, row.end_date, bool(row.late),
            int(row.games), len(used.get(row.tournament_id, ())),
        )  # fmt: skip
