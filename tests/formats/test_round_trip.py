"""Every writer of ratingdb, read back by its reader, gives exactly the data written: list CSV,
FIDE TXT, FIDE XML (single-category), List JSON, and TRF (written by the sample data).

The data is drawn by hypothesis over the full range of what the database may hold: unicode
names with accents, apostrophes, commas, quotes, ``&<>``, spreadsheet formula characters;
ids with and without leading zeros; every federation, sex, title, rating, games, K and year of
birth a list holds; empty optional fields. Never control characters: the readers refuse them
on input, and the writers refuse them too (tested below).

Then what a format cannot hold: the FIDE TXT name cut at FIDE's width, the other values that do
not fit refused naming the player and the column; and the CSV escaping of formulas.
"""

from __future__ import annotations

import csv
import functools
import io
import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ratingdb.errors import InputError
from ratingdb.formats.cells import spreadsheet_text, undo_spreadsheet_text
from ratingdb.formats.fide_list import (
    TITLES,
    FideTxtEntry,
    iter_fide_txt,
    iter_fide_xml,
    write_fide_txt,
    write_fide_xml_list,
)
from ratingdb.formats.fide_list.rows import is_inactive_flag
from ratingdb.formats.list_csv import ExportEntry, read_list_csv, write_list_csv
from ratingdb.formats.trf import PSEUDO_PLAYER_NAMES, PlayerOut, format_trf, parse_trf
from ratingdb.rules import Category, Period
from ratingdb.services.published.export import write_published
from ratingdb.services.published.lists import ListEntry, PublishedList
from tests.support.files import write

