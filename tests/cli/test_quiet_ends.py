"""Two ends a command line user meets (issue 29, item 5): ``ratingdb serve`` or ``ratingdb
backoffice`` on a SQLite file that does not exist says so and creates nothing (the README's
promise: only ``db upgrade`` creates a database), and a listing piped into ``head`` ends
quietly when ``head`` has read enough, with no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ratingdb.cli import main
from tests.support import forks
from tests.support.factories import list_csv

pytestmark = pytest.mark.processes


@pytest.mark.parametrize("command", ["serve", "backoffice"])
def test_a_server_on_a_missing_sqlite_file_says_so_and_creates_nothing(
    tmp_path: Path, command: str
) -> None:
    missing = tmp_path / "nothing-here.sqlite3"
    done = forks.run([command, "--database-url", f"sqlite:///{missing}", "--port", "0"],
                     timeout=120)  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert f"there is no database at {missing}" in done.stderr
    assert "ratingdb db upgrade" in done.stderr
    assert not missing.exists()


def test_a_listing_piped_into_head_ends_quietly(tmp_path: Path) -> None:
    """20,000 entries (about 1 MB of CSV, past any pipe's buffer): ``head -1`` reads the header
    and leaves; the export stops without a word on stderr."""
    url = f"sqlite:///{tmp_path / 'ratingdb.sqlite3'}"
    assert main(["db", "upgrade", "--database-url", url]) == 0
    rows = [f'{100000 + i},"Player, Number {i}",FRA,M,1990,,{1400 + i % 1000},0,,20'
            for i in range(20_000)]  # fmt: skip
    listed = tmp_path / "list.csv"
    listed.write_text(list_csv(*rows), encoding="utf-8")
    assert main(["lists", "import", str(listed), "--category", "fide-standard", "--period",
                 "2026-11", "--database-url", url, "--actor", "test"]) == 0  # fmt: skip
    errors = tmp_path / "stderr.txt"
    command = (
        f"'{sys.executable}' -m ratingdb lists export --category fide-standard --period 2026-11 "
        f"--format csv --database-url '{url}' 2>'{errors}' | head -1"
    )
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.stdout.startswith("player_id,")
    assert done.stdout.count("\n") == 1
    assert errors.read_text() == ""
    assert done.returncode == 1  # the export could not deliver all of it (pipefail)
