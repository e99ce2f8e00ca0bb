"""Fuzzing the file readers: the TRF parser, the games and list CSV readers and the FIDE TXT list
reader, on random mutations of valid files and on random bytes.

Each reader either returns its result or raises ``InputError`` naming the source and a line
(between 1 and one past the last line). Any other exception is a crash: the command line would
exit 1 with a traceback instead of refusing the file with exit code 2.

No database: the readers are called directly (the CSV readers take a path, so each example is
written to a file of a module-wide temporary folder). Hypothesis runs derandomized (the same
examples on every run) with about 200 examples per test.

The first section holds the crashes and wrong lines found while writing these tests (by
reading the readers, probing them, and fuzzing: the mutated-TRF test finds the superscript
digit by itself), as plain examples, so that each fails deterministically until it is fixed.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import read_fide_txt
from ratingdb.formats.games_csv import read_games_csv
from ratingdb.formats.list_csv import read_list_csv
from ratingdb.formats.trf import parse_trf
from ratingdb.rules import Category

ROOT = Path(__file__).resolve().parents[2]
CONTROLS = ROOT / "tests" / "corpus" / "malformed" / "controls"
SHARED_TRF = ROOT.parent / "shared" / "data" / "trf"
#: Small real files of ../shared/data/trf (when present): CRLF, CR only, Latin-1, TRF26, NRS.
REAL_TRF = (
    "icu_u19_all_ireland_2010_round_robin.trf",
    "icu_ulster_masters_seniors_2022.trf",
    "icu_irish_intermediate_2011_latin1.trf",
    "sharly_trf26_individual_fra_nrs.trf",
    "lichess_swiss_2020_05.trf",
    "icu_cork_major_2018.trf",
)

FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)

GAMES_CSV = (
    "tournament,start_date,end_date,round,white_id,black_id,result\n"
    '"Open, A",2026-09-10,2026-09-12,1,1001,1002,1-0\n'
    '"Open, A",2026-09-10,2026-09-12,1,1003,1004,1/2-1/2\n'
    '"Open, A",2026-09-10,2026-09-12,2,1001,1003,0-1\n'
    '"Open, A",2026-09-10,2026-09-12,2,1002,1004,+-\n'
    '"Open, A",2026-09-10,2026-09-12,3,1004,1001,--\n'
)
LIST_CSV = (
    "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor\n"
    '1001,"Anna, A",FRA,F,1990,WFM,1850,60,1850,20\n'
    '1002,"Bob, B",fra,m,1985,,1920,,,\n'
    '1003,"Gus ""G""",FRA,M,,,1780,12,1800,40\n'
    '1005,"Nina, N",,F,2001,,,,,\n'
)
#: A FIDE standard list in the TXT layout ratingdb writes (B §12.1): rated, WGM, unrated.
FIDE_TXT = "\n".join(
    [
        f"{'ID Number':15}{'Name':61}Fed Sex Tit  WTit OTit           FOA SRtng SGm SK B-day Flag",
        f"{'1503014':15}{'Carlsen, Magnus':61}NOR M   GM{'':27}2840  9   10 1990",
        f"{'25059530':15}{'Ju, Wenjun':61}CHN F        WGM{'':21}2560  0   10 1991",
        f"{'999999999':15}{'Nobody, Unrated':61}FRA M{'':45}2012",
        "",
    ]
)

#: Bits that make readers stumble: digits (ASCII and not: superscript, Arabic-Indic,
#: full-width), separators, TRF codes, line ends, NUL, BOM, quotes, words Decimal accepts.
PIECES = (
    "0", "1", "9", " ", "  ", "-", "+", "=", ",", ";", '"', "/", ".", "w", "b", "x", "H", "W",
    "Z", "\t", "\r", "\n", "\r\n", "\x00", "\ufeff", "\u00e9", "\u00b2", "\u0663", "\uff11",
    "0000", "001 ", "9999", "-1", "NaN", "Inf", "1e9", "99999999999999999999999",
)  # fmt: skip
#: What a fixed-width number field may hold instead of ASCII digits.
FIELD_PIECES = (
    "", "0", "-1", "9999", "1e9", "NaN", "sNaN", "Inf", "-Inf", "\x00", "\t", "\u00b2",
    "1\u00b9", "\u0663\u0660", "\uff11\uff12", "\u00bd", "x", "+", "=", "H", "w",
)  # fmt: skip
ENCODINGS = ("utf-8", "utf-8", "latin-1", "cp1252", "utf-16")


