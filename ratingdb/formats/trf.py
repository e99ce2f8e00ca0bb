"""FIDE Tournament Report File, TRF16 and TRF26 (rules.md B §11), in and out.

Reading is strict where rating depends on it and lenient elsewhere, as real files demand:

- the text is UTF-8, else Latin-1 (UTF-16 and UTF-32 are refused); lines end in LF, CRLF or CR
  and are at most 64 KiB; columns are characters, 1-based; no line holds a control character
  (tabs between the fields of a round aside), a line separator or a bidi override, refused with
  the field it is in; the tournament name and city are at most 200 characters; dates are from
  1900 to 2200 (text.py);
- header records ``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` dates (ISO,
  ``YYYY/MM/DD``, ``DD.MM.YYYY``, ``DD/MM/YYYY``, ``May 29, 2020`` ...), ``122`` time control and
  TRF26 ``222`` encoded time control; ``###`` comments, ``XX*``/``BB*`` engine records and every
  other record are skipped (and counted in the report);
- ``001`` player lines, and TRF26 National Rating Support records (a federation code in columns
  1-3, linked to a player by starting rank: national rating 49-52, national id 58-68);
- each round field once per game: the two lines of a game must agree (opponents point at each
  other, results mirror, colours are opposite), otherwise the file is refused with line and
  column, as is an opponent number that no player has.

Result codes (B §11.2): ``1 = 0`` against an opponent are played games (the only ones rated);
``+ -`` against an opponent are forfeits, stored as the games CSV's ``+-``, ``-+``, ``--``;
``W D L`` (the game lasted less than one move) are stored as ``W-L``, ``L-W``, ``D-D``, ``L-L``,
never rated; a pairing with no result on either line is skipped; an entry without an opponent
(``0000`` or blank, any code) is a bye, not a game. A pseudo-player standing for the bye (e.g.
"spielfrei") creates no player: its entries are byes of its opponents.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from io import BytesIO
from pathlib import Path

from ratingdb.errors import InputError
from ratingdb.formats.cells import unwritable
from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import (
    MAX_BIRTH_YEAR,
    MAX_NAME_CHARS,
    MIN_DATE,
    Fail,
    bounded_chunks,
    check_date,
    check_text,
    control_at,
    control_message,
    read_bounded,
)

#: What to save a TRF as, when it is in an encoding that is not read.
SAVE_AS = "UTF-8 (or Latin-1)"
#: What each header record holds, to name it in a message.
HEADER_FIELDS = {
    "012": "tournament name", "022": "city", "032": "federation", "042": "start date",
    "052": "end date", "062": "number of players", "072": "number of rated players",
    "082": "number of teams", "092": "type of tournament", "102": "chief arbiter",
    "112": "deputy chief arbiter", "122": "time control", "132": "round dates",
    "222": "encoded time control",
}  # fmt: skip
#: Header records held to MAX_NAME_CHARS.
NAMED_HEADERS = frozenset({"012", "022"})

#: Records that exist only in TRF26 (B §11.3): one of them, or an NRS record, makes a TRF26.
TRF26_RECORDS = frozenset(
    {"142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250", "260", "299"}
    | {"300", "310", "320", "330", "352", "362", "801", "802"}
)
#: Header records kept (the first of each; TRF26 ``222`` is also a TRF26 record).
HEADER_RECORDS = frozenset(
    {"012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "132"}
    | {"222"}
)
#: Names of pseudo-players that stand for the bye in some programs (compared case-insensitively).
PSEUDO_PLAYER_NAMES = frozenset(
    {"spielfrei", "freilos", "bye", "bye player", "pairing bye", "exempt", "exempté", "libre"}
)
#: The pair of codes on the two lines of a game -> the stored result (white's code first).
PLAYED = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2"}
FORFEITS = {("+", "-"): "+-", ("-", "+"): "-+", ("-", "-"): "--"}
SHORT_GAMES = {("W", "L"): "W-L", ("L", "W"): "L-W", ("D", "D"): "D-D", ("L", "L"): "L-L"}
STORED_RESULTS = PLAYED | FORFEITS | SHORT_GAMES
RESULT_CODES = frozenset("1=0+-WDLHFUZ")
BYE_CODES = frozenset("HFUZ")
#: Points per code, to check each player's declared points (B §11.2).
POINTS = {"1": Fraction(1), "+": Fraction(1), "F": Fraction(1), "U": Fraction(1)}
POINTS |= {"W": Fraction(1), "=": Fraction(1, 2), "H": Fraction(1, 2), "D": Fraction(1, 2)}
TITLES = {
    "G": "GM", "GM": "GM", "M": "IM", "IM": "IM", "F": "FM", "FM": "FM", "C": "CM", "CM": "CM",
    "WG": "WGM", "WGM": "WGM", "WM": "WIM", "WIM": "WIM", "WF": "WFM", "WFM": "WFM",
    "WC": "WCM", "WCM": "WCM",
}  # fmt: skip
SEXES = {"M": "M", "W": "F", "F": "F"}
MAX_RATING = 4000
#: The latest year of birth read (the earliest: text.MIN_DATE).
#: Starting ranks and FIDE ids as TRF16 lays them out (1-based, inclusive).
RANK = (5, 8)
SEX = 10
TITLE = (11, 13)
NAME = (15, 47)
RATING = (49, 52)
FEDERATION = (54, 56)
FIDE_ID = (58, 68)
BIRTH = (70, 79)
POINTS_FIELD = (81, 84)
FIRST_ROUND = 92
ROUND_WIDTH = 10

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("jan", "january", "janvier", "januar", "enero"),
            ("feb", "february", "fevrier", "février", "februar", "febrero"),
            ("mar", "march", "mars", "märz", "marz", "marzo"),
            ("apr", "april", "avril", "abril"),
            ("may", "mai", "mayo"),
            ("jun", "june", "juin", "juni", "junio"),
            ("jul", "july", "juillet", "juli", "julio"),
            ("aug", "august", "aout", "août", "agosto"),
            ("sep", "sept", "september", "septembre", "septiembre"),
            ("oct", "october", "octobre", "oktober", "octubre"),
            ("nov", "november", "novembre", "noviembre"),
            ("dec", "december", "decembre", "décembre", "dezember", "diciembre"),
        ],
        start=1,
    )
    for name in names
}


# --- what a file holds -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NationalRecord:
    """A TRF26 National Rating Support record: the player's id and rating in a national list."""

    line: int
    federation: str
    rank: int
    rating: int | None
    national_id: str | None


