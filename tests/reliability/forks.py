"""``ratingdb`` commands started by forking a warm process instead of a new interpreter.

The SIGKILL test starts the close again and again and kills it once it has reached the phase
it aims at: every start of ``python -m ratingdb`` costs the interpreter's start and the
imports (0.6-0.8 s of CPU) before the close does anything. A fork server pays that once: a
``python`` process that imports what a close imports, then, for each command asked for,
forks a child that runs ``ratingdb.cli.main`` with the command's arguments, environment and
output files, then exits as the interpreter does, and reports how the child ended. Each child
is a process of its own (its own pid, database connection and file locks), killed by SIGKILL
like any other; only the interpreter's start is not part of it, and the test kills real
``python -m ratingdb`` processes in that phase.

The server holds no database connection and runs no thread when it forks.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[2]

#: The fork server: imports, then one JSON request per line on stdin, one JSON answer per line
#: on stdout. ``start`` forks a child running the command; ``poll`` and ``wait`` reap it.
SERVER = r"""
import json, os, sys, traceback

# What a close imports, so that the children do not: the command line, the close, the
# database layer with both drivers, Alembic's schema check.
import alembic.runtime.migration, alembic.script, psycopg
import sqlalchemy.dialects.postgresql.psycopg, sqlalchemy.dialects.sqlite.pysqlite
import ratingdb.cli, ratingdb.cli.common, ratingdb.cli.periods, ratingdb.config
import ratingdb.db, ratingdb.failures, ratingdb.models, ratingdb.services.close

requests, answers = sys.stdin, sys.stdout


def child(argv, env, stdout, stderr):
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, stdout), (2, stderr)):
        os.dup2(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), fd)
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    os.environ.update(env)
    sys.argv = ["ratingdb", *argv]
    try:
        code = ratingdb.cli.main(argv)
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    # Leave as a command does: the interpreter's exit (flushing, collecting) follows.
    sys.exit(code)


def returncode(pid, options):
    found, status = os.waitpid(pid, options)
    return None if found == 0 else os.waitstatus_to_exitcode(status)


print(json.dumps({"ready": os.getpid()}), file=answers, flush=True)
for line in requests:
    request = json.loads(line)
    if request["op"] == "start":
        pid = os.fork()
        if pid == 0:
            child(request["argv"], request["env"], request["stdout"], request["stderr"])
        answer = {"pid": pid}
    elif request["op"] == "poll":
        answer = {"returncode": returncode(request["pid"], os.WNOHANG)}
    else:
        answer = {"returncode": returncode(request["pid"], 0)}
    print(json.dumps(answer), file=answers, flush=True)
"""


class Running(Protocol):
    """A started command, as the test watches it: ``subprocess.Popen`` or ``Forked``."""

    @property
    def pid(self) -> int: ...

    def poll(self) -> int | None: ...


class ForkServer:
    """The server process, started by the ``with`` block, and stopped at its end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.process: subprocess.Popen[str] | None = None
        self.started = 0

    def __enter__(self) -> ForkServer:
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert "ready" in self._answer()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            assert self.process.stdin is not None
            assert self.process.stdout is not None
            self.process.stdin.close()
            self.process.wait(timeout=30)
            self.process.stdout.close()
            self.process = None

    def ask(self, request: Mapping[str, Any]) -> dict[str, Any]:
        assert self.process is not None, "the fork server is not running"
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._answer()

    def _answer(self) -> dict[str, Any]:
        assert self.process is not None
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line, f"the fork server ended (exit {self.process.poll()})"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def start(self, argv: Sequence[str], env: Mapping[str, str]) -> Forked:
        """``ratingdb ARGV`` in a forked child, with ``env`` added to its environment."""
        self.started += 1
        out = self.folder / f"command-{self.started}.out"
        err = self.folder / f"command-{self.started}.err"
        request = {"op": "start", "argv": list(argv), "env": dict(env), "stdout": str(out),
                   "stderr": str(err)}  # fmt: skip
        return Forked(self, self.ask(request)["pid"], out, err)


class Forked:
    """A forked command, with the part of ``subprocess.Popen``'s interface the test uses."""

    def __init__(self, server: ForkServer, pid: int, stdout: Path, stderr: Path) -> None:
        self.server = server
        self.pid = pid
        self.stdout_path = stdout
        self.stderr_path = stderr
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.ask({"op": "poll", "pid": self.pid})["returncode"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Until the child has ended (``timeout`` is not needed: the test kills it first)."""
        if self.returncode is None:
            self.returncode = self.server.ask({"op": "wait", "pid": self.pid})["returncode"]
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        self.wait(timeout)
        return self.stdout_path.read_text(), self.stderr_path.read_text()

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text() if self.returncode is not None else ""
