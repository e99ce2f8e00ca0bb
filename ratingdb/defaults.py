"""The default of every setting, the environment variable and the command-line option of each.

Standard library only: the command line shows these in its help without importing pydantic or
SQLAlchemy (``ratingdb --help`` starts in a blink). ``ratingdb.config.Settings`` is built from
them when a command runs.
"""

from __future__ import annotations

from typing import Literal

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
#: Seconds a request body has to arrive once its head is complete (nginx's
#: ``client_body_timeout`` is 60 between two reads; this bounds the whole body).
SERVE_TIMEOUT_REQUEST_BODY = 60
#: Addresses (IPs or CIDRs, comma-separated) whose X-Forwarded-For/-Proto are believed; empty:
#: none, the peer of the socket is the client.
SERVE_TRUSTED_PROXIES = ""

#: The public site's address, from which absolute links (the Atom feed's) are built; never the
#: request's Host header. None: the feed's links are relative to the feed.
PUBLIC_BASE_URL: str | None = None
#: The federation's name, logo (the path of an image file) and contact address on the public
#: site (``ratingdb.site_config``); none: the pages say "ratingdb" and show no report link.
FEDERATION_NAME: str | None = None
FEDERATION_LOGO: str | None = None
CONTACT_EMAIL: str | None = None

BACKOFFICE_HOST = "127.0.0.1"
BACKOFFICE_PORT = 8001
BACKOFFICE_SECURE_COOKIES = False
#: What one connection may cost the back office: as ``serve``'s, plus a bound on connections
#: open at once (more get 503) and on uploads processed at once (``ratingdb.backoffice.uploads``).
BACKOFFICE_LIMIT_REQUEST_HEAD = SERVE_LIMIT_REQUEST_HEAD
BACKOFFICE_LIMIT_REQUEST_FIELDS = SERVE_LIMIT_REQUEST_FIELDS
BACKOFFICE_TIMEOUT_REQUEST_HEAD = SERVE_TIMEOUT_REQUEST_HEAD
BACKOFFICE_TIMEOUT_KEEP_ALIVE = SERVE_TIMEOUT_KEEP_ALIVE
BACKOFFICE_TIMEOUT_REQUEST_BODY = SERVE_TIMEOUT_REQUEST_BODY
BACKOFFICE_LIMIT_CONNECTIONS = 64
MAX_CONNECTIONS = 100_000
BACKOFFICE_UPLOAD_CONCURRENCY = 2
MAX_UPLOAD_CONCURRENCY = 64
BACKOFFICE_TRUSTED_PROXIES = ""

#: The categories whose scheduled close waits for an officer's approval (none: every category
#: is published automatically at its cut-off).
PUBLICATION_APPROVAL: tuple[()] = ()

#: ``/metrics`` on the API and the back office, in Prometheus' text format (off: a 404, and
#: nothing counted).
METRICS = True
#: The logs of the servers and the scheduler: ``text`` or ``json`` (one JSON object a line).
LOG_FORMAT: Literal["text", "json"] = "text"
#: Where the scheduler serves its own ``/metrics``; port 0: it serves none.
SCHEDULER_METRICS_HOST = "127.0.0.1"
SCHEDULER_METRICS_PORT = 0

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
    "serve_timeout_request_body": "--timeout-request-body",
    "serve_trusted_proxies": "--trusted-proxies",
    "backoffice_host": "--host",
    "backoffice_port": "--port",
    "backoffice_secure_cookies": "--secure-cookies",
    "backoffice_limit_request_head": "--limit-request-head",
    "backoffice_limit_request_fields": "--limit-request-fields",
    "backoffice_timeout_request_head": "--timeout-request-head",
    "backoffice_timeout_keep_alive": "--timeout-keep-alive",
    "backoffice_timeout_request_body": "--timeout-request-body",
    "backoffice_limit_connections": "--limit-connections",
    "backoffice_upload_concurrency": "--upload-concurrency",
    "backoffice_trusted_proxies": "--trusted-proxies",
}


def variable(name: str) -> str:
    """The environment variable of the setting ``name``."""
    return ENV_PREFIX + name.upper()


def debug_enabled(text: str) -> bool:
    """``RATINGDB_DEBUG``: anything but empty or ``0`` turns it on."""
    return text.strip() not in ("", "0")
