"""A corpus of malformed TRF and CSV files (tests/corpus/malformed): each one is refused by the
command line with exit code 2, a message naming the file, the line (and the column and field
where they apply), and the database is left exactly as it was.

Every file is imported in-process through ``ratingdb.cli.main`` into a migrated database (SQLite
and PostgreSQL) that already holds the fide-standard baseline list of 2026-08 (players 1001 to
1005). Games CSVs and TRFs go through ``tournaments import --category fide-standard``; list CSVs
through ``lists import --category fide-rapid --period 2026-08``.

The expected line, column and field of each file below were worked out by reading the file
(``cat -A`` and a column ruler), not by running the code. The TRF files are all made from
``malformed/controls/valid.trf`` (4 players, 3 rounds, all-play-all), whose records are:
lines 1-10 the headers (``042`` on line 4, ``052`` on line 5), line 11 player #1, line 12
player #2, line 13 player #3, line 14 player #4; in a ``001`` line the rating is in columns
49-52, the FIDE id in 58-68, the birth date in 70-79, and round r starts at column
92 + 10 (r - 1) (opponent in its first 4 columns, colour at +5, result at +7).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

from ratingdb.cli import main
from tests.databases import PostgreSQLDatabases, copy_sqlite
from tests.support.cli import run_cli
from tests.support.factories import BASELINE

CORPUS = Path(__file__).resolve().parent / "malformed"
CONTROLS = CORPUS / "controls"

TOURNAMENT_IMPORT = ("tournaments", "import", "{file}", "--category", "fide-standard")
LIST_IMPORT = ("lists", "import", "{file}", "--category", "fide-rapid", "--period", "2026-08")


@dataclass(frozen=True)
class Case:
    """A malformed file and where its refusal must point. ``column`` None: the message may or
    may not give one; ``field`` None: no field applies (the whole line or the whole file)."""

    file: str
    line: int
    column: int | None
    field: str | None
    why: str


TRF_CASES = [
    Case("trf_truncated_rating.trf", 13, 51, "rating",
         "#3's line stops after column 50, inside the rating (49-52): '17'"),
    Case("trf_truncated_fide_id.trf", 12, 66, "FIDE id",
         "#2's line stops after column 65, inside the FIDE id (58-68)"),
    Case("trf_cr_only_truncated.trf", 13, 66, "FIDE id",
         "CR-only line ends; #3's line stops after column 65, inside the FIDE id"),
    Case("trf_unknown_opponent.trf", 11, 102, "round 2 opponent",
         "#1 meets #9 in round 2; the file has players 1 to 4"),
    Case("trf_results_disagree.trf", 14, 99, "round 1 result",
         "round 1: #3 has '=' against #4, #4 has '1' against #3 (the two lines disagree)"),
    Case("trf_opponents_disagree.trf", 11, 112, "round 3 opponent",
         "round 3: #1 plays #4, but #4's line says #2"),
    Case("trf_both_white.trf", 12, 97, "round 1 colour",
         "round 1: #1 and #2 both have colour w"),
    Case("trf_bye_code_against_opponent.trf", 12, 99, "round 1 result",
         "round 1: #1 has a bye code H against #2, who has 0"),
    Case("trf_plays_himself.trf", 11, 92, "round 1 opponent", "#1 meets #1 in round 1"),
    Case("trf_negative_opponent.trf", 11, 92, "round 1 opponent",
         "#1's round 1 opponent is '-2'"),
    Case("trf_unknown_result_code.trf", 11, 109, "round 2 result",
         "#1's round 2 result code is 'X'"),
    Case("trf_bad_colour.trf", 12, 117, "round 3 colour", "#2's round 3 colour is 'x'"),
    Case("trf_misaligned_round.trf", 14, 96, "round 1",
         "#4's rounds are one column to the right: '3' at column 96, between the fields"),
    Case("trf_bad_start_date.trf", 4, 5, "042 start date", "042 says 'next Tuesday'"),
    Case("trf_bom_bad_start_date.trf", 4, 5, "042 start date",
         "a UTF-8 BOM, then 042 says '31/31/2026'"),
    Case("trf_end_before_start.trf", 5, 5, "052 end date",
         "052 2026/09/10 is before 042 2026/09/12"),
    Case("trf_bad_birth_date.trf", 12, 70, "birth date", "#2 was born on 1990/13/45"),
    Case("trf_rating_letters.trf", 13, 49, "rating", "#3's rating is '17A0'"),
    Case("trf_rating_absurd.trf", 12, 49, "rating", "#2's rating is 9999"),
    Case("trf_nul_in_rating.trf", 12, 49, "rating", "#2's rating is four NUL bytes"),
    Case("trf_superscript_digit_in_rating.trf", 12, 49, "rating",
         "#2's rating is '18\u00b20' (a superscript two: str.isdigit() is true, int() fails)"),
    Case("trf_rank_zero.trf", 13, 5, "starting rank", "#3's starting rank is 0"),
    Case("trf_negative_rank.trf", 12, 5, "starting rank", "#2's starting rank is '-2'"),
    Case("trf_duplicate_rank.trf", 13, 5, "starting rank",
         "the third player line has starting rank 2 again"),
    Case("trf_duplicate_fide_id.trf", 14, 58, "FIDE id", "#4 has #1's FIDE id 1001001"),
    Case("trf_empty.trf", 1, None, None, "an empty file (0 bytes): no player records"),
    Case("trf_nul_in_name.trf", 12, 22, "name", "#2 is 'Roe, Ri<NUL>hard': NUL at column 22"),
    Case("trf_bidi_override_in_tournament_name.trf", 1, 12, "012 tournament name",
         "012 'Corpus <RIGHT-TO-LEFT OVERRIDE>Open': U+202E at column 12"),
    Case("trf_line_separator_in_city.trf", 2, 8, "022 city", "022 'Par<U+2028>is'"),
    Case("trf_start_date_9999.trf", 4, 5, "042 start date", "042 9999/09/10, 052 9999/09/12"),
    Case("trf_round_date_1899.trf", 11, 92, "132 round dates",
         "a 132 record (line 11) whose round 1 date, at column 92, is 1899/09/10"),
    Case("trf_born_1899.trf", 13, 70, "birth date", "#3 was born on 1899/03/03"),
    Case("trf_utf16.trf", 1, None, None, "valid.trf saved as UTF-16 with its BOM"),
    Case("trf_utf16_no_bom.trf", 1, None, None, "valid.trf saved as UTF-16 LE without a BOM"),
    Case("trf_tournament_name_201_chars.trf", 1, None, "012 tournament name",
         "012 is 201 letters C"),
]  # fmt: skip

GAMES_CASES = [
    Case("games_empty.csv", 1, None, None, "an empty file (0 bytes)"),
    Case("games_only_header.csv", 2, None, None, "only the header: no games"),
    Case("games_missing_header.csv", 1, None, "tournament", "the first line is a game"),
    Case("games_duplicate_header_column.csv", 1, None, "round", "the header has round twice"),
    Case(
        "games_wrong_columns.csv", 1, None, "start_date", "the header says start, end, white, black"
    ),
    Case(
        "games_bom_bad_header.csv",
        1,
        None,
        None,
        "a UTF-8 BOM, then a header separated by semicolons: the whole file, not one column",
    ),
    Case("games_utf16.csv", 1, None, None, "UTF-16 with its BOM: byte 0xff first"),
    Case("games_extra_cell.csv", 3, None, None, "line 3 has 8 cells, the header 7"),
    Case("games_cr_only_broken_record.csv", 4, None, None, "CR-only line ends; line 4 has 6 cells"),
    Case(
        "games_unterminated_quote.csv", 3, None, None, "line 3 opens a quote that is never closed"
    ),
    Case("games_latin1.csv", 3, None, None, "Latin-1 0xe9 ('M\u00e9doc') on line 3"),
    Case(
        "games_cr_only_latin1.csv",
        3,
        None,
        None,
        "CR-only line ends, Latin-1 0xe9 on line 3 (the third line as the CSV reader splits)",
    ),
    Case("games_nul_byte.csv", 3, None, "black_id", "black_id '10<NUL>04' on line 3"),
    Case("games_unparseable_date.csv", 2, None, "start_date", "start_date '10/09/2026'"),
    Case("games_impossible_date.csv", 4, None, "end_date", "end_date 2026-13-01 on line 4"),
    Case("games_end_before_start.csv", 2, None, "end_date", "ends on 09-10, starts on 09-12"),
    Case("games_round_zero.csv", 3, None, "round", "round 0 on line 3"),
    Case("games_round_letters.csv", 2, None, "round", "round 'R1'"),
    Case("games_round_absurd.csv", 2, None, "round", "round 1000 (at most 999)"),
    Case(
        "games_round_5000_digits.csv",
        2,
        None,
        "round",
        "round of 5000 nines (int() refuses more than 4300 digits)",
    ),
    Case("games_negative_id.csv", 2, None, "white_id", "white_id -1001"),
    Case("games_self_pairing.csv", 2, None, "black_id", "1001 plays 1001"),
    Case(
        "games_player_twice_in_round.csv",
        3,
        None,
        "black_id",
        "1001 (black on line 3) already plays round 1 on line 2",
    ),
    Case("games_name_differs.csv", 3, None, "tournament", "'Other' on line 3, 'Corpus' on 2"),
    Case("games_bad_result.csv", 3, None, "result", "result '1:0'"),
    Case("games_unknown_player.csv", 4, None, "black_id", "9999 is nobody"),
    Case("games_start_date_9999.csv", 2, None, "start_date", "start 9999-09-10, end 9999-09-12"),
    Case("games_end_date_2201.csv", 2, None, "end_date", "end_date 2201-01-01"),
    Case("games_tab_in_tournament.csv", 2, None, "tournament", "'Cor<TAB>pus' on every line"),
    Case("games_semicolons.csv", 1, None, None, "valid_games.csv separated by semicolons"),
    Case("games_utf16_no_bom.csv", 1, None, None, "UTF-16 LE without a BOM"),
    Case("games_utf32.csv", 1, None, None, "UTF-32 with its BOM"),
]

LIST_CASES = [
    Case("list_empty.csv", 1, None, None, "an empty file (0 bytes)"),
    Case("list_missing_column.csv", 1, None, "peak_rating", "the header lacks peak_rating"),
    Case("list_wrong_column_count.csv", 3, None, None, "line 3 has 9 cells, the header 10"),
    Case("list_latin1.csv", 4, None, None, "Latin-1 0xfc ('M\u00fcller') on line 4"),
    Case("list_rating_letters.csv", 3, None, "rating", "rating '2l00'"),
    Case("list_rating_99999.csv", 4, None, "rating", "rating 99999"),
    Case("list_negative_id.csv", 2, None, "player_id", "player_id -2001"),
    Case("list_duplicate_player.csv", 4, None, "player_id", "2001 again on line 4"),
    Case("list_birth_year_absurd.csv", 2, None, "birth_year", "born in 3024"),
    Case("list_bad_sex.csv", 3, None, "sex", "sex X"),
    Case("list_negative_rated_games.csv", 3, None, "rated_games", "rated_games -5"),
    Case("list_peak_below_rating.csv", 2, None, "peak_rating", "peak 1800 below rating 1850"),
    Case("list_federation_bad.csv", 2, None, "federation", "federation FRANCE"),
    Case(
        "list_newline_in_name.csv",
        3,
        None,
        "name",
        "the quoted name 'Birch,<LF>Ben' runs from line 3 onto line 4",
    ),
    Case("list_nul_in_name.csv", 2, None, "name", "'Ash,<NUL>Ann' on line 2"),
    Case("list_escape_in_title.csv", 4, None, "title", "title 'GM<ESC>[2J' on line 4"),
    Case("list_born_1899.csv", 3, None, "birth_year", "born in 1899"),
    Case("list_semicolons.csv", 1, None, None, "valid_list.csv separated by semicolons"),
    Case("list_utf16.csv", 1, None, None, "UTF-16 with its BOM"),
    Case("list_name_201_chars.csv", 2, None, "name", "a name of 201 letters A"),
]

ALL_CASES: list[tuple[Case, tuple[str, ...]]] = [
    (case, TOURNAMENT_IMPORT) for case in TRF_CASES + GAMES_CASES
]
ALL_CASES += [(case, LIST_IMPORT) for case in LIST_CASES]


# --- the database ------------------------------------------------------------------------------


def quiet_main(args: list[str]) -> tuple[int, str, str]:
    """``ratingdb.cli.main`` with its output captured (for module-scoped fixtures)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def load_baseline(url: str, folder: Path) -> None:
    baseline = folder / "baseline.csv"
    baseline.write_text(BASELINE, encoding="utf-8")
    code, _, err = quiet_main(["lists", "import", str(baseline), "--category", "fide-standard",
                               "--period", "2026-08", "--database-url", url])  # fmt: skip
    assert code == 0, err


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def baseline_url(request: pytest.FixtureRequest, tmp_path_factory: Any) -> Iterator[str]:
    """One migrated database per backend for the whole module, holding the baseline list: every
    refusal must leave it unchanged, so the files can share it."""
    folder: Path = tmp_path_factory.mktemp(f"corpus-{request.param}")
    if request.param == "sqlite":
        url = copy_sqlite(request.getfixturevalue("sqlite_template"), folder)
        load_baseline(url, folder)
        yield url
        return
    databases: PostgreSQLDatabases = request.getfixturevalue("postgresql_databases")
    url = databases.create("corpus", migrated=True)
    try:
        load_baseline(url, folder)
        yield url
    finally:
        databases.drop(url)


