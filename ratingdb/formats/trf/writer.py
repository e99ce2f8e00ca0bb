"""TRF16 and TRF26 written (the sample data generator and the round-trip tests use it): one
``001`` line per player with its rounds, and TRF26 National Rating Support records. The
columns are those the reader reads (records.py), so what is written reads back the same."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from ratingdb.formats.cells import unwritable
from ratingdb.formats.trf.records import (
    BIRTH,
    FEDERATION,
    FIDE_ID,
    FIRST_ROUND,
    NAME,
    PLACE,
    POINTS,
    POINTS_FIELD,
    RANK,
    RATING,
    ROUND_WIDTH,
    SEX,
    TITLE,
)


@dataclass(frozen=True, slots=True)
class RoundOut:
    opponent: int | None
    colour: str  # "w", "b" or "-"
    code: str


@dataclass(frozen=True, slots=True)
class PlayerOut:
    rank: int
    name: str
    sex: str | None = None  # "M" or "F"
    title: str | None = None
    rating: int | None = None
    federation: str | None = None
    fide_id: str | None = None
    birth_date: date | None = None
    birth_year: int | None = None
    rounds: tuple[RoundOut | None, ...] = ()
    #: (federation code, national id, national rating) for a TRF26 NRS record.
    national: tuple[str, str | None, int | None] | None = None


def _put(line: list[str], span: tuple[int, int], text: str, *, right: bool = False) -> None:
    width = span[1] - span[0] + 1
    if unwritable(text) is not None:
        raise ValueError(f"{text!r} holds a character that would break the line")
    if len(text) > width:
        raise ValueError(f"{text!r} does not fit in columns {span[0]}-{span[1]}")
    cell = text.rjust(width) if right else text.ljust(width)
    line[span[0] - 1 : span[1]] = list(cell)


def _points_of(rounds: Iterable[RoundOut | None]) -> Fraction:
    return sum((POINTS.get(r.code, Fraction(0)) for r in rounds if r), Fraction(0))


def format_trf(
    *,
    name: str,
    city: str,
    federation: str,
    start_date: date,
    end_date: date,
    time_control: str,
    players: Sequence[PlayerOut],
    trf26: bool = False,
    time_control_code: str | None = None,
    arbiter: str | None = None,
) -> str:
    """A TRF16 file (TRF26 with ``trf26``: ``142``, ``222`` and NRS records), LF line ends.
    A value that does not fit its columns, or would break a line, is a ValueError."""
    for header in (name, city, federation, time_control, arbiter or "", time_control_code or ""):
        if unwritable(header) is not None:
            raise ValueError(f"{header!r} holds a character that would break the line")
    rounds = max((len(p.rounds) for p in players), default=0)
    lines = [
        f"012 {name}",
        f"022 {city}",
        f"032 {federation}",
        f"042 {start_date:%Y/%m/%d}",
        f"052 {end_date:%Y/%m/%d}",
        f"062 {len(players)}",
        f"072 {sum(1 for p in players if p.rating)}",
        "082 0",
        "092 Individual: Swiss-System",
        f"102 {arbiter or ''}".rstrip(),
        f"122 {time_control}",
    ]
    if trf26:
        lines.append(f"142 {rounds}")
        if time_control_code:
            lines.append(f"222 {time_control_code}")
    ranking = sorted(players, key=lambda p: (-_points_of(p.rounds), p.rank))
    place = {p.rank: index for index, p in enumerate(ranking, start=1)}
    lines += [_player_line(player, place[player.rank], rounds) for player in players]
    if trf26:
        lines += [_national_line(p.rank, p.name, p.national) for p in players if p.national]
    return "\n".join(lines) + "\n"


def _player_line(player: PlayerOut, place: int, rounds: int) -> str:
    """The ``001`` line of ``player``, finishing at ``place``, room made for ``rounds``."""
    line = [" "] * (FIRST_ROUND - 1 + ROUND_WIDTH * rounds)
    _put(line, (1, 3), "001")
    _put(line, RANK, str(player.rank), right=True)
    _put(line, (SEX, SEX), {"M": "m", "F": "w"}.get(player.sex or "", " "))
    _put(line, TITLE, player.title or "", right=True)
    _put(line, NAME, player.name)
    _put(line, RATING, str(player.rating) if player.rating else "", right=True)
    _put(line, FEDERATION, player.federation or "")
    _put(line, FIDE_ID, player.fide_id or "", right=True)
    birth = (
        f"{player.birth_date:%Y/%m/%d}"
        if player.birth_date
        else f"{player.birth_year}/00/00"
        if player.birth_year
        else ""
    )
    _put(line, BIRTH, birth)
    _put(line, POINTS_FIELD, f"{float(_points_of(player.rounds)):.1f}", right=True)
    _put(line, PLACE, str(place), right=True)
    for r, out in enumerate(player.rounds, start=1):
        if out is None:
            continue
        column = FIRST_ROUND + ROUND_WIDTH * (r - 1)
        opponent = "0000" if out.opponent is None else str(out.opponent)
        _put(line, (column, column + 3), opponent, right=True)
        _put(line, (column + 5, column + 5), out.colour)
        _put(line, (column + 7, column + 7), out.code)
    return "".join(line).rstrip()


def _national_line(rank: int, name: str, national: tuple[str, str | None, int | None]) -> str:
    """The TRF26 National Rating Support record of a player: PlayerOut.national."""
    code, national_id, rating = national
    line = [" "] * FIDE_ID[1]
    _put(line, (1, 3), code)
    _put(line, RANK, str(rank), right=True)
    _put(line, NAME, name)
    _put(line, RATING, str(rating) if rating else "", right=True)
    _put(line, FIDE_ID, national_id or "", right=True)
    return "".join(line).rstrip()
