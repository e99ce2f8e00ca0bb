"""The default of every setting, the environment variable and the command-line option of each.

Standard library only: the command line shows these in its help without importing pydantic or
SQLAlchemy (``ratingdb --help`` starts in a blink). ``ratingdb.config.Settings`` is built from
them when a command runs.
"""

from __future__ import annotations

#: Every setting is read from the environment variable of this prefix and the setting's name in
#: capitals: ``serve_port`` from ``RATINGDB_SERVE_PORT``.
ENV_PREFIX = "RATINGDB_"

#: A SQLite file in the current directory (docs/cli.md §1.1).
DATABASE_URL = "sqlite:///ratingdb.sqlite3"

SERVE_HOST = "127.0.0.1"
SERVE_PORT = 8000
SERVE_WORKERS = 1
MAX_WORKERS = 64
#: Threads running SQLite reads, per worker (why so few: ``ratingdb.api.app``).
SERVE_THREADS = 4
MAX_THREADS = 256
#: Memory for rendered list pages, per worker (``ratingdb.api.caches``).
SERVE_PAGE_CACHE_MB = 64
MAX_PAGE_CACHE_MB = 1024 * 1024
SERVE_ACCESS_LOG = True
#: What one connection may cost the server (``ratingdb.api.protocol``).
SERVE_LIMIT_REQUEST_HEAD = 16 * 1024
SERVE_LIMIT_REQUEST_FIELDS = 100
SERVE_TIMEOUT_REQUEST_HEAD = 10
SERVE_TIMEOUT_KEEP_ALIVE = 5

#: The public site's address, from which absolute links (the Atom feed's) are built; never the
#: request's Host header. None: the feed's links are relative to the feed.
PUBLIC_BASE_URL: str | None = None

BACKOFFICE_HOST = "127.0.0.1"
BACKOFFICE_PORT = 8001
BACKOFFICE_SECURE_COOKIES = False

#: The categories whose scheduled close waits for an officer's approval (none: every category
#: is published automatically at its cut-off).
PUBLICATION_APPROVAL: tuple[()] = ()

#: The command-line option that overrides each setting given one (the others come from the
#: environment only). ``serve_host`` and ``serve_port`` are also ``ratingdb demo``'s.
OPTIONS = {
    "database_url": "--database-url",
    "actor": "--actor",
    "debug": "--debug",
    "serve_host": "--host",
    "serve_port": "--port",
    "serve_workers": "--workers",
    "serve_threads": "--threads",
    "serve_page_cache_mb": "--page-cache-mb",
    "serve_access_log": "--no-access-log",
    "serve_limit_request_head": "--limit-request-head",
    "serve_limit_request_fields": "--limit-request-fields",
    "serve_timeout_request_head": "--timeout-request-head",
    "serve_timeout_keep_alive": "--timeout-keep-alive",
    "backoffice_host": "--host",
    "backoffice_port": "--port",
    "backoffice_secure_cookies": "--secure-cookies",
}


def variable(name: str) -> str:
    """The environment variable of the setting ``name``."""
    return ENV_PREFIX + name.upper()


def debug_enabled(text: str) -> bool:
    """``RATINGDB_DEBUG``: anything but empty or ``0`` turns it on."""
    return text.strip() not in ("", "0")
