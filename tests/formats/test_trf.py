"""The TRF reader on the real files of ../shared/data/trf (counts worked by hand in EXPECTED.md)
and on small made-up files: what it accepts, and how it refuses (file, line, column, field)."""

from __future__ import annotations

import codecs
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from ratingdb.errors import InputError
from ratingdb.formats.trf import (
    DAY_FIRST,
    YEAR_FIRST,
    PlayerOut,
    RoundOut,
    TrfFile,
    format_trf,
    parse_birth,
    parse_date,
    parse_trf,
    read_trf,
    two_digit_orders,
)
from tests.support.files import TRF_HEADER as HEADER
from tests.support.files import trf_player as player

ROOT = Path(__file__).resolve().parents[2]
TRF_FOLDER = ROOT.parent / "shared" / "data" / "trf"


@pytest.fixture(scope="module")
def folder() -> Path:
    if not TRF_FOLDER.is_dir():
        pytest.skip(f"the real TRF files are not here: {TRF_FOLDER} (../shared/data/trf)")
    return TRF_FOLDER


def read(folder: Path, name: str) -> TrfFile:
    return read_trf(folder / name)


def games_by_round(trf: TrfFile) -> dict[int, int]:
    return dict(sorted(Counter(g.round for g in trf.games if g.played).items()))


# --- EXPECTED.md: the two files worked by hand -------------------------------------------------


def test_karl_mala_frankfurt_2005(folder: Path) -> None:
    trf = read(folder, "karl_mala_2005_frankfurt.trf")
    assert (trf.version, trf.encoding, trf.line_endings) == ("TRF16", "UTF-8", "LF")
    assert trf.name == "9. Karl-Mala-Gedenkturnier"
    assert (trf.start_date, trf.end_date) == (date(2005, 7, 28), date(2005, 7, 31))
    assert trf.time_control == "40/120, 60"
    assert trf.federation is None  # 032 is empty
    assert len(trf.players) == 284
    assert trf.rounds == 7
    # The pseudo-player #284 "spielfrei" stands for the bye: 283 real players.
    assert [(p.rank, p.name) for p in trf.players if p.pseudo] == [(284, "spielfrei")]
    assert len(trf.real_players) == 283
    assert sum(1 for p in trf.players if p.fide_id) == 146
    assert sum(1 for p in trf.players if p.fide_id and p.rating) == 146
    # 970 played games = 393 white wins + 329 black wins + 248 draws; 10 forfeits.
    assert trf.played == 970
    assert Counter(g.result for g in trf.games if g.played) == {
        "1-0": 393, "0-1": 329, "1/2-1/2": 248,
    }  # fmt: skip
    assert games_by_round(trf) == {1: 139, 2: 140, 3: 141, 4: 138, 5: 138, 6: 137, 7: 137}
    assert trf.forfeits == 10
    # EXPECTED.md: round, winner beat loser (all written with colour "-").
    forfeits = {
        (g.round, g.white_rank, g.black_rank) if g.result == "+-" else
        (g.round, g.black_rank, g.white_rank)
        for g in trf.games if not g.played
    }  # fmt: skip
    assert forfeits == {
        (1, 153, 13), (1, 63, 204), (2, 233, 155), (4, 278, 121), (4, 201, 126),
        (4, 234, 179), (5, 251, 214), (6, 151, 59), (6, 245, 267), (7, 195, 59),
    }  # fmt: skip
    # One bye (#282, round 5, "0000 - +"); the pseudo-player's own entry is not counted.
    assert [(b.rank, b.round, b.code) for b in trf.byes] == [(282, 5, "+")]
    assert trf.absent == 26
    assert trf.notes == ()


