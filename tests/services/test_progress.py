"""Progress bars show on a terminal only: scripts and CI logs stay clean."""

from __future__ import annotations

import pytest

from ratingdb.services.progress import no_progress, terminal_progress


def test_no_terminal_no_bar(capsys: pytest.CaptureFixture[str]) -> None:
    assert list(terminal_progress(range(5), "players", 5)) == [0, 1, 2, 3, 4]
    assert capsys.readouterr().err == ""


def test_no_progress_passes_items_through() -> None:
    items = ["a", "b"]
    assert no_progress(items, "x") is items
