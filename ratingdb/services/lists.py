"""Published lists: importing a list published elsewhere (the starting point: a list CSV or a
FIDE download, TXT or XML) and exporting a published list."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import (
    XML_TAGS,
    FideListRow,
    FideTxtEntry,
    iter_fide_txt,
    iter_fide_xml,
    write_fide_txt,
    write_fide_xml_list,
)
from ratingdb.formats.list_csv import (
    DEFAULT_RATED_GAMES,
    ExportEntry,
    ListRow,
    read_list_csv,
    write_list_csv_to,
)
from ratingdb.models import PeriodRow, RatingListRow
from ratingdb.repositories import list_entries
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, KStatus, Period, RuleVersion, k_factor, version_for_period
from ratingdb.rules.calendar import NotAListPeriod, check_list_period
from ratingdb.rules.kfactor import is_junior
from ratingdb.services.progress import Track, no_progress

IMPORT_FORMATS = ("csv", "fide-txt", "fide-xml")
EXPORT_FORMATS = ("json", "csv", "fide-txt", "fide-xml")
#: Rows of a FIDE list read, checked and written at a time: memory stays flat for any size.
FIDE_BATCH = 5000
#: Entries encoded at once for a list's digest.
DIGEST_SLICE = 10_000
_COMPACT_JSON = json.JSONEncoder(separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class Replacement:
    """An import that publishes a corrected revision of a published imported list
    (``lists import --replace``): the revision it writes and the correction it is written for.
    The caller (services.corrections.replace_list) has checked that the period is published
    from an import."""

    revision: int
    cause: int


@dataclass(frozen=True, slots=True)
class ImportedList:
    category: Category
    period: Period
    list_id: int
    revision: int
    rated: int
    unrated: int
    players_created: int
    players_updated: int
    #: Players whose K, derived from the list (see derive_status), differs from the K the list
    #: prints (FIDE formats only).
    k_differs: int = 0

    def as_json(self) -> dict[str, Any]:
        return {
            "category": self.category.value,
            "period": str(self.period),
            "list_id": self.list_id,
            "entries": self.rated,
            "unrated": self.unrated,
            "players_created": self.players_created,
            "players_updated": self.players_updated,
        }


def import_list_csv(
    session: Session,
    path: Path,
    category: Category,
    period: Period,
    now: datetime,
    *,
    replaces: Replacement | None = None,
) -> ImportedList:
    """Load a list CSV as the published list of ``period``: the category's starting point."""
    check_period(category, period, field="--period")
    rows = read_list_csv(path)
    return _publish_imported(
        session, rows, category, period, now, source=str(path), replaces=replaces
    )


def import_list_file(
    session: Session,
    path: Path,
    category: Category,
    period: Period,
    now: datetime,
    file_format: str = "csv",
    track: Track = no_progress,
    *,
    replaces: Replacement | None = None,
) -> ImportedList:
    """``lists import``: a list CSV, or a FIDE download (``fide-txt``, ``fide-xml``); with
    ``replaces``, a corrected revision of the period's published list."""
    if file_format not in IMPORT_FORMATS:
        raise InputError(f"must be one of {', '.join(IMPORT_FORMATS)}", field="--format")
    if file_format == "csv":
        return import_list_csv(session, path, category, period, now, replaces=replaces)
    return import_fide_list(
        session, path, category, period, now, file_format, track=track, replaces=replaces
    )


def check_period(category: Category, period: Period, *, field: str) -> None:
    try:
        check_list_period(category, period)
    except (NotAListPeriod, LookupError) as error:
        raise InputError(str(error), field=field) from None


def _publish_imported(
    session: Session,
    rows: Sequence[ListRow],
    category: Category,
    period: Period,
    now: datetime,
    *,
    source: str,
    replaces: Replacement | None,
) -> ImportedList:
    if replaces is None:
        _check_publishable(session, category, period)
    created, updated = player_repo.upsert(
        session,
        [
            {
                "player_id": row.player_id,
                "name": row.name,
                "federation": row.federation,
                "sex": row.sex,
                "birth_year": row.birth_year,
                "title": row.title,
            }
            for row in rows
        ],
    )
    period_row = period_repo.get_or_create_period(session, category, period)
    version = version_for_period(category, period)
    rated: list[ListRow] = []
    unrated: list[ListRow] = []
    for row in rows:
        (rated if row.rating is not None and row.rating >= version.floor else unrated).append(row)
    if not rated:
        raise _no_entries(source, category, len(rows), version.floor)
    entries = [
        {
            "player_id": row.player_id,
            "rating": row.rating,
            "previous_rating": None,
            "change": None,
            "games": 0,
            "k_factor": k_factor(
                version,
                KStatus(row.rating, row.rated_games, row.peak_rating, row.birth_year),
                period.year,
            ),
            "k_used": None,
            "sum_delta": None,
            "rated_games": row.rated_games,
            "peak_rating": row.peak_rating if row.peak_rating is not None else row.rating,
        }
        for row in rated
    ]
    rating_list = _add_imported_list(
        session,
        period_row,
        period,
        now,
        entry_count=len(entries),
        digest=list_digest(entries),
        replaces=replaces,
    )
    for entry in entries:
        entry["list_id"] = rating_list.id
    list_entries.insert_entries(session, entries)
    list_entries.insert_statuses(
        session,
        [
            {
                "list_id": rating_list.id,
                "player_id": row.player_id,
                "rated_games": row.rated_games if row.rating is not None else 0,
                "peak_rating": row.peak_rating,
                "pool": [],
            }
            for row in unrated
        ],
    )
    if replaces is None:
        period_repo.mark_published(session, period_row, now)
    return ImportedList(
        category,
        period,
        rating_list.id,
        rating_list.revision,
        len(entries),
        len(unrated),
        created,
        updated,
    )