def test_karl_mala_spot_checks(folder: Path) -> None:
    trf = read(folder, "karl_mala_2005_frankfurt.trf")
    by_rank = {p.rank: p for p in trf.players}
    games = {(g.round, g.white_rank, g.black_rank): g.result for g in trf.games}
    assert games[(1, 1, 141)] == "1-0"
    assert games[(4, 21, 1)] == "0-1"
    assert games[(6, 25, 1)] == "1/2-1/2"
    # The forfeit #63 (3400042's neighbour in the list) against #204, colours "-": not played.
    assert games[(1, 63, 204)] == "+-"
    vasquez = by_rank[1]
    assert (vasquez.name, vasquez.fide_id, vasquez.rating) == ("Vasquez,Rodrigo", "3400042", 2558)
    assert (vasquez.title, vasquez.federation) == ("GM", "CHI")
    assert vasquez.birth_date == date(1969, 12, 6)
    assert (by_rank[141].fide_id, by_rank[141].rating) == ("24611786", 1895)
    # Old title letters and "f" for women in the sex column.
    assert Counter(p.title for p in trf.players if p.title) == {
        "GM": Counter(p.title for p in trf.players)["GM"],
        "IM": Counter(p.title for p in trf.players)["IM"],
        "FM": Counter(p.title for p in trf.players)["FM"],
        "WFM": Counter(p.title for p in trf.players)["WFM"],
    }
    assert {"GM", "IM", "FM", "WFM"} <= {p.title for p in trf.players}
    assert sum(1 for p in trf.players if p.sex == "F") == 8
    assert sorted(p.federation for p in trf.players if p.federation) == [
        "CHI", "GER", "GER", "ISL", "POL", "SWE", "UKR", "UKR",
    ]  # fmt: skip


def test_open_gros_donostia_2010(folder: Path) -> None:
    trf = read(folder, "open_gros_2010_donostia_crlf.trf")
    assert (trf.version, trf.line_endings) == ("TRF16", "CRLF")
    assert (trf.start_date, trf.end_date) == (date(2010, 9, 24), date(2010, 10, 2))
    assert len(trf.players) == 52
    assert sum(1 for p in trf.players if p.fide_id) == 51
    assert sum(1 for p in trf.players if p.rating) == 41
    assert trf.played == 89
    assert Counter(g.result for g in trf.games if g.played) == {
        "1-0": 40, "0-1": 38, "1/2-1/2": 11,
    }  # fmt: skip
    assert games_by_round(trf) == {1: 22, 2: 24, 3: 21, 4: 22}
    forfeits = {(g.round, g.white_rank, g.black_rank, g.result) for g in trf.games if not g.played}
    # Colours kept: #13 (w) beat #39; #16 (b) beat #42 (w); #20 (b) beat #46 (w); #21 (b) #8.
    assert forfeits == {(1, 13, 39, "+-"), (1, 42, 16, "-+"), (1, 46, 20, "-+"), (4, 8, 21, "-+")}
    assert trf.byes_by_code() == {"H": 16, "U": 3, "Z": 6}
    early = Counter(b.code for b in trf.byes if b.round <= 4)
    assert early == {"H": 15, "U": 3, "Z": 4}
    assert sorted((b.round, b.rank, b.code) for b in trf.byes if b.round == 5) == [
        (5, 22, "Z"), (5, 28, "Z"), (5, 43, "H"),
    ]  # fmt: skip
    # Per round: 2 x (played + forfeits) + byes = 52.
    for r in (1, 2, 3, 4):
        pairs = sum(1 for g in trf.games if g.round == r)
        assert 2 * pairs + sum(1 for b in trf.byes if b.round == r) == 52
    gorrochategui = next(p for p in trf.players if p.rank == 6)
    assert (gorrochategui.fide_id, gorrochategui.rating) == (None, None)  # ID 0, rating 0
    games = {(g.round, g.white_rank, g.black_rank): g.result for g in trf.games}
    assert games[(1, 1, 26)] == "1-0"
    assert games[(4, 4, 1)] == "0-1"
    assert games[(4, 6, 3)] == "1/2-1/2"
    assert next(p for p in trf.players if p.rank == 1).birth_year == 1978
    assert next(p for p in trf.players if p.rank == 34).birth_year is None


# --- EXPECTED.md appendix: the other eight files -----------------------------------------------