@dataclass(frozen=True, slots=True)
class TrfEntry:
    """One round field of a player line, as written."""

    round: int
    column: int
    opponent: int | None
    colour: str  # "w", "b" or "-"
    code: str  # upper case; "" when blank


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    line: int
    rank: int
    name: str
    sex: str | None
    title: str | None
    rating: int | None
    federation: str | None
    fide_id: str | None
    birth_year: int | None
    birth_date: date | None
    points: Decimal | None
    entries: tuple[TrfEntry, ...]
    pseudo: bool = False
    national: NationalRecord | None = None


@dataclass(frozen=True, slots=True)
class TrfGame:
    """A game with an opponent, counted once although it is on both lines."""

    line: int  # the line of the player written first (the lower starting rank)
    round: int
    white_rank: int
    black_rank: int
    result: str  # as stored: 1-0, 0-1, 1/2-1/2, +-, -+, --, W-L, L-W, D-D, L-L

    @property
    def played(self) -> bool:
        return self.result in PLAYED.values()


@dataclass(frozen=True, slots=True)
class TrfBye:
    """An entry without an opponent (``0000`` or blank): not a game."""

    line: int
    round: int
    rank: int
    code: str


@dataclass(frozen=True, slots=True)
class TrfFile:
    source: str
    version: str  # "TRF16" or "TRF26"
    encoding: str
    line_endings: str
    name: str | None
    city: str | None
    federation: str | None
    start_date: date | None
    end_date: date | None
    time_control: str | None
    time_control_code: str | None
    round_dates: tuple[date, ...]
    players: tuple[TrfPlayer, ...]
    games: tuple[TrfGame, ...]
    byes: tuple[TrfBye, ...]
    #: Pairings with no result on either line (a round not finished): skipped.
    unfinished: tuple[TrfGame, ...]
    #: Player-rounds with no entry at all.
    absent: int
    rounds: int
    skipped_records: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    @property
    def played(self) -> int:
        return sum(1 for game in self.games if game.played)

    @property
    def forfeits(self) -> int:
        return sum(1 for game in self.games if game.result in FORFEITS.values())

    @property
    def real_players(self) -> tuple[TrfPlayer, ...]:
        return tuple(player for player in self.players if not player.pseudo)

    def byes_by_code(self) -> dict[str, int]:
        counts = Counter(bye.code or "blank" for bye in self.byes)
        return dict(sorted(counts.items()))