def snapshot(url: str) -> dict[str, Any]:
    """The row count of every table, and every period's state: "unchanged" means equal."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            tables = sorted(inspect(connection).get_table_names())
            state: dict[str, Any] = {
                table: connection.execute(text(f'SELECT count(*) FROM "{table}"')).scalar_one()
                for table in tables
            }
            state["period states"] = [
                tuple(row)
                for row in connection.execute(
                    text("SELECT category, list_date, state FROM periods ORDER BY 1, 2")
                )
            ]
    finally:
        engine.dispose()
    return state


# --- running the command -----------------------------------------------------------------------


def refusal_pattern(path: Path, case: Case) -> str:
    """``PATH:LINE[:COLUMN]: [FIELD: ]message`` as InputError prints it."""
    pattern = re.escape(str(path)) + f":{case.line}"
    pattern += f":{case.column}" if case.column is not None else r"(?::\d+)?"
    pattern += ": "
    if case.field is not None:
        pattern += re.escape(case.field) + ": "
    return pattern + r"\S"


def assert_refused(
    capsys: pytest.CaptureFixture[str],
    url: str,
    path: Path,
    case: Case,
    command: tuple[str, ...],
) -> None:
    args = [part.format(file=path) for part in command] + ["--database-url", url]
    before = snapshot(url)
    code, out, err = run_cli(capsys, *args)
    assert code == 2, f"{case.file} ({case.why}): exit code {code}\nstdout: {out}\nstderr: {err}"
    assert out == "", out
    expected = refusal_pattern(path, case)
    assert re.search(expected, err), (
        f"{case.file} ({case.why}): expected {path.name}:{case.line}"
        f"{'' if case.column is None else f':{case.column}'}"
        f"{'' if case.field is None else f': {case.field}'} in stderr, got {err!r}"
    )
    assert "Traceback" not in err
    assert snapshot(url) == before, f"{case.file}: the database changed"


# --- the tests ---------------------------------------------------------------------------------


def test_the_corpus_has_at_least_30_files_and_each_is_in_a_table() -> None:
    files = {p.name for p in CORPUS.iterdir() if p.is_file() and not p.name.startswith(".")}
    listed = [case.file for case, _ in ALL_CASES]
    assert len(listed) == len(set(listed)), "a file is listed twice"
    assert files == set(listed), (files - set(listed), set(listed) - files)
    assert len(files) >= 30
    assert sum(1 for name in files if name.endswith(".trf")) >= 10
    assert sum(1 for name in files if name.endswith(".csv")) >= 10


@pytest.mark.parametrize(("case", "command"), ALL_CASES, ids=[case.file for case, _ in ALL_CASES])
def test_a_malformed_file_is_refused_and_changes_nothing(
    baseline_url: str,
    capsys: pytest.CaptureFixture[str],
    case: Case,
    command: tuple[str, ...],
) -> None:
    assert_refused(capsys, baseline_url, CORPUS / case.file, case, command)


def test_a_games_csv_with_a_1_mb_line_is_refused(
    baseline_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Line 3's tournament name is a million characters (more than the CSV reader's field
    limit): refused on line 3."""
    path = tmp_path / "games_1mb_line.csv"
    header = "tournament,start_date,end_date,round,white_id,black_id,result\n"
    good = "Corpus,2026-09-10,2026-09-12,1,1001,1002,1-0\n"
    huge = "C" * 1_000_000 + ",2026-09-10,2026-09-12,1,1003,1004,0-1\n"
    path.write_text(header + good + huge, encoding="utf-8")
    case = Case(path.name, 3, None, None, "a 1 MB tournament name on line 3")
    assert_refused(capsys, baseline_url, path, case, TOURNAMENT_IMPORT)