APPENDIX = {
    # file: (players, played, forfeits, entries without an opponent by code)
    "bbp_autotest_issue7_cr_only.trf": (60, 395, 25, {}),
    "icu_u19_all_ireland_2010_round_robin.trf": (4, 6, 0, {}),
    "icu_ulster_masters_seniors_2022.trf": (16, 36, 0, {"H": 5, "Z": 1, "F": 1, "=": 1}),
    "icu_cork_major_2018.trf": (23, 64, 0, {"=": 6, "-": 2, "+": 2}),
    "icu_irish_intermediate_2011_latin1.trf": (21, 44, 0, {"blank": 17}),
    "sharly_trf26_individual_fra_nrs.trf": (16, 34, 2, {"H": 2, "U": 3, "Z": 3}),
    "tec_grandmommys_cup_trf26_team.trf": (249, 1030, 0, {"-": 1328, "+": 98}),
    "lichess_swiss_2020_05.trf": (13, 56, 0, {"-": 12, "U": 4, "H": 2}),
}


@pytest.mark.parametrize("name", sorted(APPENDIX))
def test_appendix_counts(folder: Path, name: str) -> None:
    players, played, forfeits, byes = APPENDIX[name]
    trf = read(folder, name)
    assert len(trf.players) == players
    assert trf.played == played
    assert trf.forfeits == forfeits
    assert len(trf.games) == played + forfeits
    assert trf.byes_by_code() == dict(sorted(byes.items()))
    assert trf.unfinished == ()


def test_every_file_in_the_folder_is_read(folder: Path) -> None:
    names = sorted(p.name for p in folder.glob("*.trf"))
    assert set(names) == set(APPENDIX) | {
        "karl_mala_2005_frankfurt.trf", "open_gros_2010_donostia_crlf.trf",
    }  # fmt: skip


def test_line_endings_and_encodings(folder: Path) -> None:
    bbp = read(folder, "bbp_autotest_issue7_cr_only.trf")
    assert bbp.line_endings == "CR"
    assert (bbp.start_date, bbp.end_date, bbp.round_dates) == (None, None, ())
    assert bbp.skipped_records == {"XXR": 1}
    latin = read(folder, "icu_irish_intermediate_2011_latin1.trf")
    assert latin.encoding == "Latin-1"
    assert any(p.name.startswith("Ó") or "Mícheál" in p.name for p in latin.players)
    # #15 declares 2.0 points, her results give 1.5: reported, not refused.
    assert any("#15 declares 2.0 points" in note.english() for note in latin.notes)
    # The ü of Hülleman is one character: every later field of the line is where it should be.
    u19 = read(folder, "icu_u19_all_ireland_2010_round_robin.trf")
    hulleman = next(p for p in u19.players if p.rank == 3)
    assert (hulleman.name, hulleman.rating, hulleman.fide_id) == ("Hülleman,Leon", 1466, "6409")
    assert u19.start_date == date(2010, 4, 11)


def test_national_rating_support_records(folder: Path) -> None:
    sharly = read(folder, "sharly_trf26_individual_fra_nrs.trf")
    assert sharly.version == "TRF26"
    carlsen = next(p for p in sharly.players if p.rank == 1)
    assert carlsen.fide_id == "1503014"
    assert carlsen.national is not None
    national = carlsen.national
    assert (national.federation, national.national_id, national.rating) == ("FRA", "D50113", 2200)
    assert sum(1 for p in sharly.players if p.national) == 1
    tec = read(folder, "tec_grandmommys_cup_trf26_team.trf")
    assert sum(1 for p in tec.players if p.national) == 15
    assert tec.time_control_code == "40/6000+30:20/3000+30:1500+30"
    assert tec.skipped_records["013"] == 50


def test_lichess_dates_and_pseudo_federation(folder: Path) -> None:
    lichess = read(folder, "lichess_swiss_2020_05.trf")
    assert lichess.start_date == date(2020, 5, 29)
    assert lichess.federation is None  # "Lichess" is not a federation code
    assert all(p.fide_id is None and p.rating is None for p in lichess.players)


# --- made-up files: acceptance -----------------------------------------------------------------


def parse(text: str) -> TrfFile:
    return parse_trf(text.encode("utf-8"), source="test.trf")


