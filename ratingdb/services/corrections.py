"""Corrections after publication: a game's result, a duplicate player, an imported list. Each
is recorded (who, when, why, before and after) and replaces rows instead of editing them; a
correction that touches a published period recomputes it and the later ones
(services.revisions)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind, ListSource, PeriodState
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import PLAYED_RESULTS, RESULTS
from ratingdb.models import CorrectionRow, GameRow, PlayerRow, RatingListRow, TournamentRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.repositories.games import NewGame
from ratingdb.rules import Category, Period
from ratingdb.services import audit, impact
from ratingdb.services.close import STANDARD_SEEDED
from ratingdb.services.lists import ImportedList, Replacement, check_period, import_list_file
from ratingdb.services.progress import Track, no_progress
from ratingdb.services.revisions import Revision, list_changes, recalculate
from ratingdb.services.tournaments import ReadTournament, read_tournament, refuse_unknown_players


@dataclass(frozen=True, slots=True)
class CorrectionOutcome:
    correction_id: int
    kind: CorrectionKind
    revisions: tuple[Revision, ...]
    pending: tuple[str, ...]  # "category period" of open periods the correction changes

    def as_json(self) -> dict[str, Any]:
        return {
            "correction_id": self.correction_id,
            "kind": self.kind,
            "revisions": [revision.as_json() for revision in self.revisions],
            "open_periods_changed": list(self.pending),
        }


def correct_game(
    session: Session,
    *,
    tournament_id: str,
    round_number: int,
    white_id: str,
    black_id: str,
    result: str,
    reason: str,
    actor: str,
    now: datetime,
    track: Track = no_progress,
    dry_run: bool = False,
) -> CorrectionOutcome:
    """Replace one game's result; recompute the lists it changes. ``dry_run``: the revisions
    are computed (services.impact), not written; the caller rolls the correction back."""
    if result not in RESULTS:
        raise InputError(f"must be one of {', '.join(sorted(RESULTS))}; got {result!r}",
                         field="result")  # fmt: skip
    _require_reason(reason, "a correction")
    # Two corrections of one game at once: the second waits, then reads the game as the first
    # left it (its result already the one asked for: refused, nothing written).
    player_repo.lock_players(session, [white_id, black_id])
    tournament = tournament_repo.get(session, tournament_id)
    if tournament is None:
        raise InputError(f"no tournament {tournament_id}", field="tournament")
    game = game_repo.current_game(session, tournament_id, round_number, white_id, black_id)
    if game is None:
        raise InputError(
            f"tournament {tournament_id} has no game {white_id} - {black_id} in round "
            f"{round_number} (white first)",
            field="white",
        )
    if game.result == result:
        raise InputError(f"the game's result is already {result}", field="result")
    before = {"game_id": game.id, "result": game.result}
    correction = correction_repo.add(
        session, CorrectionKind.GAME, category=tournament.category, tournament_id=tournament_id,
        reason=reason, actor=actor, now=now, before=before,
    )  # fmt: skip
    # The old row leaves the current games before the new one arrives.
    game_repo.supersede(session, [game.id], correction.id)
    replacement = game_repo.add_game(
        session,
        NewGame(tournament_id, round_number, white_id, black_id, result, result in PLAYED_RESULTS),
        created_by=correction.id,
    )
    correction.after = {"game_id": replacement.id, "result": result}
    outcome = _recompute(
        session, correction, [tournament], now=now, track=track, dry_run=dry_run,
        games_changed=[(tournament_id, white_id, black_id)],
    )  # fmt: skip
    audit.record(
        session, "correction", actor, now,
        counts={"revisions": len(outcome.revisions)},
        details={"correction_id": correction.id, "kind": correction.kind,
                 "tournament_id": tournament_id,
                 "before": before, "after": correction.after, "reason": reason},
    )  # fmt: skip
    return outcome


def replace_tournament(
    session: Session,
    tournament_id: str,
    path: Path,
    *,
    file_format: str | None,
    reason: str,
    actor: str,
    now: datetime,
    track: Track = no_progress,
    dry_run: bool = False,
) -> tuple[CorrectionOutcome, ReadTournament]:
    """A corrected TRF or games CSV for a stored tournament: its games are replaced (the old
    rows kept, marked superseded), the lists it changes recomputed. The tournament keeps its
    id, category and period; its dates must not change (a tournament with other dates may
    belong to another period: import it as a new one), and a file that gives it as stored
    (name and games) is refused: nothing to correct. ``dry_run``: as correct_game's."""
    _require_reason(reason, "a correction")
    tournament = tournament_repo.get(session, tournament_id)
    if tournament is None:
        raise InputError(f"no tournament {tournament_id}", field="replacement")
    read = _read_replacement(session, tournament, path, file_format)
    new = read.tournament
    # Read under the import lock (read_tournament took it): a replacement running beside this
    # one has committed, and what it left is what this one replaces.
    session.refresh(tournament)
    old_games = game_repo.current_games_of_tournament(session, tournament_id)
    if new.name == tournament.name and sorted(
        (g.round, g.white_id, g.black_id, g.result) for g in old_games
    ) == sorted((g.round, g.white_id, g.black_id, g.result) for g in new.games):
        raise InputError(
            f"the file gives tournament {tournament_id} as it is stored: nothing to correct",
            source=str(path),
            field="replacement",
        )
    before = {"name": tournament.name, "digest": tournament.source_digest,
              "game_ids": [g.id for g in old_games]}  # fmt: skip
    correction = correction_repo.add(
        session, CorrectionKind.TOURNAMENT, category=tournament.category,
        tournament_id=tournament_id, reason=reason, actor=actor, now=now, before=before,
    )  # fmt: skip
    _replace_games(
        session,
        old_games,
        (NewGame(tournament_id, g.round, g.white_id, g.black_id, g.result, g.played)
         for g in new.games),
        correction.id,
    )  # fmt: skip
    tournament.name = new.name
    tournament.source_digest = read.digest
    correction.after = {"name": new.name, "digest": read.digest, "games": len(new.games)}
    outcome = _recompute(
        session, correction, [tournament], now=now, track=track, dry_run=dry_run,
        games_changed=[(tournament_id, g.white_id, g.black_id) for g in old_games]
        + [(tournament_id, g.white_id, g.black_id) for g in new.games],
    )  # fmt: skip
    audit.record(
        session, "correction", actor, now, file_digest=read.digest,
        counts={"games_before": len(old_games), "games_after": len(new.games),
                "revisions": len(outcome.revisions)},
        details={"correction_id": correction.id, "kind": correction.kind,
                 "tournament_id": tournament_id, "reason": reason},
    )  # fmt: skip
    return outcome, read


