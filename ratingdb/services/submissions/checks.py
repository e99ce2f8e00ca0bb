"""A tournament file checked as the import would take it: its size, its name, the check run
in a SAVEPOINT rolled back (read by the import's own code, players matched), the players it
gives otherwise than the database, and the report kept with the submission."""

from __future__ import annotations

import dataclasses
import re
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.enums import TournamentFormat
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import TournamentFile
from ratingdb.formats.trf import TrfPlayer
from ratingdb.models import PlayerRow
from ratingdb.models.submission import FILENAME_LENGTH
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import submissions as repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message, Number, Param, from_json
from ratingdb.services.quality import FileFacts, submission_flags
from ratingdb.services.submissions.duplicates import uploader_warnings
from ratingdb.services.submissions.player_warnings import (
    NewPlayer,
    likely_duplicates,
    list_warnings,
    new_players,
    player_warnings,
)
from ratingdb.services.submissions.rating_warnings import rating_warnings, unregistered
from ratingdb.services.tournaments import assign_period, read_tournament, refuse_unknown_players

#: The largest upload the back office receives (a corrected FIDE list file included).
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
#: The largest tournament file (TRF or games CSV) checked or stored: the largest real TRF, a
#: 280-player open, is under 100 KB, and reading a TRF holds about 36 times the file
#: (benchmarks/README.md, upload_memory.py): 4 MB bounds one check near 150 MB.
MAX_TOURNAMENT_BYTES = 4 * 1024 * 1024