# --- reading -----------------------------------------------------------------------------------


def decode(raw: bytes) -> tuple[str, str]:
    """The text and the encoding it was read with: UTF-8 (BOM dropped), else Latin-1."""
    try:
        return raw.decode("utf-8").removeprefix("\ufeff"), "UTF-8"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "Latin-1"


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


def _field(line: str, span: tuple[int, int]) -> str:
    return line[span[0] - 1 : span[1]]


#: The fields of a player line (001) and of a National Rating Support record, by column.
_PLAYER_FIELDS = (
    (RANK, "starting rank"), ((SEX, SEX), "sex"), (TITLE, "title"), (NAME, "name"),
    (RATING, "rating"), (FEDERATION, "federation"), (FIDE_ID, "FIDE id"), (BIRTH, "birth date"),
    (POINTS_FIELD, "points"), ((86, 89), "rank"),
)  # fmt: skip
_NATIONAL_FIELDS = ((RANK, "starting rank"), (NAME, "name"), (RATING, "national rating"),
                    (FIDE_ID, "national id"))  # fmt: skip


def _field_at(line: str, column: int) -> str:
    """The name of the field of ``line`` at ``column`` (1-based), for a message."""
    kind = line[:3]
    if column <= 3:
        return "record type"
    if kind in HEADER_FIELDS:
        return f"{kind} {HEADER_FIELDS[kind]}"
    if kind == "001" or re.fullmatch(r"[A-Z]{3}", kind):
        fields = _PLAYER_FIELDS if kind == "001" else _NATIONAL_FIELDS
        for (start, end), name in fields:
            if start <= column <= end:
                return name
        if kind == "001" and column >= FIRST_ROUND:
            return f"round {(column - FIRST_ROUND) // ROUND_WIDTH + 1}"
        return f"{kind} record"
    return f"{kind} record"


