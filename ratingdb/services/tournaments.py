"""Adding a tournament from a games CSV or a TRF: validate it against what is stored, create
or match its players (TRF), assign its period (docs/rules.md §12), store it with its games, once per
category it counts for."""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Final

from sqlalchemy.orm import Session

from ratingdb.enums import TournamentFormat
from ratingdb.errors import InputError
from ratingdb.formats.csv_input import SAVE_AS as CSV_SAVE_AS
from ratingdb.formats.games_csv import TournamentFile, read_games_csv
from ratingdb.formats.text import read_bounded
from ratingdb.formats.trf import SAVE_AS as TRF_SAVE_AS
from ratingdb.formats.trf import TrfPlayer
from ratingdb.models import TournamentRow
from ratingdb.models.submission import REASON_LENGTH
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.repositories.games import NewGame
from ratingdb.rules import Category, Period, next_period, period_for_end_date, versions_of
from ratingdb.rules.calendar import last_list_for
from ratingdb.rules.messages import N_, Day, Message, Nn_, counted, game_count, one_of, worded
from ratingdb.rules.rate_of_play import parse_time_control
from ratingdb.services.lists import check_period
from ratingdb.services.tournament_trf import TournamentDetails, read_trf

#: In the order the command line shows them.
FORMATS = (TournamentFormat.TRF, TournamentFormat.CSV)


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
class ImportOutcome:
    """The tournaments made from one file (one per category) and the report of what the file
    held and what was skipped, for the operator (stderr)."""

    tournaments: tuple[ImportedTournament, ...]
    report: tuple[Message, ...]


def format_of(path: Path, given: str | None) -> TournamentFormat:
    """The format given, else from the extension: ``.csv`` is a games CSV, anything else a
    TRF."""
    if given is not None:
        if given not in FORMATS:
            raise InputError(one_of(FORMATS), field="format")
        return TournamentFormat(given)
    return TournamentFormat.CSV if path.suffix.lower() == ".csv" else TournamentFormat.TRF


def import_tournament_file(
    session: Session,
    path: Path,
    categories: Sequence[Category],
    period: Period | None,
    file_format: str | None = None,
    time_control: str | None = None,
    late_reason: str | None = None,
) -> ImportOutcome:
    """Import one TRF or games CSV as one tournament per category (each with its own period
    and ratings), all or nothing. ``time_control`` (TRF26 222's form) is the tournament's
    when the file gives none; ``late_reason``, a rating officer's reason to rate a tournament
    reported too late for FIDE (``check_in_time``)."""
    check_categories(categories)
    read = read_tournament(session, path, categories, period, file_format, time_control)
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
        late_reason=late_reason,
    )
    return ImportOutcome(stored, read.report)


def check_categories(categories: Sequence[Category]) -> None:
    """At least one category, none twice."""
    if not categories:
        raise InputError(Message(N_("give at least one category")), field="category")
    repeated = sorted({c.value for c in categories if list(categories).count(c) > 1})
    if repeated:
        raise InputError(Message(N_("%(category)s is given twice"), {"category": repeated[0]}),
                         field="category")  # fmt: skip


@dataclass(frozen=True, slots=True)
class ReadTournament:
    """A tournament file read and its players matched (TRF players created), not stored yet.
    ``known``: the file's players that were already stored (TRF), with their player id;
    ``created``: how many players the file created (TRF)."""

    tournament: TournamentFile
    digest: str
    source_format: TournamentFormat
    details: TournamentDetails | None
    #: What the file held and what was skipped: the command line writes it in English.
    report: tuple[Message, ...]
    known: tuple[tuple[TrfPlayer, str], ...] = ()
    created: int = 0