def _read_replacement(
    session: Session, tournament: TournamentRow, path: Path, file_format: str | None
) -> ReadTournament:
    """The corrected file, read as an import reads it: same dates, every player known."""
    read = read_tournament(session, path, [tournament.category], None, file_format)
    new = read.tournament
    if (new.start_date, new.end_date) != (tournament.start_date, tournament.end_date):
        raise InputError(
            f"the corrected file runs {new.start_date} to {new.end_date}, tournament "
            f"{tournament.tournament_id} {tournament.start_date} to {tournament.end_date}: dates "
            "cannot change in a replacement; import the file as a new tournament",
            source=str(path),
            field="replacement",
        )
    refuse_unknown_players(session, new)
    return read


def _replace_games(
    session: Session, old: Sequence[GameRow], new: Iterable[NewGame], correction_id: int
) -> None:
    """The old rows superseded by the correction, then its games stored (one current row per
    game)."""
    game_repo.supersede(session, [g.id for g in old], correction_id)
    game_repo.insert_games(session, new, created_by=correction_id)


def merge_players(
    session: Session, keep: str, drop: str, *, reason: str, actor: str, now: datetime,
    track: Track = no_progress, dry_run: bool = False,
) -> CorrectionOutcome:  # fmt: skip
    """Make two records of one player one: every game of ``drop`` is replaced by the same game
    with ``keep``, ``drop`` is marked merged, and the lists from its first game are recomputed.
    ``dry_run``: as correct_game's."""
    if keep == drop:
        raise InputError("a player cannot be merged into himself", field="drop")
    _require_reason(reason, "a merge")
    # Two merges of the same players (or a merge beside a correction of their games): the second
    # waits, then reads them as the first left them.
    player_repo.lock_players(session, [keep, drop])
    dropped = _players_to_merge(session, keep, drop)
    games = _games_to_merge(session, keep, drop)
    correction = correction_repo.add(
        session, CorrectionKind.MERGE, category=None, tournament_id=None, reason=reason,
        actor=actor, now=now,
        before={"keep": keep, "drop": drop, "game_ids": [g.id for g in games]},
    )  # fmt: skip
    _replace_games(
        session,
        games,
        (NewGame(g.tournament_id, g.round, keep if g.white_id == drop else g.white_id,
                 keep if g.black_id == drop else g.black_id, g.result, g.rated)
         for g in games),
        correction.id,
    )  # fmt: skip
    dropped.merged_into = keep
    tournaments = tournament_repo.with_ids(session, {g.tournament_id for g in games})
    correction.after = {"keep": keep, "games": len(games)}
    outcome = _recompute(
        session, correction, list(tournaments), now=now, track=track, dry_run=dry_run,
        games_changed=[(g.tournament_id, p, keep) for g in games for p in (g.white_id, g.black_id)],
    )  # fmt: skip
    audit.record(
        session, "merge", actor, now,
        counts={"games": len(games), "revisions": len(outcome.revisions)},
        details={"correction_id": correction.id, "keep": keep, "drop": drop, "reason": reason},
    )  # fmt: skip
    return outcome


