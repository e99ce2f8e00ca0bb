"""Adding a tournament from a games CSV or a TRF: validate it against what is stored, create
or match its players (TRF), assign its period (rules.md A7), store it with its games, once per
category it counts for."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.csv_input import SAVE_AS as CSV_SAVE_AS
from ratingdb.formats.games_csv import GameRow as CsvGame
from ratingdb.formats.games_csv import TournamentFile, read_games_csv
from ratingdb.formats.text import read_bounded
from ratingdb.formats.trf import FIDE_ID, SHORT_GAMES, TrfFile, TrfPlayer, parse_trf
from ratingdb.formats.trf import SAVE_AS as TRF_SAVE_AS
from ratingdb.models import GameRow, PeriodRow, PlayerRow, TournamentRow
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.repositories.games import NewGame
from ratingdb.rules import (
    Category,
    Period,
    closing_date,
    next_period,
    period_for_end_date,
    versions_of,
)
from ratingdb.services.lists import check_period

FORMATS = ("trf", "csv")


@dataclass(frozen=True, slots=True)
class ImportedTournament:
    tournament_id: str
    period: Period
    late: bool
    games: int
    rated_games: int

    def as_json(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "period": str(self.period),
            "late": self.late,
            "games": self.games,
            "rated_games": self.rated_games,
        }


@dataclass(frozen=True, slots=True)
class TournamentDetails:
    """What a TRF says about a tournament beyond its name and dates."""

    city: str | None = None
    federation: str | None = None
    time_control: str | None = None
    time_control_code: str | None = None


@dataclass(frozen=True, slots=True)
class ImportOutcome:
    """The tournaments made from one file (one per category) and the report of what the file
    held and what was skipped, for the operator (stderr)."""

    tournaments: tuple[ImportedTournament, ...]
    report: tuple[str, ...]


def format_of(path: Path, given: str | None) -> str:
    """``--format``, else from the extension: ``.csv`` is a games CSV, anything else a TRF."""
    if given is not None:
        if given not in FORMATS:
            raise InputError(f"must be one of {', '.join(FORMATS)}", field="--format")
        return given
    return "csv" if path.suffix.lower() == ".csv" else "trf"


def import_tournament_file(
    session: Session,
    path: Path,
    categories: Sequence[Category],
    period: Period | None,
    file_format: str | None = None,
) -> ImportOutcome:
    """Import one TRF or games CSV as one tournament per category (each with its own period
    and ratings), all or nothing."""
    if not categories:
        raise InputError("give at least one category", field="--category")
    repeated = sorted({c.value for c in categories if list(categories).count(c) > 1})
    if repeated:
        raise InputError(f"{repeated[0]} is given twice", field="--category")
    read = read_tournament(session, path, categories, period, file_format)
    for category in categories:
        _refuse_duplicate(session, read.digest, category, str(path))
    stored = _store_for_categories(
        session,
        read.tournament,
        categories,
        period,
        digest=read.digest,
        source_format=read.source_format,
        details=read.details,
    )
    return ImportOutcome(stored, read.report)


@dataclass(frozen=True, slots=True)
class ReadTournament:
    """A tournament file read and its players matched (TRF players created), not stored yet."""

    tournament: TournamentFile
    digest: str
    source_format: str
    details: TournamentDetails | None
    report: tuple[str, ...]


def read_tournament(
    session: Session,
    path: Path,
    categories: Sequence[Category],
    forced: Period | None,
    file_format: str | None = None,
) -> ReadTournament:
    """Read a TRF or games CSV for an import or a replacement (``--replace``)."""
    if format_of(path, file_format) == "trf":
        return _read_trf(session, path, categories, forced)
    raw = _read_bytes(path, CSV_SAVE_AS)
    tournament = read_games_csv(path)
    player_repo.lock_imports(session)
    played = sum(1 for game in tournament.games if game.played)
    summary = (
        f"{path}: games CSV, {tournament.name!r}, {tournament.start_date} to "
        f"{tournament.end_date}: {len(tournament.games)} games, {played} played "
        "(rated candidates)"
    )
    return ReadTournament(tournament, hashlib.sha256(raw).hexdigest(), "csv", None, (summary,))


def _read_trf(
    session: Session, path: Path, categories: Sequence[Category], forced: Period | None
) -> ReadTournament:
    """A TRF16 or TRF26 file: players created or matched."""
    raw = _read_bytes(path, TRF_SAVE_AS)
    trf = parse_trf(raw, source=str(path))
    source = str(path)
    digest = hashlib.sha256(raw).hexdigest()
    notes: list[str] = []
    start, end = _trf_dates(trf, categories[0], forced, notes)
    if not trf.games:
        raise InputError(
            "no games to store: no round has a result against an opponent", source=source
        )
    player_repo.lock_imports(session)
    matched = _match_players(session, trf)
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
    return ReadTournament(tournament, digest, "trf", details, report)


def _read_bytes(path: Path, save_as: str) -> bytes:
    """The file's bytes, read so that a line over 64 KiB is refused before it is held."""
    return read_bounded(path, str(path), save_as=save_as)