def _add_imported_list(
    session: Session,
    period_row: PeriodRow,
    period: Period,
    now: datetime,
    *,
    entry_count: int,
    digest: str | None,
    replaces: Replacement | None,
) -> RatingListRow:
    """The list row of an imported list (revision 1, or the replacement's revision naming its
    correction; no rule version), flushed for its id."""
    return period_repo.add_list(
        session,
        period_id=period_row.id,
        category=period_row.category,
        list_date=period.list_date,
        revision=1 if replaces is None else replaces.revision,
        source="import",
        rule_version=None,
        published_at=now,
        entry_count=entry_count,
        digest=digest,
        cause_correction_id=None if replaces is None else replaces.cause,
        corrections_applied=0 if replaces is None else replaces.cause,
    )


def _check_publishable(session: Session, category: Category, period: Period) -> None:
    existing = period_repo.get_period(session, category, period)
    if existing is not None and existing.state != "open":
        raise InputError(
            f"{category.value} {period} is already {existing.state}; "
            "a published list never changes",
            field="--period",
        )
    later = [p for p in period_repo.published_periods(session, category) if p > period]
    if later:
        raise InputError(
            f"{category.value} already has a published list after {period} ({max(later)})",
            field="--period",
        )


def _no_entries(source: str, category: Category, players: int, floor: int) -> InputError:
    """A list without entries is never published: the next close would start from nobody, and
    a published list cannot be taken back. Refused whether the file holds no player at all or
    only players without a rating at or above the floor (the caller's transaction rolls back
    the players it may have written)."""
    why = (
        "the list has no entries"
        if players == 0
        else f"the list has no entries: none of its {players} players has a {category.value} "
        f"rating at or above the floor ({floor})"
    )
    return InputError(why, source=source)


def list_digest(entries: Sequence[dict[str, Any]]) -> str:
    """SHA-256 of the list's canonical content: what proves later that it never changed."""
    return digest_of_sorted(
        sorted(
            (e["player_id"], e["rating"], e["previous_rating"], e["change"], e["games"],
             e["k_factor"])
            for e in entries
        )
    )  # fmt: skip


def digest_of_sorted(canonical: Iterable[Sequence[Any]]) -> str:
    """The digest of canonical entries already sorted, fed in slices (the same bytes as
    ``json.dumps`` of the whole sorted list): each slice is one call of the C encoder, where one
    ``json.dumps`` per entry spent 1.9 s on 500,000 entries, 0.5 s in slices."""
    digest = hashlib.sha256(b"[")
    entries = iter(canonical)
    separator = b""
    while chunk := [
        entry if type(entry) is tuple else tuple(entry)  # e.g. database rows
        for entry in itertools.islice(entries, DIGEST_SLICE)
    ]:
        digest.update(separator)
        digest.update(_COMPACT_JSON.encode(chunk)[1:-1].encode())
        separator = b","
    digest.update(b"]")
    return digest.hexdigest()


# --- FIDE lists --------------------------------------------------------------------------------


