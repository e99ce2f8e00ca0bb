"""Publication: each category's next list previewed as a close now would publish it (the dry
run), published on an officer's approval, and the scheduled close of a category published with
approval (README "Back office", "Publication").

Each category is published ``automatic`` (the default: the scheduled close publishes its list
at the cut-off) or with ``approval`` (``Settings.publication_approval``): the scheduled close
then computes the list at the cut-off, leaves the period ``awaiting-approval`` with when it
computed it and its digest, publishes nothing, and closes no later period of the category (each
starts from the one before). An officer previews the list and approves it: the approval
recomputes the list inside the close itself (``close_period(before_publishing=...)``, the code
``ratingdb periods close`` runs) and publishes it only if it is the list previewed, the same
digest; otherwise nothing is written and the officer is told why it differs: tournaments added,
removed or corrected since the preview, corrections, revised starting lists, and the entries
that differ. Approved before the cut-off, the list is published by the scheduled close if it is
still the same then. ``ratingdb periods close`` stays the trusted path and publishes directly.

Every preview shown is kept (``publication_previews``, once per distinct list): what it was
computed from and the entries that change, to explain a difference later.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.models import PeriodRow, PublicationPreviewRow
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import publication as repo
from ratingdb.repositories.published.tournaments import tournament_summaries
from ratingdb.rules import Category, Period, PeriodResult, PeriodRules, closing_date
from ratingdb.rules.calendar import NotAListPeriod, next_period
from ratingdb.rules.versions import NoRuleVersion
from ratingdb.services import audit
from ratingdb.services.close import (
    STANDARD_SEEDED,
    CloseOutcome,
    Computation,
    close_period,
    entries_digest,
)
from ratingdb.services.close.computation import changes
from ratingdb.services.progress import Track, no_progress

AUTOMATIC = "automatic"
APPROVAL = "approval"
AWAITING_APPROVAL = "awaiting-approval"
#: How many of the largest gains and losses a preview lists.
LARGEST = 10
#: How many differing entries a refusal names (the rest are counted).
DIFFERENCES_NAMED = 10
_DIGEST = re.compile(r"[0-9a-f]{64}")


class PublicationConflict(Exception):
    """The period is not in a state that allows this (409): published already, automatic
    before its cut-off, or a list that is no longer the one previewed (``reasons``)."""

    def __init__(self, message: str, reasons: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.reasons = list(reasons)


class AlreadyPublished(PublicationConflict):
    """The period's list is out: nothing to preview or approve (409)."""


class ListChanged(PublicationConflict):
    """The list a close would publish now is not the one previewed: ``digest`` is the list
    computed now; preview again."""

    def __init__(self, message: str, reasons: Sequence[str], digest: str) -> None:
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
        }


@dataclass(frozen=True, slots=True)
class Approved:
    """What an approval did: ``published`` now, or ``approved`` for the scheduled close."""

    category: Category
    period: Period
    state: str
    digest: str
    entries: int
    rule_version: str
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


# --- reading the request ---------------------------------------------------------------------


def parse_category(text: str) -> Category:
    try:
        return Category.parse(text)
    except ValueError as error:
        raise InputError(str(error), field="category") from None


def parse_period(category: Category, text: str) -> Period:
    """A period of the category that has a list, under rules ratingdb knows."""
    try:
        period = Period.parse(text)
        PeriodRules.for_period(category, period)
    except (ValueError, NotAListPeriod, NoRuleVersion) as error:
        raise InputError(str(error), field="period") from None
    return period


def _digest(text: str) -> str:
    digest = text.strip().lower()
    if not _DIGEST.fullmatch(digest):
        raise InputError(
            f"must be the 64 hexadecimal digits of a preview's digest, got {text!r}",
            field="digest",
        )
    return digest


# --- the Publication page --------------------------------------------------------------------