def refusal(text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse(text)
    return caught.value


GOOD = HEADER + "\n".join(
    [
        player(1, "Alpha, A", ["   2 w 1", "   3 b ="], fide_id="1001"),
        player(2, "Beta, B", ["   1 b 0", "0000 - H"], fide_id="1002"),
        player(3, "Gamma, C", ["0000 - U", "   1 w ="]),
    ]
)


def test_a_small_file() -> None:
    trf = parse(GOOD + "\n")
    assert [(g.round, g.white_rank, g.black_rank, g.result) for g in trf.games] == [
        (1, 1, 2, "1-0"), (2, 3, 1, "1/2-1/2"),
    ]  # fmt: skip
    assert [(b.round, b.rank, b.code) for b in trf.byes] == [(2, 2, "H"), (1, 3, "U")]
    assert trf.version == "TRF16"


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_line_endings_read_alike(ending: str) -> None:
    trf = parse_trf(GOOD.replace("\n", ending).encode(), source="t.trf")
    assert trf.line_endings == {"\n": "LF", "\r\n": "CRLF", "\r": "CR"}[ending]
    assert (trf.played, len(trf.byes)) == (2, 2)


def test_bom_comments_and_unknown_records() -> None:
    text = (
        "\ufeff### a comment\n" + GOOD.replace("012", "XXR 2\nBBW 1\n012")
        + "\nFRA    3    A                                   1500 IDF      D12345\n"
    )  # fmt: skip
    trf = parse(text)
    assert trf.skipped_records == {"###": 1, "BBW": 1, "XXR": 1}
    assert trf.version == "TRF26"
    gamma = next(p for p in trf.players if p.rank == 3)
    assert gamma.national is not None
    assert (gamma.national.national_id, gamma.national.rating) == ("D12345", 1500)


def test_latin1_is_read_when_the_file_is_not_utf8() -> None:
    trf = parse_trf(GOOD.replace("Alpha, A", "Míchél A").encode("latin-1"), source="t.trf")
    assert trf.encoding == "Latin-1"
    assert trf.players[0].name == "Míchél A"
    assert trf.players[0].rating == 1800


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_a_byte_order_mark_is_dropped(encoding: str) -> None:
    """A UTF-8 byte order mark in front of the first record, the rest UTF-8 or Latin-1 (an
    editor that added the mark without converting the file): the mark is dropped, the rest
    read as it would be without it."""
    raw = codecs.BOM_UTF8 + GOOD.replace("Alpha, A", "Míchél A").encode(encoding)
    trf = parse_trf(raw, source="t.trf")
    assert trf.name == "Test Open"  # the 012 record of the first line, not "ï»¿012 ..."
    assert trf.skipped_records == {}
    assert trf.players[0].name == "Míchél A"
    if encoding == "utf-8":
        assert trf.encoding == "UTF-8"
        assert not any("UTF-8" in note.english() for note in trf.notes)
    else:
        assert trf.encoding == "Latin-1"
        assert trf.notes[0].english() == (
            "read as Latin-1 (not valid UTF-8, despite its UTF-8 byte order mark, dropped)"
        )


def test_short_games_forfeits_and_unfinished_pairings() -> None:
    text = HEADER + "\n".join(
        [
            player(1, "A", ["   2 w W", "   3 b -", "   2 b  "]),
            player(2, "B", ["   1 b L", "0000 - Z", "   1 w  "]),
            player(3, "C", ["0000 - F", "   1 w +", "0000 - Z"]),
        ]
    )
    trf = parse(text)
    assert [(g.round, g.white_rank, g.black_rank, g.result) for g in trf.games] == [
        (1, 1, 2, "W-L"), (2, 3, 1, "+-"),
    ]  # fmt: skip
    assert [(g.round, g.white_rank, g.black_rank) for g in trf.unfinished] == [(3, 2, 1)]
    assert trf.played == 0


def test_the_bye_pseudo_player_is_not_a_player() -> None:
    text = HEADER + "\n".join(
        [
            player(1, "A", ["   2 w 1", "   3 - +"]),
            player(2, "B", ["   1 b 0", "0000 - U"]),
            player(3, "Spielfrei", [" " * 8, "   1 - -"], rating=""),
        ]
    )
    trf = parse(text)
    assert [p.rank for p in trf.players if p.pseudo] == [3]
    assert len(trf.games) == 1
    assert [(b.rank, b.round, b.code) for b in trf.byes] == [(1, 2, "+"), (2, 2, "U")]


def test_written_files_read_back() -> None:
    players = [
        PlayerOut(1, "Zoë, Ada", "F", "WGM", 2301, "RUR", "79000001", date(2001, 2, 3),
                  rounds=(RoundOut(2, "w", "1"), RoundOut(None, "-", "H")),
                  national=("RUR", "R10001", 2250)),
        PlayerOut(2, "Bo, Ivo", "M", None, None, "RUR", None, None, 1999,
                  rounds=(RoundOut(1, "b", "0"), RoundOut(None, "-", "U"))),
    ]  # fmt: skip
    text = format_trf(
        name="Written", city="Zenda", federation="RUR", start_date=date(2026, 11, 1),
        end_date=date(2026, 11, 2), time_control="15+10", players=players, trf26=True,
        time_control_code="900+10",
    )  # fmt: skip
    trf = parse(text)
    assert (trf.version, trf.city, trf.federation, trf.time_control_code) == (
        "TRF26", "Zenda", "RUR", "900+10",
    )  # fmt: skip
    ada, ivo = trf.players
    assert (ada.name, ada.sex, ada.title, ada.rating, ada.fide_id, ada.birth_date) == (
        "Zoë, Ada", "F", "WGM", 2301, "79000001", date(2001, 2, 3),
    )  # fmt: skip
    assert ada.national is not None
    assert ada.national.national_id == "R10001"
    assert (ivo.rating, ivo.fide_id, ivo.birth_year, ivo.birth_date) == (None, None, 1999, None)
    assert ada.points == 1.5
    assert [(g.white_rank, g.black_rank, g.result) for g in trf.games] == [(1, 2, "1-0")]
    assert trf.notes == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2018/10/05", date(2018, 10, 5)),
        ("2010-04-11", date(2010, 4, 11)),
        ("28. 07. 2005", date(2005, 7, 28)),
        ("24/09/2010", date(2010, 9, 24)),
        ("10/25/2020", date(2020, 10, 25)),
        ("May 29, 2020", date(2020, 5, 29)),
        ("29 mai 2020", date(2020, 5, 29)),
        ("2026/13/01", None),
        ("next Tuesday", None),
        ("10.09.13", None),
    ],
)
def test_tournament_dates(text: str, expected: date | None) -> None:
    assert parse_date(text) == expected