# --- the check every reader must pass ----------------------------------------------------------


def line_count(raw: bytes) -> int:
    return len(re.split(rb"\r\n|\r|\n", raw))


def check(read: Callable[[], Any], raw: bytes, source: str) -> None:
    """``read()`` returns, or raises InputError naming ``source`` and a plausible line."""
    refused: InputError | None = None
    try:
        read()
    except InputError as error:
        refused = error
    if refused is None:
        return
    assert refused.source == source, f"the error names {refused.source!r}, not the file: {refused}"
    assert refused.line is not None, f"the error names no line: {refused}"
    assert 1 <= refused.line <= line_count(raw) + 1, f"line {refused.line} of {raw!r:.200}"


def read_trf_bytes(raw: bytes) -> None:
    check(lambda: parse_trf(raw, source="fuzz.trf"), raw, "fuzz.trf")


def read_fide_bytes(raw: bytes) -> None:
    def read() -> None:
        for _ in read_fide_txt(io.BytesIO(raw), Category.FIDE_STANDARD, source="fuzz.txt"):
            pass

    check(read, raw, "fuzz.txt")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


def read_csv_bytes(folder: Path, reader: Callable[[Path], Any], raw: bytes) -> None:
    path = folder / "fuzz.csv"
    path.write_bytes(raw)
    check(lambda: reader(path), raw, str(path))


# --- what was found (fails until fixed) --------------------------------------------------------


def valid_trf_lines() -> list[str]:
    return (CONTROLS / "valid.trf").read_text(encoding="utf-8").splitlines()


def trf_with(line: int, column: int, text: str) -> bytes:
    """valid.trf with ``text`` written over ``line`` from 1-based ``column``."""
    lines = valid_trf_lines()
    old = lines[line - 1]
    lines[line - 1] = old[: column - 1] + text + old[column - 1 + len(text) :]
    return ("\n".join(lines) + "\n").encode("utf-8")


FOUND_TRF = {
    # Columns 81-84 (points) are read with Decimal(), which takes NaN and Infinity; the check
    # of the declared points then calls Fraction() on them: ValueError / OverflowError.
    "points NaN": trf_with(11, 81, " NaN"),
    "points sNaN": trf_with(11, 81, "sNaN"),
    "points Inf": trf_with(11, 81, " Inf"),
    # str.isdigit() is true for a superscript two, int() refuses it: ValueError.
    "superscript in the rating": trf_with(12, 49, "18\u00b20"),
    "superscript in the round 1 opponent": trf_with(11, 92, "   \u00b2"),
    # Nothing of a TRF is found (no 001 line): the refusal names no line.
    "empty file": b"",
    "a CSV given as a TRF": GAMES_CSV.encode(),
}


@pytest.mark.parametrize("raw", FOUND_TRF.values(), ids=FOUND_TRF.keys())
def test_found_trf(raw: bytes) -> None:
    read_trf_bytes(raw)


FOUND_CSV = {
    # csv_input's integer(): the regex takes any number of digits, int() refuses more than
    # 4300 (Python 3.11's limit): ValueError.
    "games: round of 5000 digits": (
        "games",
        GAMES_CSV.replace(",2,1001,1003,", "," + "7" * 5000 + ",1001,1003,", 1),
    ),
    "list: rating of 5000 digits": ("list", LIST_CSV.replace(",1920,", "," + "1" * 5000 + ",")),
    "list: birth year of 5000 digits": ("list", LIST_CSV.replace(",1985,", "," + "9" * 5000 + ",")),
}  # fmt: skip
READERS: dict[str, Callable[[Path], Any]] = {"games": read_games_csv, "list": read_list_csv}


@pytest.mark.parametrize(("reader", "content"), FOUND_CSV.values(), ids=FOUND_CSV.keys())
def test_found_csv(folder: Path, reader: str, content: str) -> None:
    read_csv_bytes(folder, READERS[reader], content.encode())