EXAMPLES = settings(
    max_examples=100,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# --- the data ----------------------------------------------------------------------------------

#: Every character a stored text may hold: no control characters (Cc), line or paragraph
#: separators (Zl, Zp), bidi embeddings, overrides or isolates, surrogates (Cs) or unassigned
#: code points (Cn, U+FFFE and U+FFFF): the readers refuse them.
BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
CHARACTERS = st.characters(
    blacklist_categories=("Cc", "Cs", "Zl", "Zp", "Cn"), blacklist_characters=BIDI_CONTROLS
)
#: The characters that break naive writers, drawn more often than their share of Unicode.
TRICKY = st.sampled_from(list("'\",;=+-@&<>] éÉøßÿŁ'\u2019\u00a0\u3000\u0301\ufeff"))


#: Names that once broke a writer, or would.
KNOWN_NAMES = ["'t Hooft, Gerard", "O'Brien, Seán", '=HYPERLINK("http://x","y")', "-Minus",
               "+Plus", "@At", "'=x", "''-y", "Dvořák, Zoë", 'Smith, "Bob"', "A & <B>"]  # fmt: skip


@functools.cache  # one strategy per size: hypothesis prepares each strategy object once
def names(max_size: int) -> st.SearchStrategy[str]:
    """A name as stored: never empty, never starting or ending with a space (readers strip)."""
    drawn = st.text(st.one_of(CHARACTERS, TRICKY), min_size=1, max_size=max_size)
    return (drawn | st.sampled_from(KNOWN_NAMES)).filter(
        lambda name: name == name.strip() and 0 < len(name) <= max_size
    )


FEDERATIONS = st.none() | st.from_regex(r"[A-Z]{3}", fullmatch=True)
SEXES = st.sampled_from([None, "M", "F"])
FIDE_TITLES = st.sampled_from([None, *sorted(TITLES)])
BIRTH_YEARS = st.none() | st.integers(1900, 2100)
RATINGS = st.integers(1000, 4000)
#: National ids: "007" too.
NATIONAL_IDS = st.from_regex(r"[0-9]{1,20}", fullmatch=True)
OPTIONAL_RATINGS = st.none() | RATINGS
OPTIONAL_K = st.none() | st.integers(1, 99)


@functools.cache
def fide_ids(max_digits: int) -> st.SearchStrategy[str]:
    """FIDE ids: digits without a leading zero (the readers drop them), or ``0``."""
    return st.just("0") | st.from_regex(rf"[1-9][0-9]{{0,{max_digits - 1}}}", fullmatch=True)


# --- list CSV ----------------------------------------------------------------------------------


#: A list CSV may carry national titles.
CSV_TITLES = FIDE_TITLES | names(3)


@st.composite
def export_entries(draw: st.DrawFn) -> ExportEntry:
    rating = draw(RATINGS)
    return ExportEntry(
        player_id=draw(NATIONAL_IDS),
        name=draw(names(200)),
        federation=draw(FEDERATIONS),
        sex=draw(SEXES),
        birth_year=draw(BIRTH_YEARS),
        title=draw(CSV_TITLES),
        rating=rating,
        rated_games=draw(st.integers(0, 1_000_000)),
        peak_rating=draw(st.integers(rating, 4000)),
        k_factor=draw(st.integers(1, 99)),
        active=draw(st.booleans()),
        change=draw(st.none() | st.integers(-4000, 4000)),
        games=draw(st.integers(0, 10_000)),
    )


@EXAMPLES
@given(entries=st.lists(export_entries(), max_size=8, unique_by=lambda e: e.player_id))
def test_list_csv_reads_back_exactly(tmp_path: Path, entries: list[ExportEntry]) -> None:
    text = write_list_csv(entries)
    rows = read_list_csv(write(tmp_path, "list.csv", text))
    assert [
        ExportEntry(r.player_id, r.name, r.federation, r.sex, r.birth_year, r.title,
                    r.rating or 0, r.rated_games, r.peak_rating or 0, 0, r.active)
        for r in rows
    ] == [
        ExportEntry(e.player_id, e.name, e.federation, e.sex, e.birth_year, e.title, e.rating,
                    e.rated_games, e.peak_rating, 0, e.active)
        for e in entries
    ]  # fmt: skip
    # k_factor, change and games are not read by the importer (contract): they are in the
    # file, as written.
    cells = list(csv.DictReader(io.StringIO(text, newline="")))
    assert [row["k_factor"] for row in cells] == [str(e.k_factor) for e in entries]
    assert [row["active"] for row in cells] == ["1" if e.active else "0" for e in entries]
    assert [row["change"] for row in cells] == [
        "" if e.change is None else str(e.change) for e in entries
    ]
    assert [row["games"] for row in cells] == [str(e.games) for e in entries]


# --- FIDE TXT and XML ---------------------------------------------------------------------------


@functools.cache
def optional_games(max_games: int) -> st.SearchStrategy[int | None]:
    return st.none() | st.integers(0, max_games)


@st.composite
def fide_entries(
    draw: st.DrawFn, *, id_digits: int, name_width: int, max_games: int
) -> FideTxtEntry:
    rating = draw(OPTIONAL_RATINGS)
    return FideTxtEntry(
        player_id=draw(fide_ids(id_digits)),
        name=draw(names(name_width)),
        federation=draw(FEDERATIONS),
        sex=draw(SEXES),
        title=draw(FIDE_TITLES),
        rating=rating,
        # An unrated player has no games nor K in a FIDE list (refused, tested below).
        games=None if rating is None else draw(optional_games(max_games)),
        k_factor=None if rating is None else draw(OPTIONAL_K),
        birth_year=draw(BIRTH_YEARS),
        active=draw(st.booleans()),
    )


def as_entries(path: Path, category: Category) -> list[FideTxtEntry]:
    reader = iter_fide_xml if path.suffix == ".xml" else iter_fide_txt
    return [
        FideTxtEntry(r.fide_id, r.name, r.federation, r.sex, r.title, r.rating, r.games,
                     r.k_factor, r.birth_year, not is_inactive_flag(r.flag))
        for r in reader(path, category)
    ]  # fmt: skip


@EXAMPLES
@given(
    category=st.sampled_from(
        [Category.FIDE_STANDARD, Category.FIDE_RAPID, Category.FIDE_BLITZ, Category.FFE_RAPID]
    ),
    entries=st.lists(
        fide_entries(id_digits=14, name_width=60, max_games=999),
        max_size=8,
        unique_by=lambda e: e.player_id,
    ),
)
def test_fide_txt_reads_back_exactly(
    tmp_path: Path, category: Category, entries: list[FideTxtEntry]
) -> None:
    out = io.StringIO()
    write_fide_txt(entries, category, out)
    lines = out.getvalue().split("\n")
    assert len(lines) == len(entries) + 2  # header, one line per player, the final newline
    assert all(len(line) <= 134 for line in lines[1:])  # Flag at 132: nothing ran on
    assert as_entries(write(tmp_path, "list.txt", out.getvalue()), category) == entries


@EXAMPLES
@given(
    category=st.sampled_from([Category.FIDE_STANDARD, Category.FIDE_RAPID, Category.FIDE_BLITZ]),
    entries=st.lists(
        fide_entries(id_digits=18, name_width=200, max_games=10**6),
        max_size=8,
        unique_by=lambda e: e.player_id,
    ),
)
def test_fide_xml_reads_back_exactly(
    tmp_path: Path, category: Category, entries: list[FideTxtEntry]
) -> None:
    out = io.StringIO()
    write_fide_xml_list(entries, out)
    assert "rapid_rating" not in out.getvalue()  # the single-category layout (B §12.2)
    assert as_entries(write(tmp_path, "list.xml", out.getvalue()), category) == entries


# --- List JSON ---------------------------------------------------------------------------------


@st.composite
def published_entries(draw: st.DrawFn) -> ListEntry:
    rating = draw(RATINGS)
    previous = draw(OPTIONAL_RATINGS)
    return ListEntry(
        player_id=draw(NATIONAL_IDS),
        name=draw(names(200)),
        federation=draw(FEDERATIONS),
        sex=draw(SEXES),
        birth_year=draw(BIRTH_YEARS),
        title=draw(FIDE_TITLES),
        rating=rating,
        previous_rating=previous,
        change=None if previous is None else rating - previous,
        games=draw(st.integers(0, 500)),
        k_factor=draw(st.integers(1, 99)),
        rated_games=draw(st.integers(0, 10_000)),
        peak_rating=draw(st.integers(rating, 4000)),
        active=draw(st.booleans()),
    )


@EXAMPLES
@given(
    category=st.sampled_from(list(Category)),
    entries=st.lists(published_entries(), max_size=8, unique_by=lambda e: e.player_id),
)
def test_list_json_reads_back_exactly(category: Category, entries: list[ListEntry]) -> None:
    published = PublishedList(
        category, Period(2026, 11), 2, "fide-2024", datetime(2026, 11, 1, tzinfo=UTC),
        tuple(entries),
    )  # fmt: skip
    out = io.StringIO()
    write_published(published, "json", out)
    document = json.loads(out.getvalue())
    assert document["category"] == category.value
    assert (document["period"], document["revision"]) == ("2026-11", 2)
    assert document["entries"] == [
        {"player_id": e.player_id, "name": e.name, "federation": e.federation, "sex": e.sex,
         "title": e.title, "birth_year": e.birth_year, "rating": e.rating,
         "previous_rating": e.previous_rating, "change": e.change, "games": e.games,
         "k_factor": e.k_factor, "active": e.active}
        for e in entries
    ]  # fmt: skip


# --- TRF (written by the sample data) ----------------------------------------------------------


BIRTH_DATES = st.none() | st.dates(date(1900, 1, 1), date(2100, 12, 31))
TRF_RATINGS = st.none() | st.integers(1, 4000)
TRF_FIDE_IDS = st.none() | fide_ids(11).filter(lambda i: i != "0")


@st.composite
def trf_players(draw: st.DrawFn, rank: int) -> PlayerOut:
    birth = draw(BIRTH_DATES)
    return PlayerOut(
        rank=rank,
        # The TRF reader joins the words of a name with single spaces.
        name=" ".join(draw(names(33)).split()),
        sex=draw(SEXES),
        title=draw(FIDE_TITLES),
        rating=draw(TRF_RATINGS),
        federation=draw(FEDERATIONS),
        fide_id=draw(TRF_FIDE_IDS),
        birth_date=birth,
        birth_year=None if birth is None else birth.year,
    )


@EXAMPLES
@given(data=st.data(), count=st.integers(1, 6), tournament=names(60), city=names(60))
def test_trf_reads_back_exactly(
    data: st.DataObject, count: int, tournament: str, city: str
) -> None:
    players = [data.draw(trf_players(rank)) for rank in range(1, count + 1)]
    ids = [p.fide_id for p in players if p.fide_id is not None]
    assume(len(set(ids)) == len(ids))  # a FIDE id appears once in a tournament
    assume(not any(p.name.casefold() in PSEUDO_PLAYER_NAMES for p in players))
    text = format_trf(
        name=tournament, city=city, federation="FRA", start_date=date(2026, 11, 1),
        end_date=date(2026, 11, 2), time_control="90+30", players=players,
    )  # fmt: skip
    trf = parse_trf(text.encode(), source="written.trf")
    assert (trf.name, trf.city) == (tournament, city)
    assert [
        (p.rank, p.name, p.sex, p.title, p.rating, p.federation, p.fide_id, p.birth_date,
         p.birth_year if p.birth_date else None)
        for p in trf.players
    ] == [
        (p.rank, p.name, p.sex, p.title, p.rating, p.federation, p.fide_id, p.birth_date,
         p.birth_year)
        for p in players
    ]  # fmt: skip


# --- what FIDE TXT cannot hold: cut or refused --------------------------------------------------

CARLSEN = FideTxtEntry("1503014", "Carlsen, Magnus", "NOR", "M", "GM", 2840, 5, 10, 1990)


def txt(*entries: FideTxtEntry) -> str:
    out = io.StringIO()
    write_fide_txt(entries, Category.FIDE_STANDARD, out)
    return out.getvalue()


def test_a_long_name_is_cut_at_fides_width(tmp_path: Path) -> None:
    """FIDE's Name column is 61 wide (B §12.1, [15, 76)) with a blank before Fed: 60
    characters are kept, and the columns after it stay where they are."""
    long = "Wolfeschlegelsteinhausenbergerdorff, Hubert Blaine " + "Ü" * 40
    text = txt(replace(CARLSEN, name=long))
    line = text.splitlines()[1]
    assert line[15:75] == long[:60]
    assert (line[76:79], line[113:117], line[126:130]) == ("NOR", "2840", "1990")
    back = as_entries(write(tmp_path, "cut.txt", text), Category.FIDE_STANDARD)
    assert back[0].name == long[:60]
    # A cut that ends on a space loses the space (the reader strips the cell).
    spaced = "A" * 59 + " B"
    text = txt(FideTxtEntry("7", spaced, None, None, None, 1500, None, None, None))
    back = as_entries(write(tmp_path, "cut2.txt", text), Category.FIDE_STANDARD)
    assert back[0].name == "A" * 59


@pytest.mark.parametrize(
    ("entry", "field", "words"),
    [
        # An id longer than its column (15 wide): today cut to 14 digits, another player.
        (FideTxtEntry("123456789012345", "Long, Id", None, None, None, 2000, 1, 20, None),
         "ID Number", "has 15 digits; the column holds 14"),
        # An id with a leading zero: read back without it, another player.
        (FideTxtEntry("0123", "Zero, Lead", None, None, None, 2000, 1, 20, None),
         "ID Number", "is not a FIDE id"),
        # 1000 games in the month: today written as 100.
        (FideTxtEntry("11", "Busy, Bee", None, None, None, 2000, 1000, 20, None),
         "SGm", "1000 is not from 0 to 999"),
        (FideTxtEntry("12", "Kay, K", None, None, None, 2000, 3, 100, None),
         "SK", "100 is not from 1 to 99"),
        # A national title: the FIDE reader would drop it.
        (FideTxtEntry("13", "Nat, Ional", None, None, "NM", 2000, 3, 20, None),
         "Tit", "'NM' is not a FIDE title"),
        (FideTxtEntry("14", "Low, Lou", None, None, None, 900, 3, 20, None),
         "SRtng", "900 is not from 1000 to 4000"),
        (FideTxtEntry("15", "Fed, Bad", "FR", None, None, 2000, 3, 20, None),
         "Fed", "'FR' is not a 3-letter federation code"),
        (FideTxtEntry("16", "Old, Very", None, None, None, 2000, 3, 20, 1700),
         "B-day", "1700 is not from 1900 to 2100"),
        # A newline in a name: today the line breaks in two, the second a player of its own.
        (FideTxtEntry("17", "Two\n1234567 Lines", None, None, None, 2000, 3, 20, None),
         "Name", "U+000A"),
        (FideTxtEntry("18", " Spaced ", None, None, None, 2000, 3, 20, None),
         "Name", "starts or ends with a space"),
        (FideTxtEntry("19", "Un, Rated", None, None, None, None, 3, None, None),
         "SRtng", "an unrated player has neither"),
    ],
)  # fmt: skip
def test_what_a_txt_column_cannot_hold_is_refused(
    entry: FideTxtEntry, field: str, words: str
) -> None:
    with pytest.raises(InputError) as caught:
        txt(CARLSEN, entry)
    assert caught.value.field == field
    assert caught.value.message.startswith(f"player {entry.player_id} ({entry.name!r}): ")
    assert words in caught.value.message


def test_xml_refuses_what_its_reader_would_change() -> None:
    """The same checks with the XML element names; XML holds longer ids and names."""
    out = io.StringIO()
    write_fide_xml_list(
        [FideTxtEntry("123456789012345", "N" * 200, None, None, None, 2000, 5000, 20, None)],
        out,
    )
    for entry, field in [
        (FideTxtEntry("1234567890123456789", "Long", None, None, None, 2000, 1, 20, None),
         "fideid"),
        (FideTxtEntry("5", "Nat", None, None, "NM", 2000, 1, 20, None), "title"),
        (FideTxtEntry("6", "Bell\u2028Line", None, None, None, 2000, 1, 20, None), "name"),
        (FideTxtEntry("7", "evil\u202egnp.exe", None, None, None, 2000, 1, 20, None), "name"),
        (FideTxtEntry("8", "N" * 201, None, None, None, 2000, 1, 20, None), "name"),
    ]:  # fmt: skip
        with pytest.raises(InputError) as caught:
            write_fide_xml_list([entry], io.StringIO())
        assert caught.value.field == field


# --- CSV formulas ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ('=HYPERLINK("http://evil.example","x")', '\'=HYPERLINK("http://evil.example","x")'),
        ("+33 1 23", "'+33 1 23"),
        ("-Minus", "'-Minus"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tTab", "'\tTab"),
        ("\rCr", "'\rCr"),
        ("'=x", "''=x"),  # already quoted by another tool: kept, with one quote more
        ("''@y", "'''@y"),
        ("'t Hooft", "'t Hooft"),  # an apostrophe before anything else: as is
        ("'", "'"),
        ("O'Brien", "O'Brien"),
        ("a=b", "a=b"),
        ("", ""),
    ],
)
def test_the_spreadsheet_escape_and_its_undoing(text: str, written: str) -> None:
    assert spreadsheet_text(text) == written
    assert undo_spreadsheet_text(written) == text


