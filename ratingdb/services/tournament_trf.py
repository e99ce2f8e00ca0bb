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
from ratingdb.formats.trf import SHORT_GAMES, TrfFile, TrfPlayer, field_words, parse_trf
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period, closing_date
from ratingdb.rules.messages import N_, Day, Message, Nn_, counted
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
    #: What the file held and what was skipped (English on the command line).
    report: tuple[Message, ...]
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
    notes: list[Message] = []
    start, end = _trf_dates(trf, categories[0], forced, notes)
    if not trf.games:
        raise InputError(
            Message(N_("no games to store: no round has a result against an opponent")),
            source=source,
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
        notes.append(Message(N_("no tournament name (012): named after the file, %(name)s"),
                             {"name": repr(path.stem)}))  # fmt: skip
    details = TournamentDetails(trf.city, trf.federation, trf.time_control, trf.time_control_code)
    report = tuple(_trf_report(trf, tournament, matched, notes))
    created = matched.created_fide + matched.created_national + matched.created_local
    return TrfRead(tournament, details, report, tuple(matched.known_players), created)


def _trf_dates(
    trf: TrfFile, category: Category, forced: Period | None, notes: list[Message]
) -> tuple[date, date]:
    start, end = trf.start_date, trf.end_date
    if start is None and trf.round_dates:
        start = min(trf.round_dates)
        notes.append(Message(N_("no start date (042): the first round date, %(day)s, is used"),
                             {"day": Day(start)}))  # fmt: skip
    if end is None and trf.round_dates:
        end = max(trf.round_dates)
        notes.append(Message(N_("no end date (052): the last round date, %(day)s, is used"),
                             {"day": Day(end)}))  # fmt: skip
    if start is None and end is None:
        if forced is None:
            raise InputError(
                Message(
                    N_(
                        "the file has no dates (no 042, 052 or 132 record): give the period "
                        "to rate it on that period's list (its closing date is then used as "
                        "the dates)"
                    )
                ),
                source=trf.source,
                field=field_words("042 start date"),
            )  # fmt: skip
        check_period(category, forced)
        start = end = closing_date(category, forced)
        notes.append(
            Message(N_("no dates in the file: the closing date of %(period)s (%(day)s) is used "
                       "as the start and end date"), {"period": str(forced), "day": Day(start)})
        )  # fmt: skip
    if start is None and end is not None:
        start = end
        notes.append(Message(N_("no start date (042): the end date, %(day)s, is used"),
                             {"day": Day(end)}))  # fmt: skip
    if end is None and start is not None:
        end = start
        notes.append(Message(N_("no end date (052): the start date, %(day)s, is used"),
                             {"day": Day(start)}))  # fmt: skip
    if start is None or end is None:  # for mypy: both were filled in above
        raise AssertionError("dates not filled in")
    if end < start:
        raise InputError(
            Message(
                N_("the end date %(end)s is before the start date %(start)s"),
                {"end": Day(end), "start": Day(start)},
            ),
            source=trf.source,
            field=field_words("052 end date"),
        )  # fmt: skip
    return start, end


def _trf_report(
    trf: TrfFile, tournament: TournamentFile, matched: Matched, notes: Sequence[Message]
) -> list[Message]:
    """What the file held and what was skipped: in English, the lines the import always wrote
    (``players: 12 records; ...``); French counts are written after their words
    (``joueurs : fiches 12 ; ...``) where one line has several."""
    pseudo = [p for p in trf.players if p.pseudo]
    real = trf.real_players
    with_fide = sum(1 for p in real if p.fide_id)
    national_only = sum(1 for p in real if not p.fide_id and national_key(p))
    short = sum(1 for g in trf.games if g.result in SHORT_GAMES.values())
    byes = trf.byes_by_code()
    neither = len(real) - with_fide - national_only
    by_code = f" ({', '.join(f'{c} {n}' for c, n in byes.items())})" if byes else ""
    heading = counted(
        Nn_(
            "%(source)s: %(version)s, %(encoding)s, %(endings)s line ends; %(name)s, %(start)s "
            "to %(end)s, %(rounds)s round",
            "%(source)s: %(version)s, %(encoding)s, %(endings)s line ends; %(name)s, %(start)s "
            "to %(end)s, %(rounds)s rounds",
        ),
        "rounds",
        {
            "source": trf.source,
            "version": trf.version,
            "encoding": trf.encoding,
            "endings": trf.line_endings,
            "name": repr(tournament.name),
            "start": Day(tournament.start_date),
            "end": Day(tournament.end_date),
            "rounds": trf.rounds,
        },
    )
    players = Message(
        N_(
            "players: %(records)s records; %(players)s players (%(fide)s with a FIDE id, "
            "%(national)s with a national id only, %(neither)s with neither); created "
            "%(by_fide)s by FIDE id, %(by_national)s by national id, %(local)s with a local id; "
            "already known %(known)s"
        ),
        {
            "records": len(trf.players),
            "players": len(real),
            "fide": with_fide,
            "national": national_only,
            "neither": neither,
            "by_fide": matched.created_fide,
            "by_national": matched.created_national,
            "local": matched.created_local,
            "known": matched.known,
        },
    )
    games = Message(
        N_(
            "games: %(stored)s stored = %(played)s played (rated candidates) + %(forfeits)s "
            "forfeits + %(short)s shorter than one move (never rated)"
        ),
        {"stored": len(trf.games), "played": trf.played, "forfeits": trf.forfeits, "short": short},
    )
    lines = [
        heading,
        players,
        games,
        Message(
            N_("byes (no opponent, not games): %(byes)s%(by_code)s; absent: %(absent)s"),
            {"byes": len(trf.byes), "by_code": by_code, "absent": trf.absent},
        ),
    ]
    for player in pseudo:
        lines.append(
            Message(
                N_(
                    "skipped: #%(rank)s %(name)s (line %(line)s) stands for the bye: no "
                    "player created"
                ),
                {"rank": player.rank, "name": repr(player.name), "line": player.line},
            )
        )
    for player in matched.skipped:
        lines.append(
            Message(
                N_(
                    "skipped: #%(rank)s %(name)s (line %(line)s) has no id and no game: no "
                    "player created"
                ),
                {"rank": player.rank, "name": repr(player.name), "line": player.line},
            )
        )
    if trf.unfinished:
        lines.append(
            counted(
                Nn_(
                    "skipped: %(count)s pairing without a result",
                    "skipped: %(count)s pairings without a result",
                ),
                "count",
                {"count": len(trf.unfinished)},
            )
        )
    if trf.skipped_records:
        ignored = ", ".join(f"{kind} {count}" for kind, count in trf.skipped_records.items())
        lines.append(Message(N_("records ignored: %(records)s"), {"records": ignored}))
    lines.extend(Message(N_("note: %(note)s"), {"note": note}) for note in (*trf.notes, *notes))
    return lines
