"""Many requests at once. SQLite: each request's reads run on one of the app's few threads, with
a session opened and closed there, so the connections in use never outnumber the threads and
requests beyond them queue instead of wedging the server. PostgreSQL: the reads run on the
event loop, and the connections in use never outnumber the pool's bound (requests beyond it
wait for one)."""

from __future__ import annotations

import asyncio

import httpx
from anyio import to_thread
from sqlalchemy import event

from ratingdb.api import create_app
from ratingdb.api.app import ASYNC_POOL_SIZE
from ratingdb.config import Settings

REQUESTS = 60
THREADS = 2


def test_more_requests_than_threads_and_connections(scenario_url: str) -> None:
    app = create_app(Settings(scenario_url, scenario_url), threads=THREADS)
    on_loop = app.state.read_async_engine
    engine = app.state.read_engine if on_loop is None else on_loop.sync_engine
    # The pool's bound: its size and as many again (SQLAlchemy's default overflow).
    bound = THREADS if on_loop is None else 2 * ASYNC_POOL_SIZE
    in_use = 0
    peak = 0

    def checked_out(*_: object) -> None:
        nonlocal in_use, peak
        in_use += 1
        peak = max(peak, in_use)

    def checked_in(*_: object) -> None:
        nonlocal in_use
        in_use -= 1

    event.listen(engine, "checkout", checked_out)
    event.listen(engine, "checkin", checked_in)
    paths = [
        "/v1/players/1001/history?category=fide-standard",
        "/v1/lists/fide-standard/2026-11?limit=3",
        "/v1/players/1007/calculations/fide-standard/2026-10",
        "/health",
    ]

    async def run() -> tuple[int, list[int]]:
        async with app.router.lifespan_context(app):
            tokens = to_thread.current_default_thread_limiter().total_tokens
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://api") as client:
                answers = await asyncio.wait_for(
                    asyncio.gather(*(client.get(paths[i % len(paths)]) for i in range(REQUESTS))),
                    timeout=120,
                )
        return int(tokens), [answer.status_code for answer in answers]

    tokens, statuses = asyncio.run(run())
    assert tokens == THREADS  # the lifespan set the app's thread count
    assert statuses == [200] * REQUESTS
    assert 1 <= peak <= bound
    assert in_use == 0