TODAY = date(2026, 12, 4)


@pytest.mark.parametrize(
    ("texts", "known", "today", "expected"),
    [
        # Alone, both orders give a date from 1990 to a year after today: ambiguous.
        (["26.11.02"], [], TODAY, {YEAR_FIRST: date(2026, 11, 2), DAY_FIRST: date(2002, 11, 26)}),
        (["12.11.10"], [], TODAY, {YEAR_FIRST: date(2012, 11, 10), DAY_FIRST: date(2010, 11, 12)}),
        # The file's other dates (a four-digit date, 132 round dates) decide.
        (["26.11.02"], [date(2026, 11, 8)], TODAY, {YEAR_FIRST: date(2026, 11, 2)}),
        (["02.11.26"], [date(2026, 11, 8)], TODAY, {DAY_FIRST: date(2026, 11, 2)}),
        (["12.11.10"], [date(2010, 11, 14)], TODAY, {DAY_FIRST: date(2010, 11, 12)}),
        # A number over 31 is no day; 90 to 99 are 1990 to 1999.
        (["95.03.12"], [], TODAY, {YEAR_FIRST: date(1995, 3, 12)}),
        (["12.03.95"], [], TODAY, {DAY_FIRST: date(1995, 3, 12)}),
        # More than a year after today is not plausible, until it is.
        (["30.06.15"], [], TODAY, {DAY_FIRST: date(2015, 6, 30)}),
        (["30.06.15"], [], date(2029, 7, 1),
         {YEAR_FIRST: date(2030, 6, 15), DAY_FIRST: date(2015, 6, 30)}),
        # Nothing plausible: 85 is 2085, not 1985; 31 November is no date.
        (["05.06.85"], [], TODAY, {}),
        (["31.11.31"], [], TODAY, {}),
        # Start and end read the same way: the end after the start, at most a year later.
        (["26.11.02", "26.11.08"], [], TODAY, {YEAR_FIRST: date(2026, 11, 2)}),
        (["02.11.26", "08.11.26"], [], TODAY, {DAY_FIRST: date(2026, 11, 2)}),
        (["10.11.12", "09.11.12"], [], TODAY, {}),
    ],
)  # fmt: skip
def test_two_digit_years_are_read_when_one_order_alone_is_plausible(
    texts: list[str], known: list[date], today: date, expected: dict[str, date]
) -> None:
    orders = two_digit_orders(texts, known=known, today=today)
    plausible = {order: dates[0] for order, dates in orders.items() if isinstance(dates, tuple)}
    assert plausible == expected


