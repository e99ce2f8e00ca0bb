"""FIDE's own list files as FIDE publishes them, current and archived (tests/corpus/fide_lists,
generated in the real layouts; ORIGINS.md says where each layout was read): what is read, what
is noted on stderr with its line, and what is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import ListNotes, iter_fide_txt, iter_fide_xml
from ratingdb.rules import Category, Period
from tests.support.files import write

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "fide_lists"
STANDARD, RAPID, BLITZ = Category.FIDE_STANDARD, Category.FIDE_RAPID, Category.FIDE_BLITZ


def read(
    name: str, category: Category, period: str | None
) -> tuple[list[tuple[object, ...]], ListNotes]:
    notes = ListNotes(name)
    path = CORPUS / name
    if path.suffix == ".xml":
        rows = list(iter_fide_xml(path, category, notes=notes))
    else:
        found = None if period is None else Period.parse(period)
        rows = list(iter_fide_txt(path, category, period=found, notes=notes))
    return [
        (r.line or r.player, r.fide_id, r.name, r.federation, r.sex, r.title, r.birth_year,
         r.rating, r.games, r.k_factor, r.flag)
        for r in rows
    ], notes  # fmt: skip


def test_january_2001_no_birth_dates_and_old_titles() -> None:
    rows, notes = read("jan01_standard.txt", STANDARD, "2001-01")
    assert rows == [
        (3, "1700001", "Aalto, Anna", "FIN", "F", "WIM", None, 2210, 0, None, "w"),
        (4, "1700002", "Berg, Bo", "SWE", None, "GM", None, 2561, 18, None, None),
        (5, "1700003", "Crane, Carl", "ENG", None, None, None, 2063, 0, None, "i"),
    ]  # fmt: skip
    assert notes.lines() == ()


def test_2001_birth_dates_and_names_in_two_code_pages() -> None:
    """\\xa1 and \\xa4 are i-acute and n-tilde in code page 850 (C1 controls or symbols in
    Latin-1); \\xe4 on a line without such a byte is Latin-1's a-umlaut."""
    rows, notes = read("apr01_standard.txt", STANDARD, "2001-04")
    assert rows == [
        (2, "1700001", "Aalto, Anna", "FIN", "F", "WIM", 1972, 2215, 9, None, "w"),
        (3, "2200002", "García Muñiz, Dario", "ESP", None, "IM", 1973, 2367, 9, None, None),
        (4, "1700004", "Näslund, Nils", "SWE", None, None, None, 2063, 0, None, None),
    ]  # fmt: skip
    assert notes.lines() == (
        "apr01_standard.txt:3: NAME: not UTF-8, read as code page 850 (DOS): 'García Muñiz, Dario'",
        "apr01_standard.txt:4: NAME: not UTF-8, read as Latin-1: 'Näslund, Nils'",
    )


def test_2003_a_header_not_over_its_columns_and_two_digit_years() -> None:
    """The header's APR03 starts at column 55, the ratings at 54; TITLE at 41, the titles at
    45. Two-digit years in the 2003 list: the latest year at least 5 years before 2003:
    72 is 1972, 06 is 1906, 00 is 1900 (not a player aged 3), 98 is 1998."""
    rows, notes = read("apr03_standard.txt", STANDARD, "2003-04")
    assert rows == [
        (2, "1700001", "Aalto, Anna", "FIN", "F", "WIM", 1972, 2240, 0, None, "w"),
        (3, "1700005", "Elder, Edith", "USA", "F", "WGM", 1906, 2090, 0, None, "wi"),
        (4, "500006", "Finn, Frans", "FIN", None, "FM", 1900, 2053, 12, None, None),
        (5, "1700007", "Young, Yann", "DEN", None, None, 1998, 2168, 112, None, None),
        (6, "1700008", "Skøien, Håvard", "NOR", None, None, None, 2104, 3, None, "i"),
    ]  # fmt: skip
    first = notes.lines()[0]
    assert first.startswith("apr03_standard.txt:1: the titles of the header do not sit over")
    assert "APR03 53-58, GAMES 59-63, BIRTHDAY 64-74, FLAG 75-" in first


