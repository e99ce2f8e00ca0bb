"""Running the app: ``ratingdb serve`` and ``ratingdb demo`` call :func:`serve`."""

from __future__ import annotations

import uvicorn

from ratingdb.api.app import create_app
from ratingdb.config import Settings


def serve(settings: Settings, host: str, port: int) -> None:
    """Serve the API and the web pages with uvicorn in the foreground, until interrupted."""
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        log_level="info",
        # Behind a proxy (compose, a load balancer) the client address comes from it.
        proxy_headers=True,
        server_header=False,
    )