def test_why_an_order_is_not_plausible() -> None:
    orders = two_digit_orders(["05.06.85"], known=[], today=TODAY)
    assert orders == {
        YEAR_FIRST: "read YY.MM.DD, '05.06.85' is no date",
        DAY_FIRST: "read DD.MM.YY, '05.06.85' is 2085-06-05, more than a year after today",
    }
    orders = two_digit_orders(["26.11.02"], known=[date(2026, 11, 8)], today=TODAY)
    assert orders[DAY_FIRST] == (
        "read DD.MM.YY, '26.11.02' is 2002-11-26, more than a year from the file's other "
        "dates (2026-11-08 to 2026-11-08)"
    )


def header(start: str, end: str, rounds: str = "") -> str:
    return f"012 Test Open\n042 {start}\n052 {end}\n" + (f"132 {rounds}\n" if rounds else "")


@pytest.mark.parametrize(
    ("start", "end", "rounds", "dates"),
    [
        ("26.11.02", "26.11.08", "", (date(2026, 11, 2), date(2026, 11, 8))),
        ("02.11.26", "08.11.26", "", (date(2026, 11, 2), date(2026, 11, 8))),
        ("26/11/02", "", "26/11/02  26/11/03", (date(2026, 11, 2), None)),
        ("2026/11/02", "08-11-26", "", (date(2026, 11, 2), date(2026, 11, 8))),
        ("95.03.12", "95.03.19", "", (date(1995, 3, 12), date(1995, 3, 19))),
    ],
)
def test_a_file_with_two_digit_years(
    start: str, end: str, rounds: str, dates: tuple[date, date | None]
) -> None:
    trf = parse(header(start, end, rounds) + player(1, "A", []))
    assert (trf.start_date, trf.end_date) == dates
    order = YEAR_FIRST if start.startswith(("26", "95")) else DAY_FIRST
    first = [start] if start != "2026/11/02" else []
    assert trf.notes[0].english() == (
        f"line 2: 042 {start!r} read as {dates[0].isoformat()} ({order}, the only plausible "
        "reading of its two-digit year)"
        if first
        else f"line 3: 052 {end!r} read as 2026-11-08 (DD.MM.YY, the only plausible reading "
        "of its two-digit year)"
    )


def test_refuses_an_ambiguous_two_digit_year() -> None:
    error = refusal(header("12.11.10", "") + player(1, "A", []))
    assert (error.line, error.column, error.field) == (2, 5, "042 start date")
    assert error.message == (
        "'12.11.10' has a two-digit year and reads two ways, 2012-11-10 (YY.MM.DD) or "
        "2010-11-12 (DD.MM.YY): ambiguous; write the year in four digits"
    )
    # The end date read the same way does not tell them apart either.
    error = refusal(header("12.11.10", "12.11.11") + player(1, "A", []))
    assert (error.line, error.field) == (2, "042 start date")
    assert "reads two ways" in error.message


def test_refuses_a_two_digit_year_with_no_plausible_reading() -> None:
    error = refusal(header("2026/11/02", "05.06.85") + player(1, "A", []))
    assert (error.line, error.column, error.field) == (3, 5, "052 end date")
    assert error.message == (
        "'05.06.85' has a two-digit year and no plausible reading (read YY.MM.DD, '05.06.85' "
        "is no date; read DD.MM.YY, '05.06.85' is 2085-06-05, more than a year after today); "
        "write the year in four digits"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1969.12.06", (1969, date(1969, 12, 6))),
        ("1978", (1978, None)),
        ("1980/  /", (1980, None)),
        ("1987/00/00", (1987, None)),
        ("1993-12-20", (1993, date(1993, 12, 20))),
        ("06.12.1969", (1969, date(1969, 12, 6))),
        ("1969/02/30", None),
        ("abc", None),
    ],
)
def test_birth_dates(text: str, expected: tuple[int, date | None] | None) -> None:
    assert parse_birth(text) == expected


