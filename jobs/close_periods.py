"""The catch-up close: every period of every category whose closing date has passed, oldest
first, each in its own transaction. Two runs at once never close a period twice: the close
claims its period in the database (ratingdb.services.close).

A category published with approval (``RATINGDB_PUBLICATION_APPROVAL``) has its list computed
and left awaiting an officer's approval instead (ratingdb.services.publication); its later
periods wait, since each starts from the list before it."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.failures import require_ready_database
from ratingdb.rules import Category
from ratingdb.services.catch_up import due_periods
from ratingdb.services.close import CloseOutcome
from ratingdb.services.progress import terminal_progress
from ratingdb.services.publication import approval_categories, scheduled_close

NAME = "close-periods"
log = logging.getLogger("jobs.close_periods")


def close_periods(settings: Settings, now: datetime, actor: str) -> list[CloseOutcome]:
    """Close what is due at ``now``, in the audit log as ``actor``; a failure stops the run and
    propagates (the periods closed before it stay published, the failed one stays open)."""
    require_ready_database(settings.database_url)
    engine = make_engine(settings.database_url)
    factory = make_sessionmaker(engine)
    outcomes: list[CloseOutcome] = []
    try:
        for category in Category:
            with factory.begin() as session:
                due = due_periods(session, category, now.date())
                # The mode as stored now (an admin's choice) and as the setting forces it.
                approval = approval_categories(session, settings.publication_approval)
            for period in due:
                with factory.begin() as session:
                    outcome = scheduled_close(
                        session,
                        category,
                        period,
                        now=datetime.now(UTC),
                        actor=actor,
                        approval=approval,
                        track=terminal_progress,
                    )
                outcomes.append(outcome)
                if outcome.awaiting_approval:
                    log.info(
                        "%s %s is awaiting-approval (publication: approval): %d entries, %d games, "
                        "digest %s; nothing published, and the later periods of %s wait for it",
                        category.value,
                        period,
                        outcome.entries,
                        outcome.games,
                        outcome.digest,
                        category.value,
                    )
                    break
                if outcome.already_published:
                    log.info("%s %s is already published", category.value, period)
                else:
                    log.info(
                        "%s %s published: %d entries, %d games",
                        category.value,
                        period,
                        outcome.entries,
                        outcome.games,
                    )
    finally:
        engine.dispose()
    return outcomes