def read_tournament(
    session: Session,
    path: Path,
    categories: Sequence[Category],
    forced: Period | None,
    file_format: str | None = None,
    time_control: str | None = None,
) -> ReadTournament:
    """Read a TRF or games CSV for an import or a replacement (``--replace``)."""
    if format_of(path, file_format) == TournamentFormat.TRF:
        raw = _read_bytes(path, TRF_SAVE_AS)
        trf = read_trf(session, path, raw, categories, forced)
        return ReadTournament(
            trf.tournament,
            hashlib.sha256(raw).hexdigest(),
            TournamentFormat.TRF,
            with_time_control(trf.details, time_control, str(path)),
            trf.report,
            trf.known,
            trf.created,
        )
    raw = _read_bytes(path, CSV_SAVE_AS)
    tournament = read_games_csv(path)
    player_repo.lock_imports(session)
    played = sum(1 for game in tournament.games if game.played)
    summary = Message(
        N_("%(source)s: games CSV, %(name)s, %(start)s to %(end)s: %(games)s, %(played)s"),
        {"source": str(path), "name": repr(tournament.name), "start": Day(tournament.start_date),
         "end": Day(tournament.end_date), "games": game_count(len(tournament.games)),
         "played": counted(Nn_("%(count)s played (rated candidate)",
                               "%(count)s played (rated candidates)"),
                           "count", {"count": played})},
    )  # fmt: skip
    details = TournamentDetails(time_control_code=tournament.time_control)
    return ReadTournament(
        tournament,
        hashlib.sha256(raw).hexdigest(),
        TournamentFormat.CSV,
        with_time_control(details, time_control, str(path)),
        (summary,),
    )


def with_time_control(
    details: TournamentDetails, given: str | None, source: str
) -> TournamentDetails:
    """The file's details with the time control given on import: for a file that has none;
    refused when the file has another (which one decides whether its games are rated)."""
    if given is None:
        return details
    try:
        parse_time_control(given)
    except ValueError as error:
        raise InputError(worded(error), field="time_control") from None
    written = details.time_control_code
    if written is not None and written != given:
        raise InputError(
            Message(
                N_(
                    "the file gives the time control %(written)s, not %(given)s: correct "
                    "the file or give no time control"
                ),
                {"written": written, "given": given},
            ),
            source=source,
            field="time_control",
        )
    return dataclasses.replace(details, time_control_code=given)


def _read_bytes(path: Path, save_as: str | Message) -> bytes:
    """The file's bytes, read so that a line over 64 KiB is refused before it is held."""
    return read_bounded(path, str(path), save_as=save_as)


def _refuse_duplicate(session: Session, digest: str, category: Category, source: str) -> None:
    duplicate = tournament_repo.imported_from(session, digest, category)
    if duplicate is not None:
        raise InputError(
            Message(
                N_("this file is already imported for %(category)s as tournament %(id)s"),
                {"category": category.value, "id": duplicate},
            ),
            source=source,
        )


UNKNOWN_PLAYER: Final = {
    False: N_("unknown player %(player)s"),
    True: N_("unknown player %(player)s (import a list or a TRF with this player first)"),
}


def refuse_unknown_players(
    session: Session, tournament: TournamentFile, suggest_import: bool = False
) -> set[str]:
    """Every player of the file's games is stored already: the file's line and column if not
    (``suggest_import``: and how to store them). The players' ids."""
    wanted = {g.white_id for g in tournament.games} | {g.black_id for g in tournament.games}
    known = player_repo.existing_ids(session, wanted)
    for game in tournament.games:
        for player, column in ((game.white_id, "white_id"), (game.black_id, "black_id")):
            if player not in known:
                raise InputError(
                    Message(UNKNOWN_PLAYER[suggest_import], {"player": player}),
                    source=tournament.source,
                    line=game.line,
                    field=column,
                )
    return wanted