def _refuse_duplicate(session: Session, digest: str, category: Category, source: str) -> None:
    duplicate = tournament_repo.imported_from(session, digest, category.value)
    if duplicate is not None:
        raise InputError(
            f"this file is already imported for {category.value} as tournament {duplicate}",
            source=source,
        )


def refuse_unknown_players(session: Session, tournament: TournamentFile, hint: str = "") -> None:
    """Every player of the file's games is stored already: the file's line and column if not."""
    known = player_repo.existing_ids(
        session, {g.white_id for g in tournament.games} | {g.black_id for g in tournament.games}
    )
    for game in tournament.games:
        for player, column in ((game.white_id, "white_id"), (game.black_id, "black_id")):
            if player not in known:
                raise InputError(
                    f"unknown player {player}{hint}",
                    source=tournament.source,
                    line=game.line,
                    field=column,
                )


def _store_for_categories(
    session: Session,
    tournament: TournamentFile,
    categories: Sequence[Category],
    forced: Period | None,
    *,
    digest: str,
    source_format: str,
    details: TournamentDetails | None = None,
) -> tuple[ImportedTournament, ...]:
    stored: list[ImportedTournament] = []
    for category in categories:
        stored.append(
            store_tournament(
                session,
                tournament,
                category,
                forced,
                digest=digest,
                source_format=source_format,
                details=details,
                group_id=stored[0].tournament_id if stored else None,
                grouped=len(categories) > 1,
            )
        )
    return tuple(stored)


def store_tournament(
    session: Session,
    tournament: TournamentFile,
    category: Category,
    forced: Period | None,
    *,
    digest: str,
    source_format: str,
    details: TournamentDetails | None = None,
    group_id: str | None = None,
    grouped: bool = False,
) -> ImportedTournament:
    """Store one tournament rated in ``category``. ``grouped``: one of several made from the
    same file; ``group_id`` is the first of them (None: this one is the first)."""
    refuse_unknown_players(
        session, tournament, hint=" (import a list or a TRF with this player first)"
    )
    _refuse_duplicate(session, digest, category, tournament.source)
    period, late = assign_period(session, category, tournament.end_date, forced)
    period_row = period_repo.get_or_create_period(session, category, period)
    tournament_id = tournament_repo.next_tournament_id(session)
    details = details or TournamentDetails()
    tournament_repo.add(
        session,
        TournamentRow(
            tournament_id=tournament_id,
            name=tournament.name,
            category=category.value,
            start_date=tournament.start_date,
            end_date=tournament.end_date,
            period_id=period_row.id,
            late=late,
            source_format=source_format,
            source_digest=digest,
            city=details.city,
            federation=details.federation,
            time_control=details.time_control,
            time_control_code=details.time_control_code,
            group_id=(group_id or tournament_id) if grouped else None,
        ),
    )
    game_repo.insert_games(
        session,
        (
            NewGame(tournament_id, g.round, g.white_id, g.black_id, g.result, g.played)
            for g in tournament.games
        ),
        created_by=None,
    )
    rated = sum(1 for game in tournament.games if game.played)
    return ImportedTournament(tournament_id, period, late, len(tournament.games), rated)


# --- TRF: dates, players, report ---------------------------------------------------------------


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
                "the file has no dates (no 042, 052 or 132 record): give --period to rate it "
                "on that period's list (its closing date is then used as the dates)",
                source=trf.source,
                field="042 start date",
            )
        check_period(category, forced, field="--period")
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


