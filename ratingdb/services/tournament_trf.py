"""Reading a TRF for an import: the tournament's dates (from the rounds, or the period's
closing date), its players matched or created (services.player_matching), and the report of
what the file held and what was skipped."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.games_csv import GameRow as CsvGame
from ratingdb.formats.games_csv import TournamentFile
from ratingdb.formats.trf import SHORT_GAMES, TrfFile, TrfPlayer, parse_trf
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period, closing_date
from ratingdb.services.lists import check_period
from ratingdb.services.player_matching import Matched, match_players, national_key


@dataclass(frozen=True, slots=True)
class TournamentDetails:
    """What a TRF says about a tournament beyond its name and dates."""

    city: str | None = None
    federation: str | None = None
    time_control: str | None = None
    time_control_code: str | None = None


@dataclass(frozen=True, slots=True)
class TrfRead:
    """A TRF read as a tournament, with what the report and the submission check show."""

    tournament: TournamentFile
    details: TournamentDetails
    report: tuple[str, ...]
    #: The file's players already stored, with their player id (before the file completes them).
    known: tuple[tuple[TrfPlayer, str], ...]
    #: How many players the file created.
    created: int


def read_trf(
    session: Session, path: Path, raw: bytes, categories: Sequence[Category], forced: Period | None
) -> TrfRead:
    """A TRF16 or TRF26 file (its bytes ``raw``) as a tournament: dates filled in where the
    file lacks them, players created or matched; with what the file holds, for the report."""
    trf = parse_trf(raw, source=str(path))
    source = str(path)
    notes: list[str] = []
    start, end = _trf_dates(trf, categories[0], forced, notes)
    if not trf.games:
        raise InputError(
            "no games to store: no round has a result against an opponent", source=source
        )
    player_repo.lock_imports(session)
    matched = match_players(session, trf)
    tournament = TournamentFile(
        source=source,
        name=trf.name or path.stem,
        start_date=start,
        end_date=end,
        games=tuple(
            CsvGame(
                game.line,
                game.round,
                matched.ids[game.white_rank],
                matched.ids[game.black_rank],
                game.result,
            )
            for game in trf.games
        ),
    )
    if trf.name is None:
        notes.append(f"no tournament name (012): named after the file, {path.stem!r}")
    details = TournamentDetails(trf.city, trf.federation, trf.time_control, trf.time_control_code)
    report = tuple(_trf_report(trf, tournament, matched, notes))
    created = matched.created_fide + matched.created_national + matched.created_local
    return TrfRead(tournament, details, report, tuple(matched.known_players), created)


def _trf_dates(
    trf: TrfFile, category: Category, forced: Period | None, notes: list[str]
) -> tuple[date, date]:
    start, end = trf.start_date, trf.end_date
    if start is None and trf.round_dates:
        start = min(trf.round_dates)
        notes.append(f"no start date (042): the first round date, {start}, is used")
    if end is None and trf.round_dates:
        end = max(trf.round_dates)
        notes.append(f"no end date (052): the last round date, {end}, is used")
    if start is None and end is None:
        if forced is None:
            raise InputError(
                "the file has no dates (no 042, 052 or 132 record): give the period to rate it "
                "on that period's list (its closing date is then used as the dates)",
                source=trf.source,
                field="042 start date",
            )
        check_period(category, forced)
        start = end = closing_date(category, forced)
        notes.append(
            f"no dates in the file: the closing date of {forced} ({start}) is used as the "
            "start and end date"
        )
    if start is None:
        start = end
        notes.append(f"no start date (042): the end date, {end}, is used")
    if end is None:
        end = start
        notes.append(f"no end date (052): the start date, {start}, is used")
    if start is None or end is None:  # for mypy: both were filled in above
        raise AssertionError("dates not filled in")
    if end < start:
        raise InputError(
            f"the end date {end} is before the start date {start}",
            source=trf.source,
            field="052 end date",
        )
    return start, end


def _trf_report(
    trf: TrfFile, tournament: TournamentFile, matched: Matched, notes: Sequence[str]
) -> list[str]:
    pseudo = [p for p in trf.players if p.pseudo]
    real = trf.real_players
    with_fide = sum(1 for p in real if p.fide_id)
    national_only = sum(1 for p in real if not p.fide_id and national_key(p))
    short = sum(1 for g in trf.games if g.result in SHORT_GAMES.values())
    byes = trf.byes_by_code()
    neither = len(real) - with_fide - national_only
    by_code = f" ({', '.join(f'{c} {n}' for c, n in byes.items())})" if byes else ""
    heading = (
        f"{trf.source}: {trf.version}, {trf.encoding}, {trf.line_endings} line ends; "
        f"{tournament.name!r}, {tournament.start_date} to {tournament.end_date}, "
        f"{trf.rounds} rounds"
    )
    players = (
        f"players: {len(trf.players)} records; {len(real)} players ({with_fide} with a FIDE "
        f"id, {national_only} with a national id only, {neither} with neither); created "
        f"{matched.created_fide} by FIDE id, {matched.created_national} by national id, "
        f"{matched.created_local} with a local id; already known {matched.known}"
    )
    games = (
        f"games: {len(trf.games)} stored = {trf.played} played (rated candidates) + "
        f"{trf.forfeits} forfeits + {short} shorter than one move (never rated)"
    )
    lines = [
        heading,
        players,
        games,
        f"byes (no opponent, not games): {len(trf.byes)}{by_code}; absent: {trf.absent}",
    ]
    for player in pseudo:
        lines.append(
            f"skipped: #{player.rank} {player.name!r} (line {player.line}) stands for the bye: "
            "no player created"
        )
    for player in matched.skipped:
        lines.append(
            f"skipped: #{player.rank} {player.name!r} (line {player.line}) has no id and no "
            "game: no player created"
        )
    if trf.unfinished:
        lines.append(f"skipped: {len(trf.unfinished)} pairings without a result")
    if trf.skipped_records:
        ignored = ", ".join(f"{kind} {count}" for kind, count in trf.skipped_records.items())
        lines.append(f"records ignored: {ignored}")
    lines.extend(f"note: {note}" for note in (*trf.notes, *notes))
    return lines