def next_periods(session: Session, today: date, approval: Collection[Category]) -> list[NextPeriod]:
    """Each category's next period: the one after its latest published list, else its first
    period with tournaments; with its state, mode and what it holds."""
    counts = period_repo.period_counts(session)
    found: list[NextPeriod] = []
    for category in Category:
        lists = period_repo.lists_of(session, category)
        latest = Period.of_list_date(lists[-1].list_date) if lists else None
        if latest is not None:
            period: Period | None = next_period(category, latest)
        else:
            first = period_repo.first_open(session, category)
            period = None if first is None else Period.of_list_date(first)
        row = None if period is None else period_repo.get_period(session, category, period)
        cut_off = None if period is None else closing_date(category, period)
        tournaments, games = (0, 0) if row is None else counts.get(row.id, (0, 0))
        found.append(
            NextPeriod(
                category,
                mode_of(category, approval),
                period,
                "open" if row is None else row.state,
                cut_off,
                cut_off is not None and cut_off < today,
                tournaments,
                games,
                latest,
                None if row is None else row.computed_at,
                () if period is None else _approvals(session, category, period),
            )
        )
    return found


def _approvals(session: Session, category: Category, period: Period) -> tuple[Approval, ...]:
    return tuple(
        Approval(row.digest, row.approved_by or "", row.approved_at)
        for row in repo.approved_previews(session, category.value, period.list_date)
        if row.approved_at is not None
    )


# --- preview ---------------------------------------------------------------------------------


def preview(
    session: Session,
    category: Category,
    period: Period,
    *,
    now: datetime,
    viewer: str,
    approval: Collection[Category],
) -> Preview:
    """The list a close now would publish (nothing of it written), kept as previewed by
    ``viewer`` so that an approval can be checked against it."""
    row = _unpublished(session, category, period)
    computation = _compute(session, category, period, now=now, actor=viewer)
    shown = _preview(session, computation, row, approval, now)
    _remember(session, computation, shown, viewer, now)
    return shown


def _unpublished(session: Session, category: Category, period: Period) -> PeriodRow | None:
    row = period_repo.get_period(session, category, period)
    if row is not None and row.state == "published":
        published = period_repo.list_for(session, category, period)
        detail = (
            ""
            if published is None
            else f" (revision {published.revision}, {published.entry_count} entries)"
        )
        raise AlreadyPublished(
            f"{category.value} {period} is published{detail}: a published list never changes"
        )
    return row


def _compute(
    session: Session,
    category: Category,
    period: Period,
    *,
    now: datetime,
    actor: str,
    track: Track = no_progress,
) -> Computation:
    """The period computed as a dry-run close computes it."""
    captured: list[Computation] = []
    outcome = _closing(
        lambda: close_period(session, category, period, now=now, closed_by=actor,
                             dry_run=True, track=track, before_publishing=captured.append)
    )  # fmt: skip
    if outcome.already_published or not captured:
        raise AlreadyPublished(f"{category.value} {period} is already published")
    return captured[0]


def _closing(run: Any) -> CloseOutcome:
    """A close; its refusals name the domain's field (``period``), not a command's option."""
    try:
        outcome: CloseOutcome = run()
    except InputError as error:
        if error.field is not None and error.field.startswith("--"):
            raise InputError(error.message, field="period") from None
        raise
    return outcome


def _preview(
    session: Session,
    computation: Computation,
    row: PeriodRow | None,
    approval: Collection[Category],
    now: datetime,
) -> Preview:
    rules = computation.rules
    category, period = rules.category, rules.period
    outcome = computation.outcome("dry run")
    cut_off = closing_date(category, period)
    previous = computation.previous
    return Preview(
        category=category,
        period=period,
        mode=mode_of(category, approval),
        state="open" if row is None else row.state,
        closing_date=cut_off,
        cut_off_passed=cut_off < now.date(),
        rule_version=rules.version.name,
        digest=entries_digest(computation.results),
        entries=outcome.entries,
        games=outcome.games,
        players_with_games=outcome.players_with_games,
        below_floor=outcome.below_floor,
        starts_from=None
        if previous is None
        else (Period.of_list_date(previous.list_date), previous.revision),
        changes=tuple(_changes(session, computation)),
        tournaments=tuple(_tournaments(session, computation)),
        computed_at=None if row is None else row.computed_at,
        computed_digest=None if row is None else row.computed_digest,
        approvals=_approvals(session, category, period),
    )


