"""Corrections previewed in the back office and never confirmed nor discarded: once their
lifetime is over they are marked expired and the files uploaded with them dropped, so that
an officer who never comes back leaves no file behind
(ratingdb.services.correction_requests)."""

from __future__ import annotations

import logging
from datetime import datetime

from ratingdb.config import Settings
from ratingdb.db import make_engine, make_sessionmaker
from ratingdb.failures import require_ready_database
from ratingdb.services.correction_requests import expire_previews as expire

NAME = "expire-previews"
log = logging.getLogger("jobs.expire_previews")


def expire_previews(settings: Settings, now: datetime) -> int:
    """Expire what is past its lifetime at ``now``, in one transaction; how many."""
    require_ready_database(settings.database_url)
    engine = make_engine(settings.database_url)
    try:
        with make_sessionmaker(engine).begin() as session:
            expired = expire(session, now)
    finally:
        engine.dispose()
    log.info("%d correction preview(s) expired", expired)
    return expired
