"""Importing a FIDE download (TXT or XML) as a period's published list, streamed in batches;
the K status of each player derived from the K the list prints."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import FideListRow, ListNotes, iter_fide_txt, iter_fide_xml
from ratingdb.formats.fide_list.rows import is_inactive_flag
from ratingdb.formats.list_csv import DEFAULT_RATED_GAMES
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import chunks as list_chunks
from ratingdb.repositories.list_storage import latest as list_latest
from ratingdb.rules import Category, KStatus, Period, RuleVersion, k_factor, version_for_period
from ratingdb.rules.kfactor import is_junior
from ratingdb.rules.messages import N_, Message
from ratingdb.services.lists.digest import stored_digest
from ratingdb.services.lists.imported import (
    ImportedList,
    Replacement,
    add_imported_list,
    check_period,
    check_publishable,
    imported_entry,
    no_entries,
)
from ratingdb.services.progress import Track, no_progress

#: Rows of a FIDE list read, checked and written at a time: memory stays flat for any size.
FIDE_BATCH = 5000


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
    check_period(category, period)
    notes = ListNotes(str(path))
    rows: Iterator[FideListRow] = iter(
        track(
            iter_fide_txt(path, category, period=period, notes=notes)
            if file_format == "fide-txt"
            else iter_fide_xml(path, category, notes=notes),
            f"{path.name}: players",
        )
    )
    if replaces is None:
        check_publishable(session, category, period)
    version = version_for_period(category, period)
    period_row = period_repo.get_or_create_period(session, category, period)
    # The count and the digest are known once every batch is in.
    rating_list = add_imported_list(
        session, period_row, period, now, entry_count=0, digest=None, replaces=replaces
    )
    rated = unrated = created = updated = k_differs = 0
    seen: set[int | str] = set()
    while batch := list(itertools.islice(rows, FIDE_BATCH)):
        _refuse_repeated(batch, seen, path)
        new, changed = _upsert_players(session, batch)
        created, updated = created + new, updated + changed
        entries, differs = _entries(batch, version, period, rating_list.id)
        unrated += len(batch) - len(entries)
        k_differs += differs
        rated += list_changes.insert_entries(session, entries)
    if not rated:
        raise no_entries(str(path), category, unrated, version.floor)
    list_chunks.write_chunks_of_entries(session, rating_list.id)
    list_latest.write_latest(session, rating_list.id)
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
        notes.lines(),
    )


def _upsert_players(session: Session, batch: Sequence[FideListRow]) -> tuple[int, int]:
    """The batch's players created or updated (the FIDE list is the authority on names,
    federations, titles; a record without a name or a year of birth leaves the stored one);
    returns (created, updated)."""
    return player_repo.upsert(
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
        keep=("name", "birth_year"),
    )


def _entries(
    batch: Sequence[FideListRow], version: RuleVersion, period: Period, list_id: int
) -> tuple[list[dict[str, Any]], int]:
    """The entries of the batch's players rated at or above the floor, and how many of them
    have a K, derived from their status, other than the K the list prints."""
    entries = []
    k_differs = 0
    for row in batch:
        if row.rating is None or row.rating < version.floor:
            continue
        rated_games, peak = derive_status(version, row, period.year)
        k = k_factor(version, KStatus(row.rating, rated_games, peak, row.birth_year), period.year)
        k_differs += row.k_factor is not None and row.k_factor != k
        entries.append(
            imported_entry(
                list_id,
                row.fide_id,
                row.rating,
                games=row.games or 0,
                k_factor=k,
                rated_games=rated_games,
                peak_rating=peak,
                list_date=period.list_date,
                active=not is_inactive_flag(row.flag),
            )
        )
    return entries, k_differs


def derive_status(version: RuleVersion, row: FideListRow, list_year: int) -> tuple[int, int]:
    """(rated_games, peak_rating) for a player of a FIDE list, chosen so that the K rules
    (docs/rules.md §6) give the K the list prints (B §12: the list gives rating, games of the month,
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
            _repeated(row, path, Message(N_("line %(line)s"), {"line": str(first)}))
        if key in seen:
            _repeated(row, path, Message(N_("an earlier line")))
        in_batch[key] = row
    seen.update(in_batch)


def _id_key(fide_id: str) -> int | str:
    """The id as an int when the int gives it back exactly (no leading zero), else as is."""
    return int(fide_id) if fide_id[0] != "0" and len(fide_id) <= 18 else fide_id


def _repeated(row: FideListRow, path: Path, first: Message) -> None:
    line, _ = row.where(path)
    repeated = Message(N_("FIDE id %(id)s is already on %(first)s"),
                       {"id": row.fide_id, "first": first})  # fmt: skip
    if row.player is not None:  # an XML list's player, as FideListRow.where names it
        repeated = Message(N_("player #%(player)s: %(repeated)s"),
                           {"player": row.player, "repeated": repeated})  # fmt: skip
    raise InputError(
        repeated,
        source=str(path),
        line=line,
        field="ID",
    )
