"""``ratingdb tournaments show ID``: the document as the contract prints it, byte for byte, on
SQLite and PostgreSQL (written before the CLI and the API came to share one read model of a
tournament, so that the change shows in no byte).

The file: a TRF16 'Open de Genève' (Genève, SUI, 90/40+30), 2026-11-02..08, rated on two lists
(fide-standard T000001, fide-rapid T000002, linked to each other). Its November end goes to the
December list (closing at month end). Round 1: Müller (white) beat Bauer, a played game, rated.
Round 2: Keller (white) lost to Müller by forfeit ("-+"): stored, never rated. Byes are no game.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run_cli as run
from tests.support.files import trf_player as player
from tests.support.rolled_back import RolledBack

TRF = (
    "012 Open de Genève\n022 Genève\n032 SUI\n042 2026/11/02\n052 2026/11/08\n122 90/40+30\n"
    + "\n".join(
        [
            player(1, "Müller, Jürgen", ["   2 w 1", "   3 b +"], fide_id="1000001"),
            player(2, "Bauer, Anna", ["   1 b 0", "0000 - -"], fide_id="1000002"),
            player(3, "Keller, Tom", ["0000 - -", "   1 w -"], fide_id="1000003"),
        ]
    )
    + "\n"
)

EXPECTED = """{
 "tournament_id": "T000001",
 "name": "Open de Genève",
 "category": "fide-standard",
 "start_date": "2026-11-02",
 "end_date": "2026-11-08",
 "period": "2026-12",
 "late": false,
 "city": "Genève",
 "federation": "SUI",
 "time_control": "90/40+30",
 "time_control_code": null,
 "source_format": "trf",
 "linked": [
  {
   "tournament_id": "T000002",
   "category": "fide-rapid",
   "period": "2026-12"
  }
 ],
 "games": [
  {
   "round": 1,
   "white_id": "1000001",
   "black_id": "1000002",
   "result": "1-0",
   "rated": true
  },
  {
   "round": 2,
   "white_id": "1000003",
   "black_id": "1000001",
   "result": "-+",
   "rated": false
  }
 ]
}
"""


def test_show_prints_the_contract_document_byte_for_byte(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "geneve.trf"
    path.write_text(TRF, encoding="utf-8")
    code, _, err = run(capsys, "tournaments", "import", str(path), "--category", "fide-standard",
                       "--category", "fide-rapid", url=database.url)  # fmt: skip
    assert code == 0, err
    code, out, err = run(capsys, "tournaments", "show", "T000001", url=database.url)
    assert (code, err) == (0, "")
    assert out == EXPECTED


def test_show_of_an_unknown_tournament_exits_2_naming_it(
    database: RolledBack, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "tournaments", "show", "T999999", url=database.url)
    assert (code, out) == (2, "")
    assert err == "ratingdb tournaments: ID: no tournament T999999\n"
