"""Where the action being audited comes from: its channel (web, API token, command, scheduled
job) and the credential it came with. Set once by each edge (the back office's guard for a
request, the command line and the jobs for their process) and read by
``ratingdb.services.audit.record``, so that no service needs to pass it along. Light: the
command line sets it before anything heavy is imported."""

from __future__ import annotations

import getpass
import os
from contextvars import ContextVar
from dataclasses import dataclass

from ratingdb.enums import AuditChannel

#: Longest credential the audit log keeps (``audit_log.credential``).
CREDENTIAL_LENGTH = 120


@dataclass(frozen=True, slots=True)
class Origin:
    channel: AuditChannel
    #: ``session``, ``token LABEL (#ID)``, ``os user NAME``; None when there is none
    #: (``direct``: Python code calling the services).
    credential: str | None = None


DIRECT = Origin(AuditChannel.DIRECT)
#: A request's origin (the back office's guard sets it in the request's context).
_current: ContextVar[Origin | None] = ContextVar("ratingdb_origin", default=None)
#: The process's origin (a command, the scheduler), for every thread of it.
_process = DIRECT


def current() -> Origin:
    return _current.get() or _process


def set_current(origin: Origin) -> None:
    """For the rest of this context: one request's task and what it runs."""
    _current.set(origin)


def current_process() -> Origin:
    return _process


def set_process(origin: Origin) -> None:
    """For the whole process and all its threads (the command line, the scheduled jobs)."""
    global _process
    _process = origin


def operating_system_user() -> str:
    """Who runs this process: ``os user NAME``, or ``os uid N`` where the user has no name
    (a container started with an arbitrary uid)."""
    try:
        return f"os user {getpass.getuser()}"[:CREDENTIAL_LENGTH]
    except (KeyError, OSError):
        return f"os uid {os.getuid()}"
