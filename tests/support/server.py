"""A ``ratingdb`` server (``serve`` or ``backoffice``) started as a process of its own on a free
port for a test (forked from the worker's warm interpreter: tests/support/forks.py), waited for
until it answers, and stopped afterwards."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.databases import free_port
from tests.support import forks

#: How long a server may take to answer its first request: generous, since a loaded machine
#: (two workers at a load average of 11 on 2 cores) took over 30 s; a server that is up ends
#: the wait at once.
START_TIMEOUT = 120


@contextmanager
def running_server(
    command: str,
    arguments: Sequence[str],
    *,
    env: Mapping[str, str],
    log: Path,
    ready: str = "/health",
) -> Iterator[str]:
    """``python -m ratingdb COMMAND --host 127.0.0.1 --port PORT ARGUMENTS...``, its output in
    ``log``; yields its base URL once ``ready`` answers 200 (any other answer fails the test
    with the status and the body)."""
    port = free_port()
    process = forks.start(
        [command, "--host", "127.0.0.1", "--port", str(port), *arguments], env=env, output=log
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"{base}{ready}", timeout=2) as response:
                    assert response.status == 200
                    break
            except urllib.error.HTTPError as error:
                raise AssertionError(f"{ready}: {error.code} {error.read()!r}") from error
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline, f"ratingdb {command} did not start"
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)
