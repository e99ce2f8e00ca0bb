"""Logs as text (the default) or as JSON lines (``RATINGDB_LOG_FORMAT=json``), for a log
collector to parse. The same records either way; only their form differs.

A JSON line holds ``time`` (ISO 8601, UTC, milliseconds), ``level``, ``logger`` and
``message``, then ``exception`` (the traceback) when there is one; an access-log line of the
servers adds ``client``, ``method``, ``path``, ``http_version`` and ``status``.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any, Literal

LogFormat = Literal["text", "json"]
FORMATS: tuple[LogFormat, ...] = ("text", "json")

#: The layout of the text lines of ``python -m jobs`` (as before the JSON form existed).
JOBS_TEXT = "%(asctime)s %(name)s %(message)s"
#: uvicorn's access log: ``(client, method, path, http_version, status)`` as the record's args.
ACCESS_LOGGER = "uvicorn.access"
ACCESS_FIELDS = ("client", "method", "path", "http_version", "status")


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (a newline in a message is escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if (
            record.name == ACCESS_LOGGER
            and isinstance(record.args, tuple)
            and len(record.args) == len(ACCESS_FIELDS)
        ):
            line.update(zip(ACCESS_FIELDS, record.args, strict=True))
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(log_format: LogFormat) -> None:
    """The logging of ``python -m jobs``: INFO and above on stderr, in ``log_format``."""
    handler = logging.StreamHandler(sys.stderr)
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(JOBS_TEXT)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for existing in list(root.handlers):
        root.removeHandler(existing)
    root.addHandler(handler)
    root.setLevel(logging.INFO)


def uvicorn_log_config(log_format: LogFormat) -> dict[str, Any] | None:
    """uvicorn's ``log_config`` for a server: None (text) leaves uvicorn's own; JSON sends the
    server's, the access log's and every other logger's records (WARNING and above, as
    Python's last-resort handler shows them in text) as JSON lines, on the same streams."""
    if log_format == "text":
        return None
    formatter = {"()": f"{__name__}.JsonFormatter"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": formatter},
        "handlers": {
            "default": {"formatter": "json", "class": "logging.StreamHandler",
                        "stream": "ext://sys.stderr"},
            "access": {"formatter": "json", "class": "logging.StreamHandler",
                       "stream": "ext://sys.stdout"},
        },
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            ACCESS_LOGGER: {"handlers": ["access"], "level": "INFO", "propagate": False},
        },
        "root": {"handlers": ["default"], "level": "WARNING"},
    }  # fmt: skip