@dataclass(slots=True)
class _Matched:
    ids: dict[int, str] = field(default_factory=dict)
    created_fide: int = 0
    created_national: int = 0
    created_local: int = 0
    known: int = 0
    skipped: list[TrfPlayer] = field(default_factory=list)


def _match_players(session: Session, trf: TrfFile) -> _Matched:
    """Each player of the file as a ratingdb player: known by FIDE id, else by national id
    (TRF26 NRS), else created (player_id = FIDE id, or a new local id). A record with neither
    id nor any stored game (a player who never played) creates nobody."""
    in_games = {g.white_rank for g in trf.games} | {g.black_rank for g in trf.games}
    matched = _Matched()
    wanted: list[TrfPlayer] = []
    for player in trf.real_players:
        if player.fide_id or _national_key(player) or player.rank in in_games:
            wanted.append(player)
        else:
            matched.skipped.append(player)
    by_fide = player_repo.by_fide_ids(session, {p.fide_id for p in wanted if p.fide_id})
    by_national = player_repo.by_national_ids(
        session, {key for p in wanted if (key := _national_key(p)) is not None}
    )
    new_rows: list[dict[str, Any]] = []
    local: list[tuple[TrfPlayer, dict[str, Any]]] = []
    owner: dict[str, TrfPlayer] = {}
    for player in wanted:
        key = _national_key(player)
        row = by_fide.get(player.fide_id) if player.fide_id else None
        national_row = by_national.get(key) if key is not None else None
        if row is not None and row.fide_id not in (None, player.fide_id):
            raise _player_error(
                trf, player, f"player {row.player_id} has FIDE id {row.fide_id}, not "
                f"{player.fide_id}", "FIDE id", FIDE_ID[0],
            )  # fmt: skip
        if row is not None and national_row is not None and national_row is not row:
            national = player.national
            raise InputError(
                f"national id {key} belongs to player {national_row.player_id}, but the FIDE "
                f"id of #{player.rank} is {player.fide_id} (player {row.player_id})",
                source=trf.source,
                line=national.line if national else player.line,
                column=FIDE_ID[0],
                field="national id",
            )
        if row is None and player.fide_id is None:
            row = national_row
        if row is None:
            values = _new_player(player)
            if player.fide_id:
                values["player_id"] = player.fide_id
                new_rows.append(values)
                matched.created_fide += 1
                player_id = player.fide_id
            else:
                local.append((player, values))
                if key is not None:
                    matched.created_national += 1
                else:
                    matched.created_local += 1
                continue
        else:
            _complete(row, player)
            matched.known += 1
            player_id = row.player_id
        if player_id in owner:
            raise _player_error(
                trf, player, f"#{player.rank} and #{owner[player_id].rank} (line "
                f"{owner[player_id].line}) are the same player, {player_id}", "FIDE id",
                FIDE_ID[0],
            )  # fmt: skip
        owner[player_id] = player
        matched.ids[player.rank] = player_id
    for (player, values), player_id in zip(
        local, player_repo.new_local_ids(session, len(local)), strict=True
    ):
        values["player_id"] = player_id
        new_rows.append(values)
        matched.ids[player.rank] = player_id
    session.flush()
    player_repo.insert_players(session, new_rows)
    return matched


def _national_key(player: TrfPlayer) -> tuple[str, str] | None:
    national = player.national
    if national is None or national.national_id is None:
        return None
    return national.federation, national.national_id


def _player_error(
    trf: TrfFile, player: TrfPlayer, message: str, field: str, column: int
) -> InputError:
    return InputError(message, source=trf.source, line=player.line, column=column, field=field)


def _new_player(player: TrfPlayer) -> dict[str, Any]:
    national = player.national
    return {
        "player_id": "",
        "name": player.name,
        "federation": player.federation,
        "sex": player.sex,
        "birth_year": player.birth_year,
        "birth_date": player.birth_date,
        "title": player.title,
        "fide_id": player.fide_id,
        "national_federation": national.federation if national and national.national_id else None,
        "national_id": national.national_id if national else None,
        "national_rating": national.rating if national else None,
    }