class _Parser:
    def __init__(self, raw: bytes, source: str) -> None:
        self.source = source
        self.text, self.encoding = decode(raw)
        self.lines, self.line_endings = split_lines(self.text)
        self.headers: dict[str, tuple[int, str]] = {}
        self.players: list[TrfPlayer] = []
        self.nationals: list[NationalRecord] = []
        self.skipped: Counter[str] = Counter()
        self.notes: list[str] = []
        self.trf26 = False

    def error(self, message: str, line: int, column: int | None, field: str) -> InputError:
        return InputError(message, source=self.source, line=line, column=column, field=field)

    def _fail(self, line: int, column: int | None, field: str) -> Fail:
        """The error for a message about the value at ``line``, ``column``, ``field``."""
        return lambda message: self.error(message, line, column, field)

    def parse(self) -> TrfFile:
        for number, line in enumerate(self.lines, start=1):
            self._check_controls(number, line)
            self._record(number, line)
        if not self.players:
            raise InputError(
                "no player records (001 lines): this is not a tournament report",
                source=self.source, line=1, field="001",
            )  # fmt: skip
        if self.encoding != "UTF-8":
            self.notes.append(f"read as {self.encoding} (not valid UTF-8)")
        by_rank = self._ranks()
        self._attach_national(by_rank)
        pseudo = {p.rank for p in self.players if p.pseudo}
        games, byes, unfinished = self._pair(by_rank, pseudo)
        rounds = max((e.round for p in self.players for e in p.entries), default=0)
        absent = sum(
            1
            for player in self.players
            for r in range(1, rounds + 1)
            if all(e.round != r for e in player.entries)
        )
        self._check_points()
        start, end, round_dates = self._dates()
        name = self._header("012")
        federation = self._header("032")
        if federation is not None and not re.fullmatch(r"[A-Za-z]{3}", federation):
            self.notes.append(f"032 {federation!r} is not a federation code: ignored")
            federation = None
        return TrfFile(
            source=self.source,
            version="TRF26" if self.trf26 or self.nationals else "TRF16",
            encoding=self.encoding,
            line_endings=self.line_endings,
            name=name,
            city=self._header("022"),
            federation=None if federation is None else federation.upper(),
            start_date=start,
            end_date=end,
            time_control=self._header("122"),
            time_control_code=self._header("222"),
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

    # records

    def _check_controls(self, number: int, line: str) -> None:
        """Refuse a control character anywhere in a line, naming the field it is in. Tabs are
        let through in a player line's rounds (some programs put them between the fields of a
        round) and in records not read (real TRF26 files have them); header values are
        checked again, without tabs, when kept."""
        index = control_at(line, allow_tab=True)
        tab = line.find("\t", 0, FIRST_ROUND - 1) if line.startswith("001") else -1
        if tab >= 0 and (index is None or tab < index):
            index = tab
        if index is None:
            return
        message = control_message(line, index)
        if self.encoding != "UTF-8" and "\x80" <= line[index] <= "\x9f":
            message += " (the file is not UTF-8: saved as Windows-1252? save it as UTF-8)"
        raise self.error(message, number, index + 1, _field_at(line, index + 1))

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
                    lambda message: self.error(message, number, None, _field_at(line, 5)),
                    limit=MAX_NAME_CHARS if kind in NAMED_HEADERS else None,
                )
                self.headers[kind] = (number, value)
            elif kind not in ("102", "112"):
                self.notes.append(f"line {number}: a second {kind} record ignored")
        elif (
            re.fullmatch(r"[A-Z]{3}", kind)
            and not kind.startswith(("XX", "BB"))
            and is_digits(_field(line, RANK).strip())
            and (len(line) < 4 or line[3] == " ")
        ):
            self.nationals.append(self._national(number, line, kind))
        else:
            self.trf26 = self.trf26 or kind in TRF26_RECORDS
            self.skipped[kind] += 1

    def _header(self, kind: str) -> str | None:
        value = self.headers.get(kind, (0, ""))[1]
        return value or None

    def _number(
        self,
        line: str,
        number: int,
        span: tuple[int, int],
        field: str,
        *,
        high: int,
        zero_is_none: bool = True,
    ) -> int | None:
        text = _field(line, span).strip()
        if not text:
            return None
        if not is_digits(text):
            raise self.error(f"must be a number, got {text!r}", number, span[0], field)
        value = int(text)
        if value == 0 and zero_is_none:
            return None
        if value > high:
            raise self.error(f"must be at most {high}, got {value}", number, span[0], field)
        return value

    def _truncated(self, number: int, line: str, spans: Iterable[tuple[int, int, str]]) -> None:
        """A line that stops inside a field that has something in it was cut short."""
        length = len(line)
        for start, end, name in spans:
            if start <= length < end and line[start - 1 :].strip():
                raise self.error(
                    f"the line ends inside the field (columns {start}-{end}): truncated?",
                    number,
                    length + 1,
                    name,
                )

    def _player(self, number: int, line: str) -> TrfPlayer:
        # Right-aligned fields only: a left-aligned name may end early when spaces are trimmed.
        spans = [
            (*RANK, "starting rank"),
            (*RATING, "rating"),
            (*FIDE_ID, "FIDE id"),
            (*POINTS_FIELD, "points"),
        ]
        rounds = max(0, (len(line) - FIRST_ROUND + ROUND_WIDTH) // ROUND_WIDTH)
        for r in range(1, rounds + 1):
            column = FIRST_ROUND + ROUND_WIDTH * (r - 1)
            spans.append((column, column + 3, f"round {r} opponent"))
        self._truncated(number, line, spans)
        if len(line) < RANK[1]:
            raise self.error("the line ends before the starting rank", number, len(line) + 1,
                             "starting rank")  # fmt: skip
        rank = self._number(line, number, RANK, "starting rank", high=9999, zero_is_none=False)
        if not rank:
            raise self.error("is missing or 0", number, RANK[0], "starting rank")
        name = check_text(
            _field(line, NAME).strip(" "),
            lambda message: self.error(message, number, NAME[0], "name"),
        )
        rating = self._number(line, number, RATING, "rating", high=MAX_RATING)
        birth_year, birth_date = self._birth(number, line)
        return TrfPlayer(
            line=number,
            rank=rank,
            name=name,
            sex=self._sex(number, line),
            title=self._title(number, line),
            rating=rating,
            federation=self._federation(number, line),
            fide_id=self._fide_id(number, line),
            birth_year=birth_year,
            birth_date=birth_date,
            points=self._points(number, line),
            entries=self._entries(number, line, rounds),
            pseudo=name.casefold() in PSEUDO_PLAYER_NAMES and not _field(line, FIDE_ID).strip(),
        )

    def _sex(self, number: int, line: str) -> str | None:
        text = line[SEX - 1 : SEX].strip().upper()
        if not text:
            return None
        if text not in SEXES:
            self.notes.append(f"line {number}: sex {text!r} (column {SEX}) not m/w: ignored")
            return None
        return SEXES[text]

    def _title(self, number: int, line: str) -> str | None:
        text = _field(line, TITLE).strip().upper()
        if not text:
            return None
        if text not in TITLES:
            self.notes.append(f"line {number}: title {text!r} (columns 11-13) unknown: ignored")
            return None
        return TITLES[text]

    def _federation(self, number: int, line: str) -> str | None:
        text = _field(line, FEDERATION).strip()
        if not text:
            return None
        if not re.fullmatch(r"[A-Za-z]{3}", text):
            self.notes.append(f"line {number}: federation {text!r} is not a 3-letter code")
            return None
        return text.upper()

    def _fide_id(self, number: int, line: str) -> str | None:
        text = _field(line, FIDE_ID).strip()
        if not text:
            return None
        if not is_digits(text):
            self.notes.append(f"line {number}: {text!r} in the FIDE id column is not an id")
            return None
        stripped = text.lstrip("0")
        return stripped or None

    def _birth(self, number: int, line: str) -> tuple[int | None, date | None]:
        text = _field(line, BIRTH).strip()
        if not re.search(r"[1-9]", text):  # blank, "    /  /", ".  .", "0000/00/00"
            return None, None
        found = parse_birth(text)
        if found is None:
            raise self.error(
                f"not a birth date (YYYY/MM/DD, YYYY, DD.MM.YYYY), got {text!r}",
                number,
                BIRTH[0],
                "birth date",
            )
        if not MIN_DATE.year <= found[0] <= MAX_BIRTH_YEAR:
            raise self.error(
                f"the year must be from {MIN_DATE.year} to {MAX_BIRTH_YEAR}, got {found[0]}",
                number,
                BIRTH[0],
                "birth date",
            )
        return found

    def _points(self, number: int, line: str) -> Decimal | None:
        text = _field(line, POINTS_FIELD).strip()
        if not text:
            return None
        try:
            points = Decimal(text.replace(",", "."))
            if not points.is_finite():
                raise InvalidOperation
            return points
        except InvalidOperation:
            self.notes.append(f"line {number}: points {text!r} (columns 81-84) not a number")
            return None

    def _entries(self, number: int, line: str, rounds: int) -> tuple[TrfEntry, ...]:
        entries = []
        for r in range(1, rounds + 1):
            column = FIRST_ROUND + ROUND_WIDTH * (r - 1)
            text = line[column - 1 : column + ROUND_WIDTH - 1]
            if not text.strip():
                continue
            for offset in (4, 6, 8, 9):
                if offset < len(text) and text[offset] not in " \t":
                    raise self.error(
                        f"unexpected {text[offset]!r} between the fields of round {r} "
                        "(misaligned columns?)",
                        number,
                        column + offset,
                        f"round {r}",
                    )
            opponent_text = text[0:4].strip()
            if opponent_text and not is_digits(opponent_text):
                raise self.error(
                    f"the opponent must be a starting rank, got {opponent_text!r}",
                    number,
                    column,
                    f"round {r} opponent",
                )
            colour = text[5:6].strip().lower() or "-"
            if colour not in ("w", "b", "-"):
                raise self.error(
                    f"colour must be w, b or -, got {colour!r}", number, column + 5,
                    f"round {r} colour",
                )  # fmt: skip
            code = text[7:8].strip().upper()
            if code and code not in RESULT_CODES:
                raise self.error(
                    f"unknown result code {code!r} (TRF: 1 = 0 + - W D L H F U Z or blank)",
                    number,
                    column + 7,
                    f"round {r} result",
                )
            opponent = int(opponent_text) if opponent_text else 0
            entries.append(TrfEntry(r, column, opponent or None, colour, code))
        return tuple(entries)

    def _national(self, number: int, line: str, kind: str) -> NationalRecord:
        self._truncated(number, line, [(*RANK, "starting rank"), (*RATING, "national rating")])
        rank = self._number(line, number, RANK, "starting rank", high=9999, zero_is_none=False)
        if not rank:
            raise self.error("is missing or 0", number, RANK[0], "starting rank")
        rating = self._number(line, number, RATING, "national rating", high=MAX_RATING)
        national_id = _field(line, FIDE_ID).strip() or None
        return NationalRecord(number, kind, rank, rating, national_id)

    # the whole file

    def _ranks(self) -> dict[int, TrfPlayer]:
        by_rank: dict[int, TrfPlayer] = {}
        ids: dict[str, TrfPlayer] = {}
        for player in self.players:
            if player.rank in by_rank:
                raise self.error(
                    f"starting rank {player.rank} is already on line {by_rank[player.rank].line}",
                    player.line,
                    RANK[0],
                    "starting rank",
                )
            by_rank[player.rank] = player
            if player.fide_id is not None:
                if player.fide_id in ids:
                    raise self.error(
                        f"FIDE id {player.fide_id} is already on line {ids[player.fide_id].line}",
                        player.line,
                        FIDE_ID[0],
                        "FIDE id",
                    )
                ids[player.fide_id] = player
        return by_rank

    def _attach_national(self, by_rank: dict[int, TrfPlayer]) -> None:
        seen: dict[tuple[str, int], int] = {}
        ids: dict[tuple[str, str], int] = {}
        for record in self.nationals:
            if record.rank not in by_rank:
                raise self.error(
                    f"no player has starting rank {record.rank}",
                    record.line,
                    RANK[0],
                    "starting rank",
                )
            key = (record.federation, record.rank)
            if key in seen:
                raise self.error(
                    f"a {record.federation} record for #{record.rank} is already on line "
                    f"{seen[key]}",
                    record.line,
                    RANK[0],
                    "starting rank",
                )
            seen[key] = record.line
            if record.national_id is not None:
                id_key = (record.federation, record.national_id)
                if id_key in ids:
                    raise self.error(
                        f"national id {record.national_id} is already on line {ids[id_key]}",
                        record.line,
                        FIDE_ID[0],
                        "national id",
                    )
                ids[id_key] = record.line
        for record in self.nationals:
            player = by_rank[record.rank]
            if player.national is not None:
                self.notes.append(
                    f"line {record.line}: a second national record for #{record.rank} ignored"
                )
                continue
            updated = _replace_national(player, record)
            by_rank[record.rank] = updated
            self.players[self.players.index(player)] = updated

    def _pair(
        self, by_rank: dict[int, TrfPlayer], pseudo: set[int]
    ) -> tuple[list[TrfGame], list[TrfBye], list[TrfGame]]:
        games: list[TrfGame] = []
        byes: list[TrfBye] = []
        unfinished: list[TrfGame] = []
        rounds_of = {p.rank: {e.round: e for e in p.entries} for p in self.players}
        for player in sorted(self.players, key=lambda p: p.rank):
            for entry in player.entries:
                opponent = entry.opponent
                if opponent is not None and opponent not in by_rank:
                    raise self.error(
                        f"round {entry.round}: no player has starting rank {opponent}",
                        player.line,
                        entry.column,
                        f"round {entry.round} opponent",
                    )
                if opponent == player.rank:
                    raise self.error(
                        f"round {entry.round}: #{player.rank} is paired against himself",
                        player.line,
                        entry.column,
                        f"round {entry.round} opponent",
                    )
                if opponent is None or opponent in pseudo or player.pseudo:
                    if not player.pseudo:
                        byes.append(TrfBye(player.line, entry.round, player.rank, entry.code))
                    continue
                if opponent < player.rank:
                    continue  # counted from the opponent's line
                other = by_rank[opponent]
                mirror = rounds_of[opponent].get(entry.round)
                game = self._game(player, entry, other, mirror)
                (games if game.result else unfinished).append(game)
        return games, byes, unfinished

    def _game(
        self, player: TrfPlayer, entry: TrfEntry, other: TrfPlayer, mirror: TrfEntry | None
    ) -> TrfGame:
        r = entry.round
        if mirror is None or mirror.opponent != player.rank:
            says = (
                "nothing"
                if mirror is None
                else "a bye"
                if mirror.opponent is None
                else f"an opponent #{mirror.opponent}"
            )
            raise self.error(
                f"round {r}: #{player.rank} plays #{other.rank} here, but line {other.line} "
                f"(#{other.rank}) has {says} in round {r}",
                player.line,
                entry.column,
                f"round {r} opponent",
            )
        codes = (entry.code, mirror.code)
        if codes != ("", "") and codes not in STORED_RESULTS:
            if entry.code in BYE_CODES or mirror.code in BYE_CODES:
                problem = "a bye code against an opponent"
            else:
                problem = "the results do not mirror each other"
            raise self.error(
                f"round {r}: #{player.rank} has {entry.code or 'blank'!r} against "
                f"#{other.rank}, who has {mirror.code or 'blank'!r} on line {other.line}: "
                f"{problem}",
                other.line,
                mirror.column + 7,
                f"round {r} result",
            )
        colours = (entry.colour, mirror.colour)
        if colours in (("w", "w"), ("b", "b")):
            raise self.error(
                f"round {r}: #{player.rank} and #{other.rank} (line {player.line}) both have "
                f"colour {entry.colour!r}",
                other.line,
                mirror.column + 5,
                f"round {r} colour",
            )
        if entry.colour == "b" or mirror.colour == "w":
            white, black, code_pair = other, player, (mirror.code, entry.code)
        else:  # white, or no colours: the lower starting rank is stored as white
            white, black, code_pair = player, other, codes
            if colours == ("-", "-") and code_pair in PLAYED:
                self.notes.append(
                    f"line {player.line}: round {r} game without colours, #{player.rank} "
                    "stored as white"
                )
        return TrfGame(player.line, r, white.rank, black.rank, STORED_RESULTS.get(code_pair, ""))

    def _check_points(self) -> None:
        for player in self.players:
            if player.points is None or player.pseudo:
                continue
            total = sum((POINTS.get(e.code, Fraction(0)) for e in player.entries), Fraction(0))
            if Fraction(player.points) != total:
                self.notes.append(
                    f"line {player.line}: #{player.rank} declares {player.points} points, "
                    f"the results give {float(total):g}"
                )

    def _dates(self) -> tuple[date | None, date | None, tuple[date, ...]]:
        round_dates: list[date] = []
        if "132" in self.headers:
            number = self.headers["132"][0]
            line = self.lines[number - 1]
            for match in re.finditer(r"(\d{2}|\d{4})/(\d{2})/(\d{2})", line[4:]):
                year = int(match.group(1))
                try:
                    found = date(year + 2000 if year < 100 else year, int(match[2]), int(match[3]))
                except ValueError:
                    self.notes.append(f"line {number}: round date {match[0]!r} ignored")
                    continue
                where = self._fail(number, match.start() + 5, "132 round dates")
                round_dates.append(check_date(found, where))
        dates: list[date | None] = []
        for kind, label in (("042", "start date"), ("052", "end date")):
            if kind not in self.headers or not self.headers[kind][1]:
                dates.append(None)
                continue
            number, text = self.headers[kind]
            parsed = parse_date(text)
            if parsed is None:
                raise self.error(
                    f"not a date (YYYY/MM/DD, DD.MM.YYYY, DD/MM/YYYY or 'May 29, 2020'), "
                    f"got {text!r}",
                    number,
                    5,
                    f"{kind} {label}",
                )
            dates.append(check_date(parsed, self._fail(number, 5, f"{kind} {label}")))
        start, end = dates
        if start is not None and end is not None and end < start:
            number = self.headers["052"][0]
            raise self.error(
                f"{end.isoformat()} is before the start date {start.isoformat()}",
                number,
                5,
                "052 end date",
            )
        return start, end, tuple(round_dates)


def _replace_national(player: TrfPlayer, record: NationalRecord) -> TrfPlayer:
    return TrfPlayer(
        line=player.line,
        rank=player.rank,
        name=player.name,
        sex=player.sex,
        title=player.title,
        rating=player.rating,
        federation=player.federation,
        fide_id=player.fide_id,
        birth_year=player.birth_year,
        birth_date=player.birth_date,
        points=player.points,
        entries=player.entries,
        pseudo=player.pseudo,
        national=record,
    )


def parse_date(text: str) -> date | None:
    """A tournament date in the formats seen in real files; None if it is none of them."""
    value = text.strip()
    numbers = [int(n) for n in re.findall(r"\d+", value)]
    try:
        if re.fullmatch(r"\d{4}\s*[-/.]\s*\d{1,2}\s*[-/.]\s*\d{1,2}", value):
            return date(numbers[0], numbers[1], numbers[2])
        if re.fullmatch(r"\d{1,2}\s*[-/.]\s*\d{1,2}\s*[-/.]\s*\d{4}", value):
            day, month, year = numbers
            if month > 12 >= day:  # 10/25/2020: month first
                day, month = month, day
            return date(year, month, day)
        words = re.fullmatch(r"([^\W\d_]+)\.?\s+(\d{1,2}),?\s+(\d{4})", value)
        if words and words[1].casefold() in _MONTHS:  # May 29, 2020
            return date(int(words[3]), _MONTHS[words[1].casefold()], int(words[2]))
        words = re.fullmatch(r"(\d{1,2})\.?\s+([^\W\d_]+)\.?,?\s+(\d{4})", value)
        if words and words[2].casefold() in _MONTHS:  # 29 May 2020
            return date(int(words[3]), _MONTHS[words[2].casefold()], int(words[1]))
    except ValueError:
        return None
    return None


def parse_birth(text: str) -> tuple[int, date | None] | None:
    """A birth date, or only its year where month and day are blank or zero."""
    value = text.strip()
    year_first = re.fullmatch(r"(\d{4})(?:\s*[-/.]\s*(\d{0,2})\s*[-/.]?\s*(\d{0,2}))?", value)
    day_first = re.fullmatch(r"(\d{1,2})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{4})", value)
    if year_first:
        year, month, day = year_first[1], year_first[2], year_first[3]
    elif day_first:
        day, month, year = day_first[1], day_first[2], day_first[3]
    else:
        return None
    birth_year = int(year)
    if month and day and int(month) and int(day):
        try:
            return birth_year, date(birth_year, int(month), int(day))
        except ValueError:
            return None
    return birth_year, None


# --- writing -----------------------------------------------------------------------------------


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
    for player in players:
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
        _put(line, (86, 89), str(place[player.rank]), right=True)
        for r, out in enumerate(player.rounds, start=1):
            if out is None:
                continue
            column = FIRST_ROUND + ROUND_WIDTH * (r - 1)
            opponent = "0000" if out.opponent is None else str(out.opponent)
            _put(line, (column, column + 3), opponent, right=True)
            _put(line, (column + 5, column + 5), out.colour)
            _put(line, (column + 7, column + 7), out.code)
        lines.append("".join(line).rstrip())
    if trf26:
        for player in players:
            if player.national is None:
                continue
            code, national_id, rating = player.national
            line = [" "] * FIDE_ID[1]
            _put(line, (1, 3), code)
            _put(line, RANK, str(player.rank), right=True)
            _put(line, NAME, player.name)
            _put(line, RATING, str(rating) if rating else "", right=True)
            _put(line, FIDE_ID, national_id or "", right=True)
            lines.append("".join(line).rstrip())
    return "\n".join(lines) + "\n"
