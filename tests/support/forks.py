"""``python -m ratingdb`` and ``python -m jobs`` started by forking a warm process instead of a
new interpreter.

Every start of ``python -m ratingdb`` costs the interpreter's start and the imports (0.6-0.8 s of
CPU) before the command does anything; the tests start a few hundred. A fork server pays that
once per pytest worker: a ``python`` process that imports what the commands import, then, for
each command asked for, forks a child that runs the module as ``python -m`` does
(``runpy.run_module(..., run_name="__main__")``) with the command's arguments, environment,
working folder and files for its standard streams, ends as the interpreter does (its threads
joined, its atexit functions run, its streams flushed, its exit code) and reports how it ended.
Each child is a process of its own (its own pid, database connection, file locks and
exit code), killed by SIGKILL like any other; only the interpreter's start and the imports are not
part of it, and neither is the interpreter's teardown: a child leaves with ``os._exit`` once its
threads, atexit functions and streams are done, instead of freeing every module the server
imported. That teardown, and the garbage collector walking the server's objects, touched every
page the child shares with the server (copied on write): 0.85 s of CPU for a forked
``ratingdb --help`` against 0.02 s now, with the server's objects frozen (``gc.freeze``) before it
forks. The tests of the start itself (what a command imports, how fast it starts, the
wheel) start real interpreters.

The server holds no database connection and runs no thread when it forks.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[2]
#: The audit event raised for each command forked (as ``subprocess.Popen`` is for a process
#: started): tests/conftest.py refuses both in a test not marked ``processes`` or ``slow``.
FORK_EVENT = "ratingdb.tests.fork"

#: The fork server: imports, then one JSON request per line on stdin, one JSON answer per line
#: on stdout. ``start`` forks a child running the command; ``poll`` and ``wait`` reap it.
SERVER = r"""
import atexit, gc, json, os, runpy, sys, threading, traceback

# What the commands import, so that the children do not: the command lines, the close, the
# database layer with both drivers, Alembic's schema check and migrations, the jobs, the web
# stack that ``serve`` and ``backoffice`` run.
import alembic.command, alembic.config, alembic.runtime.migration, alembic.script, psycopg
import sqlalchemy.dialects.postgresql.psycopg, sqlalchemy.dialects.sqlite.pysqlite
import ratingdb.cli, ratingdb.cli.common, ratingdb.cli.periods, ratingdb.config
import ratingdb.db, ratingdb.failures, ratingdb.models, ratingdb.services.close
import jobs.close_periods, jobs.expire_previews
import ratingdb.api.server, ratingdb.backoffice.app

requests, answers = sys.stdin, sys.stdout


