"""benchmarks/api_load.py's measurement against a server slower than the measured window (a
loaded machine): every client still counts its answers, so a figure is slow, never missing
(a run once measured /health at 50 clients as no request at all, and had no ratio to give)."""

from __future__ import annotations

import asyncio

from benchmarks.api_load import measure

#: Each answer takes this long; the window measured is far shorter.
ANSWER_S = 0.2
WINDOW_S = 0.02


async def slow_server() -> tuple[asyncio.Server, int]:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                await reader.readuntil(b"\r\n\r\n")
                await asyncio.sleep(ANSWER_S)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_answers_slower_than_the_window_are_counted() -> None:
    async def run() -> tuple[int, int, float, list[float]]:
        server, port = await slow_server()
        async with server:
            figures = await measure(port, ["/health"], 3, WINDOW_S, 0.0)
        return figures.requests, figures.errors, figures.seconds, figures.latencies_ms

    requests, errors, seconds, latencies = asyncio.run(run())
    assert requests == 3  # one answer each: sent in the window, answered after it
    assert errors == 0
    assert len(latencies) == 3
    assert min(latencies) >= ANSWER_S * 1000
    # Requests per second over the window and the wait for the last answer, not the window.
    assert ANSWER_S <= seconds < ANSWER_S + 1.0
