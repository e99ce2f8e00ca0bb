"""List CSV and games CSV readers: what they accept and how they refuse (file, line, field)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ratingdb.errors import InputError
from ratingdb.formats.games_csv import read_games_csv
from ratingdb.formats.list_csv import read_list_csv
from tests.support.files import GAMES_HEADER, LIST_HEADER, write


def test_list_csv_defaults_rated_games_30_and_peak_the_rating(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "list.csv",
        LIST_HEADER
        + '1503014,"Carlsen, Magnus",NOR,M,1990,GM,2840,,,10\n'
        + "100,Newcomer,FRA,F,,,,,,\n",
    )
    carlsen, newcomer = read_list_csv(path)
    assert (carlsen.name, carlsen.rating, carlsen.rated_games, carlsen.peak_rating) == (
        "Carlsen, Magnus",
        2840,
        30,
        2840,
    )
    assert carlsen.birth_year == 1990
    assert (newcomer.rating, newcomer.peak_rating, newcomer.birth_year) == (None, None, None)


@pytest.mark.parametrize(
    ("body", "line", "field"),
    [
        ("1,A,FRA,M,1990,,abc,,,\n", 2, "rating"),
        ("1,A,FRA,M,1990,,-5,,,\n", 2, "rating"),
        ("1,A,FRA,X,1990,,1500,,,\n", 2, "sex"),
        ("1,A,FRA,M,1990,,1500,,,\n12x,B,FRA,M,1990,,1500,,,\n", 3, "player_id"),
        ("1,A,FRA,M,1990,,1500,,,\n1,B,FRA,M,1990,,1500,,,\n", 3, "player_id"),
        ("1,,FRA,M,1990,,1500,,,\n", 2, "name"),
        ("1,A,FRA,M,1990,,1500,,1400,\n", 2, "peak_rating"),
        ("1,A,FRANCE,M,1990,,1500,,,\n", 2, "federation"),
    ],
)
def test_list_csv_refusals_name_line_and_field(
    tmp_path: Path, body: str, line: int, field: str
) -> None:
    path = write(tmp_path, "list.csv", LIST_HEADER + body)
    with pytest.raises(InputError) as caught:
        read_list_csv(path)
    assert (caught.value.line, caught.value.field) == (line, field)
    assert str(caught.value).startswith(f"{path}:{line}: {field}: ")


def test_list_csv_missing_column_is_named(tmp_path: Path) -> None:
    path = write(
        tmp_path, "list.csv", "player_id,name,federation,sex,title,rating\n1,A,FRA,M,,1500\n"
    )
    with pytest.raises(InputError) as caught:
        read_list_csv(path)
    assert (caught.value.line, caught.value.field) == (1, "birth_year")


def test_list_csv_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    path = write(
        tmp_path, "list.csv", LIST_HEADER.encode() + "1,Müller,GER,M,,,1500,,,\n".encode("latin-1")
    )
    with pytest.raises(InputError) as caught:
        read_list_csv(path)
    assert caught.value.line == 2
    assert "UTF-8" in caught.value.message


def test_games_csv_reads_a_tournament(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "games.csv",
        GAMES_HEADER
        + "Open,2026-11-07,2026-11-09,1,1,2,1-0\n"
        + "Open,2026-11-07,2026-11-09,1,3,4,+-\n"
        + "Open,2026-11-07,2026-11-09,2,2,3,1/2-1/2\n",
    )
    tournament = read_games_csv(path)
    assert (tournament.name, tournament.start_date, tournament.end_date) == (
        "Open",
        date(2026, 11, 7),
        date(2026, 11, 9),
    )
    assert [(g.round, g.white_id, g.black_id, g.result, g.played) for g in tournament.games] == [
        (1, "1", "2", "1-0", True),
        (1, "3", "4", "+-", False),
        (2, "2", "3", "1/2-1/2", True),
    ]


@pytest.mark.parametrize(
    ("body", "line", "field"),
    [
        ("Open,2026-11-07,2026-11-09,1,1,2,1:0\n", 2, "result"),
        (
            "Open,2026-11-07,2026-11-09,1,1,2,1-0\nOpen,2026-11-07,2026-11-09,1,2,1,0-1\n",
            3,
            "result",
        ),
        (
            "Open,2026-11-07,2026-11-09,1,1,2,1-0\nOpen,2026-11-07,2026-11-09,1,1,3,0-1\n",
            3,
            "white_id",
        ),
        ("Open,2026-11-09,2026-11-07,1,1,2,1-0\n", 2, "end_date"),
        ("Open,2026-31-07,2026-11-09,1,1,2,1-0\n", 2, "start_date"),
        ("Open,2026-11-07,2026-11-09,one,1,2,1-0\n", 2, "round"),
        ("Open,2026-11-07,2026-11-09,1,1,1,1-0\n", 2, "black_id"),
        (
            "Open,2026-11-07,2026-11-09,1,1,2,1-0\nOther,2026-11-07,2026-11-09,2,1,2,1-0\n",
            3,
            "tournament",
        ),
        ("Open,2026-11-07,2026-11-09,1,A1,2,1-0\n", 2, "white_id"),
    ],
)
def test_games_csv_refusals_name_line_and_field(
    tmp_path: Path, body: str, line: int, field: str
) -> None:
    path = write(tmp_path, "games.csv", GAMES_HEADER + body)
    with pytest.raises(InputError) as caught:
        read_games_csv(path)
    assert (caught.value.line, caught.value.field) == (line, field)


def test_games_csv_with_a_short_row_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, "games.csv", GAMES_HEADER + "Open,2026-11-07,2026-11-09,1,1,2\n")
    with pytest.raises(InputError) as caught:
        read_games_csv(path)
    assert caught.value.line == 2


def test_games_csv_without_games_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "games.csv", GAMES_HEADER)
    with pytest.raises(InputError, match="no games"):
        read_games_csv(path)