def test_a_list_without_a_header_line() -> None:
    rows, notes = read("jan04_headerless.txt", STANDARD, "2004-01")
    assert [row[:3] + row[5:9] for row in rows] == [
        (2, "1700001", "Aalto, Anna", "WIM", 1972, 2238, 0),
        (3, "1700002", "Berg, Bo", "GM", 1970, 2570, 11),
        (4, "1700003", "Crane, Carl", None, None, 2050, 0),
    ]
    assert notes.lines()[0] == "jan04_headerless.txt:5: DOS's end-of-file mark (Ctrl-Z) ignored"
    assert notes.lines()[1].startswith("jan04_headerless.txt:1: no header line: read as FIDE's")


def test_the_2012_rapid_list_titled_with_its_month_in_lower_case() -> None:
    rows, notes = read("rapid_sep12.txt", RAPID, "2012-09")
    assert rows == [
        (2, "1700001", "Aalto, Anna", "FIN", "F", "WIM", 1972, 2190, 7, 20, "w"),
        (3, "1700002", "Berg, Bo", "SWE", "M", "GM", 1970, 2544, 0, 20, "i"),
    ]  # fmt: skip
    assert notes.lines() == ()


def test_today_an_empty_name_and_an_impossible_year_are_read_and_noted() -> None:
    rows, notes = read("standard_sep26.txt", STANDARD, "2026-09")
    assert rows[1:] == [
        (3, "1700009", "", "IND", "M", None, 2011, 1466, 5, 40, None),
        (4, "1700010", "Old, Otto", "GER", "M", None, None, 1702, 0, 20, "i"),
    ]  # fmt: skip
    assert notes.lines() == (
        (
            "standard_sep26.txt:3: Name: FIDE id 1700009 has no name: imported without one (a "
            "player already stored keeps their name)"
        ),
        (
            "standard_sep26.txt:4: B-day: FIDE id 1700010: 1792 is not a year of birth (not 1900 "
            "to 2100): imported without a year (a player already stored keeps theirs)"
        ),
    )


@pytest.mark.parametrize(
    ("category", "expected"),
    [(STANDARD, [2180, 1910]), (RAPID, [2150, None]), (BLITZ, [None, 1870])],
)
def test_today_the_combined_list(category: Category, expected: list[int | None]) -> None:
    """``Rk`` as FIDE writes it; a long OTit running into FOA (three lines of 1.93 million)."""
    rows, _ = read("players_list_foa_oct26.txt", category, "2026-10")
    assert [row[7] for row in rows] == expected


def test_today_the_xml_with_an_empty_name() -> None:
    rows, notes = read("players_list_xml_foa_oct26.xml", RAPID, None)
    assert rows == [
        (1, "1700001", "Aalto, Anna", "FIN", "F", "WIM", 1972, 2150, None, None, "w"),
        (2, "1700009", "", "IND", "M", None, 2011, None, None, None, None),
    ]  # fmt: skip
    assert notes.lines() == (
        (
            "players_list_xml_foa_oct26.xml:25: name: player #2, FIDE id 1700009, has no name: "
            "imported without one (a player already stored keeps their name)"
        ),
    )


# --- refusals ------------------------------------------------------------------------------------


def refused(path: Path, category: Category, period: str | None) -> InputError:
    found = None if period is None else Period.parse(period)
    with pytest.raises(InputError) as caught:
        list(iter_fide_txt(path, category, period=found))
    return caught.value