def test_found_csv_latin1_in_a_cr_only_file_is_on_its_line(folder: Path) -> None:
    """The decoding error counts LF only: in a CR-only file every byte is on "line 1", while the
    CSV reader (and the TRF reader) take CR as a line end. 0xe9 is on the third line."""
    third = '"Open, A",2026-09-10,2026-09-12,1,1003'
    text = GAMES_CSV.replace(third, third.replace("Open", "Caf\u00e9"))
    raw = text.replace("\n", "\r").encode("latin-1")
    path = folder / "cr_only_latin1.csv"
    path.write_bytes(raw)
    with pytest.raises(InputError) as refused:
        read_games_csv(path)
    assert refused.value.line == 3, str(refused.value)


FOUND_FIDE = {
    "superscript in the rating": FIDE_TXT.replace(" 2840 ", " 28\u00b20 "),
    "superscript in the games": FIDE_TXT.replace(" 2840  9 ", " 2840  \u00b2 "),
    # The last column runs to the end of the line: 5000 digits of K reach int().
    "K of 5000 digits in the last column": (
        "ID Number      Name                                                        Fed SRtng SK\n"
        "1503014        Carlsen, Magnus                                             NOR 2840  "
        + "1" * 5000
        + "\n"
    ),
}


@pytest.mark.parametrize("content", FOUND_FIDE.values(), ids=FOUND_FIDE.keys())
def test_found_fide_txt(content: str) -> None:
    read_fide_bytes(content.encode())


def test_found_fide_txt_header_error_names_the_header_line() -> None:
    """Blank lines before the header are skipped, but a bad header is reported on line 1: here
    the header (no rating column) is line 3."""
    raw = b"\n\nID Number      Name                 Fed\n1503014        Carlsen, Magnus      NOR\n"
    with pytest.raises(InputError) as refused:
        list(read_fide_txt(io.BytesIO(raw), Category.FIDE_STANDARD, source="fuzz.txt"))
    assert refused.value.line == 3, str(refused.value)


# --- strategies --------------------------------------------------------------------------------

piece = st.one_of(st.sampled_from(PIECES), st.text(max_size=4))


@st.composite
def mutated(
    draw: st.DrawFn,
    seeds: list[str],
    encodings: tuple[str, ...] = ENCODINGS,
    spans: tuple[tuple[int, int], ...] = (),
) -> bytes:
    """A seed with 1 to 6 edits (insert, replace, delete, truncate, drop, repeat or swap a
    line; with ``spans``, overwrite a fixed-width field of a player line), encoded in a
    random encoding, sometimes with a few random bytes spliced in."""
    text = draw(st.sampled_from(seeds))
    operations = ["insert", "replace", "replace", "delete", "truncate", "line"]
    operations += ["field"] * (6 if spans else 0)
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        operation = draw(st.sampled_from(operations))
        at = draw(st.integers(min_value=0, max_value=len(text)))
        if operation == "field":
            text = overwrite_field(draw, text, spans)
        elif operation == "insert":
            text = text[:at] + draw(piece) + text[at:]
        elif operation == "replace":
            width = draw(st.integers(min_value=1, max_value=4))
            text = text[:at] + draw(piece) + text[at + width :]
        elif operation == "delete":
            width = draw(st.integers(min_value=1, max_value=40))
            text = text[:at] + text[at + width :]
        elif operation == "truncate":
            text = text[:at]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                i = draw(st.integers(min_value=0, max_value=len(lines) - 1))
                j = draw(st.integers(min_value=0, max_value=len(lines) - 1))
                how = draw(st.sampled_from(["drop", "repeat", "swap"]))
                if how == "drop":
                    del lines[i]
                elif how == "repeat":
                    lines.insert(j, lines[i])
                else:
                    lines[i], lines[j] = lines[j], lines[i]
                text = "".join(lines)
    raw = text.encode(draw(st.sampled_from(encodings)), errors="replace")
    if draw(st.booleans()) and draw(st.integers(min_value=0, max_value=3)) == 0:
        at = draw(st.integers(min_value=0, max_value=len(raw)))
        raw = raw[:at] + draw(st.binary(min_size=1, max_size=8)) + raw[at:]
    return raw