def _changes(session: Session, computation: Computation) -> Iterator[Change]:
    """Who changes: every player who played or whose rating moves (a dry run's ``changes``),
    and every player whose K for the next period is not the previous list's."""
    results = computation.results
    previous_k = (
        {} if computation.previous is None else repo.k_factors_on(session, computation.previous.id)
    )
    moved = {player_id for player_id, _, _ in changes(results)}
    k_moved = {
        player_id
        for player_id, r in results.items()
        if r.new_rating is not None
        and player_id in previous_k
        and previous_k[player_id] != r.next_k_factor
    }
    wanted = sorted(moved | k_moved)
    names: dict[str, str] = {}
    for chunk in player_repo.chunks(wanted):
        names |= player_repo.names(session, chunk)
    for player_id in wanted:
        r = results[player_id]
        previous = _previous_rating(r)
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


def _previous_rating(r: PeriodResult) -> int | None:
    """The rating the change starts from (after a one-time adjustment), as a dry run shows it."""
    return r.base_rating if r.published_rating is not None else None


def _games_used(computation: Computation) -> dict[str, list[int]]:
    """tournament id -> the ids of its games the computation used, sorted."""
    used: dict[str, set[int]] = defaultdict(set)
    for key, game_ids in computation.loaded.game_ids.items():
        used[computation.loaded.tournament_of[key]].update(game_ids)
    return {tournament_id: sorted(ids) for tournament_id, ids in used.items()}


def _tournaments(session: Session, computation: Computation) -> Iterator[IncludedTournament]:
    rules = computation.rules
    used = _games_used(computation)
    for row in tournament_summaries(session, rules.category.value, rules.period.list_date):
        yield IncludedTournament(
            row.tournament_id, row.name, row.start_date, row.end_date, bool(row.late),
            int(row.games), len(used.get(row.tournament_id, ())),
        )  # fmt: skip


# --- what a preview is computed from, kept to explain a difference ---------------------------


def _inputs(session: Session, computation: Computation) -> dict[str, Any]:
    """The lists the period starts from, the last correction, and each tournament's games."""
    rules = computation.rules
    standard = (
        period_repo.lists_of(session, Category.FIDE_STANDARD)
        if rules.category in STANDARD_SEEDED
        else []
    )
    return {
        "rule_version": rules.version.name,
        "lists": {str(Period.of_list_date(r.list_date)): r.revision for r in computation.lists},
        "standard_lists": {str(Period.of_list_date(r.list_date)): r.revision for r in standard},
        "corrections": computation.corrections,
        "tournaments": {
            tournament_id: [len(ids), _fingerprint(ids)]
            for tournament_id, ids in sorted(_games_used(computation).items())
        },
    }


def _fingerprint(game_ids: Sequence[int]) -> str:
    return hashlib.sha256(",".join(map(str, game_ids)).encode()).hexdigest()[:16]


def _entries(computation: Computation, changed: Sequence[Change]) -> dict[str, list[Any]]:
    """player id -> [rating, previous rating, change, games, K] of every player who changes
    (the others keep their entry of the previous list)."""
    results = computation.results
    return {
        c.player_id: [c.rating, c.previous_rating, c.change, c.games,
                      results[c.player_id].next_k_factor]
        for c in changed
    }  # fmt: skip


def _remember(
    session: Session, computation: Computation, shown: Preview, viewer: str, now: datetime
) -> None:
    """Keep the preview (once per distinct list; a list shown again keeps its latest inputs)."""
    inputs = _inputs(session, computation)
    row = repo.find_preview(session, shown.category.value, shown.period.list_date, shown.digest)
    if row is None:
        repo.add_preview(
            session,
            PublicationPreviewRow(
                category=shown.category.value,
                list_date=shown.period.list_date,
                digest=shown.digest,
                rule_version=shown.rule_version,
                entry_count=shown.entries,
                previewed_at=now,
                previewed_by=viewer,
                inputs=inputs,
                entries=_entries(computation, shown.changes),
            ),
        )
        return
    row.previewed_at = now
    row.previewed_by = viewer
    row.inputs = inputs
    session.flush()


