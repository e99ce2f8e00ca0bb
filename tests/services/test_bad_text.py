"""FIDE lists with text that must not get in, imported through the command line on SQLite and
PostgreSQL: exit code 2, a message naming file, line and field, and nothing stored. (TRF and CSV
files: tests/corpus/test_malformed_files.py.) A NUL is stored by SQLite and breaks PostgreSQL
today."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.services.test_import_refusals import row_counts
from tests.support.cli import run_cli
from tests.support.rolled_back import RolledBack

HEADER = f"{'ID Number':<15}{'Name':<61}{'Fed':<4}{'SRtng':<6}B-day\n"


def txt_row(fide_id: str, name: str) -> str:
    return f"{fide_id:<15}{name:<61}{'FRA':<4}{'1850':<6}1990\n"


def refused(capsys: pytest.CaptureFixture[str], database: RolledBack, path: Path, fmt: str) -> str:
    before = row_counts(database)
    code, _, err = run_cli(capsys, "lists", "import", str(path), "--format", fmt, "--category",
                           "fide-standard", "--period", "2026-08", url=database.url)  # fmt: skip
    assert code == 2, err
    assert "Traceback" not in err
    assert row_counts(database) == before
    return err


def test_a_nul_in_a_fide_txt_name_is_refused(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "list.txt"
    path.write_text(HEADER + txt_row("1001", "Ash, Ann") + txt_row("1002", "Bir\x00ch, Ben"))
    err = refused(capsys, database, path, "fide-txt")
    assert f"{path}:3:19: Name: holds the control character U+0000 (NUL)" in err


@pytest.mark.parametrize(
    ("player", "expected"),
    [
        ("<name>Ash,&#x202E;Ann</name>", ":3: name: player #1: holds the control character U+202E"),
        ("<name>Ash,&#10;Ann</name>", ":3: name: player #1: holds the control character U+000A"),
        ("<name>" + "A" * 201 + "</name>", ":3: name: player #1: is 201 characters long"),
    ],
)
def test_bad_text_in_a_fide_xml_is_refused(
    database: RolledBack,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    player: str,
    expected: str,
) -> None:
    path = tmp_path / "list.xml"
    path.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<playerslist>\n'
        f"<player><fideid>1001</fideid>{player}<rating>1850</rating></player>\n"
        "</playerslist>\n"
    )
    err = refused(capsys, database, path, "fide-xml")
    assert f"{path}{expected}" in err


def test_a_fide_xml_with_a_doctype_is_refused(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "list.xml"
    path.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE playerslist [<!ENTITY n "Ash, Ann">]>\n<playerslist>'
        "<player><fideid>1001</fideid><name>&n;</name><rating>1850</rating></player>"
        "</playerslist>\n"
    )
    err = refused(capsys, database, path, "fide-xml")
    assert f"{path}:2: a DOCTYPE is not allowed" in err
