"""Running the ``ratingdb`` command from a test."""

from __future__ import annotations

import io
import sys
import traceback
from typing import NamedTuple

import pytest

from ratingdb.cli import main
from tests.support import forks, rolled_back


class CliRun(NamedTuple):
    """What a command did: its exit code and what it printed."""

    code: int
    out: str
    err: str


def run_cli(
    capsys: pytest.CaptureFixture[str],
    *args: str,
    url: str | None = None,
    stdin: str | None = None,
) -> CliRun:
    """``ratingdb ARGS [--database-url URL]`` in this process, as the console would show it.

    What was printed before is dropped first. An argparse refusal (``SystemExit``) gives its
    exit code; any other exception is what ``python -m ratingdb`` shows as a traceback with exit
    code 1 (a crash, never a refusal): code 1 and the traceback at the end of stderr, so that
    the test's own assertion fails with where it happened. ``stdin``: what the command reads
    (pytest's own refuses to be read). ``url`` the database a test holds in a rolled-back
    transaction (tests/support/rolled_back.py): the command runs in that transaction."""
    argv = [*args, "--database-url", url] if url is not None else list(args)
    capsys.readouterr()
    crash = ""
    stdin_before = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(argv, sessions=None if url is None else rolled_back.sessions_for(url))
    except SystemExit as exit_:  # argparse refusals
        code = int(exit_.code or 0)
    except Exception:  # what `python -m ratingdb` shows as a traceback, exit 1
        code, crash = 1, traceback.format_exc()
    finally:
        sys.stdin = stdin_before
    captured = capsys.readouterr()
    return CliRun(code, captured.out, captured.err + crash)


def cli_ok(capsys: pytest.CaptureFixture[str], *args: str, url: str | None = None) -> str:
    """``ratingdb ARGS`` in this process, which must succeed: its stdout."""
    code, out, err = run_cli(capsys, *args, url=url)
    assert code == 0, f"ratingdb {' '.join(args)} exited {code}: {err}"
    return out


def run_process(*args: str, url: str, module: str = "ratingdb") -> str:
    """``python -m MODULE`` in a process of its own (its own engine, its own exit), forked from
    this worker's warm process (tests/support/forks.py), which must succeed: its stdout.
    ``ratingdb`` takes ``--database-url`` after the command, ``jobs`` before it."""
    database = ["--database-url", url]
    command = [*args, *database] if module == "ratingdb" else [*database, *args]
    done = forks.run(command, module=module)
    assert done.returncode == 0, f"{module} {' '.join(args)}: {done.stderr}"
    return done.stdout
