"""FIDE Tournament Report File, TRF16 and TRF26 (docs/formats.md §4), in and out.

Reading is strict where rating depends on it and lenient elsewhere, as real files demand:

- the text is UTF-8, else Latin-1 (a UTF-8 byte order mark dropped; UTF-16 and UTF-32 are
  refused); lines end in LF, CRLF or CR and are at most 64 KiB; columns are characters,
  1-based; no line holds a control character (tabs between the fields of a round aside), a
  line separator or a bidi override, refused with the field it is in; the tournament name and
  city are at most 200 characters; dates are from 1900 to 2200 (text.py);
- header records ``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` dates (ISO,
  ``YYYY/MM/DD``, ``DD.MM.YYYY``, ``DD/MM/YYYY``, ``May 29, 2020`` ..., and ``YY.MM.DD`` or
  ``DD.MM.YY`` when one order alone is plausible: dates.two_digit_orders), ``122`` time
  control and TRF26 ``222`` encoded time control; ``###`` comments, ``XX*``/``BB*`` engine
  records and every other record are skipped (and counted in the report);
- ``001`` player lines, and TRF26 National Rating Support records (a federation code in columns
  1-3, linked to a player by starting rank: national rating 49-52, national id 58-68);
- each round field once per game: the two lines of a game must agree (opponents point at each
  other, results mirror, colours are opposite), otherwise the file is refused with line and
  column, as is an opponent number that no player has (pairings.py).

Result codes (B §11.2): ``1 = 0`` against an opponent are played games (the only ones rated);
``+ -`` against an opponent are forfeits, stored as the games CSV's ``+-``, ``-+``, ``--``;
``W D L`` (the game lasted less than one move) are stored as ``W-L``, ``L-W``, ``D-D``, ``L-L``,
never rated; a pairing with no result on either line is skipped; an entry without an opponent
(``0000`` or blank, any code) is a bye, not a game. A pseudo-player standing for the bye (e.g.
"spielfrei") creates no player: its entries are byes of its opponents.
"""

from __future__ import annotations

import codecs
import re
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from io import BytesIO
from pathlib import Path
from typing import TypeVar

from ratingdb.errors import InputError
from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import (
    MAX_NAME_CHARS,
    bounded_chunks,
    check_text,
    decode,
    read_bounded,
)
from ratingdb.formats.trf.header_dates import HeaderDates
from ratingdb.formats.trf.pairings import RoundPairings
from ratingdb.formats.trf.records import (
    FIDE_ID,
    HEADER_RECORDS,
    NAMED_HEADERS,
    POINTS,
    RANK,
    SAVE_AS,
    TRF26_RECORDS,
    NationalRecord,
    TrfFile,
    TrfPlayer,
    field_at,
    field_text,
)
from ratingdb.rules.messages import N_, Message, Number, worded
from ratingdb.rules.rate_of_play import parse_time_control

#: The key of a value that may be on one line only.
_Key = TypeVar("_Key")


def split_lines(text: str) -> tuple[list[str], str]:
    """Lines ending in LF, CRLF or CR (even mixed), and the name of the endings seen."""
    kinds = []
    if "\r\n" in text:
        kinds.append("CRLF")
    if re.search(r"\r(?!\n)", text):
        kinds.append("CR")
    if re.search(r"(?<!\r)\n", text):
        kinds.append("LF")
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines, "+".join(kinds) or "none"


def _as_written(points: Decimal) -> Number | str:
    """Declared points as ``str()`` writes them (``2.0``, ``2.50``), as a figure a French
    report writes with a comma; an exponent (``1E+1``) as it is."""
    exponent = points.as_tuple().exponent
    if not isinstance(exponent, int) or exponent > 0:
        return str(points)
    return Number(float(points), f".{-exponent}f")


def read_trf(path: Path, *, source: str | None = None) -> TrfFile:
    name = source or str(path)
    return parse_trf(read_bounded(path, name, save_as=SAVE_AS), source=name)


def parse_trf(raw: bytes, *, source: str) -> TrfFile:
    """The file's bytes, read: refused (InputError) with file, line, column and field."""
    for _ in bounded_chunks(BytesIO(raw), source, save_as=SAVE_AS):
        pass  # a UTF-16 file, or a line over 64 KiB, refused before it is decoded
    try:
        return _Parser(raw, source).parse()
    except InputError as error:
        raise error.located(source) from None


