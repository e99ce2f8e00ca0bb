"""The scheduler: APScheduler 3 in the foreground, the schedule in code, a catch-up at start.

Exactly one scheduler should run per deployment, but a second one (or a manual run) is safe:
the close claims each period in the database.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger

from ratingdb.config import Settings

#: Each day shortly after midnight UTC: a closing date "has passed" once its day is over.
DAILY = CronTrigger(hour=0, minute=15, timezone=UTC)


def build_scheduler(jobs: dict[str, Callable[[], object]]) -> BlockingScheduler:
    scheduler = BlockingScheduler(
        timezone=UTC,
        job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
    )
    for name, job in jobs.items():
        # next_run_time=now: the catch-up run at start, then every day.
        scheduler.add_job(job, DAILY, id=name, name=name, next_run_time=datetime.now(UTC))
    return scheduler


def scheduled_jobs(settings: Settings, actor: str) -> dict[str, Callable[[], object]]:
    """The jobs, each recording ``actor`` in the audit log."""
    from jobs.close_periods import NAME, close_periods

    return {NAME: lambda: close_periods(settings, datetime.now(UTC), actor)}
