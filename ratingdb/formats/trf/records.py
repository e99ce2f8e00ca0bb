"""The layout of a TRF16/TRF26 file (docs/formats.md §4): its record types, result codes and the
columns of a player line, and the dataclasses a file is read into.

Both the reader and the writer take the columns from here, so that they cannot drift apart.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction

from ratingdb.rules.messages import N_, Message

#: What to save a TRF as, when it is in an encoding that is not read.
SAVE_AS = Message(N_("UTF-8 (or Latin-1)"))
#: What each header record holds, to name it in a message.
HEADER_FIELDS = {
    "012": N_("tournament name"), "022": N_("city"), "032": N_("federation"),
    "042": N_("start date"), "052": N_("end date"), "062": N_("number of players"),
    "072": N_("number of rated players"), "082": N_("number of teams"),
    "092": N_("type of tournament"), "102": N_("chief arbiter"),
    "112": N_("deputy chief arbiter"), "122": N_("time control"), "132": N_("round dates"),
    "222": N_("encoded time control"),
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
#: The player's place in the final ranking.
PLACE = (86, 89)
FIRST_ROUND = 92
ROUND_WIDTH = 10


# --- columns -----------------------------------------------------------------------------------


def field_text(line: str, span: tuple[int, int]) -> str:
    """The text of a field given by its (1-based, inclusive) columns."""
    return line[span[0] - 1 : span[1]]


#: The fields of a player line (001) and of a National Rating Support record, by column.
PLAYER_FIELDS = (
    (RANK, N_("starting rank")), ((SEX, SEX), N_("sex")), (TITLE, N_("title")),
    (NAME, N_("name")), (RATING, N_("rating")), (FEDERATION, N_("federation")),
    (FIDE_ID, N_("FIDE id")), (BIRTH, N_("birth date")), (POINTS_FIELD, N_("points")),
    (PLACE, N_("rank")),
)  # fmt: skip
NATIONAL_FIELDS = ((RANK, N_("starting rank")), (NAME, N_("name")),
                   (RATING, N_("national rating")), (FIDE_ID, N_("national id")))  # fmt: skip
#: The words of a field that is not a header's: a player line's, an NRS record's. "FIDE id"
#: is the back office's column heading ("Identifiant FIDE"): in a sentence, its own message.
_FIELD_WORDS = {name: Message(name) for _, name in PLAYER_FIELDS + NATIONAL_FIELDS} | {
    "FIDE id": Message(N_("%(fide)s id"), {"fide": "FIDE"}),
    "record type": Message(N_("record type")),
}
#: A round's field of a player line, by the part of the round it is.
_ROUND_FIELDS = {
    None: N_("round %(round)s"),
    "opponent": N_("round %(round)s opponent"),
    "colour": N_("round %(round)s colour"),
    "result": N_("round %(round)s result"),
}


def field_at(line: str, column: int) -> str:
    """The name of the field of ``line`` at ``column`` (1-based), for a message."""
    kind = line[:3]
    if column <= 3:
        return "record type"
    if kind in HEADER_FIELDS:
        return f"{kind} {HEADER_FIELDS[kind]}"
    if kind == "001" or re.fullmatch(r"[A-Z]{3}", kind):
        fields = PLAYER_FIELDS if kind == "001" else NATIONAL_FIELDS
        for (start, end), name in fields:
            if start <= column <= end:
                return name
        if kind == "001" and column >= FIRST_ROUND:
            return f"round {(column - FIRST_ROUND) // ROUND_WIDTH + 1}"
        return f"{kind} record"
    return f"{kind} record"


def field_words(name: str) -> str | Message:
    """The field a refusal names (``field_at``'s, the reader's: ``starting rank``, ``round 3
    opponent``, ``042 start date``, ``XXR record``) as words the back office translates
    (``InputError.field_text``; its English is ``name``, as ever); ``name`` itself when it is
    not such words (a record type, ``001``)."""
    if name in _FIELD_WORDS:
        return _FIELD_WORDS[name]
    found = re.fullmatch(r"round ([0-9]+)(?: (opponent|colour|result))?", name)
    if found is not None:
        return Message(_ROUND_FIELDS[found[2]], {"round": found[1]})
    kind, _, words = name.partition(" ")
    if len(kind) == 3 and words == "record":
        return Message(N_("%(record)s record"), {"record": kind})
    if HEADER_FIELDS.get(kind) == words:
        return Message("%(record)s %(words)s", {"record": kind, "words": Message(words)})
    return name


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
    #: What was read leniently (values ignored or guessed), worded by the reader's edge.
    notes: tuple[Message, ...] = ()

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