def check_tournament_size(content: bytes) -> None:
    """A tournament file within MAX_TOURNAMENT_BYTES, else InputError naming the file."""
    if len(content) > MAX_TOURNAMENT_BYTES:
        raise InputError(
            Message(N_("a tournament file of %(size)s bytes is larger than the %(most)s MB a "
                       "tournament file may have"),
                    {"size": Number(len(content), ",d"),
                     "most": MAX_TOURNAMENT_BYTES // (1024 * 1024)}),
            field="file",
        )  # fmt: skip


#: A warning or flag of one of the categories a file is rated in.
IN_CATEGORY = N_("%(category)s: %(message)s")

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")


def safe_filename(name: str | None, file_format: str) -> str:
    """The uploaded file's own name (no folders, no odd characters): the import names a TRF
    without an 012 record after it, as the command does with its file."""
    base = _UNSAFE.sub("_", Path((name or "").replace("\\", "/")).name).strip(" .")
    if not base:
        base = f"upload.{file_format}"
    return base[-FILENAME_LENGTH:]


@contextmanager
def as_file(content: bytes, filename: str) -> Iterator[Path]:
    """The bytes as a file named ``filename`` (the import service reads files)."""
    with tempfile.TemporaryDirectory(prefix="ratingdb-submission-") as folder:
        path = Path(folder) / filename
        path.write_bytes(content)
        yield path


def located(error: InputError, path: Path, filename: str) -> InputError:
    """The error naming the uploaded file, not the temporary copy (its message kept, for the
    back office to word it)."""
    return InputError(
        renamed(error.text, str(path), filename),
        field=error.field_text or error.field,
        source=filename,
        line=error.line,
        column=error.column,
    )


def renamed(message: Message, old: str, new: str) -> Message:
    """``message`` with ``old`` (the temporary copy's path) written ``new`` (the uploaded
    file's name) in its values, or in its text when it is written whole (no values)."""
    if not message.params:
        return dataclasses.replace(message, text=message.text.replace(old, new))

    def value(param: Param) -> Param:
        if isinstance(param, Message):
            return renamed(param, old, new)
        return param.replace(old, new) if isinstance(param, str) else param

    return dataclasses.replace(message, params={k: value(v) for k, v in message.params.items()})


def describe(error: InputError) -> str:
    """An error as the API and the pages answer it: file, line, column and field in words."""
    return described(error).english()


def described(error: InputError) -> Message:
    """``describe`` as a message with its values (the back office words it)."""
    parts: list[Param] = [part for part in (error.source,) if part]
    if error.line is not None:
        parts.append(Message(N_("line %(line)s"), {"line": error.line}))
    if error.column is not None:
        parts.append(Message(N_("column %(column)s"), {"column": error.column}))
    if error.field:
        # A TRF's words for its field (``starting rank``) translated; a CSV column as it is.
        field: Param = error.field_text or error.field
        parts.append(Message(N_("field %(field)s"), {"field": field}))
    if not parts:
        return error.text
    where = Message(", ".join(f"%(p{i})s" for i in range(len(parts))),
                    {f"p{i}": part for i, part in enumerate(parts)})  # fmt: skip
    return Message(N_("%(where)s: %(message)s"), {"where": where, "message": error.text})


def _same_name(text: str) -> str:
    return re.sub(r"[\s,]+", " ", text).strip().casefold()


def _mismatches(
    session: Session,
    known: Sequence[tuple[TrfPlayer, str]],
    category: Category,
    start: Any,
) -> list[dict[str, Any]]:
    """The file against the database for the players already stored: name, federation, birth
    year, sex (when both say something), and the file's rating against the list in force on
    the start date (when there is one)."""
    rows: dict[str, PlayerRow] = repo.players_by_ids(session, {pid for _, pid in known})
    in_force = period_repo.in_force(period_repo.lists_of(session, category), start)
    ratings = {} if in_force is None else repo.ratings_on(session, in_force.id, rows.keys())
    found: list[dict[str, Any]] = []
    for player, player_id in known:
        row = rows[player_id]
        pairs: list[tuple[str, Any, Any]] = [
            ("name", player.name, row.name),
            ("federation", player.federation, row.federation),
            ("birth_year", player.birth_year, row.birth_year),
            ("sex", player.sex, row.sex),
        ]
        for name, in_file, stored in pairs:
            if in_file is None or stored is None:
                continue
            same = (
                _same_name(in_file) == _same_name(stored) if name == "name" else in_file == stored
            )
            if not same:
                found.append(
                    {"player_id": player_id, "field": name, "file": in_file, "database": stored}
                )
        if in_force is not None and player.rating is not None:
            listed = ratings.get(player_id)
            if listed != player.rating:
                found.append({"player_id": player_id, "field": "rating", "file": player.rating,
                              "database": listed})  # fmt: skip
    return found


@dataclass(frozen=True, slots=True)
class Checked:
    report: dict[str, Any]
    digest: str
    name: str
    start: Any
    end: Any
    source_format: TournamentFormat


def _new_player(player: NewPlayer, duplicates: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {"name": player.name, "birth_year": player.birth_year,
            "federation": player.federation,
            "likely_duplicates": duplicates.get(player.player_id, [])}  # fmt: skip


def _quality(
    session: Session,
    tournament: TournamentFile,
    planned: Sequence[tuple[Category, Period, bool]],
    created: Sequence[NewPlayer],
    known: Sequence[tuple[TrfPlayer, str]],
) -> list[dict[str, Any]]:
    """The quality flags of what the file brings to each category's period (its new players'
    once); prefixed with the category when the file is rated in more than one."""
    games = [(g.white_id, g.black_id, g.result) for g in tournament.games if g.played]
    names = {player_id: player.name for player, player_id in known}
    new = [(p.player_id, p.name, p.born_known, p.sex) for p in created]
    flags: list[dict[str, Any]] = []
    for index, (category, period, _) in enumerate(planned):
        row = period_repo.get_period(session, category, period)
        in_force = period_repo.in_force(period_repo.lists_of(session, category),
                                        tournament.start_date)  # fmt: skip
        facts = FileFacts(category, period, None if row is None else row.id,
                          tournament.start_date, games, None if in_force is None else in_force.id,
                          new if index == 0 else [], names)  # fmt: skip
        for flag in submission_flags(session, facts):
            if len(planned) > 1:
                prefixed = Message(IN_CATEGORY, {"category": category.value,
                                                 "message": from_json(flag["i18n"])})  # fmt: skip
                flag["message"], flag["i18n"] = prefixed.english(), prefixed.as_json()
            flags.append(flag)
    return flags


def check(
    session: Session,
    path: Path,
    filename: str,
    categories: Sequence[Category],
    forced: Period | None,
    file_format: str,
    submitter_id: int,
) -> Checked:
    """The check report of a file, as the import would take it; nothing is left written. Its
    warnings are the uploader's (``submitter_id``): see duplicates.uploader_warnings."""
    savepoint = session.begin_nested()
    try:
        read = read_tournament(session, path, categories, forced, file_format)
        players = refuse_unknown_players(session, read.tournament, suggest_import=True)
        planned = [
            (category, *assign_period(session, category, read.tournament.end_date, forced))
            for category in categories
        ]
        unregistered_names = unregistered(session, read.tournament, categories)
        created = (
            new_players(session, read.tournament, {pid for _, pid in read.known})
            if read.source_format == TournamentFormat.TRF
            else []  # a games CSV names stored players only
        )
        federations = {
            pid: row.federation
            for pid, row in player_repo.by_ids(
                session,
                {g.white_id for g in read.tournament.games}
                | {g.black_id for g in read.tournament.games},
            ).items()
        }
    except InputError as error:
        savepoint.rollback()
        raise located(error, path, filename) from None
    savepoint.rollback()
    session.expire_all()
    tournament = read.tournament
    if read.source_format == TournamentFormat.TRF:
        matched, new = len(read.known), read.created
    else:
        matched, new = len(players), 0
    mismatches = _mismatches(session, read.known, categories[0], tournament.start_date)
    warnings = uploader_warnings(session, read.digest, tournament.name, tournament.start_date,
                         tournament.end_date, submitter_id)  # fmt: skip
    warnings += rating_warnings(tournament, categories, planned, read.details, unregistered_names)
    duplicates = likely_duplicates(session, created) if created else {}
    home = None if read.details is None else read.details.federation
    warnings += player_warnings(created, duplicates, federations, home)
    warnings += list_warnings(session, categories, tournament.start_date)
    quality = _quality(session, read.tournament, planned, created, read.known)
    first = planned[0]
    notes = [renamed(line, str(path), filename) for line in read.report]
    report = {
        "name": tournament.name,
        "start_date": tournament.start_date.isoformat(),
        "end_date": tournament.end_date.isoformat(),
        "period": str(first[1]),
        "late": first[2],
        "games": len(tournament.games),
        "rated_games": sum(1 for game in tournament.games if game.played),
        "players": {
            "matched": matched,
            "new": new,
            "mismatches": mismatches,
            # Who the file would create, each with the stored players it may be.
            "new_players": [_new_player(p, duplicates) for p in created],
        },
        # In English (the API's), and as messages with their values (the back office's).
        "warnings": [warning.english() for warning in warnings],
        "warnings_i18n": [warning.as_json() for warning in warnings],
        # Quality-control flags (issue 28 item 8), explained; never a refusal.
        "quality": quality,
        "categories": [
            {"category": c.value, "period": str(p), "late": late} for c, p, late in planned
        ],
        # What the file holds: in English (the API's, as before), and as messages.
        "notes": [line.english() for line in notes],
        "notes_i18n": [line.as_json() for line in notes],
    }
    return Checked(report, read.digest, tournament.name, tournament.start_date,
                   tournament.end_date, read.source_format)  # fmt: skip