def _differences(
    session: Session, shown: PublicationPreviewRow, computation: Computation
) -> list[str]:
    """Why the list computed now is not the previewed one, in words."""
    before, now = shown.inputs, _inputs(session, computation)
    category = computation.rules.category
    reasons: list[str] = []
    if before["rule_version"] != now["rule_version"]:
        reasons.append(
            f"the rules are now {now['rule_version']} (the preview used {before['rule_version']})"
        )
    for key, what in (("lists", category.value), ("standard_lists", "fide-standard")):
        was, is_ = before[key], now[key]
        for name in sorted(was.keys() | is_.keys()):
            if was.get(name) != is_.get(name):
                reasons.append(
                    f"the {what} list of {name} it starts from was "
                    f"{_revision(was.get(name))} at the preview and is {_revision(is_.get(name))} "
                    "now"
                )
    reasons += _tournament_differences(session, before["tournaments"], now["tournaments"])
    for correction in repo.corrections_between(session, before["corrections"],
                                               now["corrections"]):  # fmt: skip
        if correction.category in (None, category.value):
            about = f", tournament {correction.tournament_id}" if correction.tournament_id else ""
            reasons.append(
                f"correction {correction.id} ({correction.kind}{about}) recorded since the "
                f"preview by {correction.actor}: {correction.reason}"
            )
    reasons += _entry_differences(session, shown.entries, computation)
    return reasons


def _revision(revision: int | None) -> str:
    return "not published" if revision is None else f"revision {revision}"


def _tournament_differences(
    session: Session, before: Mapping[str, list[Any]], now: Mapping[str, list[Any]]
) -> list[str]:
    names = {
        row.tournament_id: f"{row.tournament_id} ({row.name}, {row.start_date} to {row.end_date})"
        for row in tournament_summaries(session, None, None)
        if row.tournament_id in before.keys() | now.keys()
    }
    reasons = []
    for tournament_id in sorted(before.keys() | now.keys()):
        was, is_ = before.get(tournament_id), now.get(tournament_id)
        name = names.get(tournament_id, tournament_id)
        if was is None and is_ is not None:
            reasons.append(f"tournament {name} was added since the preview: {is_[0]} rated games")
        elif is_ is None and was is not None:
            reasons.append(
                f"tournament {name} is no longer rated in the period ({was[0]} rated games at "
                "the preview)"
            )
        elif was != is_ and was is not None and is_ is not None:
            reasons.append(
                f"tournament {name} was corrected or replaced since the preview: {was[0]} rated "
                f"games at the preview, {is_[0]} now"
            )
    return reasons


def _entry_differences(
    session: Session, before: Mapping[str, list[Any]], computation: Computation
) -> list[str]:
    """The entries that are not what the preview showed (a player missing from a side kept
    the previous list's entry there)."""
    now = _entries(computation, list(_changes(session, computation)))
    differing = sorted(p for p in before.keys() | now.keys() if before.get(p) != now.get(p))
    if not differing:
        return []
    named = differing[:DIFFERENCES_NAMED]
    names = player_repo.names(session, named)
    lines = [
        f"{player_id} {names.get(player_id, '')}: {_entry(before.get(player_id))} at the "
        f"preview, {_entry(now.get(player_id))} now"
        for player_id in named
    ]
    more = len(differing) - len(named)
    tail = f" (and {more} more)" if more > 0 else ""
    return [f"{len(differing)} entries differ{tail}: " + "; ".join(lines)]


def _entry(entry: list[Any] | None) -> str:
    if entry is None:
        return "unchanged"
    rating, _, change, games, k = entry
    if rating is None:
        return "not on the list"
    moved = "" if change is None else f", {change:+d}"
    return f"{rating}{moved}, {games} games, K {k}"


# --- approve ---------------------------------------------------------------------------------


