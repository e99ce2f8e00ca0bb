"""The figures a process keeps, and the registries that show them.

Every label has a bounded set of values known in advance or fixed by the code: a category, a
job's name, an operation, an HTTP method from a closed list, a route *template*
(``/v1/players/{player_id}``, never the path asked for), a status code. None names a user, a
player or anything a request chose. Each app builds its own registry (:func:`app_registry`):
its requests' figures, this process's, and, in the back office and the scheduler, the work
figures below, which are this process's, shared by every registry that shows them.
"""

from __future__ import annotations

import time

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)

from ratingdb.rules import Category
from ratingdb.services import events

#: The content type of :func:`exposition`: Prometheus' text format.
CONTENT_TYPE = CONTENT_TYPE_LATEST

#: A close takes from well under a second (a club) to minutes (FIDE's standard list).
WORK_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, float("inf"))

# --- Closes and cascades (``ratingdb.services.events``), in whichever process runs them. ---
LIST_WRITE_SECONDS = Histogram(
    "ratingdb_list_write_duration_seconds",
    "Seconds a close (load, compute, write) or a cascade (every list it recalculates) took; "
    "its _count counts the closes and cascades.",
    ["operation", "category"],
    buckets=WORK_BUCKETS,
    registry=None,
)
LIST_WRITE_ROWS = Counter(
    "ratingdb_list_write_rows",
    "Rows written by closes and cascades: entries, markers, statuses, chunks, and calculations "
    "(one a game side, packed by player).",
    ["operation", "category"],
    registry=None,
)
LIST_WRITE_ENTRIES = Counter(
    "ratingdb_list_write_entries",
    "Players on the lists written by closes and cascades.",
    ["operation", "category"],
    registry=None,
)
LIST_WRITE_LISTS = Counter(
    "ratingdb_list_write_lists",
    "List revisions written: one per close, none or more per cascade.",
    ["operation", "category"],
    registry=None,
)
WORK = (LIST_WRITE_SECONDS, LIST_WRITE_ROWS, LIST_WRITE_ENTRIES, LIST_WRITE_LISTS)

# --- The scheduler's jobs (``jobs.scheduler``). ---
SCHEDULER_RUNS = Counter(
    "ratingdb_scheduler_runs",
    "Runs of a scheduled job that ended, failed or not.",
    ["job"],
    registry=None,
)
SCHEDULER_FAILURES = Counter(
    "ratingdb_scheduler_failures",
    "Runs of a scheduled job that failed (the scheduler's log has the traceback).",
    ["job"],
    registry=None,
)
SCHEDULER_MISSED = Counter(
    "ratingdb_scheduler_missed",
    "Runs of a scheduled job missed, or skipped because the previous run was still going.",
    ["job"],
    registry=None,
)
SCHEDULER_LAST_SUCCESS = Gauge(
    "ratingdb_scheduler_last_success_timestamp_seconds",
    "When a scheduled job last ended without failing (Unix time; 0: not since the start).",
    ["job"],
    registry=None,
)
SCHEDULER = (SCHEDULER_RUNS, SCHEDULER_FAILURES, SCHEDULER_MISSED, SCHEDULER_LAST_SUCCESS)

OPERATIONS: tuple[events.Operation, ...] = ("close", "cascade")

for _operation in OPERATIONS:
    for _category in Category:
        for _metric in WORK:
            _metric.labels(_operation, _category.value)


def record(event: events.ListsWritten) -> None:
    """A close or a cascade, in the work figures."""
    labels = (event.operation, event.category.value)
    LIST_WRITE_SECONDS.labels(*labels).observe(event.seconds)
    LIST_WRITE_ROWS.labels(*labels).inc(event.rows)
    LIST_WRITE_ENTRIES.labels(*labels).inc(event.entries)
    LIST_WRITE_LISTS.labels(*labels).inc(event.lists)


def listen_to_services() -> None:
    """From now on, every close and cascade this process runs is counted (once, however often
    this is called)."""
    events.subscribe(record)


def scheduler_jobs(names: tuple[str, ...]) -> None:
    """The series of each job, at 0 until its first run, so that an alert on them holds from
    the start."""
    for name in names:
        for metric in SCHEDULER:
            metric.labels(name)


def job_ended(name: str, *, failed: bool) -> None:
    SCHEDULER_RUNS.labels(name).inc()
    if failed:
        SCHEDULER_FAILURES.labels(name).inc()
    else:
        SCHEDULER_LAST_SUCCESS.labels(name).set(time.time())


def job_missed(name: str) -> None:
    SCHEDULER_MISSED.labels(name).inc()


def app_registry(*, work: bool = False, scheduler: bool = False) -> CollectorRegistry:
    """A registry with this process's figures (CPU, memory, open files, garbage collections),
    and the work figures and the scheduler's when asked; an app adds its requests'."""
    registry = CollectorRegistry(auto_describe=True)
    ProcessCollector(registry=registry)
    PlatformCollector(registry=registry)
    GCCollector(registry=registry)
    for metric in (*(WORK if work else ()), *(SCHEDULER if scheduler else ())):
        registry.register(metric)
    return registry


def exposition(registry: CollectorRegistry) -> bytes:
    """The registry in Prometheus' text format (:data:`CONTENT_TYPE`)."""
    return generate_latest(registry)