def _players_to_merge(session: Session, keep: str, drop: str) -> PlayerRow:
    """Both players exist and neither is merged already; returns the one dropped."""
    players = player_repo.by_ids(session, [keep, drop])
    for player_id, field in ((keep, "keep"), (drop, "drop")):
        if player_id not in players:
            raise InputError(f"no player {player_id}", field=field)
        if players[player_id].merged_into is not None:
            raise InputError(
                f"{player_id} is already merged into {players[player_id].merged_into}",
                field=field,
            )
    return players[drop]


def _games_to_merge(session: Session, keep: str, drop: str) -> Sequence[GameRow]:
    """The current games of ``drop``; refused when the two played each other."""
    games = game_repo.current_games_of_player(session, drop)
    clash = [g for g in games if keep in (g.white_id, g.black_id)]
    if clash:
        raise InputError(
            f"{keep} and {drop} played each other (tournament {clash[0].tournament_id}, round "
            f"{clash[0].round}): they are two players",
            field="drop",
        )
    return games


def _require_reason(reason: str, what: str) -> None:
    if not reason.strip():
        raise InputError(f"{what} needs a reason", field="reason")


def replace_list(
    session: Session,
    path: Path,
    category: Category,
    period: Period,
    *,
    file_format: str,
    reason: str,
    actor: str,
    now: datetime,
    track: Track = no_progress,
    source_name: str | None = None,
    dry_run: bool = False,
) -> tuple[CorrectionOutcome, ImportedList]:
    """``lists import --replace``: a corrected file for a list published by an import. The file
    is read and its players created or updated as any list import does; it is published as the
    next revision of the list (the earlier revisions stay as they were), and the later published
    periods of the category are recomputed from it, with the rapid and blitz lists that read a
    standard list, as a tournament correction does. ``source_name``: the file's name as the
    correction and the audit log record it (default: ``path``; the back office gives the
    uploaded file's name, not its temporary copy's). ``dry_run``: the later revisions are
    computed (services.impact), not written (the corrected list's own revision is); the
    caller rolls everything back.

    A list published by a close is refused: it is computed from the period's tournaments, and a
    file put in its place would hide them; correct the tournaments instead."""
    _require_reason(reason, "a correction")
    check_period(category, period)
    # The import lock first (the global order, repositories.periods): the file's players are
    # written after the close locks below, and an import writing the same players before it
    # takes a close lock must not be waiting for this.
    player_repo.lock_imports(session)
    # Before the list is read: no period may be closed beside this from the old revision.
    _hold_off_closes(session, {category})
    current = _imported_list_to_replace(session, category, period)
    years_before = player_repo.all_birth_years(session) if dry_run else {}
    digest = audit.file_digest(path) if path.is_file() else None
    correction = correction_repo.add(
        session, CorrectionKind.LIST_REPLACE, category=category, tournament_id=None, reason=reason,
        actor=actor, now=now,
        before={"list_id": current.id, "revision": current.revision,
                "entries": current.entry_count, "digest": current.digest},
    )  # fmt: skip
    imported = import_list_file(
        session, path, category, period, now, file_format, track=track,
        replaces=Replacement(current.revision + 1, correction.id),
    )  # fmt: skip
    revised, changed = _revision_written(session, category, period, current, imported.list_id, path)
    correction.after = {
        "list_id": revised.id, "revision": revised.revision, "entries": revised.entry_count,
        "digest": revised.digest, "file": source_name or str(path), "file_digest": digest,
        "format": file_format,
    }  # fmt: skip
    own = Revision(category, period, current.revision, revised.revision, changed)
    replaced = None
    if dry_run:
        years_after = player_repo.all_birth_years(session)
        replaced = _Replaced(
            category,
            period,
            impact.changed_players(session, current, revised, changed),
            {p for p, year in years_after.items() if years_before.get(p, year) != year},
        )
    later = _recompute_from(
        session, correction, {category: period}, now=now, track=track, list_replaced=True,
        dry_run=dry_run, replaced=replaced,
    )  # fmt: skip
    outcome = CorrectionOutcome(correction.id, correction.kind, (own, *later), ())
    audit.record(
        session, "correction", actor, now, file_digest=digest,
        counts={"entries": imported.rated, "unrated": imported.unrated,
                "players_created": imported.players_created,
                "players_updated": imported.players_updated,
                "players_changed": len(changed), "revisions": len(outcome.revisions)},
        details={"correction_id": correction.id, "kind": correction.kind,
                 "category": category.value, "period": str(period), "list_id": revised.id,
                 "revision": revised.revision, "file": source_name or str(path),
                 "format": file_format,
                 "reason": reason},
    )  # fmt: skip
    return outcome, imported