def child(request):
    stdin = request.get("stdin") or os.devnull
    os.dup2(os.open(stdin, os.O_RDONLY), 0)
    os.dup2(os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    if request["stderr"] == request["stdout"]:
        os.dup2(1, 2)
    else:
        os.dup2(os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    if request.get("replace_env"):
        os.environ.clear()
    os.environ.update(request["env"])
    if request.get("cwd"):
        os.chdir(request["cwd"])
    sys.path[1:1] = request.get("path", [])
    module = request.get("module", "ratingdb")
    sys.argv = [module, *request["argv"]]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    except BaseException:
        traceback.print_exc()
        code = 1
    # End as the interpreter does (its threads joined, its atexit functions run, its streams
    # flushed), with the exit code sys.exit would give, but without tearing the modules down.
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # as sys.exit("message") does
    code = code if isinstance(code, int) else (0 if code is None else 1)
    threading._shutdown()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os._exit(code)


def returncode(pid, options):
    found, status = os.waitpid(pid, options)
    return None if found == 0 else os.waitstatus_to_exitcode(status)


# What the server imported is never freed: the collector of a child need not walk it.
gc.freeze()
print(json.dumps({"ready": os.getpid()}), file=answers, flush=True)
for line in requests:
    request = json.loads(line)
    if request["op"] == "start":
        pid = os.fork()
        if pid == 0:
            child(request)
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

    def start(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        *,
        module: str = "ratingdb",
        replace_env: bool = False,
        cwd: Path | None = None,
        stdin: str | None = None,
        output: Path | None = None,
        path: Sequence[str] = (),
    ) -> Forked:
        """``python -m MODULE ARGV`` in a forked child: ``env`` added to the server's environment
        (or, with ``replace_env``, the child's whole environment), in ``cwd`` (default: the
        server's, the repository), reading ``stdin`` (default: nothing); with ``output``, its
        standard output and error both written there; ``path``: folders put on ``sys.path``
        after the first entry (the working folder, as for ``python -m``)."""
        sys.audit(FORK_EVENT, module, list(argv))
        self.started += 1
        out = output or self.folder / f"command-{self.started}.out"
        err = output or self.folder / f"command-{self.started}.err"
        request: dict[str, Any] = {
            "op": "start", "module": module, "argv": list(argv), "env": dict(env),
            "replace_env": replace_env, "cwd": str(cwd) if cwd is not None else None,
            "stdout": str(out), "stderr": str(err), "path": list(path),
        }  # fmt: skip
        if stdin is not None:
            source = self.folder / f"command-{self.started}.in"
            source.write_text(stdin, encoding="utf-8")
            request["stdin"] = str(source)
        return Forked(self, self.ask(request)["pid"], out, err)


class Forked:
    """A forked command, with the part of ``subprocess.Popen``'s interface the test uses."""

    def __init__(self, server: ForkServer, pid: int, stdout: Path, stderr: Path) -> None:
        self.server = server
        self.pid = pid
        self.stdout_path = stdout
        self.stderr_path = stderr
        self.stdin_path = stdout.with_suffix(".in")
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.server.ask({"op": "poll", "pid": self.pid})["returncode"]
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Until the child has ended; ``subprocess.TimeoutExpired`` after ``timeout`` seconds."""
        if self.returncode is None and timeout is None:
            self.returncode = self.server.ask({"op": "wait", "pid": self.pid})["returncode"]
        deadline = time.monotonic() + (timeout or 0.0)
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"forked {self.pid}", timeout or 0.0)
            time.sleep(0.05)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        self.wait(timeout)
        return self.stdout_path.read_text(), self.stderr_path.read_text()

    @property
    def stderr(self) -> str:
        return self.stderr_path.read_text() if self.returncode is not None else ""


class Finished:
    """What a command run to its end did, as ``subprocess.run`` tells it."""

    def __init__(self, args: list[str], returncode: int, stdout: str, stderr: str) -> None:
        self.args = args
        self.returncode = returncode
        self.stdout = stdout
        self.stderr = stderr


_shared: ForkServer | None = None


def shared() -> ForkServer:
    """This process's fork server (one per pytest worker), started on first use, stopped when
    the worker exits."""
    global _shared
    if _shared is None:
        folder = Path(tempfile.mkdtemp(prefix="ratingdb-forks-"))
        _shared = ForkServer(folder).__enter__()
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        atexit.register(_shared.__exit__)  # first: atexit runs the last registered first
    return _shared


def start(
    args: Sequence[str],
    *,
    module: str = "ratingdb",
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
    output: Path | None = None,
    path: Sequence[str] = (),
) -> Forked:
    """``python -m MODULE ARGS`` started, forked from this worker's warm process, with this
    process's environment (``env`` if given, whole) and working folder; ``communicate()``
    gives its output once it has ended (``output``: both streams in that file instead)."""
    return shared().start(
        args,
        dict(os.environ if env is None else env),
        module=module,
        replace_env=True,
        cwd=Path.cwd() if cwd is None else cwd,
        stdin=stdin,
        output=output,
        path=path,
    )


def run(
    args: Sequence[str],
    *,
    module: str = "ratingdb",
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
    path: Sequence[str] = (),
    timeout: float | None = None,
) -> Finished:
    """``python -m MODULE ARGS`` to its end, forked from this worker's warm process, with this
    process's environment (``env`` if given, whole) and working folder: the part of
    ``subprocess.run(capture_output=True, text=True)`` the tests use (after ``timeout``
    seconds the command is killed and ``subprocess.TimeoutExpired`` raised). Its output files
    are removed once read."""
    process = start(args, module=module, env=env, cwd=cwd, stdin=stdin, path=path)
    try:
        code = process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise
    out, err = process.stdout_path.read_text(), process.stderr_path.read_text()
    for output in (process.stdout_path, process.stderr_path, process.stdin_path):
        output.unlink(missing_ok=True)
    return Finished([module, *args], code, out, err)


def run_benchmark(script: str, *args: str, cwd: Path, timeout: float = 300) -> Finished:
    """``python benchmarks/SCRIPT.py ARGS`` to its end in ``cwd``, forked from this worker's
    warm process (the benchmarks' smoke runs: the script's own measurements are not asserted,
    and the interpreter's start is not what they test)."""
    return run(
        args, module=f"benchmarks.{script.removesuffix('.py')}", cwd=cwd, path=[str(ROOT)],
        timeout=timeout,
    )  # fmt: skip
