"""The players of a TRF as ratingdb players: known by FIDE id, else by national id (TRF26
NRS), else created (player_id = FIDE id, or a new local id)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.formats.trf import FIDE_ID, TrfFile, TrfPlayer
from ratingdb.models import PlayerRow
from ratingdb.repositories import players as player_repo
from ratingdb.rules.messages import N_, Message


@dataclass(slots=True)
class Matched:
    ids: dict[int, str] = field(default_factory=dict)
    created_fide: int = 0
    created_national: int = 0
    created_local: int = 0
    known: int = 0
    skipped: list[TrfPlayer] = field(default_factory=list)
    #: The file's players already stored, with their id (before the file completes them).
    known_players: list[tuple[TrfPlayer, str]] = field(default_factory=list)


def match_players(session: Session, trf: TrfFile) -> Matched:
    """Each player of the file as a ratingdb player: known by FIDE id, else by national id
    (TRF26 NRS), else created (player_id = FIDE id, or a new local id). A record with neither
    id nor any stored game (a player who never played) creates nobody."""
    matched = Matched()
    wanted = _wanted(trf, matched)
    by_fide = player_repo.by_fide_ids(session, {p.fide_id for p in wanted if p.fide_id})
    by_national = player_repo.by_national_ids(
        session, {key for p in wanted if (key := national_key(p)) is not None}
    )
    new_rows: list[dict[str, Any]] = []
    local: list[tuple[TrfPlayer, dict[str, Any]]] = []
    owner: dict[str, TrfPlayer] = {}
    for player in wanted:
        row = _known_as(trf, player, by_fide, by_national)
        if row is not None:
            matched.known_players.append((player, row.player_id))
            _complete(row, player)
            matched.known += 1
            player_id = row.player_id
        elif player.fide_id:
            values = _new_player(player)
            values["player_id"] = player_id = player.fide_id
            new_rows.append(values)
            matched.created_fide += 1
        else:  # a local id, given below once they are counted
            local.append((player, _new_player(player)))
            if national_key(player) is not None:
                matched.created_national += 1
            else:
                matched.created_local += 1
            continue
        if player_id in owner:
            raise _player_error(
                trf, player,
                Message(N_("#%(rank)s and #%(other)s (line %(line)s) are the same player, "
                           "%(id)s"),
                        {"rank": player.rank, "other": owner[player_id].rank,
                         "line": owner[player_id].line, "id": player_id}),
                "FIDE id", FIDE_ID[0],
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


def _wanted(trf: TrfFile, matched: Matched) -> list[TrfPlayer]:
    """The players to match or create: those with an id or a game; the others are noted as
    skipped."""
    in_games = {g.white_rank for g in trf.games} | {g.black_rank for g in trf.games}
    wanted: list[TrfPlayer] = []
    for player in trf.real_players:
        if player.fide_id or national_key(player) or player.rank in in_games:
            wanted.append(player)
        else:
            matched.skipped.append(player)
    return wanted


def _known_as(
    trf: TrfFile,
    player: TrfPlayer,
    by_fide: Mapping[str, PlayerRow],
    by_national: Mapping[tuple[str, str], PlayerRow],
) -> PlayerRow | None:
    """The stored player the file's player is: by FIDE id, else (a player without one) by
    national id; refused when the stored ids contradict the file's."""
    key = national_key(player)
    row = by_fide.get(player.fide_id) if player.fide_id else None
    national_row = by_national.get(key) if key is not None else None
    if row is not None and row.fide_id not in (None, player.fide_id):
        raise _player_error(
            trf, player,
            Message(N_("player %(id)s has FIDE id %(stored)s, not %(given)s"),
                    {"id": row.player_id, "stored": str(row.fide_id),
                     "given": str(player.fide_id)}),
            "FIDE id", FIDE_ID[0],
        )  # fmt: skip
    if row is not None and national_row is not None and national_row is not row:
        national = player.national
        raise InputError(
            Message(
                N_(
                    "national id %(key)s belongs to player %(owner)s, but the FIDE id of "
                    "#%(rank)s is %(fide_id)s (player %(id)s)"
                ),
                {
                    "key": str(key),
                    "owner": national_row.player_id,
                    "rank": player.rank,
                    "fide_id": str(player.fide_id),
                    "id": row.player_id,
                },
            ),
            source=trf.source,
            line=national.line if national else player.line,
            column=FIDE_ID[0],
            field="national id",
        )
    if row is None and player.fide_id is None:
        return national_row
    return row


def national_key(player: TrfPlayer) -> tuple[str, str] | None:
    national = player.national
    if national is None or national.national_id is None:
        return None
    return national.federation, national.national_id


def _player_error(
    trf: TrfFile, player: TrfPlayer, message: Message, field: str, column: int
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
