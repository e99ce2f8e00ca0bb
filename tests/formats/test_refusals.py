"""What no reader lets in (ratingdb/formats/text.py), reader by reader: control characters,
lines over 64 KiB (refused before they are held: memory measured with tracemalloc), names over
200 characters, dates outside 1900-2200, UTF-16/32 and semicolon-separated files, and, for FIDE
XML, a DOCTYPE and memory that grows with the file. Names are kept exactly as written.

The files are made here; each expected line and field is worked out from how the file is made.
The end-to-end refusals (exit 2, nothing stored, SQLite and PostgreSQL) are in
tests/corpus/test_malformed_files.py and tests/services/test_bad_text.py.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import ListNotes, iter_fide_txt, iter_fide_xml
from ratingdb.formats.games_csv import read_games_csv
from ratingdb.formats.list_csv import read_list_csv
from ratingdb.formats.trf import read_trf
from ratingdb.rules import Category
from tests.support.files import write

ROOT = Path(__file__).resolve().parents[2]
VALID_TRF = ROOT / "tests" / "corpus" / "malformed" / "controls" / "valid.trf"
GAMES = (
    "tournament,start_date,end_date,round,white_id,black_id,result\n"
    "{name},2026-09-10,2026-09-12,1,1001,1002,1-0\n"
)
LIST = (
    "player_id,name,federation,sex,birth_year,title,rating,rated_games,peak_rating,k_factor\n"
    "2001,{name},FRA,F,{born},,1850,60,1850,20\n"
)
STANDARD = Category.FIDE_STANDARD
#: Control characters of every kind refused: C0, DEL, C1, separators, bidi.
CONTROLS = ["\x00", "\x01", "\t", "\x1b", "\x7f", "\x85", "\x9f", "\u2028", "\u2029", "\u202e",
            "\u2066", "\u2069"]  # fmt: skip


def txt(name: str, born: str = "1990") -> str:
    """A FIDE TXT list of one player: Name in columns 16-76 (0-based 15), B-day last."""
    header = f"{'ID Number':<15}{'Name':<61}{'Fed':<4}{'SRtng':<6}B-day\n"
    return header + f"{'1001':<15}{name:<61}{'FRA':<4}{'1850':<6}{born}\n"


def xml(player: str, before: str = "") -> str:
    return (
        f'<?xml version="1.0" encoding="utf-8"?>\n{before}<playerslist>\n'
        f"<player>{player}</player>\n</playerslist>\n"
    )


def xml_player(name: str = "Ash, Ann", born: str = "1990") -> str:
    return (
        f"<fideid>1001</fideid><name>{name}</name><rating>1850</rating><birthday>{born}</birthday>"
    )


def trf_lines() -> list[str]:
    return VALID_TRF.read_text(encoding="utf-8").splitlines()


def refusal(read: Callable[[], Any]) -> InputError:
    with pytest.raises(InputError) as caught:
        read()
    return caught.value


def read_txt(path: Path) -> list[Any]:
    return list(iter_fide_txt(path, STANDARD))


def read_xml(path: Path) -> list[Any]:
    return list(iter_fide_xml(path, STANDARD))


# --- 1. control characters ---------------------------------------------------------------------


@pytest.mark.parametrize("char", CONTROLS)
def test_a_control_character_in_a_fide_txt_name_is_refused(tmp_path: Path, char: str) -> None:
    path = write(tmp_path, "list.txt", txt(f"Ash,{char}Ann"))
    error = refusal(lambda: read_txt(path))
    assert (error.line, error.field, error.column) == (2, "Name", 16 + 4)
    assert f"U+{ord(char):04X}" in error.message


@pytest.mark.parametrize("char", ["\t", "\n", "\x7f", "\x85", "\u2028", "\u202e", "\u2067"])
def test_a_control_character_in_a_fide_xml_name_is_refused(tmp_path: Path, char: str) -> None:
    """Written as a character reference (XML cannot hold most C0 characters, even so)."""
    path = write(tmp_path, "list.xml", xml(xml_player(f"Ash,&#{ord(char)};Ann")))
    error = refusal(lambda: read_xml(path))
    assert (error.line, error.field) == (3, "name")
    assert f"U+{ord(char):04X}" in error.message


def test_a_control_character_in_a_fide_xml_attribute_is_refused(tmp_path: Path) -> None:
    player = xml_player().replace("<name>", '<name lang="&#x202E;fr">')
    path = write(tmp_path, "list.xml", xml(player))
    error = refusal(lambda: read_xml(path))
    assert (error.line, error.field) == (3, "name")
    assert "attribute lang" in error.message
    assert "U+202E" in error.message


@pytest.mark.parametrize("char", CONTROLS)
def test_a_control_character_in_a_list_csv_is_refused(tmp_path: Path, char: str) -> None:
    path = write(tmp_path, "list.csv", LIST.format(name=f'"Ash,{char}Ann"', born=1990))
    error = refusal(lambda: read_list_csv(path))
    assert (error.line, error.field) == (2, "name")


@pytest.mark.parametrize("char", CONTROLS)
def test_a_control_character_in_a_games_csv_is_refused(tmp_path: Path, char: str) -> None:
    path = write(tmp_path, "games.csv", GAMES.format(name=f'"Open{char}A"'))
    error = refusal(lambda: read_games_csv(path))
    assert (error.line, error.field) == (2, "tournament")


@pytest.mark.parametrize("char", CONTROLS)
@pytest.mark.parametrize(
    ("index", "column", "field"),
    [(0, 8, "012 tournament name"), (1, 5, "022 city"), (10, 15, "name"), (11, 54, "federation")],
)
def test_a_control_character_in_a_trf_is_refused(
    tmp_path: Path, char: str, index: int, column: int, field: str
) -> None:
    """The character replaces the one at ``column`` of line ``index + 1``."""
    lines = trf_lines()
    line = lines[index]
    lines[index] = line[: column - 1] + char + line[column:]
    path = write(tmp_path, "t.trf", "\n".join(lines) + "\n")
    error = refusal(lambda: read_trf(path))
    assert (error.line, error.field) == (index + 1, field)
    assert f"U+{ord(char):04X}" in error.message


def test_a_c1_character_of_a_windows_1252_trf_says_what_the_file_may_be(tmp_path: Path) -> None:
    """0x9A is 'š' in Windows-1252; read as Latin-1 it is the control U+009A."""
    lines = trf_lines()
    lines[10] = lines[10].replace("Doe, John", "Do\x9a, John")
    path = write(tmp_path, "t.trf", ("\n".join(lines) + "\n").encode("latin-1"))
    error = refusal(lambda: read_trf(path))
    assert (error.line, error.column, error.field) == (11, 17, "name")
    assert "Windows-1252" in error.message


# --- 2. lengths: names over 200 characters, lines over 64 KiB before they are held -------------


def test_names_of_200_characters_are_read_and_201_refused(tmp_path: Path) -> None:
    ok = write(tmp_path, "ok.csv", LIST.format(name="A" * 200, born=1990))
    assert read_list_csv(ok)[0].name == "A" * 200
    bad = write(tmp_path, "bad.csv", LIST.format(name="A" * 201, born=1990))
    assert refusal(lambda: read_list_csv(bad)).field == "name"
    games = write(tmp_path, "games.csv", GAMES.format(name="G" * 201))
    assert refusal(lambda: read_games_csv(games)).field == "tournament"
    assert read_xml(write(tmp_path, "ok.xml", xml(xml_player("X" * 200))))[0].name == "X" * 200
    long_xml = write(tmp_path, "bad.xml", xml(xml_player("X" * 201)))
    assert refusal(lambda: read_xml(long_xml)).field == "name"
    header = f"{'ID Number':<15}{'SRtng':<6}Name\n"  # the last column runs to the line's end
    long_txt = write(tmp_path, "bad.txt", header + f"{'1001':<15}{'1850':<6}{'T' * 201}\n")
    assert refusal(lambda: read_txt(long_txt)).field == "Name"
    lines = trf_lines()
    lines[1] = "022 " + "P" * 200
    assert read_trf(write(tmp_path, "ok.trf", "\n".join(lines) + "\n")).city == "P" * 200
    lines[1] = "022 " + "P" * 201
    error = refusal(lambda: read_trf(write(tmp_path, "bad.trf", "\n".join(lines) + "\n")))
    assert (error.line, error.field) == (2, "022 city")


def peak_while_refused(read: Callable[[], Any]) -> tuple[InputError, int]:
    """The refusal, and the most memory Python held while reading (bytes)."""
    tracemalloc.start()
    try:
        error = refusal(read)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return error, peak


MB = 1 << 20


@pytest.mark.parametrize("ends", ["\n", "\r\n", "\r"])
def test_a_10_mb_trf_line_is_refused_without_holding_it(tmp_path: Path, ends: str) -> None:
    lines = trf_lines()
    lines[2] = "032 " + "F" * 10_000_000
    path = write(tmp_path, "t.trf", ends.join(lines) + ends)
    error, peak = peak_while_refused(lambda: read_trf(path))
    assert error.line == 3
    assert "65,536 bytes" in error.message
    assert peak < MB, peak


def test_a_10_mb_csv_line_is_refused_without_holding_it(tmp_path: Path) -> None:
    path = write(tmp_path, "games.csv", GAMES.format(name="G" * 10_000_000))
    error, peak = peak_while_refused(lambda: read_games_csv(path))
    assert error.line == 2
    assert "65,536 bytes" in error.message
    assert peak < MB, peak
    path = write(tmp_path, "list.csv", LIST.format(name="N" * 10_000_000, born=1990))
    error, peak = peak_while_refused(lambda: read_list_csv(path))
    assert error.line == 2
    assert peak < MB, peak


def test_a_10_mb_fide_txt_line_is_refused_without_holding_it(tmp_path: Path) -> None:
    path = write(tmp_path, "list.txt", txt("N" * 10_000_000))
    error, peak = peak_while_refused(lambda: read_txt(path))
    assert error.line == 2
    assert "65,536 bytes" in error.message
    assert peak < MB, peak


def test_a_20_mb_xml_name_is_refused_without_holding_it(tmp_path: Path) -> None:
    """On one line (a line over 64 KiB), and over 20,000 lines of 1,000 characters (no element
    ends in 1 MiB)."""
    one_line = write(tmp_path, "one.xml", xml(xml_player("N" * 20_000_000)))
    error, peak = peak_while_refused(lambda: read_xml(one_line))
    assert error.line == 3
    assert "65,536 bytes" in error.message
    assert peak < 2 * MB, peak
    many = write(tmp_path, "many.xml", xml(xml_player(("N" * 999 + "\n") * 20_000)))
    error, peak = peak_while_refused(lambda: read_xml(many))
    assert "no element ends" in error.message
    assert error.line is not None
    assert 1000 < error.line < 1200  # about 1 MiB of 1,000-byte lines in
    assert peak < 4 * MB, peak


# --- 3. FIDE XML: flat memory, no DOCTYPE ------------------------------------------------------


def test_elements_other_than_players_are_let_go(tmp_path: Path) -> None:
    """6.7 MB of other elements under the root, nested ones too, then two players: both are
    read, and Python never holds more than 1.75 MB, a quarter of the file (a reader keeping
    every element would hold 44 MB; one keeping the file's text, 6.7 MB or more). The reader's
    own peak is 0.85-0.95 MB whatever the file's size (measured at 2, 6.7 and 22 MB): holding
    over 14% of the file fails, as it did with the 22 MB file and 4 MB this test once used,
    in a third of the time (tracemalloc slows the parse fourfold)."""
    path = tmp_path / "list.xml"
    with path.open("w", encoding="utf-8") as out:
        out.write("<playerslist>\n")
        for number in range(60_000):
            out.write(f'<note n="{number}"><text>{"x" * 60}</text><a><b>y</b></a></note>\n')
        out.write(f"<player>{xml_player()}</player>\n")
        out.write(f"<player>{xml_player('Birch, Ben').replace('1001', '1002')}</player>\n")
        out.write("</playerslist>\n")
    assert path.stat().st_size > 6_500_000
    tracemalloc.start()
    try:
        rows = read_xml(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [(row.fide_id, row.name) for row in rows] == [
        ("1001", "Ash, Ann"),
        ("1002", "Birch, Ben"),
    ]
    assert peak < 1.75 * MB, peak


@pytest.mark.parametrize(
    ("doctype", "line"),
    [
        ('<!DOCTYPE playerslist [<!ENTITY a "aaaaaaaaaa">]>\n', 2),
        ('\n\n<!DOCTYPE playerslist SYSTEM "players.dtd">\n', 4),
    ],
)
def test_a_doctype_is_refused(tmp_path: Path, doctype: str, line: int) -> None:
    path = write(tmp_path, "list.xml", xml(xml_player(), before=doctype))
    error = refusal(lambda: read_xml(path))
    assert error.line == line
    assert "DOCTYPE" in error.message
    assert error.source == str(path)


# --- 4. dates from 1900 to 2200 ----------------------------------------------------------------


def test_dates_outside_1900_to_2200_are_refused(tmp_path: Path) -> None:
    list_1899 = write(tmp_path, "l.csv", LIST.format(name="Ash", born=1899))
    assert refusal(lambda: read_list_csv(list_1899)).field == "birth_year"
    assert read_list_csv(write(tmp_path, "ok.csv", LIST.format(name="A", born=1900)))[0].birth_year
    # FIDE's own lists hold such years (a player born in 1792 in the August 2013 rapid list):
    # the player is read without a year, and a note names the line.
    txt_1899 = write(tmp_path, "l.txt", txt("Ash, Ann", born="1899"))
    notes = ListNotes("l.txt")
    assert [r.birth_year for r in iter_fide_txt(txt_1899, STANDARD, notes=notes)] == [None]
    assert notes.lines()[0].startswith("l.txt:2: B-day: FIDE id ")
    assert "1899 is not a year of birth" in notes.lines()[0]
    xml_1899 = write(tmp_path, "l.xml", xml(xml_player(born="1899")))
    notes = ListNotes("l.xml")
    assert [r.birth_year for r in iter_fide_xml(xml_1899, STANDARD, notes=notes)] == [None]
    (note,) = notes.lines()
    assert note.startswith("l.xml:")
    assert ": birthday: player #1" in note
    games = write(tmp_path, "g.csv", GAMES.replace("2026-09-1", "1899-12-3").format(name="O"))
    error = refusal(lambda: read_games_csv(games))
    assert error.field == "start_date"
    assert "1900-01-01 to 2200-12-31" in error.message
    lines = trf_lines()
    lines[4] = "052 2201/01/01"
    error = refusal(lambda: read_trf(write(tmp_path, "t.trf", "\n".join(lines) + "\n")))
    assert (error.line, error.field) == (5, "052 end date")


# --- 5. and 6. UTF-16/32 and semicolons: what to do --------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le"])
def test_a_utf16_or_utf32_file_says_to_save_it_as_utf8(tmp_path: Path, encoding: str) -> None:
    trf = write(tmp_path, "t.trf", VALID_TRF.read_text(encoding="utf-8").encode(encoding))
    error = refusal(lambda: read_trf(trf))
    assert (error.source, error.line) == (str(trf), 1)
    assert "encoding not supported" in error.message
    assert "UTF-16" in error.message or "UTF-32" in error.message
    assert "save the file as UTF-8" in error.message
    games = write(tmp_path, "g.csv", GAMES.format(name="Open").encode(encoding))
    assert "save the file as UTF-8" in refusal(lambda: read_games_csv(games)).message
    listed = write(tmp_path, "l.csv", LIST.format(name="Ash", born=1990).encode(encoding))
    assert "encoding not supported" in refusal(lambda: read_list_csv(listed)).message
    fide = write(tmp_path, "l.txt", txt("Ash, Ann").encode(encoding))
    assert "encoding not supported" in refusal(lambda: read_txt(fide)).message


def test_a_semicolon_separated_csv_says_how_to_save_it(tmp_path: Path) -> None:
    games = write(tmp_path, "g.csv", GAMES.format(name="Open").replace(",", ";"))
    listed = write(tmp_path, "l.csv", LIST.format(name="Ash", born=1990).replace(",", ";"))
    for path, read in ((games, read_games_csv), (listed, read_list_csv)):
        error = refusal(lambda path=path, read=read: read(path))  # type: ignore[misc]
        assert (error.source, error.line) == (str(path), 1)
        assert "separated by semicolons" in error.message
        assert "CSV UTF-8 (Comma delimited)" in error.message


# --- 7. names kept exactly as written ----------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["=1+2", "+Ash", "-Ash", "@SUM(A1)", "\u00a0Ash", "Ash\u2003Ann", "Ash,  Ann\u00a0"]
)
def test_names_are_kept_exactly_as_written(tmp_path: Path, name: str) -> None:
    """Formula-like first characters, no-break and em spaces, double spaces: nothing is taken
    away (only the spaces a fixed-width column pads with)."""
    quoted = '"' + name + '"'
    assert (
        read_list_csv(write(tmp_path, "l.csv", LIST.format(name=quoted, born=1990)))[0].name == name
    )
    assert read_games_csv(write(tmp_path, "g.csv", GAMES.format(name=quoted))).name == name
    assert read_xml(write(tmp_path, "l.xml", xml(xml_player(name))))[0].name == name
    assert read_txt(write(tmp_path, "l.txt", txt(name)))[0].name == name
    lines = trf_lines()
    lines[10] = lines[10][:14] + name.ljust(33) + lines[10][47:]
    lines[0] = "012 " + name
    trf = read_trf(write(tmp_path, "t.trf", "\n".join(lines) + "\n"))
    assert (trf.players[0].name, trf.name) == (name, name)
