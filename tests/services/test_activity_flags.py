"""FIDE's activity flag through ratingdb (issue 27 item 3), on SQLite and PostgreSQL: read from
an imported FIDE list (``i``, ``wi`` inactive; ``w`` an active woman; empty an active man),
written back by every export exactly as FIDE writes it, and carried by the list CSV, the list
JSON and the API. In FIDE's combined XML the flag is the standard list's: a rapid or blitz list
read from it keeps its players active."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from ratingdb.formats.fide_list import FideXmlPlayer, write_fide_xml
from tests.services.test_fide_list_io import export, load
from tests.support.cli import run_cli as cli
from tests.support.files import LIST_HEADER, write
from tests.support.rolled_back import RolledBack

#: FIDE's TXT layout (B §12.1): ID Number at 0, Name 15, Fed 76, Sex 80, Tit 84, WTit 89, OTit 94,
#: FOA 109, SRtng 113, SGm 119, SK 123, B-day 126, Flag 132.
HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK B-day Flag"
)


def line(fide_id: str, name: str, sex: str, rating: int, flag: str) -> str:
    cells = [(fide_id, 15), (name, 61), ("ENG", 4), (sex, 4), ("", 5), ("", 5), ("", 15),
             ("", 4), (str(rating), 6), ("0", 4), ("20", 3), ("1990", 6)]  # fmt: skip
    return "".join(text.ljust(width) for text, width in cells) + flag


#: Four players, one of each flag: Abe active, Bea an active woman, Cal inactive, Dot an
#: inactive woman.
PLAYERS = [
    ("1001", "Abe, A", "M", 2300, ""),
    ("1002", "Bea, B", "F", 2200, "w"),
    ("1003", "Cal, C", "M", 2100, "i"),
    ("1004", "Dot, D", "F", 2000, "wi"),
]
ACTIVE = {"1001": True, "1002": True, "1003": False, "1004": False}


def test_the_flag_round_trip_through_every_format(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    text = "\n".join([HEADER, *(line(*p) for p in PLAYERS)]) + "\n"
    load(capsys, url, write(tmp_path, "std.txt", text), "fide-txt", "fide-standard", "2026-11")
    # Stored: imported inactive players have no known last rated list; active ones count as
    # rated on the list itself.
    stored = database.rows(
        "SELECT player_id, active, last_rated FROM list_entries ORDER BY player_id"
    )
    assert [(p, bool(a), None if d is None else str(d)) for p, a, d in stored] == [
        ("1001", True, "2026-11-01"), ("1002", True, "2026-11-01"),
        ("1003", False, None), ("1004", False, None),
    ]  # fmt: skip
    # FIDE TXT: the Flag column at 132, as FIDE writes it.
    written = export(capsys, url, "fide-standard", "2026-11", "fide-txt").splitlines()
    assert written[0].endswith("Flag")
    assert written[0].index("Flag") == 132
    assert {row[:15].strip(): row[132:] for row in written[1:]} == {
        "1001": "", "1002": "w", "1003": "i", "1004": "wi",
    }  # fmt: skip
    # FIDE XML (single category): <flag>.
    xml = export(capsys, url, "fide-standard", "2026-11", "fide-xml")
    assert "<fideid>1003</fideid>" in xml
    assert [xml.count(f"<flag>{f}</flag>") for f in ("i", "w", "wi")] == [1, 1, 1]
    assert xml.count("<flag/>") == 1
    # List CSV: the active column (1, 0), last.
    rows = list(csv.DictReader(io.StringIO(export(capsys, url, "fide-standard", "2026-11", "csv"))))
    assert {r["player_id"]: r["active"] for r in rows} == {
        "1001": "1", "1002": "1", "1003": "0", "1004": "0",
    }  # fmt: skip
    # List JSON: "active".
    document = json.loads(export(capsys, url, "fide-standard", "2026-11", "json"))
    assert {e["player_id"]: e["active"] for e in document["entries"]} == ACTIVE
    # The CSV read back as a national list: the same flags.
    again = write(tmp_path, "again.csv", export(capsys, url, "fide-standard", "2026-11", "csv"))
    load(capsys, url, again, "csv", "ffe-rapid", "2026-11")
    document = json.loads(export(capsys, url, "ffe-rapid", "2026-11", "json"))
    assert {e["player_id"]: e["active"] for e in document["entries"]} == ACTIVE


def test_the_combined_xmls_flag_is_the_standard_lists(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database.url
    out = io.StringIO()
    write_fide_xml(
        [
            FideXmlPlayer("1003", "Cal, C", "ENG", "M", standard=(2100, 0, 20),
                          rapid=(2000, 0, 20), blitz=(1900, 0, 20), flag="i"),
            FideXmlPlayer("1004", "Dot, D", "ENG", "F", standard=(2000, 0, 20),
                          rapid=(1950, 0, 20), blitz=(1850, 0, 20), flag="wi"),
        ],
        out,
    )  # fmt: skip
    path = write(tmp_path, "combined.xml", out.getvalue())
    for category in ("fide-standard", "fide-rapid"):
        load(capsys, url, path, "fide-xml", category, "2026-11")
    standard = json.loads(export(capsys, url, "fide-standard", "2026-11", "json"))
    rapid = json.loads(export(capsys, url, "fide-rapid", "2026-11", "json"))
    assert [e["active"] for e in standard["entries"]] == [False, False]
    assert [e["active"] for e in rapid["entries"]] == [True, True]
    # Dot is still a woman on the rapid list (the "w" of "wi" stands).
    assert database.rows("SELECT sex FROM players WHERE player_id = '1004'") == [("F",)]


def test_a_bad_active_cell_is_refused_naming_the_line_and_field(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = LIST_HEADER.strip() + ",active\n"
    path = write(tmp_path, "bad.csv", header + '1001,"Abe, A",ENG,M,1990,,2300,40,2300,20,yes\n')
    code, _, err = cli(capsys, "lists", "import", str(path), "--format", "csv", "--category",
                       "ffe-rapid", "--period", "2026-11", url=database.url)  # fmt: skip
    assert code != 0
    assert "bad.csv:2" in err
    assert "active" in err
    assert "'yes'" in err
    assert database.rows("SELECT count(*) FROM rating_lists") == [(0,)]