def _imported_list_to_replace(
    session: Session, category: Category, period: Period
) -> RatingListRow:
    """The period's published list, refused unless it was imported."""
    period_row = period_repo.get_period(session, category, period)
    current = period_repo.list_for(session, category, period)
    if period_row is None or period_row.state != PeriodState.PUBLISHED or current is None:
        raise InputError(
            f"{category.value} {period} has no published list to replace; "
            "import the list as a new one instead",
            field="period",
        )
    if current.source != ListSource.IMPORT:
        raise InputError(
            f"{category.value} {period} was computed by a close from its tournaments, not "
            "imported: correct its games instead (a game's result, a corrected tournament file, "
            "a merge of two players)",
            field="replacement",
        )
    return current


def _revision_written(
    session: Session,
    category: Category,
    period: Period,
    current: RatingListRow,
    list_id: int,
    path: Path,
) -> tuple[RatingListRow, tuple[tuple[str, int | None, int | None], ...]]:
    """The revision just written from the corrected file, and who moved from ``current``;
    refused when nobody did."""
    revised = period_repo.get_list(session, list_id)
    if revised is None:
        raise AssertionError(f"the list {list_id} just written is not found")
    changed = list_changes(session, current, revised)
    if changed is None:
        raise InputError(
            f"the file gives the list of {category.value} {period} as published "
            f"(revision {current.revision}): nothing to correct",
            source=str(path),
            field="replacement",
        )
    return revised, changed


def _recompute(
    session: Session,
    correction: CorrectionRow,
    tournaments: list[TournamentRow],
    *,
    now: datetime,
    track: Track,
    dry_run: bool,
    games_changed: Sequence[tuple[str, str, str]],
) -> CorrectionOutcome:
    """Recalculate, per category, from the earliest published period the correction touches.
    ``games_changed``: (tournament, player, player) of every game it superseded or created."""
    periods = period_repo.with_ids(session, {t.period_id for t in tournaments})
    first: dict[Category, Period] = {}
    pending: list[str] = []
    for tournament in tournaments:
        period_row = periods[tournament.period_id]
        category = period_row.category
        period = Period.of_list_date(period_row.list_date)
        if period_row.state != PeriodState.PUBLISHED:
            pending.append(f"{category.value} {period}")
            continue
        if category not in first or period < first[category]:
            first[category] = period
    game_players: dict[int, set[str]] = {}
    period_of = {t.tournament_id: t.period_id for t in tournaments}
    for tournament_id, white, black in games_changed:
        game_players.setdefault(period_of[tournament_id], set()).update((white, black))
    revisions = _recompute_from(
        session, correction, first, now=now, track=track, dry_run=dry_run,
        game_players=game_players,
    )  # fmt: skip
    return CorrectionOutcome(correction.id, correction.kind, tuple(revisions),
                             tuple(sorted(set(pending))))  # fmt: skip