def _complete(row: PlayerRow, player: TrfPlayer) -> None:
    """A known player: the file fills in what is not known yet (a FIDE list stays the
    authority on the rest); the national rating is the file's."""
    for name in ("federation", "sex", "birth_year", "birth_date", "title", "fide_id"):
        if getattr(row, name) is None and getattr(player, name) is not None:
            setattr(row, name, getattr(player, name))
    national = player.national
    if national is not None and national.national_id is not None:
        if row.national_id is None:
            row.national_federation = national.federation
            row.national_id = national.national_id
        if national.rating is not None and row.national_federation == national.federation:
            row.national_rating = national.rating


def _trf_report(
    trf: TrfFile, tournament: TournamentFile, matched: _Matched, notes: Sequence[str]
) -> list[str]:
    pseudo = [p for p in trf.players if p.pseudo]
    real = trf.real_players
    with_fide = sum(1 for p in real if p.fide_id)
    national_only = sum(1 for p in real if not p.fide_id and _national_key(p))
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


def assign_period(
    session: Session, category: Category, end_date: date, forced: Period | None
) -> tuple[Period, bool]:
    """The period a tournament is rated in, and whether it is late (rules.md A7): the first
    period whose closing date is on or after the end date, unless that list is already out."""
    first = versions_of(category)[0].effective_from
    if end_date < first:
        raise InputError(
            f"the tournament ends on {end_date.isoformat()}, before the first {category.value} "
            f"rules ratingdb knows ({first.isoformat()})",
            field="--category",
        )
    natural = period_for_end_date(category, end_date)
    published = period_repo.published_periods(session, category)
    latest = max(published, default=None)
    if forced is not None:
        check_period(category, forced, field="--period")
        if latest is not None and forced <= latest:
            raise InputError(
                f"{category.value} {forced} is already published (latest list: {latest}); "
                "a published list never changes",
                field="--period",
            )
        if end_date >= forced.list_date:
            raise InputError(
                f"the tournament ends on {end_date.isoformat()}, after the {forced} list date",
                field="--period",
            )
        return forced, latest is not None and natural <= latest
    if latest is None or natural > latest:
        return natural, False
    return next_period(category, latest), True


# --- show ------------------------------------------------------------------------------------


def show_tournament(session: Session, tournament_id: str) -> dict[str, Any]:
    row = session.get(TournamentRow, tournament_id)
    if row is None:
        raise InputError(f"no tournament {tournament_id}", field="ID")
    period_row = session.get(PeriodRow, row.period_id)
    if period_row is None:
        raise AssertionError(f"tournament {tournament_id} has no period")
    games = session.execute(
        select(GameRow.round, GameRow.white_id, GameRow.black_id, GameRow.result, GameRow.rated)
        .where(GameRow.tournament_id == tournament_id, GameRow.superseded_by.is_(None))
        .order_by(GameRow.round, GameRow.id)
    )
    linked = (
        []
        if row.group_id is None
        else session.execute(
            select(TournamentRow.tournament_id, TournamentRow.category, PeriodRow.list_date)
            .join(PeriodRow, PeriodRow.id == TournamentRow.period_id)
            .where(
                or_(
                    TournamentRow.group_id == row.group_id,
                    TournamentRow.tournament_id == row.group_id,
                ),
                TournamentRow.tournament_id != row.tournament_id,
            )
            .order_by(TournamentRow.tournament_id)
        ).all()
    )
    return {
        "tournament_id": row.tournament_id,
        "name": row.name,
        "category": row.category,
        "start_date": row.start_date.isoformat(),
        "end_date": row.end_date.isoformat(),
        "period": str(Period.of_list_date(period_row.list_date)),
        "late": row.late,
        "city": row.city,
        "federation": row.federation,
        "time_control": row.time_control,
        "time_control_code": row.time_control_code,
        "source_format": row.source_format,
        # The tournaments made from the same file for other categories.
        "linked": [
            {"tournament_id": t, "category": c, "period": str(Period.of_list_date(d))}
            for t, c, d in linked
        ],
        "games": [
            {"round": r, "white_id": w, "black_id": b, "result": result, "rated": rated}
            for r, w, b, result, rated in games
        ],
    }