class _Parser(HeaderDates, RoundPairings):
    """Reads one file: every line, then what the lines say about each other."""

    def __init__(self, raw: bytes, source: str) -> None:
        text, encoding = decode(raw)
        self.bom = raw.startswith(codecs.BOM_UTF8)
        super().__init__(source, encoding)
        self.text = text
        self.lines, self.line_endings = split_lines(self.text)
        self.headers: dict[str, tuple[int, str]] = {}
        self.players: list[TrfPlayer] = []
        self.nationals: list[NationalRecord] = []
        self.skipped: Counter[str] = Counter()
        self.trf26 = False

    def parse(self) -> TrfFile:
        for number, line in enumerate(self.lines, start=1):
            self._check_controls(number, line)
            self._record(number, line)
        if not self.players:
            raise InputError(
                Message(N_("no player records (001 lines): this is not a tournament report")),
                source=self.source, line=1, field="001",
            )  # fmt: skip
        if self.encoding != "UTF-8":
            self.notes.append(
                Message(
                    N_(
                        "read as %(encoding)s (not valid UTF-8, despite its UTF-8 byte order "
                        "mark, dropped)"
                    )
                    if self.bom
                    else N_("read as %(encoding)s (not valid UTF-8)"),
                    {"encoding": self.encoding},
                )
            )
        by_rank = self._ranks()
        self._attach_national(by_rank)
        pseudo = {p.rank for p in self.players if p.pseudo}
        games, byes, unfinished = self._pair(by_rank, pseudo)
        rounds = max((e.round for p in self.players for e in p.entries), default=0)
        absent = self._absent(rounds)
        self._check_points()
        start, end, round_dates = self._dates()
        name = self._header("012")
        federation = self._federation_header()
        return TrfFile(
            source=self.source,
            version="TRF26" if self.trf26 or self.nationals else "TRF16",
            encoding=self.encoding,
            line_endings=self.line_endings,
            name=name,
            city=self._header("022"),
            federation=federation,
            start_date=start,
            end_date=end,
            time_control=self._header("122"),
            time_control_code=self._time_control_code(),
            round_dates=round_dates,
            players=tuple(self.players),
            games=tuple(games),
            byes=tuple(byes),
            unfinished=tuple(unfinished),
            absent=absent,
            rounds=rounds,
            skipped_records=dict(sorted(self.skipped.items())),
            notes=tuple(self.notes),
        )

    def _absent(self, rounds: int) -> int:
        """Player-rounds with no entry at all."""
        return sum(
            1
            for player in self.players
            for r in range(1, rounds + 1)
            if all(e.round != r for e in player.entries)
        )

    def _federation_header(self) -> str | None:
        """The ``032`` federation, upper case; noted and ignored if it is not a code."""
        federation = self._header("032")
        if federation is not None and not re.fullmatch(r"[A-Za-z]{3}", federation):
            self.notes.append(
                Message(
                    N_("032 %(text)s is not a federation code: ignored"), {"text": repr(federation)}
                )
            )
            federation = None
        return None if federation is None else federation.upper()

    # records

    def _record(self, number: int, line: str) -> None:
        if not line.strip():
            return
        if line.startswith("###"):
            self.skipped["###"] += 1
            return
        kind = line[:3]
        if kind == "001":
            self.players.append(self._player(number, line))
        elif kind in HEADER_RECORDS:
            self.trf26 = self.trf26 or kind in TRF26_RECORDS
            if kind not in self.headers:
                value = line[4:].strip(" ")
                check_text(
                    value,
                    lambda message: self.error(message, number, None, field_at(line, 5)),
                    limit=MAX_NAME_CHARS if kind in NAMED_HEADERS else None,
                )
                self.headers[kind] = (number, value)
            elif kind not in ("102", "112"):
                self.notes.append(
                    Message(
                        N_("line %(line)s: a second %(kind)s record ignored"),
                        {"line": number, "kind": kind},
                    )
                )
        elif (
            re.fullmatch(r"[A-Z]{3}", kind)
            and not kind.startswith(("XX", "BB"))
            and is_digits(field_text(line, RANK).strip())
            and (len(line) < 4 or line[3] == " ")
        ):
            self.nationals.append(self._national(number, line, kind))
        else:
            self.trf26 = self.trf26 or kind in TRF26_RECORDS
            self.skipped[kind] += 1

    def _header(self, kind: str) -> str | None:
        value = self.headers.get(kind, (0, ""))[1]
        return value or None

    def _time_control_code(self) -> str | None:
        """TRF26 ``222``, which decides whether the games are rated (their rate of play):
        refused when it cannot be read, never taken for no time control."""
        number, value = self.headers.get("222", (0, ""))
        if not value:
            return None
        try:
            parse_time_control(value)
        except ValueError as error:
            raise self.error(worded(error), number, 5, "222 encoded time control") from None
        return value

    def _ranks(self) -> dict[int, TrfPlayer]:
        """The players by starting rank: each rank, and each FIDE id, on one line only."""
        by_rank: dict[int, TrfPlayer] = {}
        rank_lines: dict[int, int] = {}
        id_lines: dict[str, int] = {}
        for player in self.players:
            what = Message(N_("starting rank %(rank)s"), {"rank": player.rank})
            self._once(rank_lines, player.rank, what, player.line, RANK[0], "starting rank")
            by_rank[player.rank] = player
            if player.fide_id is not None:
                what = Message(N_("FIDE id %(id)s"), {"id": player.fide_id})
                self._once(id_lines, player.fide_id, what, player.line, FIDE_ID[0], "FIDE id")
        return by_rank

    def _once(
        self, lines: dict[_Key, int], key: _Key, what: Message, line: int, column: int, field: str
    ) -> None:
        """Refuse ``what`` (``key``) on ``line`` if an earlier line has it; else note its line."""
        if key in lines:
            raise self.error(
                Message(N_("%(what)s is already on line %(line)s"),
                        {"what": what, "line": lines[key]}),
                line, column, field,
            )  # fmt: skip
        lines[key] = line

    def _attach_national(self, by_rank: dict[int, TrfPlayer]) -> None:
        self._check_nationals(by_rank)
        for record in self.nationals:
            player = by_rank[record.rank]
            if player.national is not None:
                self.notes.append(
                    Message(
                        N_("line %(line)s: a second national record for #%(rank)s ignored"),
                        {"line": record.line, "rank": record.rank},
                    )
                )
                continue
            updated = replace(player, national=record)
            by_rank[record.rank] = updated
            self.players[self.players.index(player)] = updated

    def _check_nationals(self, by_rank: dict[int, TrfPlayer]) -> None:
        """Each NRS record names a player, once per federation, with a national id no other
        player of that federation has."""
        rank_lines: dict[tuple[str, int], int] = {}
        id_lines: dict[tuple[str, str], int] = {}
        for record in self.nationals:
            if record.rank not in by_rank:
                raise self.error(
                    Message(N_("no player has starting rank %(rank)s"), {"rank": record.rank}),
                    record.line,
                    RANK[0],
                    "starting rank",
                )
            key = (record.federation, record.rank)
            what = Message(N_("a %(federation)s record for #%(rank)s"),
                           {"federation": record.federation, "rank": record.rank})  # fmt: skip
            self._once(rank_lines, key, what, record.line, RANK[0], "starting rank")
            if record.national_id is not None:
                id_key = (record.federation, record.national_id)
                what = Message(N_("national id %(id)s"), {"id": record.national_id})
                self._once(id_lines, id_key, what, record.line, FIDE_ID[0], "national id")

    def _check_points(self) -> None:
        for player in self.players:
            if player.points is None or player.pseudo:
                continue
            total = sum((POINTS.get(e.code, Fraction(0)) for e in player.entries), Fraction(0))
            if Fraction(player.points) != total:
                self.notes.append(
                    Message(
                        N_(
                            "line %(line)s: #%(rank)s declares %(declared)s points, the "
                            "results give %(total)s"
                        ),
                        {
                            "line": player.line,
                            "rank": player.rank,
                            "declared": _as_written(player.points),
                            "total": Number(float(total), "g"),
                        },
                    )
                )
