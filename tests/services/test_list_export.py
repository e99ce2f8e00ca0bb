"""``lists export`` into a fresh database, on SQLite and PostgreSQL: a list exported as FIDE XML,
FIDE TXT or list CSV and imported into another database is the same list; what a format cannot
hold is refused (exit 2, naming the player and the field) and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ratingdb.rules import Category, Period
from ratingdb.services.published.lists import published_list, streamed_list
from tests.services.test_fide_list_io import export, load
from tests.support.cli import run_cli as cli
from tests.support.files import LIST_HEADER, write
from tests.support.rolled_back import RolledBack
from tests.support.sql import query

# Names that break naive writers: accents, apostrophes, commas, quotes, XML's own characters,
# a spreadsheet formula, and a name longer than nothing but FIDE TXT's 60 characters.
BASELINE = (
    LIST_HEADER
    + '1001,"Dvořák, Zoë",CZE,F,1990,WIM,1850,60,1850,\n'
    + '1002,"O\'Brien, Seán",IRL,M,1985,,1920,12,1920,\n'
    + '1003,"Smith, ""Bob"" & <Co>",USA,M,2012,,1650,10,1650,\n'
    + '1004,"=HYPERLINK(""http://evil.example"",""Click"")",FRA,M,1995,IM,2450,300,2450,\n'
    + "1005,'t Hooft,NED,,,,2200,90,2310,\n"
)
PLAYER_COLUMNS = "player_id, name, federation, sex, birth_year, title"


def the_list(capsys: pytest.CaptureFixture[str], url: str) -> tuple[Any, ...]:
    """The list as the List JSON has it, and its players as stored."""
    document = json.loads(export(capsys, url, "fide-standard", "2026-09", "json"))
    players = query(url, f"SELECT {PLAYER_COLUMNS} FROM players ORDER BY player_id")
    return document["entries"], players


@pytest.mark.parametrize(("fmt", "suffix"), [("fide-xml", "xml"), ("fide-txt", "txt"),
                                             ("csv", "csv")])  # fmt: skip
def test_an_exported_list_imports_as_the_same_list(
    database_url: str, another_database_url: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str], fmt: str, suffix: str,
) -> None:  # fmt: skip
    load(capsys, database_url, write(tmp_path, "baseline.csv", BASELINE), "csv",
         "fide-standard", "2026-09")  # fmt: skip
    exported = write(tmp_path, f"exported.{suffix}",
                     export(capsys, database_url, "fide-standard", "2026-09", fmt))  # fmt: skip
    result = load(capsys, another_database_url, exported, fmt, "fide-standard", "2026-09")
    assert (result["entries"], result["players_created"]) == (5, 5)
    entries, players = the_list(capsys, another_database_url)
    assert (entries, players) == the_list(capsys, database_url)
    assert players == [
        ("1001", "Dvořák, Zoë", "CZE", "F", 1990, "WIM"),
        ("1002", "O'Brien, Seán", "IRL", "M", 1985, None),
        ("1003", 'Smith, "Bob" & <Co>', "USA", "M", 2012, None),
        ("1004", '=HYPERLINK("http://evil.example","Click")', "FRA", "M", 1995, "IM"),
        ("1005", "'t Hooft", "NED", None, None, None),
    ]
    assert [(e["player_id"], e["rating"], e["k_factor"]) for e in entries] == [
        ("1004", 2450, 10), ("1005", 2200, 20), ("1002", 1920, 40), ("1001", 1850, 20),
        ("1003", 1650, 40),
    ]  # fmt: skip


def test_the_xml_export_is_fides_single_list_layout(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    load(capsys, database.url, write(tmp_path, "baseline.csv", BASELINE), "csv",
         "fide-standard", "2026-09")  # fmt: skip
    text = export(capsys, database.url, "fide-standard", "2026-09", "fide-xml")
    lines = text.splitlines()
    assert lines[:2] == ['<?xml version="1.0" encoding="utf-8"?>', "<playerslist>"]
    assert lines[-1] == "</playerslist>"
    assert lines[2] == (
        '<player><fideid>1004</fideid><name>=HYPERLINK("http://evil.example","Click")'
        "</name><country>FRA</country><sex>M</sex><title>IM</title><w_title/><o_title/>"
        "<foa_title/><rating>2450</rating><games>0</games><k>10</k><birthday>1995</birthday>"
        "<flag/></player>"
    )
    assert '<name>Smith, "Bob" &amp; &lt;Co&gt;</name>' in text


def test_a_value_the_format_cannot_hold_is_refused(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A national id with a leading zero would come back as another player; a title FIDE does
    not have would be dropped: refused, naming the player and the field, no file written."""
    load(capsys, database.url, write(tmp_path, "baseline.csv", LIST_HEADER
         + "0042,\"Zero, Lead\",FRA,M,1990,,1850,60,1850,\n"
         + "1043,\"National, Nat\",FRA,M,1990,NM,1850,60,1850,\n"), "csv",
         "fide-standard", "2026-09")  # fmt: skip
    (tmp_path / "exports").mkdir()
    output = tmp_path / "exports" / "out.xml"
    output.write_text("an earlier export\n", encoding="utf-8")
    for fmt, words in [
        ("fide-xml", "fideid: player 0042 ('Zero, Lead'): '0042' is not a FIDE id"),
        ("fide-txt", "ID Number: player 0042 ('Zero, Lead'): '0042' is not a FIDE id"),
    ]:
        for where in (["--output", str(output)], []):
            code, out, err = cli(capsys, "lists", "export", "--category", "fide-standard",
                                 "--period", "2026-09", "--format", fmt, *where,
                                 url=database.url)  # fmt: skip
            assert (code, out) == (2, "")
            assert words in err
            # The file is left as it was, and nothing half written is left beside it.
            assert output.read_text(encoding="utf-8") == "an earlier export\n"
            assert [p.name for p in output.parent.iterdir()] == ["out.xml"]
    # The list CSV holds both as they are.
    text = export(capsys, database.url, "fide-standard", "2026-09", "csv")
    assert '0042,"Zero, Lead"' in text
    assert ",NM," in text