def overwrite_field(draw: st.DrawFn, text: str, spans: tuple[tuple[int, int], ...]) -> str:
    """One fixed-width field of a player line overwritten with a piece, right-aligned."""
    lines = text.splitlines(keepends=True)
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    if not players:
        return text
    i = draw(st.sampled_from(players))
    start, end = draw(st.sampled_from(spans))
    value = draw(st.sampled_from(FIELD_PIECES))[: end - start + 1].rjust(end - start + 1)
    line = lines[i].rstrip("\r\n").ljust(end)
    lines[i] = line[: start - 1] + value + line[end:] + lines[i][len(lines[i].rstrip("\r\n")) :]
    return "".join(lines)


#: The fields of a 001 line (1-based, inclusive): rank, sex, title, rating, federation, FIDE id,
#: birth date, points, and rounds 1 to 3 (opponent, colour, result).
TRF_FIELDS: tuple[tuple[int, int], ...] = (
    (5, 8),
    (10, 10),
    (11, 13),
    (49, 52),
    (54, 56),
    (58, 68),
    (70, 79),
    (81, 84),
)
TRF_FIELDS += tuple(
    span
    for r in range(3)
    for span in ((92 + 10 * r, 95 + 10 * r), (97 + 10 * r,) * 2, (99 + 10 * r,) * 2)
)


def trf_seeds() -> list[str]:
    seeds = [(CONTROLS / name).read_bytes().decode("utf-8") for name in ("valid.trf", "rich.trf")]
    for name in REAL_TRF:
        path = SHARED_TRF / name
        if path.is_file():
            raw = path.read_bytes()
            try:
                seeds.append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                seeds.append(raw.decode("latin-1"))
    return seeds


TRF_SEEDS = trf_seeds()


# --- the fuzz tests ----------------------------------------------------------------------------


def test_the_seeds_are_read_without_error(folder: Path) -> None:
    """The control: every seed is accepted as it is, so the mutations are what is refused."""
    for seed in TRF_SEEDS:
        parse_trf(seed.encode("utf-8"), source="seed.trf")
    path = folder / "seed.csv"
    path.write_text(GAMES_CSV, encoding="utf-8")
    assert len(read_games_csv(path).games) == 5
    path.write_text(LIST_CSV, encoding="utf-8")
    assert len(read_list_csv(path)) == 4
    rows = list(read_fide_txt(io.BytesIO(FIDE_TXT.encode()), Category.FIDE_STANDARD, source="s"))
    assert [row.rating for row in rows] == [2840, 2560, None]


#: A player record at the start of a line: what makes a file a tournament report at all (a file
#: without one is refused without a line, see test_found_trf; these tests look further).
PLAYER_RECORD = re.compile(rb"(?:^|[\r\n])(?:\xef\xbb\xbf)?001")


@FUZZ
@given(raw=mutated(TRF_SEEDS, ("utf-8", "utf-8", "latin-1", "cp1252"), TRF_FIELDS))
def test_trf_parser_on_mutated_files(raw: bytes) -> None:
    assume(PLAYER_RECORD.search(raw))
    read_trf_bytes(raw)


@FUZZ
@given(
    seed=st.sampled_from(TRF_SEEDS),
    at=st.integers(min_value=0),
    noise=st.binary(min_size=1, max_size=3000),
)
def test_trf_parser_on_random_bytes(seed: str, at: int, noise: bytes) -> None:
    """Random bytes spliced into a TRF, after its first player record."""
    raw = seed.encode("utf-8")
    first = PLAYER_RECORD.search(raw)
    assert first is not None
    at = first.end() + at % (len(raw) - first.end() + 1)
    read_trf_bytes(raw[:at] + noise + raw[at:])


@FUZZ
@given(raw=mutated([GAMES_CSV]))
def test_games_csv_reader_on_mutated_files(folder: Path, raw: bytes) -> None:
    read_csv_bytes(folder, read_games_csv, raw)


@FUZZ
@given(raw=mutated([LIST_CSV]))
def test_list_csv_reader_on_mutated_files(folder: Path, raw: bytes) -> None:
    read_csv_bytes(folder, read_list_csv, raw)


@FUZZ
@given(raw=st.binary(max_size=2000), reader=st.sampled_from(sorted(READERS)))
def test_csv_readers_on_random_bytes(folder: Path, raw: bytes, reader: str) -> None:
    read_csv_bytes(folder, READERS[reader], raw)


@FUZZ
@given(raw=mutated([FIDE_TXT]))
def test_fide_txt_reader_on_mutated_files(raw: bytes) -> None:
    read_fide_bytes(raw)