def _store_for_categories(
    session: Session,
    tournament: TournamentFile,
    categories: Sequence[Category],
    forced: Period | None,
    *,
    digest: str,
    source_format: TournamentFormat,
    details: TournamentDetails | None = None,
    late_reason: str | None = None,
) -> tuple[ImportedTournament, ...]:
    # The close locks first, in their global order (repositories.periods), then the stores.
    for category in sorted(categories, key=lambda c: c.value):
        hold_period(session, category, tournament.end_date, forced)
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
                late_reason=late_reason,
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
    source_format: TournamentFormat,
    details: TournamentDetails | None = None,
    group_id: str | None = None,
    grouped: bool = False,
    late_reason: str | None = None,
) -> ImportedTournament:
    """Store one tournament rated in ``category``. ``grouped``: one of several made from the
    same file; ``group_id`` is the first of them (None: this one is the first)."""
    refuse_unknown_players(session, tournament, suggest_import=True)
    _refuse_duplicate(session, digest, category, tournament.source)
    period, late = hold_period(session, category, tournament.end_date, forced)
    check_in_time(category, tournament.end_date, period, late_reason)
    period_row = period_repo.get_or_create_period(session, category, period)
    tournament_id = tournament_repo.next_tournament_id(session)
    details = details or TournamentDetails()
    tournament_repo.add(
        session,
        TournamentRow(
            tournament_id=tournament_id,
            name=tournament.name,
            category=category,
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


def check_in_time(
    category: Category, end_date: date, period: Period, late_reason: str | None
) -> None:
    """Refuse a tournament rated on a list later than the rules allow after its end (FIDE
    B.02 §9.1: the third list), unless a rating officer gives a reason (kept in the audit)."""
    bound = late_message(category, end_date, period)
    if bound is None:
        return
    if late_reason is not None and late_reason.strip():
        if len(late_reason) > REASON_LENGTH:
            raise InputError(Message(N_("at most %(count)s characters"), {"count": REASON_LENGTH}),
                             field="late_reason")  # fmt: skip
        return
    raise InputError(Message(N_("%(why)s: give a reason to rate it anyway"), {"why": bound}),
                     field="late_reason")  # fmt: skip


def late_message(category: Category, end_date: date, period: Period) -> Message | None:
    """Why a tournament ending on ``end_date`` is too late for ``period``'s list, or None."""
    found = last_list_for(category, end_date)
    if found is None or period <= found[0]:
        return None
    last, rule = found
    return Message(
        N_("the tournament ended on %(end)s: the last %(category)s list it may be rated on is "
           "%(last)s (the %(ordinal)s after its end), and the next open list is %(period)s; "
           "FIDE does not rate it (%(source)s)"),
        {"end": Day(end_date), "category": category.value, "last": str(last),
         "ordinal": ordinal(rule.lists), "period": str(period),
         "source": rule.source.split(" [")[0]},
    )  # fmt: skip


_ORDINALS = {1: N_("first"), 2: N_("second"), 3: N_("third")}


def ordinal(number: int) -> Message:
    if number in _ORDINALS:
        return Message(_ORDINALS[number])
    return Message(N_("%(number)sth"), {"number": number})


def hold_period(
    session: Session, category: Category, end_date: date, forced: Period | None
) -> tuple[Period, bool]:
    """``assign_period``, with the close of that period held off until the transaction ends
    (PostgreSQL): its close lock is taken, then the period assigned again, since a close that
    held the lock may have published it meanwhile (the tournament then goes to the next
    period, late, whose lock is taken in turn). So a close either rates the tournament or
    publishes before it is stored; never a tournament stored in a period being closed and left
    out of its list. SQLite writers take turns: the first assignment stands."""
    locked: set[Period] = set()
    while True:
        period, late = assign_period(session, category, end_date, forced)
        if period in locked or session.get_bind().dialect.name != "postgresql":
            return period, late
        period_repo.lock_close(session, category, period)
        locked.add(period)


def assign_period(
    session: Session, category: Category, end_date: date, forced: Period | None
) -> tuple[Period, bool]:
    """The period a tournament is rated in, and whether it is late (docs/rules.md §12): the first
    period whose closing date is on or after the end date, unless that list is already out."""
    first = versions_of(category)[0].effective_from
    if end_date < first:
        raise InputError(
            Message(
                N_(
                    "the tournament ends on %(end)s, before the first %(category)s rules "
                    "ratingdb knows (%(first)s)"
                ),
                {"end": Day(end_date), "category": category.value, "first": Day(first)},
            ),
            field="category",
        )  # fmt: skip
    natural = period_for_end_date(category, end_date)
    published = period_repo.published_periods(session, category)
    latest = max(published, default=None)
    if forced is not None:
        check_period(category, forced)
        if latest is not None and forced <= latest:
            raise InputError(
                Message(
                    N_(
                        "%(category)s %(period)s is already published (latest list: "
                        "%(latest)s); a published list never changes"
                    ),
                    {"category": category.value, "period": str(forced), "latest": str(latest)},
                ),
                field="period",
            )  # fmt: skip
        if end_date >= forced.list_date:
            raise InputError(
                Message(
                    N_("the tournament ends on %(end)s, after the %(period)s list date"),
                    {"end": Day(end_date), "period": str(forced)},
                ),
                field="period",
            )  # fmt: skip
        return forced, latest is not None and natural <= latest
    if latest is None or natural > latest:
        return natural, False
    return next_period(category, latest), True


# --- show ------------------------------------------------------------------------------------
