"""The read-only HTTP API and web pages (docs/api.md): FastAPI, served by uvicorn.

``create_app(settings)`` builds the app; ``serve(settings)`` runs it.
"""

from ratingdb.api.app import create_app
from ratingdb.api.server import serve

__all__ = ["create_app", "serve"]
