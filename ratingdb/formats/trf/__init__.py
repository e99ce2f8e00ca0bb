"""FIDE Tournament Report File, TRF16 and TRF26 (docs/formats.md §4), in and out.

- records.py: the layout (record types, result codes, columns) and the dataclasses read;
- dates.py: tournament and birth dates as real files write them;
- lines.py: one player line or National Rating Support record at a time;
- reader.py: a whole file (headers, ranks, pairings, dates): ``read_trf``, ``parse_trf``;
- writer.py: ``format_trf``.

The names other modules use are re-exported here: import them from ``ratingdb.formats.trf``.
"""

from ratingdb.formats.text import decode
from ratingdb.formats.trf.dates import (
    DAY_FIRST,
    YEAR_FIRST,
    parse_birth,
    parse_date,
    two_digit_orders,
)
from ratingdb.formats.trf.reader import parse_trf, read_trf, split_lines
from ratingdb.formats.trf.records import (
    FIDE_ID,
    FORFEITS,
    PLAYED,
    PSEUDO_PLAYER_NAMES,
    SAVE_AS,
    SHORT_GAMES,
    NationalRecord,
    TrfBye,
    TrfEntry,
    TrfFile,
    TrfGame,
    TrfPlayer,
    field_words,
)
from ratingdb.formats.trf.writer import PlayerOut, RoundOut, format_trf

__all__ = [
    "DAY_FIRST",
    "FIDE_ID",
    "FORFEITS",
    "PLAYED",
    "PSEUDO_PLAYER_NAMES",
    "SAVE_AS",
    "SHORT_GAMES",
    "YEAR_FIRST",
    "NationalRecord",
    "PlayerOut",
    "RoundOut",
    "TrfBye",
    "TrfEntry",
    "TrfFile",
    "TrfGame",
    "TrfPlayer",
    "decode",
    "field_words",
    "format_trf",
    "parse_birth",
    "parse_date",
    "parse_trf",
    "read_trf",
    "split_lines",
    "two_digit_orders",
]
