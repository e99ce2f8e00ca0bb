"""What one upload of a large TRF costs the back office in memory, and where it goes.

    python benchmarks/upload_memory.py --mb 16
    python benchmarks/upload_memory.py --mb 16 --concurrent 3

A TRF of about N MB is generated (up to 9,998 players, a TRF's 4-digit ranks, every one new
to the database, and as many rounds as it takes: 158 at 16 MB; a real TRF is under 100 KB,
but the back office accepts 20 MB). Each figure is measured in a fresh process, so that one does
not inherit the other's heap:

- ``http raw`` and ``http multipart``: a real ``ratingdb backoffice`` subprocess on a migrated
  SQLite database, warmed up by a small upload; the file is then sent to
  POST /admin/v1/submissions (as the body itself, then as a multipart form) over a real socket.
  The figure is the server's peak resident set (VmHWM, reset through /proc/PID/clear_refs just
  before the upload) minus its resident set before it. ``--concurrent K`` sends K at once
  (from K client threads, K arbiters): what K simultaneous uploads cost, or what the upload
  limit lets through (the others are refused with 503/429 at once).
- ``service``: ``services.submissions.submit`` called directly with the bytes (no HTTP): the
  check of the file (read, parsed, its players matched in a rolled-back SAVEPOINT) and the row
  stored. ``http`` minus ``service`` is what receiving the body costs.
- ``parse``: the TRF reader alone (``ratingdb.formats.trf.parse_trf``) on the bytes.

Peak memory is resident memory (VmHWM, reset through /proc/self/clear_refs before the work;
Linux only). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: python benchmarks/upload_memory.py
    sys.path.insert(0, str(ROOT))

START_TIMEOUT = 60
ROUNDS = 11
MAX_PLAYERS = 9998


def trf(megabytes: float) -> bytes:
    """A TRF of about ``megabytes`` MB: up to 9,998 players (a TRF's rank has 4 digits) and as
    many rounds as it takes (at least 11), each player meeting the same opponent every round
    (1-2, 3-4, ...), colours alternating."""
    header = "012 Memory Open\n042 2026/11/02\n052 2026/11/08\n"
    size = megabytes * 1024 * 1024
    players = min(MAX_PLAYERS, max(24, int(size / (90 + ROUNDS * 10)) // 2 * 2))
    rounds = max(ROUNDS, round((size / players - 90) / 10))
    lines = [header.rstrip("\n")]
    for rank in range(1, players + 1):
        name = f"Player{rank:07d}, Test"
        line = (
            f"001 {rank:>4} m    {name:<33} {'1800':>4} FRA {'':>11} {'1990/01/01':<10} "
            f"{'0.0':>4} {rank:>4}"
        )[:89]
        for r in range(rounds):
            opponent = rank + 1 if rank % 2 else rank - 1
            colour = "w" if (rank + r) % 2 else "b"
            result = "1" if rank % 2 else "0"
            line += f"  {opponent:>4} {colour} {result}"
        lines.append(line)
    return ("\n".join(lines) + "\n").encode()


def status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


def multipart(content: bytes, filename: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
    ).encode()
    return (
        head + content + f"\r\n--{boundary}--\r\n".encode(),
        f"multipart/form-data; boundary={boundary}",
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def post(port: int, token: str, body: bytes, content_type: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        connection.request(
            "POST", "/admin/v1/submissions?category=fide-standard&filename=memory.trf", body=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": content_type},
        )  # fmt: skip
        answer = connection.getresponse()
        answer.read()
        return answer.status
    finally:
        connection.close()


def prepare(folder: Path, users: int) -> tuple[str, list[str]]:
    """A migrated SQLite database with ``users`` arbiters; its URL and their tokens."""
    from datetime import UTC, datetime

    from ratingdb.db import make_engine, make_sessionmaker, upgrade
    from ratingdb.services import accounts

    url = f"sqlite:///{folder / 'ratingdb.sqlite3'}"
    upgrade(url)
    engine = make_engine(url)
    now = datetime.now(UTC)
    tokens = []
    with make_sessionmaker(engine).begin() as session:
        for i in range(users):
            accounts.add_user(session, f"arbiter{i}", "arbiter", "a long enough password 1",
                              by=None, actor="benchmark", now=now)  # fmt: skip
    for i in range(users):
        with make_sessionmaker(engine).begin() as session:
            issued = accounts.issue_token(session, f"arbiter{i}", "bench", 1, "submit", by=None,
                                          actor="benchmark", now=now)  # fmt: skip
            tokens.append(issued.token)
    engine.dispose()
    return url, tokens


def http_figure(
    content: bytes, as_form: bool, concurrent: int, options: list[str]
) -> dict[str, Any]:
    """The back office's growth (MB) while taking ``concurrent`` uploads of ``content``."""
    with tempfile.TemporaryDirectory(prefix="ratingdb-upload-memory-") as name:
        folder = Path(name)
        url, tokens = prepare(folder, concurrent + 1)
        port = free_port()
        log = (folder / "backoffice.log").open("w")
        process = subprocess.Popen(
            [sys.executable, "-m", "ratingdb", "backoffice", "--port", str(port),
             "--database-url", url, *options],
            stdout=log, stderr=subprocess.STDOUT, cwd=ROOT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + START_TIMEOUT
            while True:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((folder / "backoffice.log").read_text())
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=2):
                        break
                except (urllib.error.URLError, ConnectionError):
                    time.sleep(0.1)
            small = trf(0.01)
            warm = multipart(small, "warm.trf") if as_form else (small, "text/plain")
            assert post(port, tokens[-1], *warm) == 201
            before = status_kb(process.pid, "VmRSS")
            Path(f"/proc/{process.pid}/clear_refs").write_text("5")  # VmHWM := VmRSS
            body, kind = multipart(content, "memory.trf") if as_form else (content, "text/plain")
            statuses: list[int] = []
            started = time.monotonic()
            threads = [
                threading.Thread(target=lambda t=token: statuses.append(post(port, t, body, kind)))
                for token in tokens[:concurrent]
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            seconds = time.monotonic() - started
            peak = status_kb(process.pid, "VmHWM")
        finally:
            process.terminate()
            process.wait(timeout=30)
            log.close()
    return {"grown_mb": round((peak - before) / 1024, 1), "statuses": sorted(statuses),
            "seconds": round(seconds, 1), "rss_before_mb": round(before / 1024, 1)}  # fmt: skip


def child(mode: str, path: Path) -> None:
    """One in-process figure, printed as JSON (run in its own process)."""
    content = path.read_bytes()
    if mode == "parse":
        from ratingdb.formats.trf import reader

        before = reset_peak()
        reader.parse_trf(content, source="memory.trf")
    else:
        from datetime import UTC, datetime

        from ratingdb.db import make_engine, make_sessionmaker
        from ratingdb.services import submissions
        from ratingdb.services.accounts import Principal

        with tempfile.TemporaryDirectory(prefix="ratingdb-upload-memory-") as name:
            url, _ = prepare(Path(name), 1)
            engine = make_engine(url)
            sessions = make_sessionmaker(engine)
            caller = principal(sessions, Principal)
            small = submissions.Upload(trf(0.01), "warm.trf", ["fide-standard"])
            with sessions.begin() as session:
                submissions.submit(session, small, caller, datetime.now(UTC))
            before = reset_peak()
            upload = submissions.Upload(content, "memory.trf", ["fide-standard"])
            with sessions.begin() as session:
                submissions.submit(session, upload, caller, datetime.now(UTC))
            engine.dispose()
    peak = status_kb(os.getpid(), "VmHWM")
    print(json.dumps({"grown_mb": round((peak - before) / 1024, 1)}))


def reset_peak() -> int:
    """This process's resident set now (kB), made its peak (VmHWM) from here on."""
    Path("/proc/self/clear_refs").write_text("5")
    return status_kb(os.getpid(), "VmRSS")


def principal(sessions: Any, kind: Any) -> Any:
    """The first arbiter as the service's caller."""
    from sqlalchemy import text

    with sessions.begin() as session:
        user_id, username = session.execute(
            text("SELECT id, username FROM users ORDER BY id LIMIT 1")
        ).one()
    return kind(user_id=user_id, username=username, role="arbiter", via="api")


def in_process(mode: str, path: Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", mode, "--file", str(path)],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=16, help="size of the TRF (MB)")
    parser.add_argument("--concurrent", type=int, default=1, help="uploads sent at once")
    parser.add_argument("--only", choices=("http", "service", "parse"), default=None)
    parser.add_argument("--backoffice-option", action="append", default=[],
                        help="an option passed to ratingdb backoffice (repeat)")  # fmt: skip
    parser.add_argument("--child", choices=("service", "parse"), help=argparse.SUPPRESS)
    parser.add_argument("--file", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.file)
        return
    content = trf(args.mb)
    print(f"TRF of {len(content) / 1024 / 1024:.1f} MB", flush=True)
    figures: dict[str, Any] = {"mb": round(len(content) / 1024 / 1024, 1),
                               "concurrent": args.concurrent}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="ratingdb-upload-memory-") as name:
        path = Path(name) / "memory.trf"
        path.write_bytes(content)
        if args.only in (None, "parse"):
            figures["parse"] = in_process("parse", path)
            print(f"parse alone:       +{figures['parse']['grown_mb']} MB", flush=True)
        if args.only in (None, "service"):
            figures["service"] = in_process("service", path)
            print(f"service alone:     +{figures['service']['grown_mb']} MB", flush=True)
    if args.only in (None, "http"):
        for label, as_form in (("http raw", False), ("http multipart", True)):
            figure = http_figure(content, as_form, args.concurrent, args.backoffice_option)
            figures[label.replace(" ", "_")] = figure
            print(f"{label + ':':<18} +{figure['grown_mb']} MB in {figure['seconds']} s, "
                  f"answers {figure['statuses']}", flush=True)  # fmt: skip
    print(json.dumps(figures))


if __name__ == "__main__":
    os.environ.setdefault("RATINGDB_ACTOR", "benchmark")
    main()
