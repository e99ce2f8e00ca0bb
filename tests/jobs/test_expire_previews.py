"""``python -m jobs run expire-previews``: corrections previewed in the back office and left
waiting past their lifetime (24 hours) are expired and their uploaded files dropped, whoever
made them; what was decided, and what is younger, stays as it is. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine

from jobs.expire_previews import expire_previews
from ratingdb.config import Settings
from ratingdb.db import make_sessionmaker
from ratingdb.enums import CorrectionKind, PreviewState, Role
from ratingdb.models import CorrectionPreviewRow
from ratingdb.services import accounts
from tests.support.cli import run_process
from tests.support.sql import query

NOW = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
FILE = b"012 corrected tournament\n"


def add_previews(engine: Engine) -> dict[str, int]:
    """Two officers' previews: waiting, made 23, 25 and 26 h before NOW; applied, 30 h."""
    waiting, applied = PreviewState.PREVIEWED, PreviewState.APPLIED
    ages = {"old": (25, waiting, "ann"), "young": (23, waiting, "ann"),
            "other": (26, waiting, "ben"), "applied": (30, applied, "ann")}  # fmt: skip
    ids = {}
    with make_sessionmaker(engine).begin() as session:
        users = {
            name: accounts.add_user(
                session,
                name,
                Role.OFFICER,
                "a long enough password",
                by=None,
                actor="test",
                now=NOW,
            ).id
            for name in ("ann", "ben")
        }
        for label, (hours, state, user) in ages.items():
            row = CorrectionPreviewRow(
                kind=CorrectionKind.TOURNAMENT, user_id=users[user], state=state,
                inputs={"tournament": "T000001"}, reason="corrected file", filename="t.trf",
                content=FILE, file_digest="0" * 64, impact={}, impact_digest="0" * 64,
                created_at=NOW - timedelta(hours=hours),
            )  # fmt: skip
            session.add(row)
            session.flush()
            ids[label] = row.id
    return ids


def stored(url: str) -> dict[int, tuple[str, bool]]:
    rows = query(url, "SELECT id, state, content IS NULL FROM correction_previews")
    return {row[0]: (row[1], bool(row[2])) for row in rows}


def test_previews_past_their_lifetime_expire_whoever_made_them(
    engine: Engine, database_url: str
) -> None:
    ids = add_previews(engine)
    assert expire_previews(Settings.from_env({}, database_url=database_url), NOW) == 2
    assert stored(database_url) == {
        ids["old"]: ("expired", True),  # 25 h: expired, its file dropped
        ids["other"]: ("expired", True),  # another officer's too
        ids["young"]: ("previewed", False),  # 23 h: still waiting, with its file
        ids["applied"]: ("applied", False),  # decided: as it was
    }
    # Again: nothing more to expire.
    assert expire_previews(Settings.from_env({}, database_url=database_url), NOW) == 0


@pytest.mark.processes
def test_the_job_runs_from_the_command_line(engine: Engine, database_url: str) -> None:
    ids = add_previews(engine)
    later = (NOW + timedelta(hours=2)).isoformat()  # the 23 h one is 25 h old by then
    out = run_process("run", "expire-previews", "--now", later, url=database_url, module="jobs")
    assert json.loads(out) == {"expired": 3}
    assert stored(database_url)[ids["young"]] == ("expired", True)