def test_fide_xml_is_refused_for_a_national_category(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The importer reads FIDE XML for FIDE's categories only."""
    load(capsys, database.url, write(tmp_path, "national.csv", LIST_HEADER
         + "1001,\"Dvořák, Zoë\",CZE,F,1990,WIM,1850,60,1850,\n"), "csv",
         "ffe-rapid", "2026-09")  # fmt: skip
    code, out, err = cli(capsys, "lists", "export", "--category", "ffe-rapid", "--period",
                         "2026-09", "--format", "fide-xml", url=database.url)  # fmt: skip
    assert (code, out) == (2, "")
    assert "--format: a FIDE XML list holds FIDE ratings only, not ffe-rapid" in err


def test_export_to_a_file(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--output: the same bytes as standard output, the file replaced whole."""
    load(capsys, database.url, write(tmp_path, "baseline.csv", BASELINE), "csv",
         "fide-standard", "2026-09")  # fmt: skip
    (tmp_path / "exports").mkdir()
    output = tmp_path / "exports" / "out.xml"
    output.write_text("an earlier export, longer than the new one" * 1000, encoding="utf-8")
    for fmt in ("fide-xml", "fide-txt", "csv", "json"):
        code, out, err = cli(capsys, "lists", "export", "--category", "fide-standard",
                             "--period", "2026-09", "--format", fmt, "--output", str(output),
                             url=database.url)  # fmt: skip
        assert (code, out, err) == (0, "", "")
        assert output.read_text(encoding="utf-8") == export(
            capsys, database.url, "fide-standard", "2026-09", fmt
        )
    assert [p.name for p in output.parent.iterdir()] == ["out.xml"]


def test_the_list_in_memory_and_streamed_are_the_same(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    load(capsys, database.url, write(tmp_path, "baseline.csv", BASELINE), "csv",
         "fide-standard", "2026-09")  # fmt: skip
    with database.sessions() as session:
        whole = published_list(session, Category.FIDE_STANDARD, Period(2026, 9))
        with streamed_list(session, Category.FIDE_STANDARD, Period(2026, 9)) as streamed:
            assert tuple(streamed.entries) == whole.entries
    assert isinstance(whole.entries, tuple)
    assert [e.player_id for e in whole.entries] == ["1004", "1005", "1002", "1001", "1003"]