@given(st.text(st.one_of(CHARACTERS, st.sampled_from(list("'=+-@\t\r"))), max_size=12))
@settings(derandomize=True, max_examples=500)
def test_the_escape_is_undone_exactly(text: str) -> None:
    assert undo_spreadsheet_text(spreadsheet_text(text)) == text
    assert not spreadsheet_text(text).startswith(("=", "+", "-", "@", "\t", "\r"))


def test_the_list_csv_writes_formulas_as_text(tmp_path: Path) -> None:
    """Text cells that a spreadsheet would run get a quote; numbers never; the importer gives
    back the names exactly."""
    entries = [
        ExportEntry("1001", '=HYPERLINK("http://evil.example","Click")', "FRA", "M", 1990,
                    "-", 2000, 40, 2100, 20),
        ExportEntry("1002", "'=already quoted", None, "F", None, "@GM", 1500, 3, 1500, 40),
        ExportEntry("1003", "'t Hooft, Gerard", "NED", None, None, None, 1800, 30, 1800, 20),
    ]  # fmt: skip
    text = write_list_csv(entries)
    assert text.splitlines()[1:] == [
        '1001,"\'=HYPERLINK(""http://evil.example"",""Click"")",FRA,M,1990,\'-,2000,40,2100,20,1,,0',
        "1002,''=already quoted,,F,,'@GM,1500,3,1500,40,1,,0",
        '1003,"\'t Hooft, Gerard",NED,,,,1800,30,1800,20,1,,0',
    ]
    rows = read_list_csv(write(tmp_path, "list.csv", text))
    assert [(r.name, r.title) for r in rows] == [
        ('=HYPERLINK("http://evil.example","Click")', "-"),
        ("'=already quoted", "@GM"),
        ("'t Hooft, Gerard", None),
    ]


