"""What uvicorn's HTTP protocol costs per request, apart from the app: ratingdb's own
(``ratingdb.api.protocol.LimitedHttpToolsProtocol``), plain h11 with the settings that bound it
(``h11_max_incomplete_event_size``, ``timeout_keep_alive``, ``limit_concurrency``: what
``benchmarks/plain_serve.py`` runs), and plain httptools.

    python benchmarks/protocol_cost.py --rounds 5 --clients 50 --duration 5

Each server is a subprocess serving a tiny ASGI app: JSON answers of the sizes of a
``/v1/lists`` page of 100 entries and of ``/health`` (``--sizes``), with no database and no
framework. So what differs between the three is the protocol alone. The rounds interleave
the servers, so that a busy host slows each of them alike. The clients are api_load.py's
keep-alive connections. Printed per protocol and size: the median over the rounds, and the
range, of requests per second, p99 and the server's CPU milliseconds per request. The last
line is one JSON object with every round's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script
    sys.path.insert(0, str(ROOT))

from benchmarks.api_load import cpu_seconds, free_port, measure  # noqa: E402

PROTOCOLS = ("limited", "h11", "httptools")
#: The answer's size by default: a ``/v1/lists`` page of 100 entries (17,986 bytes) and
#: ``/health`` (33).
DEFAULT_SIZES = (18_000, 33)
START_TIMEOUT = 30


async def tiny_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The app every server runs (no lifespan): to ``/N``, N bytes of JSON."""
    size = int(scope["path"].strip("/") or 2)
    body = b'"' + b"x" * max(size - 2, 0) + b'"'
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]  # fmt: skip
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def serve(protocol: str, port: int) -> None:
    """Run ``tiny_app`` with ``protocol`` in the foreground (the servers' subprocess)."""
    import uvicorn

    from ratingdb.api.protocol import DEFAULT_LIMITS, LimitedConfig
    from ratingdb.api.server import LOOP

    common: dict[str, Any] = {"host": "127.0.0.1", "port": port, "loop": LOOP,
                              "access_log": False, "log_level": "warning",
                              "server_header": False, "lifespan": "off"}  # fmt: skip
    config: uvicorn.Config
    if protocol == "limited":
        config = LimitedConfig(tiny_app, limits=DEFAULT_LIMITS, **common)
    elif protocol == "h11":
        config = uvicorn.Config(
            tiny_app, http="h11", ws="none", h11_max_incomplete_event_size=16 * 1024,
            timeout_keep_alive=5, limit_concurrency=1000, **common,
        )  # fmt: skip
    else:
        config = uvicorn.Config(tiny_app, http="httptools", ws="none", **common)
    with contextlib.suppress(KeyboardInterrupt):  # stopped by SIGINT
        uvicorn.Server(config).run()


def start(protocol: str, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, str(Path(__file__).resolve()), "--serve", protocol,
               "--port", str(port)]  # fmt: skip
    process = subprocess.Popen(command)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                if answer.status == 200:
                    return process
        except (urllib.error.URLError, ConnectionError):
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"the {protocol} server did not start")
        time.sleep(0.1)


def one_round(
    protocol: str, size: int, clients: int, duration: float, warmup: float
) -> dict[str, float | None]:
    port = free_port()
    process = start(protocol, port)
    try:
        before = cpu_seconds(process.pid)
        figures = asyncio.run(measure(port, [f"/{size}"], clients, duration, warmup))
        after = cpu_seconds(process.pid)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if figures.errors:
        raise SystemExit(f"{protocol}: {figures.errors} answers were not 200")
    cpu_ms = None if before is None or after is None else (after - before) * 1000
    return {
        "rps": round(figures.rps, 1),
        "p99_ms": round(figures.percentile(0.99), 2),
        "cpu_ms": None if cpu_ms is None else round(cpu_ms / figures.answered, 4),
        "load": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--sizes", type=lambda text: [int(n) for n in text.split(",")],
                        default=list(DEFAULT_SIZES),
                        help="answer sizes in bytes (default 18000,33)")  # fmt: skip
    parser.add_argument("--serve", choices=PROTOCOLS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        serve(args.serve, args.port)
        return
    rounds: dict[str, list[dict[str, float | None]]] = {
        f"{protocol} {size}": [] for size in args.sizes for protocol in PROTOCOLS
    }
    for _ in range(args.rounds):
        for size in args.sizes:
            for protocol in PROTOCOLS:
                rounds[f"{protocol} {size}"].append(
                    one_round(protocol, size, args.clients, args.duration, args.warmup)
                )
    print(f"{args.clients} clients, {args.rounds} rounds of {args.duration:g} s; "
          f"median [range] over the rounds")  # fmt: skip
    for name, found in rounds.items():
        cells = []
        for key in ("rps", "p99_ms", "cpu_ms"):
            values = [value for row in found if (value := row[key]) is not None]
            if values:
                cells.append(f"{key} {statistics.median(values):,.3g} "
                             f"[{min(values):,.3g}-{max(values):,.3g}]")  # fmt: skip
        print(f"{name:<16}" + "  ".join(cells))
    print(json.dumps({"clients": args.clients, "duration_s": args.duration, "rounds": rounds}))


if __name__ == "__main__":
    main()
