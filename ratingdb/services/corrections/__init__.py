"""Corrections after publication: a game's result, a duplicate player, an imported list. Each
is recorded (who, when, why, before and after) and replaces rows instead of editing them; a
correction that touches a published period recomputes it and the later ones
(services.revisions)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from sqlalchemy.orm import Session

from ratingdb.enums import CorrectionKind
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import PLAYED_RESULTS, RESULTS
from ratingdb.models import GameRow, TournamentRow
from ratingdb.repositories import corrections as correction_repo
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.repositories.games import NewGame
from ratingdb.rules.messages import N_, Day, Message
from ratingdb.services import audit
from ratingdb.services.corrections import merges
from ratingdb.services.corrections.list_replacement import replace_list
from ratingdb.services.corrections.outcome import (
    CORRECTION,
    MERGE,
    WITHDRAWAL,
    CorrectionOutcome,
    require_reason,
)
from ratingdb.services.corrections.recomputation import recompute
from ratingdb.services.progress import Track, no_progress
from ratingdb.services.tournaments import ReadTournament, read_tournament, refuse_unknown_players


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
        raise InputError(Message(N_("must be one of %(choices)s; got %(given)s"),
                                 {"choices": ", ".join(sorted(RESULTS)), "given": repr(result)}),
                         field="result")  # fmt: skip
    require_reason(reason, CORRECTION)
    # Two corrections of one game at once: the second waits, then reads the game as the first
    # left it (its result already the one asked for: refused, nothing written).
    player_repo.lock_players(session, [white_id, black_id])
    tournament = tournament_repo.get(session, tournament_id)
    if tournament is None:
        raise InputError(_no_tournament(tournament_id), field="tournament")
    game = game_repo.current_game(session, tournament_id, round_number, white_id, black_id)
    if game is None:
        raise InputError(
            Message(
                N_("tournament %(id)s has no game %(white)s - %(black)s in round %(round)s "
                   "(white first)"),
                {"id": tournament_id, "white": white_id, "black": black_id,
                 "round": round_number},
            ),
            field="white",
        )  # fmt: skip
    if game.result == result:
        raise InputError(
            Message(N_("the game's result is already %(result)s"), {"result": result}),
            field="result",
        )
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
    outcome = recompute(
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
    require_reason(reason, CORRECTION)
    tournament = tournament_repo.get(session, tournament_id)
    if tournament is None:
        raise InputError(_no_tournament(tournament_id), field="replacement")
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
            Message(
                N_("the file gives tournament %(id)s as it is stored: nothing to correct"),
                {"id": tournament_id},
            ),
            source=str(path),
            field="replacement",
        )
    outcome = _replace_tournament_games(
        session, tournament, old_games,
        [NewGame(tournament_id, g.round, g.white_id, g.black_id, g.result, g.played)
         for g in new.games],
        name=new.name, digest=read.digest, reason=reason, actor=actor, now=now, track=track,
        dry_run=dry_run,
    )  # fmt: skip
    return outcome, read


def withdraw_tournament(
    session: Session,
    tournament_id: str,
    *,
    reason: str,
    actor: str,
    now: datetime,
    track: Track = no_progress,
    dry_run: bool = False,
) -> CorrectionOutcome:
    """A tournament accepted by mistake, withdrawn: a replacement of its games by none (the
    same correction as a corrected file's, kind ``tournament``, recorded with ``withdrawn``).
    Every game in force is superseded (kept as history) and the lists it changed are
    recomputed; the tournament row stays, with its id, name, category, period and no game.
    A tournament without a game in force is refused: nothing to withdraw. ``dry_run``: as
    correct_game's."""
    require_reason(reason, WITHDRAWAL)
    # The import lock, as a replacement takes it: two withdrawals (or a withdrawal and a
    # replacement) of one tournament run one after the other, the second reading what the
    # first left.
    player_repo.lock_imports(session)
    tournament = tournament_repo.get(session, tournament_id)
    if tournament is None:
        raise InputError(_no_tournament(tournament_id), field="tournament")
    session.refresh(tournament)
    old_games = game_repo.current_games_of_tournament(session, tournament_id)
    if not old_games:
        raise InputError(
            Message(N_("tournament %(id)s has no game in force: nothing to withdraw"),
                    {"id": tournament_id}),
            field="tournament",
        )  # fmt: skip
    return _replace_tournament_games(
        session, tournament, old_games, [], name=tournament.name,
        digest=tournament.source_digest, reason=reason, actor=actor, now=now, track=track,
        dry_run=dry_run,
    )  # fmt: skip


def _replace_tournament_games(
    session: Session,
    tournament: TournamentRow,
    old_games: Sequence[GameRow],
    new_games: Sequence[NewGame],
    *,
    name: str,
    digest: str,
    reason: str,
    actor: str,
    now: datetime,
    track: Track,
    dry_run: bool,
) -> CorrectionOutcome:
    """A tournament's games in force replaced by ``new_games`` (none: withdrawn), its name and
    file digest set, the lists recomputed; recorded as a ``tournament`` correction, audited."""
    tournament_id = tournament.tournament_id
    withdrawn = {} if new_games else {"withdrawn": True}
    before = {"name": tournament.name, "digest": tournament.source_digest,
              "game_ids": [g.id for g in old_games]}  # fmt: skip
    correction = correction_repo.add(
        session, CorrectionKind.TOURNAMENT, category=tournament.category,
        tournament_id=tournament_id, reason=reason, actor=actor, now=now, before=before,
    )  # fmt: skip
    _replace_games(session, old_games, new_games, correction.id)
    tournament.name = name
    tournament.source_digest = digest
    correction.after = {"name": name, "digest": digest, "games": len(new_games), **withdrawn}
    outcome = recompute(
        session, correction, [tournament], now=now, track=track, dry_run=dry_run,
        games_changed=[(tournament_id, g.white_id, g.black_id) for g in old_games]
        + [(tournament_id, g.white_id, g.black_id) for g in new_games],
    )  # fmt: skip
    audit.record(
        session, "correction", actor, now, file_digest=digest,
        counts={"games_before": len(old_games), "games_after": len(new_games),
                "revisions": len(outcome.revisions)},
        details={"correction_id": correction.id, "kind": correction.kind,
                 "tournament_id": tournament_id, "reason": reason, **withdrawn},
    )  # fmt: skip
    return outcome


def _read_replacement(
    session: Session, tournament: TournamentRow, path: Path, file_format: str | None
) -> ReadTournament:
    """The corrected file, read as an import reads it: same dates, every player known."""
    read = read_tournament(session, path, [tournament.category], None, file_format)
    new = read.tournament
    if (new.start_date, new.end_date) != (tournament.start_date, tournament.end_date):
        raise InputError(
            Message(
                N_("the corrected file runs %(start)s to %(end)s, tournament %(id)s "
                   "%(stored_start)s to %(stored_end)s: dates cannot change in a replacement; "
                   "import the file as a new tournament"),
                {"start": Day(new.start_date), "end": Day(new.end_date),
                 "id": tournament.tournament_id, "stored_start": Day(tournament.start_date),
                 "stored_end": Day(tournament.end_date)},
            ),
            source=str(path),
            field="replacement",
        )  # fmt: skip
    refuse_unknown_players(session, new)
    return read


def _no_tournament(tournament_id: str) -> Message:
    return Message(N_("no tournament %(id)s"), {"id": tournament_id})


def _replace_games(
    session: Session, old: Sequence[GameRow], new: Iterable[NewGame], correction_id: int
) -> None:
    """The old rows superseded by the correction, then its games stored (one current row per
    game)."""
    game_repo.supersede(session, [g.id for g in old], correction_id)
    game_repo.insert_games(session, new, created_by=correction_id)


def merge_players(
    session: Session, keep: str, drop: str, *, reason: str, actor: str, now: datetime,
    track: Track = no_progress, dry_run: bool = False, override: str | None = None,
) -> CorrectionOutcome:  # fmt: skip
    """Make two records of one player one: every game of ``drop`` is replaced by the same game
    with ``keep``, ``drop`` is marked merged, and the lists from its first game are recomputed.
    Refused when the two may be two people (``merges``: a round both played, another sex or
    birth year) unless ``override`` gives the reason to merge them all the same; the override
    and the conflicts it overrode are kept with the correction and audited. ``dry_run``: as
    correct_game's."""
    if keep == drop:
        raise InputError(Message(merges.HIMSELF), field="drop")
    require_reason(reason, MERGE)
    # Two merges of the same players (or a merge beside a correction of their games): the second
    # waits, then reads them as the first left them.
    player_repo.lock_players(session, [keep, drop])
    comparison = merges.compare(session, keep, drop)
    overridden = merges.check_override(comparison, override)
    dropped = player_repo.by_ids(session, [drop])[drop]
    games = game_repo.current_games_of_player(session, drop)
    conflicts = [conflict.as_json() for conflict in comparison.conflicts]
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
    overrode = {} if overridden is None else {"override": overridden, "conflicts": conflicts}
    correction.after = {"keep": keep, "games": len(games), **overrode}
    outcome = recompute(
        session, correction, list(tournaments), now=now, track=track, dry_run=dry_run,
        games_changed=[(g.tournament_id, p, keep) for g in games for p in (g.white_id, g.black_id)],
    )  # fmt: skip
    audit.record(
        session, "merge", actor, now,
        counts={"games": len(games), "revisions": len(outcome.revisions)},
        details={"correction_id": correction.id, "keep": keep, "drop": drop, "reason": reason,
                 **overrode},
    )  # fmt: skip
    return replace(outcome, extra=comparison.as_json() | {"override": overridden})


__all__ = [
    "CorrectionOutcome",
    "correct_game",
    "merge_players",
    "merges",
    "replace_list",
    "replace_tournament",
    "withdraw_tournament",
]
