"""The scheduler: APScheduler 3 in the foreground, the schedule in code, a catch-up at start.

Exactly one scheduler should run per deployment, but a second one (or a manual run) is safe:
the close claims each period in the database.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from types import FrameType
from wsgiref.simple_server import WSGIServer

from apscheduler.events import (
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_MAX_INSTANCES,
    EVENT_JOB_MISSED,
    JobEvent,
    JobExecutionEvent,
)
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger
from prometheus_client import start_http_server

from ratingdb.config import Settings
from ratingdb.failures import require_ready_database
from ratingdb.observability import metrics

#: Each day shortly after midnight UTC: a closing date "has passed" once its day is over.
DAILY = CronTrigger(hour=0, minute=15, timezone=UTC)

log = logging.getLogger("jobs.scheduler")


def build_scheduler(jobs: dict[str, Callable[[], object]]) -> BlockingScheduler:
    scheduler = BlockingScheduler(
        timezone=UTC,
        job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
    )
    for name, job in jobs.items():
        # next_run_time=now: the catch-up run at start, then every day.
        scheduler.add_job(job, DAILY, id=name, name=name, next_run_time=datetime.now(UTC))
    report_job_problems(scheduler)
    count_runs(scheduler, tuple(jobs))
    return scheduler


def count_runs(scheduler: BaseScheduler, names: tuple[str, ...]) -> None:
    """Each run that ends, fails, is missed or skipped, in the scheduler's metrics
    (``ratingdb_scheduler_*``), the series of ``names`` at 0 from the start."""
    metrics.scheduler_jobs(names)

    def count(event: JobEvent) -> None:
        if event.code == EVENT_JOB_EXECUTED:
            metrics.job_ended(event.job_id, failed=False)
        elif event.code == EVENT_JOB_ERROR:
            metrics.job_ended(event.job_id, failed=True)
        else:
            metrics.job_missed(event.job_id)

    scheduler.add_listener(
        count, EVENT_JOB_EXECUTED | EVENT_JOB_ERROR | EVENT_JOB_MISSED | EVENT_JOB_MAX_INSTANCES
    )


def report_job_problems(scheduler: BaseScheduler) -> None:
    """Log what APScheduler would otherwise keep to itself: a job that failed (with its
    traceback), a run that was missed, a run skipped because the previous one still runs."""

    def report(event: JobEvent) -> None:
        if isinstance(event, JobExecutionEvent) and event.code == EVENT_JOB_ERROR:
            log.error(
                "job %s failed (run of %s): %s\n%s",
                event.job_id,
                event.scheduled_run_time,
                event.exception,
                event.traceback,
            )
        elif event.code == EVENT_JOB_MISSED:
            log.warning("job %s missed its run of %s", event.job_id, event.scheduled_run_time)
        elif event.code == EVENT_JOB_MAX_INSTANCES:
            log.warning(
                "job %s skipped its run of %s: the previous run is still going",
                event.job_id,
                getattr(event, "scheduled_run_times", None),
            )

    scheduler.add_listener(report, EVENT_JOB_ERROR | EVENT_JOB_MISSED | EVENT_JOB_MAX_INSTANCES)


def run_scheduler(settings: Settings, actor: str) -> None:
    """``python -m jobs scheduler``: refuse a database that is not at the latest schema, then
    run until SIGTERM or SIGINT, which let a running close finish before the process exits."""
    require_ready_database(settings.database_url)
    scheduler = build_scheduler(scheduled_jobs(settings, actor))
    exposed = _serve_metrics(settings)
    stopping: list[threading.Thread] = []

    def stop(signum: int, _frame: FrameType | None) -> None:
        if stopping:
            return
        log.info("%s: stopping once the running job, if any, is done", signal.Signals(signum).name)
        # Not in the handler itself: shutting down waits for the running job.
        stopper = threading.Thread(target=scheduler.shutdown, name="scheduler-stop")
        stopping.append(stopper)
        stopper.start()

    previous = {number: signal.signal(number, stop) for number in (signal.SIGTERM, signal.SIGINT)}
    try:
        log.info("scheduler started")
        scheduler.start()
    finally:
        for stopper in stopping:
            stopper.join()
        for number, handler in previous.items():
            signal.signal(number, handler)
        if exposed is not None:
            exposed.shutdown()
            exposed.server_close()
    log.info("scheduler stopped")


def _serve_metrics(settings: Settings) -> WSGIServer | None:
    """The scheduler's ``/metrics`` (its runs, failures, closes and this process), on
    ``scheduler_metrics_host:scheduler_metrics_port`` in a thread of its own; port 0: none."""
    if not settings.scheduler_metrics_port:
        return None
    metrics.listen_to_services()
    registry = metrics.app_registry(work=True, scheduler=True)
    server, _ = start_http_server(
        settings.scheduler_metrics_port, addr=settings.scheduler_metrics_host, registry=registry
    )
    log.info(
        "metrics on http://%s:%d/metrics",
        settings.scheduler_metrics_host,
        server.server_port,
    )
    return server


def scheduled_jobs(settings: Settings, actor: str) -> dict[str, Callable[[], object]]:
    """The jobs; the close records ``actor`` in the audit log (expiring previews changes no
    rating and is not audited)."""
    from jobs import close_periods, expire_previews

    return {
        close_periods.NAME: lambda: close_periods.close_periods(settings, datetime.now(UTC), actor),
        expire_previews.NAME: lambda: expire_previews.expire_previews(settings, datetime.now(UTC)),
    }
