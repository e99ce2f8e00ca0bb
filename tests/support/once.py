"""Something made once per test run and shared by every pytest-xdist worker (a wheel built and
installed, Chromium installed), whichever workers the tests that need it land on.

The first worker to ask makes it under an exclusive lock on a file in the run's shared
temporary folder; the others wait for the lock and find it made. If making it fails, nothing
is marked made: the next worker to ask tries again (and fails the same way, with its own
traceback)."""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.databases import RUN_ID


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder every worker of this run shares: beside the workers' own base folders under
    pytest-xdist (``.../pytest-N/popen-gwK``), the base folder itself without it."""
    base = tmp_path_factory.getbasetemp()
    folder = base.parent / f"shared-{RUN_ID}" if "PYTEST_XDIST_WORKER" in os.environ else base
    folder.mkdir(exist_ok=True)
    return folder


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]
) -> Path:
    """The folder ``name`` in the run's shared folder, made by ``make(folder)`` the first time
    any worker asks (``folder`` exists and is empty when ``make`` is called)."""
    shared = shared_folder(tmp_path_factory)
    folder = shared / name
    done = shared / f"{name}.done"
    with (shared / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists():
            if folder.exists():  # left by a worker whose make failed
                shutil.rmtree(folder)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder
