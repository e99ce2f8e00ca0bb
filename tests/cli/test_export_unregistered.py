"""``ratingdb players export-unregistered`` (issue 27 item 4): the players FIDE's lists leave
out for want of a FIDE id, with what FIDE's registration asks, as CSV."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.services.test_trf_import import nrs
from tests.support.cli import run_cli as cli
from tests.support.factories import ANNA, BOB, list_csv
from tests.support.files import TRF_HEADER as HEADER
from tests.support.files import trf_player as player
from tests.support.files import write
from tests.support.rolled_back import RolledBack

HEAD = (
    "player_id,name,sex,birth_date,birth_year,federation,national_federation,national_id,"
    "tournaments,last_played"
)


def load(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nat (national id only) plays a FIDE standard event and a national one; Zed (no id at
    all) the national one only; Anna and Bob have FIDE ids."""
    baseline = write(tmp_path, "baseline.csv", list_csv(ANNA, BOB))
    for category in ("fide-standard", "ffe-rapid"):
        assert cli(capsys, "lists", "import", str(baseline), "--category", category,
                   "--period", "2026-11", url=url)[0] == 0  # fmt: skip
    fide = HEADER + "\n".join([
        player(1, "Alpha, A", ["   2 w 1", "   3 w ="], fide_id="1001"),
        player(2, "Bob, B", ["   1 b 0", "0000 - U"], fide_id="1002"),
        player(3, "Nat, N", ["0000 - U", "   1 b ="], rating="", birth="1990/05/17"),
        nrs(3, "R555", "1600"),
    ]) + "\n"  # fmt: skip
    national = HEADER.replace("Test Open", "Club Rapid").replace("2026/11/08", "2026/11/09") + (
        "\n".join([
            player(1, "Nat, N", ["   2 w 1"], rating="", birth="1990/05/17"),
            nrs(1, "R555", "1600"),
            player(2, "Zed, Z", ["   1 b 0"], rating="", birth="2001/01/01"),
        ]) + "\n"
    )  # fmt: skip
    for name, content, category in (("fide.trf", fide, "fide-standard"),
                                    ("club.trf", national, "ffe-rapid")):  # fmt: skip
        code, _, err = cli(capsys, "tournaments", "import", str(write(tmp_path, name, content)),
                           "--category", category, url=url)  # fmt: skip
        assert code == 0, err


def test_the_players_who_need_a_fide_id_as_fides_registration_asks(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    load(database.url, tmp_path, capsys)
    code, out, err = cli(capsys, "players", "export-unregistered", url=database.url)
    assert code == 0, err
    # Nat only: Zed played no FIDE-rated event; Anna and Bob have FIDE ids. TRF sex "m" is M,
    # federation FRA (trf_player's), one FIDE tournament ending 2026-11-08.
    assert out.splitlines() == [
        HEAD,
        '900000000001,"Nat, N",M,1990-05-17,1990,FRA,RUR,R555,1,2026-11-08',
    ]
    output = tmp_path / "unregistered.csv"
    code, out, _ = cli(capsys, "players", "export-unregistered", "--category", "fide-standard",
                       "--output", str(output), url=database.url)  # fmt: skip
    assert (code, out) == (0, "")
    assert output.read_text(encoding="utf-8").splitlines()[1].startswith("900000000001,")
    code, out, _ = cli(capsys, "players", "export-unregistered", "--category", "fide-rapid",
                       url=database.url)  # fmt: skip
    assert (code, out.splitlines()) == (0, [HEAD])


def test_a_national_category_is_refused(
    database: RolledBack, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "players", "export-unregistered", "--category", "ffe-rapid",
                         url=database.url)  # fmt: skip
    assert (code, out) == (2, "")
    assert "ffe-rapid rates players by their national id" in err
