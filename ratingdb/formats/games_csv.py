"""The games CSV (docs/formats.md §3): one tournament per file.

`tournament,start_date,end_date,round,white_id,black_id,result`, and optionally `time_control`
(as TRF26's record 222 writes it, e.g. ``5400+30``; the same on every row, or empty).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ratingdb.errors import InputError
from ratingdb.formats.csv_input import EMPTY, CsvRow, read_csv
from ratingdb.formats.text import MAX_NAME_CHARS, before_start
from ratingdb.rules.messages import N_, Day, Message, worded
from ratingdb.rules.rate_of_play import parse_time_control

COLUMNS = ("tournament", "start_date", "end_date", "round", "white_id", "black_id", "result")
#: Played results (rated) and forfeits (stored, never rated).
PLAYED_RESULTS = frozenset({"1-0", "0-1", "1/2-1/2"})
FORFEIT_RESULTS = frozenset({"+-", "-+", "--"})
RESULTS = PLAYED_RESULTS | FORFEIT_RESULTS
MAX_ROUNDS = 999


@dataclass(frozen=True, slots=True)
class GameRow:
    line: int
    round: int
    white_id: str
    black_id: str
    result: str

    @property
    def played(self) -> bool:
        return self.result in PLAYED_RESULTS


@dataclass(frozen=True, slots=True)
class TournamentFile:
    source: str
    name: str
    start_date: date
    end_date: date
    games: tuple[GameRow, ...]
    #: The encoded time control (optional column ``time_control``), None when not given.
    time_control: str | None = None


def read_games_csv(path: Path, *, source: str | None = None) -> TournamentFile:
    name_of_file = source or str(path)
    header: tuple[str, date, date, int] | None = None
    time_control: str | None = None
    games: list[GameRow] = []
    pairs: dict[tuple[int, frozenset[str]], int] = {}
    busy: dict[tuple[int, str], int] = {}
    for row in read_csv(path, COLUMNS, source=name_of_file):
        name = row.text("tournament", limit=MAX_NAME_CHARS)
        start = row.iso_date("start_date")
        end = row.iso_date("end_date")
        control = _time_control(row)
        if header is None:
            time_control = control
            if end < start:
                raise row.error("end_date", before_start(end, start))
            header = (name, start, end, row.line)
        else:
            first = header[3]
            if name != header[0]:
                raise row.error(
                    "tournament",
                    Message(
                        N_("%(given)s differs from %(first)s on line %(line)s"),
                        {"given": repr(name), "first": repr(header[0]), "line": first},
                    ),
                )
            if start != header[1]:
                raise row.error("start_date", _differs(first, Day(header[1])))
            if end != header[2]:
                raise row.error("end_date", _differs(first, Day(header[2])))
            if control != time_control:
                raise row.error(
                    "time_control",
                    Message(
                        N_("%(given)s differs from line %(line)s (%(first)s)"),
                        {"given": control or _EMPTY, "line": first,
                         "first": time_control or _EMPTY},
                    ),
                )  # fmt: skip
        round_number = row.integer("round", low=1, high=MAX_ROUNDS)
        if round_number is None:
            raise row.error("round", Message(EMPTY))
        white = row.player_id("white_id")
        black = row.player_id("black_id")
        if white == black:
            raise row.error(
                "black_id",
                Message(N_("a player cannot play against himself (%(player)s)"), {"player": white}),
            )
        result = row.text("result")
        if result not in RESULTS:
            allowed = ", ".join(sorted(RESULTS))
            raise row.error(
                "result",
                Message(
                    N_("must be one of %(choices)s; got %(given)s"),
                    {"choices": allowed, "given": repr(result)},
                ),
            )
        pair = (round_number, frozenset((white, black)))
        if pair in pairs:
            raise row.error(
                "result",
                Message(
                    N_("duplicate game: the same game is on line %(line)s"), {"line": pairs[pair]}
                ),
            )
        for player, field in ((white, "white_id"), (black, "black_id")):
            if (round_number, player) in busy:
                earlier = busy[(round_number, player)]
                raise row.error(
                    field,
                    Message(
                        N_("%(player)s already plays round %(round)s on line %(line)s"),
                        {"player": player, "round": round_number, "line": earlier},
                    ),
                )
            busy[(round_number, player)] = row.line
        pairs[pair] = row.line
        games.append(GameRow(row.line, round_number, white, black, result))
    if header is None:
        raise InputError(Message(N_("no games in the file")), source=name_of_file, line=2)
    return TournamentFile(name_of_file, header[0], header[1], header[2], tuple(games), time_control)


def _time_control(row: CsvRow) -> str | None:
    value = row.text("time_control", required=False)
    if not value:
        return None
    try:
        parse_time_control(value)
    except ValueError as error:
        raise row.error("time_control", worded(error)) from None
    return value


#: A value left empty, in a message that compares two.
_EMPTY = Message(N_("empty"))


def _differs(first: int, value: Day) -> Message:
    return Message(N_("differs from line %(line)s (%(value)s)"), {"line": first, "value": value})