def import_fide_list(
    session: Session,
    path: Path,
    category: Category,
    period: Period,
    now: datetime,
    file_format: str,
    *,
    track: Track = no_progress,
    replaces: Replacement | None = None,
) -> ImportedList:
    """A FIDE download as the published list of ``period``, streamed in batches: players are
    created or updated (the FIDE list is the authority on names, federations, titles), every
    player rated at or above the floor gets an entry with the games of the month and a K status
    derived from the list's K (derive_status)."""
    check_period(category, period, field="--period")
    rows: Iterator[FideListRow] = iter(
        track(
            iter_fide_txt(path, category)
            if file_format == "fide-txt"
            else iter_fide_xml(path, category),
            f"{path.name}: players",
        )
    )
    if replaces is None:
        _check_publishable(session, category, period)
    version = version_for_period(category, period)
    period_row = period_repo.get_or_create_period(session, category, period)
    # The count and the digest are known once every batch is in.
    rating_list = _add_imported_list(
        session, period_row, period, now, entry_count=0, digest=None, replaces=replaces
    )
    rated = unrated = created = updated = k_differs = 0
    seen: set[int | str] = set()
    while batch := list(itertools.islice(rows, FIDE_BATCH)):
        _refuse_repeated(batch, seen, path)
        new, changed = player_repo.upsert(
            session,
            [
                {
                    "player_id": row.fide_id,
                    "fide_id": row.fide_id,
                    "name": row.name,
                    "federation": row.federation,
                    "sex": row.sex,
                    "birth_year": row.birth_year,
                    "title": row.title,
                }
                for row in batch
            ],
        )
        created, updated = created + new, updated + changed
        entries = []
        for row in batch:
            if row.rating is None or row.rating < version.floor:
                unrated += 1
                continue
            rated_games, peak = derive_status(version, row, period.year)
            k = k_factor(
                version, KStatus(row.rating, rated_games, peak, row.birth_year), period.year
            )
            k_differs += row.k_factor is not None and row.k_factor != k
            entries.append(
                {
                    "list_id": rating_list.id,
                    "player_id": row.fide_id,
                    "rating": row.rating,
                    "previous_rating": None,
                    "change": None,
                    "games": row.games or 0,
                    "k_factor": k,
                    "k_used": None,
                    "sum_delta": None,
                    "rated_games": rated_games,
                    "peak_rating": peak,
                }
            )
        rated += list_entries.insert_entries(session, entries)
    if not rated:
        raise _no_entries(str(path), category, unrated, version.floor)
    rating_list.entry_count = rated
    rating_list.digest = stored_digest(session, rating_list.id)
    if replaces is None:
        period_repo.mark_published(session, period_row, now)
    return ImportedList(
        category,
        period,
        rating_list.id,
        rating_list.revision,
        rated,
        unrated,
        created,
        updated,
        k_differs,
    )


def derive_status(version: RuleVersion, row: FideListRow, list_year: int) -> tuple[int, int]:
    """(rated_games, peak_rating) for a player of a FIDE list, chosen so that the K rules
    (rules.md A3) give the K the list prints (B §12: the list gives rating, games of the month,
    K and birth year; the history behind them is not in it):

    - ``rated_games`` is 30 (established) unless the K says the player is new: the games column
      counts only the month's games, so the total is unknown; a K for new players (40) on a
      player who is not a junior means fewer than 30 games: the month's games, at most 29;
    - ``peak_rating`` is the rating, raised to 2400 when the K is the permanent K 10, and to
      2300 when a junior under 2300 has the established K (a past rating of 2300 ended it).
    A list without a K column leaves 30 games and the rating as the peak.
    """
    if row.rating is None:
        raise ValueError("only a rated player has a status to derive")
    rating, listed = row.rating, row.k_factor
    status = KStatus(rating, DEFAULT_RATED_GAMES, rating, row.birth_year)
    junior = version.junior_k is not None and is_junior(version, status, list_year)
    if listed is None:
        return DEFAULT_RATED_GAMES, rating
    if listed == version.k_high != version.k_established:
        return DEFAULT_RATED_GAMES, max(rating, version.k_high_threshold)
    if listed == version.k_new != version.k_established and not (
        junior and listed == version.junior_k
    ):
        return min(row.games or 0, version.new_player_games - 1), rating
    if listed == version.k_established and junior:
        return DEFAULT_RATED_GAMES, max(rating, version.junior_rating_limit)
    return DEFAULT_RATED_GAMES, rating


def _refuse_repeated(batch: Sequence[FideListRow], seen: set[int | str], path: Path) -> None:
    """A player may appear once in a list: within the batch (naming the first line), and
    against the batches before (``seen``, the ids so far, which this adds the batch's to).

    In memory, not a query per batch: a query for the batch's ids among the entries written so
    far took up to 2 s a batch on PostgreSQL (the table growing inside the import's own
    transaction), 400 batches for FIDE's list. Ids are kept as ints where that loses nothing
    (about 60 bytes each, 120 MB for two million players)."""
    in_batch: dict[int | str, FideListRow] = {}
    for row in batch:
        key = _id_key(row.fide_id)
        if key in in_batch:
            first, _ = in_batch[key].where(path)
            _repeated(row, path, f"line {first}")
        if key in seen:
            _repeated(row, path, "an earlier line")
        in_batch[key] = row
    seen.update(in_batch)