# --- made-up files: refusals (line, column, field) ---------------------------------------------


def lines_of(*rows: str) -> str:
    return HEADER + "\n".join(rows) + "\n"


def test_refuses_results_that_do_not_mirror() -> None:
    error = refusal(lines_of(player(1, "A", ["   2 w 1"]), player(2, "B", ["   1 b 1"])))
    assert (error.line, error.column, error.field) == (5, 99, "round 1 result")
    assert "do not mirror" in error.message


def test_refuses_an_opponent_that_does_not_exist() -> None:
    error = refusal(lines_of(player(1, "A", ["   7 w 1"]), player(2, "B", ["0000 - U"])))
    assert (error.line, error.column, error.field) == (4, 92, "round 1 opponent")
    assert "no player has starting rank 7" in error.message


def test_refuses_a_game_on_one_line_only() -> None:
    error = refusal(lines_of(player(1, "A", ["   2 w 1"]), player(2, "B", ["0000 - U"])))
    assert (error.line, error.column) == (4, 92)
    assert "line 5 (#2) has a bye in round 1" in error.message


def test_refuses_two_whites() -> None:
    error = refusal(lines_of(player(1, "A", ["   2 w 1"]), player(2, "B", ["   1 w 0"])))
    assert (error.line, error.column, error.field) == (5, 97, "round 1 colour")


def test_refuses_a_bye_code_against_an_opponent() -> None:
    error = refusal(lines_of(player(1, "A", ["   2 w H"]), player(2, "B", ["   1 b H"])))
    assert "a bye code against an opponent" in error.message


def test_refuses_letters_in_a_rating() -> None:
    error = refusal(lines_of(player(1, "A", [], rating="18x0")))
    assert (error.source, error.line, error.column, error.field) == ("test.trf", 4, 49, "rating")


def test_refuses_a_truncated_line() -> None:
    error = refusal(lines_of(player(1, "A", ["   2 w 1"]), player(2, "B", ["   1 b 0"])[:50]))
    assert (error.line, error.field) == (5, "rating")
    assert "truncated" in error.message


def test_refuses_a_truncated_round() -> None:
    error = refusal(lines_of(player(1, "A", ["  12 w 1"])[:94], player(12, "B", ["   1 b 0"])))
    assert (error.line, error.column, error.field) == (4, 95, "round 1 opponent")


def test_refuses_a_date_that_does_not_parse() -> None:
    error = refusal(HEADER.replace("2026/11/08", "8th of Nov") + player(1, "A", []))
    assert (error.line, error.column, error.field) == (3, 5, "052 end date")


def test_refuses_an_end_before_the_start() -> None:
    error = refusal(HEADER.replace("2026/11/08", "2026/10/08") + player(1, "A", []))
    assert (error.line, error.field) == (3, "052 end date")


def test_refuses_a_file_without_players() -> None:
    error = refusal(HEADER)
    assert "no player records" in error.message
    assert error.source == "test.trf"


@pytest.mark.parametrize(
    ("rows", "line", "column", "field"),
    [
        ((player(1, "A", ["   2 w X"]),), 4, 99, "round 1 result"),
        ((player(1, "A", ["   2 q 1"]),), 4, 97, "round 1 colour"),
        ((player(1, "A", ["  2x w 1"]),), 4, 92, "round 1 opponent"),
        ((player(1, "A", ["   2 w1  "]),), 4, 98, "round 1"),
        ((player(1, "A", []), player(1, "B", [])), 5, 5, "starting rank"),
        ((player(1, "A", [], fide_id="7"), player(2, "B", [], fide_id="7")), 5, 58, "FIDE id"),
        ((player(1, "A", [], birth="1990/1x/01"),), 4, 70, "birth date"),
        ((player(1, "A", ["   1 w 1"]),), 4, 92, "round 1 opponent"),
    ],
)
def test_refusals_name_line_column_and_field(
    rows: tuple[str, ...], line: int, column: int, field: str
) -> None:
    error = refusal(lines_of(*rows))
    assert (error.line, error.column, error.field) == (line, column, field)
    assert str(error).startswith(f"test.trf:{line}:{column}: {field}: ")