def approve(
    session: Session,
    category: Category,
    period: Period,
    digest: str,
    *,
    now: datetime,
    user: str,
    approval: Collection[Category],
) -> Approved:
    """Publish the previewed list whose entries have ``digest``, through the close itself, if
    it is still the list a close computes; before the cut-off of a category published with
    approval, approve it for the scheduled close instead. Refused (nothing written) when the
    list differs, saying why."""
    wanted = _digest(digest)
    _unpublished(session, category, period)
    shown = repo.find_preview(session, category.value, period.list_date, wanted)
    if shown is None:
        raise InputError(
            f"no preview of {category.value} {period} showed a list with digest {wanted}: "
            "preview the list, then approve what it shows",
            field="digest",
        )
    cut_off = closing_date(category, period)
    due = cut_off < now.date()
    if not due and category not in approval:
        raise PublicationConflict(
            f"{category.value} is published automatically: the scheduled close publishes "
            f"{period} after its cut-off on {cut_off.isoformat()}; there is nothing to approve "
            "before then"
        )

    def same_as_previewed(computation: Computation) -> None:
        computed = entries_digest(computation.results)
        if computed != wanted:
            reasons = _differences(session, shown, computation)
            raise ListChanged(
                f"the {category.value} {period} list a close computes now is not the one "
                f"previewed (digest {wanted[:12]}..., now {computed[:12]}...): preview it again",
                reasons or ["its entries differ"],
                computed,
            )

    if not due:
        same_as_previewed(_compute(session, category, period, now=now, actor=user))
        repo.mark_approved(session, shown, user, now)
        _record_approval(session, shown, user, now, published=None)
        return Approved(category, period, "approved", wanted, shown.entry_count,
                        shown.rule_version, cut_off)  # fmt: skip
    outcome = _closing(
        lambda: close_period(session, category, period, now=now, closed_by=user,
                             before_publishing=same_as_previewed)
    )  # fmt: skip
    if outcome.already_published:  # another close published it meanwhile
        raise AlreadyPublished(
            f"{category.value} {period} was published meanwhile (revision {outcome.revision})"
        )
    repo.mark_approved(session, shown, user, now)
    _record_approval(session, shown, user, now, published=outcome)
    return Approved(category, period, "published", wanted, outcome.entries,
                    outcome.rule_version or shown.rule_version, cut_off, outcome.list_id,
                    outcome.revision)  # fmt: skip


def _record_approval(
    session: Session,
    shown: PublicationPreviewRow,
    user: str,
    now: datetime,
    *,
    published: CloseOutcome | None,
) -> None:
    details: dict[str, Any] = {
        "category": shown.category,
        "period": str(Period.of_list_date(shown.list_date)),
        "digest": shown.digest,
        "published": published is not None,
    }
    if published is not None:
        details |= {"list_id": published.list_id, "revision": published.revision}
    audit.record(session, "publication-approve", user, now,
                 counts={"entries": shown.entry_count}, details=details)  # fmt: skip


# --- the scheduled close ---------------------------------------------------------------------


class _Held(Exception):
    """A computed list without an approval: the close stops before writing it."""

    def __init__(self, computation: Computation, digest: str) -> None:
        super().__init__(digest)
        self.computation = computation
        self.digest = digest


def scheduled_close(
    session: Session,
    category: Category,
    period: Period,
    *,
    now: datetime,
    actor: str,
    approval: Collection[Category],
    track: Track = no_progress,
) -> CloseOutcome:
    """The scheduled close of a period whose cut-off has passed. Automatic: the close. With
    approval: the list is computed; if an officer approved this very list before the cut-off
    it is published, otherwise the period is left ``awaiting-approval`` (when computed, the
    digest) and nothing is published: the outcome's state is ``awaiting approval``."""
    if category not in approval:
        return close_period(session, category, period, now=now, closed_by=actor, track=track)
    approved = {a.digest for a in _approvals(session, category, period)}

    def hold_unless_approved(computation: Computation) -> None:
        digest = entries_digest(computation.results)
        if digest not in approved:
            raise _Held(computation, digest)

    try:
        with session.begin_nested():  # the claim is undone if the list is held
            return close_period(session, category, period, now=now, closed_by=actor,
                                track=track, before_publishing=hold_unless_approved)  # fmt: skip
    except _Held as held:
        session.expire_all()
        row = period_repo.get_or_create_period(session, category, period)
        if row.state != AWAITING_APPROVAL or row.computed_digest != held.digest:
            period_repo.mark_awaiting_approval(session, row, now, held.digest)
            outcome = held.computation.outcome("awaiting approval")
            audit.record(
                session, "close-awaiting-approval", actor, now,
                counts={"entries": outcome.entries, "games": outcome.games},
                details={"category": category.value, "period": str(period),
                         "digest": held.digest, "rule_version": outcome.rule_version},
            )  # fmt: skip
        return dataclasses.replace(
            held.computation.outcome("awaiting approval"), digest=held.digest
        )
