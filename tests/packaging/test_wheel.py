"""ratingdb as people install it: a wheel built by ``python -m build`` into a new virtual
environment, used from an empty folder, with no checkout anywhere on its path.

Slow (a wheel build and a dependency install from pip's cache), so marked; it is part of the
full run and of CI.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support.once import once_per_run

ROOT = Path(__file__).resolve().parents[2]

# The wheel is built and installed once per run, whichever workers the two tests land on
# (tests/support/once.py: an xdist_group marker is silently ignored by pytest-xdist 3.8 on
# pytest 9.2, pytest-xdist issue 1386, and each worker built its own).
pytestmark = pytest.mark.slow


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    completed = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    assert completed.returncode == 0, (command, completed.stdout[-3000:], completed.stderr[-3000:])
    return completed  # type: ignore[no-any-return]


#: What a build of the checkout must not read: caches, environments, earlier builds.
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".mypy_cache",
    ".ruff_cache", ".pytest_cache", ".hypothesis", ".import_linter_cache", "*.sqlite3", ".cache",
)  # fmt: skip


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a new virtual environment holding the built wheel and its
    dependencies (at the versions of constraints.txt), made once per run."""
    return once_per_run(tmp_path_factory, "wheel", build_and_install) / "venv" / "bin"


def build_and_install(work: Path) -> None:
    """The wheel built from a copy of the checkout, installed into ``work``/venv."""
    # A copy of the source tree: a build writes build/ and egg-info folders where it runs, which
    # must neither race with another build nor see what an earlier one left behind.
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=_NOT_SOURCE, symlinks=False)
    # sdist first, then the wheel from the unpacked sdist: both must carry everything.
    _run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(work / "dist"),
         str(source)]
    )  # fmt: skip
    wheels = list((work / "dist").glob("ratingdb-*.whl"))
    assert len(wheels) == 1, wheels
    # The environment without a pip of its own (ensurepip costs seconds): this run's pip
    # installs into it (--python), without byte-compiling every dependency up front (the
    # commands below compile what they import).
    venv.create(work / "venv", with_pip=False)
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(work / "venv" / "bin" / "python"),
            "install",
            "--quiet",
            "--no-compile",
            "--disable-pip-version-check",
            "-c",
            str(ROOT / "constraints.txt"),
            str(wheels[0]),
        ]
    )


def _clean_environment() -> dict[str, str]:
    """No trace of the checkout or of the test run's database settings."""
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("RATINGDB_", "PYTHON", "VIRTUAL_ENV"))
    }


def test_the_wheel_carries_what_ratingdb_reads_at_run_time(installed: Path) -> None:
    program = (
        "import json, ratingdb, importlib.resources as r\n"
        "from ratingdb.db.migrate import migrations_directory\n"
        "print(json.dumps({'package': ratingdb.__file__,"
        " 'migrations': str(migrations_directory()),"
        " 'versions': sorted(p.name for p in (migrations_directory() / 'versions').glob('0*.py')),"
        " 'templates': r.files('ratingdb.api').joinpath('templates/base.html').is_file(),"
        " 'css': r.files('ratingdb.api').joinpath('static/ratingdb.css').is_file(),"
        " 'docs': r.files('ratingdb.api').joinpath("
        "'static/docs/swagger-ui/swagger-ui-bundle.js').is_file(),"
        " 'sample': r.files('ratingdb.sample_data').joinpath('manifest.json').is_file(),"
        " 'typed': r.files('ratingdb').joinpath('py.typed').is_file()}))\n"
        # The catalogues ship as .po files, compiled when the pages' module is imported.
        "from ratingdb.api.i18n import CATALOGUES\n"
        "from ratingdb.backoffice.i18n import CATALOGUES as BACK_OFFICE\n"
        "print(json.dumps({'french': CATALOGUES['fr'].gettext('Rating calculator'),"
        " 'back office': BACK_OFFICE['fr'].gettext('Submissions')}))"
    )
    lines = _run(
        [str(installed / "python"), "-c", program], cwd="/", env=_clean_environment()
    ).stdout.splitlines()
    out = json.loads(lines[0])
    assert json.loads(lines[1]) == {
        "french": "Calculateur de classement",
        "back office": "Soumissions",
    }
    site_packages = str(installed.parent / "lib")
    assert out["package"].startswith(site_packages)
    assert out["migrations"].startswith(site_packages)
    shipped = sorted(path.name for path in (ROOT / "migrations" / "versions").glob("0*.py"))
    assert out["versions"] == shipped
    assert [out[key] for key in ("templates", "css", "docs", "sample", "typed")] == [True] * 5


@pytest.mark.slow  # once the other test has built the wheel: run well after it
def test_demo_runs_from_an_empty_folder(installed: Path, tmp_path: Path) -> None:
    folder = tmp_path / "empty"
    folder.mkdir()
    environment = _clean_environment()
    _run(
        [str(installed / "ratingdb"), "demo", "--no-serve", "--now", "2026-11-30T12:00:00+00:00"],
        cwd=folder,
        env=environment,
    )
    database = folder / "ratingdb.sqlite3"
    assert database.is_file()
    with sqlite3.connect(database) as connection:
        # Six months of lists (2026-07 .. 2026-12) closed on top of the imported June lists,
        # in each of the four categories (the demo's sample federation, README "Try it").
        lists = connection.execute("SELECT count(*) FROM rating_lists").fetchone()[0]
    assert lists == 4 * 7
    # The installed command migrates a database of its own too.
    other = folder / "other.sqlite3"
    _run(
        [str(installed / "ratingdb"), "db", "upgrade", "--database-url", f"sqlite:///{other}"],
        cwd=folder,
        env=environment,
    )
    _run(
        [str(installed / "ratingdb"), "periods", "status", "--database-url", f"sqlite:///{other}"],
        cwd=folder,
        env=environment,
    )