def test_a_trf_with_a_1_mb_line_is_refused(
    baseline_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """#1's line (line 11 of valid.trf) is cut at its rounds and continued with x up to
    1,000,091 characters: more than a line may hold (64 KiB), refused as such on line 11."""
    lines = (CONTROLS / "valid.trf").read_text(encoding="utf-8").splitlines()
    lines[10] = lines[10][:91] + "x" * 1_000_000
    assert len(lines[10]) == 1_000_091
    path = tmp_path / "trf_1mb_line.trf"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    case = Case(path.name, 11, None, None, "a 1 MB player line")
    assert_refused(capsys, baseline_url, path, case, TOURNAMENT_IMPORT)


@pytest.mark.parametrize("line_ends", ["\n", "\r\n", "\r"])
def test_a_trf_with_a_10_mb_tournament_name_is_refused(
    baseline_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], line_ends: str
) -> None:
    """012 (line 1) names the tournament with ten million letters: today it is stored. The line
    is over 64 KiB, refused on line 1 whatever the line ends."""
    lines = (CONTROLS / "valid.trf").read_text(encoding="utf-8").splitlines()
    lines[0] = "012 " + "T" * 10_000_000
    path = tmp_path / "trf_10mb_name.trf"
    path.write_bytes((line_ends.join(lines) + line_ends).encode())
    case = Case(path.name, 1, None, None, "a 10 MB tournament name")
    assert_refused(capsys, baseline_url, path, case, TOURNAMENT_IMPORT)


@pytest.mark.parametrize(
    ("control", "command", "period"),
    [
        ("valid.trf", TOURNAMENT_IMPORT, '"period": "2026-10"'),
        ("rich.trf", TOURNAMENT_IMPORT, '"period": "2026-10"'),
        ("valid_games.csv", TOURNAMENT_IMPORT, '"period": "2026-10"'),
        ("valid_list.csv", LIST_IMPORT, '"period": "2026-08"'),
    ],
)
def test_the_files_the_corpus_is_made_from_are_accepted(
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    control: str,
    command: tuple[str, ...],
    period: str,
) -> None:
    """The control: the valid files every malformed one differs from import (exit 0)."""
    load_baseline(database_url, tmp_path)
    args = [part.format(file=CONTROLS / control) for part in command]
    code, out, err = run_cli(capsys, *args, url=database_url)
    assert code == 0, err
    assert period in out