def _hold_off_closes(session: Session, categories: set[Category]) -> None:
    """The lists a correction recomputes (with the rapid and blitz lists a standard list seeds)
    must not gain a period closed beside it from the revisions it replaces."""
    if Category.FIDE_STANDARD in categories:
        categories = categories | STANDARD_SEEDED
    for category in sorted(categories, key=lambda c: c.value):
        period_repo.hold_off_closes(session, category)


@dataclass(frozen=True, slots=True)
class _Replaced:
    """A replaced imported list, for the dry run's impact: the players whose entry or status
    differs from the revision replaced, and the players the import gave another birth year."""

    category: Category
    period: Period
    players: set[str]
    birth_years_changed: set[str]


def _recompute_from(
    session: Session,
    correction: CorrectionRow,
    first: dict[Category, Period],
    *,
    now: datetime,
    track: Track,
    list_replaced: bool = False,
    dry_run: bool = False,
    replaced: _Replaced | None = None,
    game_players: Mapping[int, set[str]] | None = None,
) -> list[Revision]:
    """Recalculate each category of ``first`` from its period on, then the rapid and blitz
    lists when a standard list was revised. ``list_replaced``: the list of ``first`` is an
    imported list whose new revision is written already (lists import --replace): imported
    lists are passed over (revisions.recalculate's ``skip_imported``), and a replaced standard
    list is revised even when no later standard list changes.

    ``dry_run``: the revisions the recalculation would publish, computed by services.impact
    from the players the correction reaches, nothing written (``game_players``: period id ->
    the players of the games the correction superseded or created there; ``replaced``: the
    list replaced, with a list_replaced); when a list to recompute was published under another
    rule version than its period's rules now (services.impact.needs_cascade), the whole
    recalculation runs instead, for the caller to roll back."""
    _hold_off_closes(session, set(first))
    if dry_run and not impact.needs_cascade(session, first):
        return _impact_of(session, correction, first, list_replaced, replaced, game_players or {})
    revisions: list[Revision] = []
    for category, period in sorted(first.items(), key=lambda item: item[0].value):
        revisions.extend(
            recalculate(
                session, category, period, now=now, cause=correction.id,
                skip_imported=list_replaced, track=track,
            )
        )  # fmt: skip
    if Category.FIDE_STANDARD in first and (revisions or list_replaced):
        # Rapid and blitz periods rate players without a rating of their own with the standard
        # list (and the 2022 uplift read it): a revised standard list reaches them.
        for category in sorted(STANDARD_SEEDED - first.keys(), key=lambda c: c.value):
            revisions.extend(
                recalculate(
                    session,
                    category,
                    first[Category.FIDE_STANDARD],
                    now=now,
                    cause=correction.id,
                    through_all=True,
                    skip_imported=list_replaced,
                    track=track,
                )
            )
    return revisions


def _impact_of(
    session: Session,
    correction: CorrectionRow,
    first: dict[Category, Period],
    list_replaced: bool,
    replaced: _Replaced | None,
    game_players: Mapping[int, set[str]],
) -> list[Revision]:
    """The revisions of _recompute_from, the same categories in the same order, computed by
    services.impact."""
    if list_replaced and replaced is None:
        raise AssertionError("a replaced list's dry run needs the players the file changed")
    cascade = impact.Cascade.of(
        session,
        correction.id,
        game_players,
        () if replaced is None else replaced.birth_years_changed,
    )
    if replaced is not None:
        cascade.seeds[(replaced.category, replaced.period.list_date)] = replaced.players
    found: list[tuple[Category, Period, int, int, tuple[tuple[str, int | None, int | None], ...]]]
    found = []
    for category, period in sorted(first.items(), key=lambda item: item[0].value):
        found.extend(
            impact.recalculate_impact(
                session, cascade, category, period, skip_imported=list_replaced
            )
        )
    if Category.FIDE_STANDARD in first and (found or list_replaced):
        for category in sorted(STANDARD_SEEDED - first.keys(), key=lambda c: c.value):
            found.extend(
                impact.recalculate_impact(
                    session,
                    cascade,
                    category,
                    first[Category.FIDE_STANDARD],
                    through_all=True,
                    skip_imported=list_replaced,
                )
            )
    return [Revision(*revision) for revision in found]
