"""FIDE list readers and the TXT writer, on generated files (FIDE's downloads may not be
redistributed): columns found from the header line in any layout, the combined and the single
files, XML streamed, and refusals naming line, column and field."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ratingdb.errors import InputError
from ratingdb.formats.fide_list import (
    FideListRow,
    FideTxtEntry,
    FideXmlPlayer,
    iter_fide_txt,
    iter_fide_xml,
    write_fide_txt,
    write_fide_xml,
    xml_line_of,
)
from ratingdb.rules import Category
from tests.support.files import FIDE_STANDARD_HEADER as STANDARD_HEADER
from tests.support.files import fixed, write

STANDARD = "\n".join(
    [STANDARD_HEADER]
    + [
        fixed(STANDARD_HEADER, cells)
        for cells in (
            {"ID Number": "1503014", "Name": "Carlsen, Magnus", "Fed": "NOR", "Sex": "M",
             "Tit": "GM", "SRtng": "2840", "SGm": "5", "SK": "10", "B-day": "1990"},
            {"ID Number": "25059530", "Name": "Praggnanandhaa R", "Fed": "IND", "Sex": "M",
             "Tit": "GM", "SRtng": "2740", "SGm": "9", "SK": "10", "B-day": "2005"},
            {"ID Number": "34567890", "Name": "Newcomer, Nina", "Fed": "FRA", "Sex": "F",
             "WTit": "WFM", "SRtng": "1650", "SGm": "3", "SK": "40", "B-day": "2012",
             "Flag": "wi"},
            {"ID Number": "45678901", "Name": "Unrated, Ugo", "Fed": "FRA", "Sex": "M",
             "B-day": "1999", "Flag": "i"},
        )
    ]
) + "\n"  # fmt: skip
# The combined file (players_list_foa.txt): three ratings, each with its games and K.
COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm RK BRtng BGm BK B-day Flag"
)
COMBINED = "\n".join(
    [COMBINED_HEADER]
    + [
        fixed(COMBINED_HEADER, cells)
        for cells in (
            {"ID Number": "1503014", "Name": "Carlsen, Magnus", "Fed": "NOR", "Sex": "M",
             "Tit": "GM", "SRtng": "2840", "SGm": "5", "SK": "10", "RRtng": "2820",
             "RGm": "12", "RK": "10", "BRtng": "2890", "BGm": "20", "BK": "10",
             "B-day": "1990"},
            {"ID Number": "34567890", "Name": "Newcomer, Nina", "Fed": "FRA", "Sex": "F",
             "WTit": "WFM", "SRtng": "1650", "SGm": "3", "SK": "40", "BRtng": "1500",
             "BGm": "4", "BK": "40", "B-day": "2012", "Flag": "w"},
        )
    ]
) + "\n"  # fmt: skip
# An old layout: other titles, other order, the rating named after the month.
LEGACY_HEADER = "ID_NUMBER NAME                             TITL FED  NOV12 GAMES  BORN  FLAG K"
LEGACY = LEGACY_HEADER + "\n" + fixed(
    LEGACY_HEADER,
    {"ID_NUMBER": "1503014", "NAME": "Carlsen, Magnus", "TITL": "GM", "FED": "NOR",
     "NOV12": "2848", "GAMES": "5", "BORN": "1990", " K": " 10"},
) + "\n"  # fmt: skip


def rows(path: Path, category: Category) -> list[FideListRow]:
    reader = iter_fide_xml if path.suffix == ".xml" else iter_fide_txt
    return list(reader(path, category))


def test_the_standard_list(tmp_path: Path) -> None:
    carlsen, pragg, nina, ugo = rows(write(tmp_path, "std.txt", STANDARD), Category.FIDE_STANDARD)
    assert carlsen == FideListRow(
        line=2, fide_id="1503014", name="Carlsen, Magnus", federation="NOR", sex="M",
        title="GM", birth_year=1990, rating=2840, games=5, k_factor=10, flag=None,
    )  # fmt: skip
    assert (pragg.name, pragg.rating, pragg.games) == ("Praggnanandhaa R", 2740, 9)
    assert (nina.title, nina.sex, nina.k_factor, nina.flag) == ("WFM", "F", 40, "wi")
    assert (ugo.rating, ugo.games, ugo.k_factor, ugo.birth_year) == (None, None, None, 1999)


@pytest.mark.parametrize(
    ("category", "expected"),
    [
        (Category.FIDE_STANDARD, [(2840, 5, 10), (1650, 3, 40)]),
        (Category.FIDE_RAPID, [(2820, 12, 10), (None, None, None)]),
        (Category.FIDE_BLITZ, [(2890, 20, 10), (1500, 4, 40)]),
    ],
)
def test_the_combined_list(
    tmp_path: Path, category: Category, expected: list[tuple[int | None, ...]]
) -> None:
    found = rows(write(tmp_path, "players_list_foa.txt", COMBINED), category)
    assert [(r.rating, r.games, r.k_factor) for r in found] == expected
    assert found[1].sex == "F"


def test_an_old_layout(tmp_path: Path) -> None:
    (carlsen,) = rows(write(tmp_path, "old.txt", LEGACY), Category.FIDE_STANDARD)
    assert (carlsen.rating, carlsen.games, carlsen.k_factor, carlsen.title) == (2848, 5, 10, "GM")
    assert (carlsen.federation, carlsen.birth_year) == ("NOR", 1990)


def test_a_single_list_of_another_category_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        rows(write(tmp_path, "std.txt", STANDARD), Category.FIDE_RAPID)
    assert caught.value.line == 1
    assert "no fide-rapid rating column: the file has SRtng" in caught.value.message


@pytest.mark.parametrize(
    ("category", "prefix"),
    [
        (Category.FIDE_STANDARD, "S"),
        (Category.FIDE_RAPID, "R"),
        (Category.FIDE_BLITZ, "B"),
        (Category.FFE_RAPID, ""),
    ],
)
def test_written_txt_reads_back(tmp_path: Path, category: Category, prefix: str) -> None:
    entries = [
        FideTxtEntry("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2840, 5, 10, 1990),
        FideTxtEntry("900000000001", "Zoë, Ada", "RUR", "F", "WIM", 2150, 0, 20, None),
        FideTxtEntry("7", "N" * 70, None, None, None, 1400, 12, 40, 2011),
    ]
    out = io.StringIO()
    write_fide_txt(entries, category, out)
    header = out.getvalue().splitlines()[0]
    assert f"{prefix}Rtng" in header
    assert header.endswith("B-day Flag")
    back = rows(write(tmp_path, "out.txt", out.getvalue()), category)
    assert [
        (r.fide_id, r.name, r.federation, r.sex, r.title, r.rating, r.games, r.k_factor,
         r.birth_year) for r in back
    ] == [
        ("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2840, 5, 10, 1990),
        ("900000000001", "Zoë, Ada", "RUR", "F", "WIM", 2150, 0, 20, None),
        ("7", "N" * 60, None, None, None, 1400, 12, 40, 2011),  # the name cut to 60, as FIDE
    ]  # fmt: skip


PLAYERS = [
    FideXmlPlayer("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 1990,
                  standard=(2840, 5, 10), rapid=(2820, 12, 10), blitz=(2890, 20, 10)),
    FideXmlPlayer("34567890", "Newcomer & Co, Nina", "FRA", "F", "WFM", 2012,
                  standard=(1650, 3, 40), blitz=(1500, 4, 40), flag="w"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("category", "expected"),
    [
        (Category.FIDE_STANDARD, [(2840, 5, 10), (1650, 3, 40)]),
        (Category.FIDE_RAPID, [(2820, 12, 10), (None, 0, None)]),
        (Category.FIDE_BLITZ, [(2890, 20, 10), (1500, 4, 40)]),
    ],
)
def test_the_combined_xml(
    tmp_path: Path, category: Category, expected: list[tuple[int | None, ...]]
) -> None:
    out = io.StringIO()
    write_fide_xml(PLAYERS, out)
    found = rows(write(tmp_path, "players_list_xml_foa.xml", out.getvalue()), category)
    assert [(r.rating, r.games, r.k_factor) for r in found] == expected
    assert (found[1].name, found[1].title, found[1].sex) == ("Newcomer & Co, Nina", "WFM", "F")
    assert (found[0].fide_id, found[0].federation, found[0].birth_year) == (
        "1503014", "NOR", 1990,
    )  # fmt: skip


def test_a_single_category_xml_uses_rating_games_k(tmp_path: Path) -> None:
    """B §12.2: a single-category file carries rating/games/k only; imported for rapid it is
    read as the rapid list."""
    out = io.StringIO()
    write_fide_xml(PLAYERS, out, combined=False)
    assert "rapid_rating" not in out.getvalue()
    found = rows(write(tmp_path, "rapid_rating_list.xml", out.getvalue()), Category.FIDE_RAPID)
    assert [(r.rating, r.games, r.k_factor) for r in found] == [(2840, 5, 10), (1650, 3, 40)]


def test_xml_is_read_one_player_at_a_time(tmp_path: Path) -> None:
    """The first row comes out before the parser has seen the end of the file (a truncated
    file only fails once the reader gets there)."""
    out = io.StringIO()
    write_fide_xml(PLAYERS, out)
    text = out.getvalue()
    second = text.index("<player>", text.index("</player>"))
    path = write(tmp_path, "cut.xml", text[: second + 40] + "\n" * 20000)
    reader = iter_fide_xml(path, Category.FIDE_STANDARD)
    assert next(reader).fide_id == "1503014"
    with pytest.raises(InputError) as caught:
        next(reader)
    assert "not well-formed XML" in caught.value.message
    assert caught.value.line is not None


# --- refusals ----------------------------------------------------------------------------------


def refused(path: Path, category: Category = Category.FIDE_STANDARD) -> InputError:
    with pytest.raises(InputError) as caught:
        rows(path, category)
    return caught.value


def test_refuses_letters_in_a_rating(tmp_path: Path) -> None:
    text = STANDARD.replace("2740", "27x0")
    error = refused(write(tmp_path, "bad.txt", text))
    assert (error.line, error.column, error.field) == (3, 114, "SRtng")
    assert str(error).startswith(f"{tmp_path / 'bad.txt'}:3:114: SRtng: must be a rating")


def test_refuses_a_truncated_line(tmp_path: Path) -> None:
    lines = STANDARD.splitlines()
    lines[2] = lines[2][:115]  # "27" of 2740
    error = refused(write(tmp_path, "cut.txt", "\n".join(lines) + "\n"))
    assert (error.line, error.field) == (3, "SRtng")
    assert "truncated?" in error.message


def test_refuses_a_line_without_a_name(tmp_path: Path) -> None:
    error = refused(write(tmp_path, "cut.txt", STANDARD + "99999999\n"))
    assert (error.line, error.field) == (6, "Name")


def test_refuses_a_bad_year_of_birth(tmp_path: Path) -> None:
    error = refused(write(tmp_path, "bad.txt", STANDARD.replace("1990", "19x0")))
    assert (error.line, error.column, error.field) == (2, 127, "B-day")


def test_refuses_a_header_without_ratings(tmp_path: Path) -> None:
    error = refused(write(tmp_path, "bad.txt", "ID Number      Name\n1 A\n"))
    assert (error.line, error.field) == (1, "rating")


def test_refuses_an_empty_file(tmp_path: Path) -> None:
    assert refused(write(tmp_path, "empty.txt", "\n")).message.startswith("the file is empty")


def test_refuses_a_bad_xml_value_with_its_line(tmp_path: Path) -> None:
    out = io.StringIO()
    write_fide_xml(PLAYERS, out)
    text = out.getvalue().replace("<rating>1650</rating>", "<rating>16x0</rating>")
    text = text.replace("><", ">\n<")  # one tag a line, as FIDE's files
    path = write(tmp_path, "bad.xml", text)
    error = refused(path)
    assert error.field == "rating"
    assert error.line is not None
    assert "<rating>16x0</rating>" in text.splitlines()[error.line - 1]
    assert error.message.startswith("player #2: must be a rating")
    assert xml_line_of(path, 1, "rating") == text.splitlines().index("<rating>2840</rating>") + 1


def test_refuses_xml_that_is_not_well_formed(tmp_path: Path) -> None:
    path = write(tmp_path, "bad.xml", "<playerslist>\n<player><fideid>1</fideid>\n</playerslist>")
    error = refused(path)
    assert (error.line, error.column) == (3, 3)