@pytest.mark.parametrize(
    ("name", "category", "period", "column", "title"),
    [
        ("standard_sep26.txt", STANDARD, "2026-10", 114, "SEP26"),
        ("standard_sep26.txt", STANDARD, "2025-09", 114, "SEP26"),
        ("rapid_sep12.txt", RAPID, "2012-08", 110, "sep12"),
        ("apr03_standard.txt", STANDARD, "2003-05", 55, "APR03"),
    ],
)
def test_a_header_month_other_than_the_period_is_refused(
    name: str, category: Category, period: str, column: int, title: str
) -> None:
    error = refused(CORPUS / name, category, period)
    assert (error.line, error.column, error.field) == (1, column, title)
    assert f"not of --period {period}" in error.message


def test_a_month_alone_is_checked_against_the_period_s_month(tmp_path: Path) -> None:
    text = (CORPUS / "jan01_standard.txt").read_text(encoding="ascii").replace("JAN01", "JAN  ")
    path = write(tmp_path, "jan.txt", text)
    assert len(list(iter_fide_txt(path, STANDARD, period=Period.parse("2001-01")))) == 3
    error = refused(path, STANDARD, "2001-02")
    assert (error.line, error.field) == (1, "JAN")
    assert "the list of month 01" in error.message


def test_a_single_list_of_another_category_in_its_header_is_refused() -> None:
    error = refused(CORPUS / "players_list_foa_oct26.txt", Category.FFE_RAPID, "2026-10")
    assert (error.line, error.field) == (1, "rating")
    assert "the file has SRtng, RRtng, BRtng" in error.message


def test_a_header_that_cannot_be_matched_with_its_columns_is_refused(tmp_path: Path) -> None:
    """Seven titles over the eight columns of the 2003 values (BIRTHDAY missing)."""
    text = (CORPUS / "apr03_standard.txt").read_bytes().replace(b" BIRTHDAY", b"")
    error = refused(write(tmp_path, "bad.txt", text), STANDARD, "2003-04")
    assert (error.line, error.field) == (1, "header")
    assert "its 7 titles cannot be matched one for one" in error.message
    assert "(8 columns: 2-8, 11-24, 45-46, 49-51, 54-57, 60-62, 65-72, 77-78)" in error.message


def test_a_two_digit_year_needs_the_period() -> None:
    error = refused(CORPUS / "apr03_standard.txt", STANDARD, None)
    # The column runs from the middle of the gap after the games (column 64).
    assert (error.line, error.column, error.field) == (2, 64, "BIRTHDAY")
    assert "needs the list's year (--period)" in error.message


def test_a_birth_date_that_is_none_is_refused(tmp_path: Path) -> None:
    text = (CORPUS / "apr01_standard.txt").read_bytes().replace(b"31.07.1973", b"31.13.1973")
    error = refused(write(tmp_path, "bad.txt", text), STANDARD, "2001-04")
    assert (error.line, error.column, error.field) == (3, 72, "BIRTHDAY")
    assert "must be a birth date (DD.MM.YYYY or DD.MM.YY), got '31.13.1973'" in error.message


def test_a_utf8_byte_order_mark_before_the_header_is_dropped(tmp_path: Path) -> None:
    text = b"\xef\xbb\xbf" + (CORPUS / "apr01_standard.txt").read_bytes()
    notes = ListNotes("bom.txt")
    path = write(tmp_path, "bom.txt", text)
    rows = list(iter_fide_txt(path, STANDARD, period=Period.parse("2001-04"), notes=notes))
    assert [r.fide_id for r in rows] == ["1700001", "2200002", "1700004"]


def test_an_xml_player_without_a_fideid_is_refused_with_its_line(tmp_path: Path) -> None:
    text = (CORPUS / "players_list_xml_foa_oct26.xml").read_bytes()
    path = write(tmp_path, "bad.xml", text.replace(b"<fideid>1700009</fideid>\r\n", b""))
    with pytest.raises(InputError) as caught:
        list(iter_fide_xml(path, STANDARD))
    assert (caught.value.line, caught.value.field) == (23, "fideid")
    assert str(caught.value).startswith(f"{path}:23: fideid: player #2: must be a FIDE id")