def _id_key(fide_id: str) -> int | str:
    """The id as an int when the int gives it back exactly (no leading zero), else as is."""
    return int(fide_id) if fide_id[0] != "0" and len(fide_id) <= 18 else fide_id


def _repeated(row: FideListRow, path: Path, first: str) -> None:
    line, player = row.where(path)
    raise InputError(
        f"{player}FIDE id {row.fide_id} is already on {first}",
        source=str(path),
        line=line,
        field="ID",
    )


def stored_digest(session: Session, list_id: int) -> str:
    """list_digest of the stored entries, read back in player_id order (byte order, as Python
    sorts) without holding them all."""
    rows = list_entries.canonical_rows(session, list_id, yield_per=FIDE_BATCH)
    return digest_of_sorted(rows)


# --- export ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PublishedEntry:
    player_id: str
    name: str
    federation: str | None
    sex: str | None
    birth_year: int | None
    title: str | None
    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    rated_games: int
    peak_rating: int


@dataclass(frozen=True, slots=True)
class PublishedList:
    category: Category
    period: Period
    revision: int
    rule_version: str | None
    published_at: datetime
    #: A tuple; from ``streamed_list`` an iterator, read once as it goes.
    entries: Iterable[PublishedEntry]


def published_list(session: Session, category: Category, period: Period) -> PublishedList:
    """The published list of ``period``, its entries in memory."""
    with streamed_list(session, category, period) as published:
        return replace(published, entries=tuple(published.entries))


@contextmanager
def streamed_list(session: Session, category: Category, period: Period) -> Iterator[PublishedList]:
    """The published list of ``period``, its entries read from the database FIDE_BATCH at a
    time as they are used, inside the ``with``: an export's memory stays flat whatever the
    list's size; the cursor is closed on leaving, used up or not."""
    rating_list = period_repo.list_for(session, category, period)
    if rating_list is None:
        raise InputError(f"{category.value} has no published list for {period}", field="--period")
    rows = list_entries.published_rows(session, rating_list.id, yield_per=FIDE_BATCH)
    try:
        yield PublishedList(
            category,
            period,
            rating_list.revision,
            rating_list.rule_version,
            rating_list.published_at,
            (PublishedEntry(**row._asdict()) for row in rows),
        )
    finally:
        rows.close()


def write_published(published: PublishedList, file_format: str, out: IO[str]) -> None:
    """``lists export``: the list in one of EXPORT_FORMATS, each written so that its reader
    gives back exactly what was written (a value a format cannot hold is refused with an
    InputError naming the player and the field; a FIDE TXT name is cut as FIDE cuts it).
    CSV, FIDE TXT and FIDE XML are written one entry at a time; JSON as one document."""
    if file_format == "json":
        out.write(list_json(published))
    elif file_format == "csv":
        list_csv(published, out)
    elif file_format == "fide-txt":
        write_fide_txt(fide_entries(published), published.category, out)
    elif file_format == "fide-xml":
        if published.category not in XML_TAGS:
            raise InputError(
                f"a FIDE XML list holds FIDE ratings only, not {published.category.value} "
                "(fide-txt, csv and json hold every category)",
                field="--format",
            )
        write_fide_xml_list(fide_entries(published), out)
    else:
        raise InputError(f"must be one of {', '.join(EXPORT_FORMATS)}", field="--format")


def list_json(published: PublishedList) -> str:
    document = {
        "category": published.category.value,
        "period": str(published.period),
        "list_date": published.period.list_date.isoformat(),
        "revision": published.revision,
        "rule_version": published.rule_version,
        "entries": [
            {
                "player_id": e.player_id,
                "name": e.name,
                "federation": e.federation,
                "rating": e.rating,
                "previous_rating": e.previous_rating,
                "change": e.change,
                "games": e.games,
                "k_factor": e.k_factor,
            }
            for e in published.entries
        ],
    }
    return json.dumps(document, indent=1, ensure_ascii=False) + "\n"


def list_csv(published: PublishedList, out: IO[str]) -> None:
    write_list_csv_to(
        (
            ExportEntry(
                e.player_id,
                e.name,
                e.federation,
                e.sex,
                e.birth_year,
                e.title,
                e.rating,
                e.rated_games,
                e.peak_rating,
                e.k_factor,
            )
            for e in published.entries
        ),
        out,
    )


def fide_entries(published: PublishedList) -> Iterator[FideTxtEntry]:
    """The list's entries as the FIDE writers take them, one at a time."""
    for e in published.entries:
        yield FideTxtEntry(
            e.player_id,
            e.name,
            e.federation,
            e.sex,
            e.title,
            e.rating,
            e.games,
            e.k_factor,
            e.birth_year,
        )
