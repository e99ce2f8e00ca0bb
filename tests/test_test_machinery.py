"""The test run's own machinery (tests/conftest.py, tests/support/once.py): the guard that keeps
processes out of the quick tier, the order slow tests are handed out in, and what is made once
per run for every worker. A fault here would not fail a test: it would make the tiers lie."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest

from tests import conftest
from tests.support import forks
from tests.support.once import once_per_run


@dataclass
class FakeItem:
    """What the hooks read of a pytest item: its id and its markers."""

    nodeid: str
    markers: dict[str, dict[str, Any]] = field(default_factory=dict)

    def get_closest_marker(self, name: str) -> pytest.Mark | None:
        if name not in self.markers:
            return None
        mark: pytest.Mark = getattr(pytest.mark, name)(**self.markers[name]).mark
        return mark


def popen_while(item: FakeItem) -> None:
    """The audit event ``subprocess.Popen`` raised while ``item`` runs."""
    conftest._running.append(cast(pytest.Item, item))
    try:
        conftest._refuse_unmarked_processes("subprocess.Popen", ("ratingdb", ["ratingdb"], None))
    finally:
        conftest._running.remove(cast(pytest.Item, item))


def test_a_process_started_by_an_unmarked_test_is_refused_with_its_name() -> None:
    with pytest.raises(
        RuntimeError, match=r"tests/x.py::test_y starts a process \(\['ratingdb'\]\)"
    ):
        popen_while(FakeItem("tests/x.py::test_y"))


def test_a_command_forked_by_an_unmarked_test_is_refused_too(tmp_path: Path) -> None:
    """tests/support/forks.py's commands are processes: the same rule (the event is raised
    before the fork server is asked, so no process starts here)."""
    conftest._running.append(cast(pytest.Item, FakeItem("tests/x.py::test_z")))
    try:
        with pytest.raises(
            RuntimeError, match=r"tests/x.py::test_z starts a process \(\['periods', 'close'\]\)"
        ):
            forks.ForkServer(tmp_path).start(["periods", "close"], {})
    finally:
        conftest._running.pop()


@pytest.mark.parametrize("marker", ["processes", "slow"])
def test_a_process_started_by_a_marked_test_is_allowed(marker: str) -> None:
    popen_while(FakeItem("tests/x.py::test_y", {marker: {}}))


def test_other_events_and_processes_outside_a_test_are_not_checked() -> None:
    running = list(conftest._running)
    conftest._running[:] = []  # between tests (a session fixture's server, say)
    try:
        conftest._refuse_unmarked_processes("subprocess.Popen", ("ratingdb", ["ratingdb"]))
        conftest._running.append(cast(pytest.Item, FakeItem("tests/x.py::test_y")))
        conftest._refuse_unmarked_processes("open", ("file", "r", 0))
    finally:
        conftest._running[:] = running


def test_slow_tests_are_handed_out_first_the_longest_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recorded durations order the slow tests; one never recorded starts first of all."""
    durations = tmp_path / "durations.json"
    durations.write_text('{"slow 5": 5.0, "slow 40": 40.0}', encoding="utf-8")
    monkeypatch.setattr(conftest, "DURATIONS", durations)
    items = [
        FakeItem("in-process"),
        FakeItem("postgresql", {"postgresql": {}}),
        FakeItem("slow 5", {"slow": {}}),
        FakeItem("process", {"processes": {}}),
        FakeItem("slow never recorded", {"slow": {}}),
        FakeItem("slow 40", {"slow": {}}),
    ]
    conftest.pytest_collection_modifyitems(cast(list[pytest.Item], items))
    assert [item.nodeid for item in items] == [
        "slow never recorded",
        "slow 40",
        "slow 5",
        "process",
        "postgresql",
        "in-process",
    ]


class OneFolder:
    """A TempPathFactory whose base folder is ``base`` (a worker's own, under xdist)."""

    def __init__(self, base: Path) -> None:
        base.mkdir(parents=True, exist_ok=True)
        self.base = base

    def getbasetemp(self) -> Path:
        return self.base


def test_made_once_whatever_the_number_of_workers_asking(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")  # the workers' folders are side by side
    made: list[Path] = []
    started = threading.Barrier(4)

    def make(folder: Path) -> None:
        assert list(folder.iterdir()) == []
        time.sleep(0.05)  # long enough for the other workers to ask meanwhile
        (folder / "wheel").write_text("built")
        made.append(folder)

    def worker(name: str) -> None:
        factory = cast(pytest.TempPathFactory, OneFolder(tmp_path / name))
        started.wait()
        folder = once_per_run(factory, "wheel", make)
        assert (folder / "wheel").read_text() == "built"

    threads = [threading.Thread(target=worker, args=(f"gw{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(made) == 1


def test_a_failed_make_is_tried_again_from_an_empty_folder(tmp_path: Path) -> None:
    factory = cast(pytest.TempPathFactory, OneFolder(tmp_path / "gw0"))

    def fail(folder: Path) -> None:
        (folder / "half-made").write_text("")
        raise OSError("apt-get failed")

    with pytest.raises(OSError, match="apt-get failed"):
        once_per_run(factory, "chromium", fail)
    tried: list[list[Path]] = []
    folder = once_per_run(factory, "chromium", lambda f: tried.append(list(f.iterdir())))
    assert tried == [[]]  # the half-made folder was emptied first
    assert folder.name == "chromium"