@pytest.mark.parametrize(
    ("name", "words"),
    [("Two\nLines", "U+000A"), ("N" * 201, "has 201 characters; at most 200 are read")],
)
def test_the_list_csv_refuses_a_name_it_would_not_read(name: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        write_list_csv([ExportEntry("1001", name, None, None, None, None, 2000, 40, 2100, 20)])
    assert caught.value.field == "name"
    assert caught.value.message.startswith("player 1001 (")
    assert words in caught.value.message


def test_the_trf_writer_refuses_a_line_break() -> None:
    """A name with a newline would start a line of its own, read as another record."""
    player = PlayerOut(1, "Two\n001    2 Lines")
    with pytest.raises(ValueError, match="break the line"):
        format_trf(name="T", city="C", federation="FRA", start_date=date(2026, 11, 1),
                   end_date=date(2026, 11, 2), time_control="90", players=[player])  # fmt: skip
    with pytest.raises(ValueError, match="break the line"):
        format_trf(name="T\n012 Other", city="C", federation="FRA", start_date=date(2026, 11, 1),
                   end_date=date(2026, 11, 2), time_control="90", players=[])  # fmt: skip


@pytest.mark.parametrize("fmt", ["fide-txt", "fide-xml"])
def test_the_fide_writers_write_each_player_as_it_comes(fmt: str) -> None:
    """Memory stays flat: a player is written before the next is asked for."""
    out = io.StringIO()

    def entries() -> Iterator[FideTxtEntry]:
        yield CARLSEN
        assert "Carlsen, Magnus" in out.getvalue()
        yield replace(CARLSEN, player_id="2", name="Second, Player")

    if fmt == "fide-txt":
        write_fide_txt(entries(), Category.FIDE_STANDARD, out)
    else:
        write_fide_xml_list(entries(), out)
    assert "Second, Player" in out.getvalue()
