"""The closed sets of values the tables hold: states, kinds, sources, roles, one ``StrEnum``
each (the rating categories are the rules core's: ``ratingdb.rules.Category``).

Pure Python and light, so that every layer can name a case: the models map a column to its
enum (``Mapped[PeriodState]``, a VARCHAR with a CHECK naming the values, on SQLite and
PostgreSQL alike: ``ratingdb.models.base.enum_column``), the services and repositories compare
with the cases, and the command line's parser offers them as choices without importing the
database. A member is a ``str`` equal to its value: it prints, formats and goes to JSON as the
value.

Adding a case is one line here; the CHECK of its column changes with it, so it also needs an
Alembic revision (and a column that is long enough: ``enum_column`` refuses a value longer
than its column).
"""

from __future__ import annotations

from enum import StrEnum


class PeriodState(StrEnum):
    """Where a rating period stands (``periods.state``)."""

    #: Tournaments may still be added.
    OPEN = "open"
    #: Claimed by a close (``claimed_by``, ``claimed_at``).
    CLOSING = "closing"
    #: Computed at the cut-off by the scheduled close (``computed_at``, ``computed_digest``),
    #: waiting for an officer's approval (publication mode ``approval``).
    AWAITING_APPROVAL = "awaiting-approval"
    #: Its list is out and never changes.
    PUBLISHED = "published"


class ListSource(StrEnum):
    """Where a published list comes from (``rating_lists.source``)."""

    #: Loaded from a list published elsewhere (``lists import``).
    IMPORT = "import"
    #: Computed by a period close.
    CLOSE = "close"


class CorrectionKind(StrEnum):
    """What a correction replaced (``corrections.kind``)."""

    #: One game's result (``games correct``).
    GAME = "game"
    #: A tournament replaced by a corrected file (``tournaments import --replace``).
    TOURNAMENT = "tournament"
    #: Two records of one player made one (``players merge``).
    MERGE = "merge"
    #: An imported list replaced by a corrected file (``lists import --replace``).
    LIST_REPLACE = "list-replace"


class PreviewState(StrEnum):
    """Where a correction previewed in the back office stands (``correction_previews.state``)."""

    #: Shown, waiting for the officer's confirmation.
    PREVIEWED = "previewed"
    #: Confirmed and applied (``correction_id``).
    APPLIED = "applied"
    #: Dropped by the officer.
    DISCARDED = "discarded"
    #: Not confirmed in time.
    EXPIRED = "expired"


class TournamentFormat(StrEnum):
    """The file a tournament was read from (``tournaments.source_format``,
    ``submissions.source_format``)."""

    CSV = "csv"
    TRF = "trf"


class SubmissionState(StrEnum):
    """Where a file sent through the back office stands (``submissions.state``)."""

    #: Checked, waiting for an officer.
    SUBMITTED = "submitted"
    #: Stored as tournaments (rated).
    ACCEPTED = "accepted"
    #: Refused with a reason the submitter sees.
    REJECTED = "rejected"


class Role(StrEnum):
    """What a back-office user may do (``users.role``); each user has exactly one."""

    #: Uploads tournaments.
    ARBITER = "arbiter"
    #: Reviews, publishes, corrects.
    OFFICER = "officer"
    #: Manages users.
    ADMIN = "admin"


class SignInOutcome(StrEnum):
    """How a sign-in attempt ended (``sign_in_attempts.outcome``); only failures count
    towards throttling."""

    SUCCESS = "success"
    #: A wrong name or password, a disabled user.
    FAILURE = "failure"
    #: Throttled: the password was not even checked.
    REFUSED = "refused"


class TokenScope(StrEnum):
    """What an API token may do (``api_tokens.scope``), chosen when it is issued: never more
    than its owner's role allows, and never more than this. Each scope includes the ones
    before it."""

    #: GET routes only.
    READ = "read"
    #: Also send tournament files (``POST /admin/v1/submissions``): a pairing program's.
    SUBMIT = "submit"
    #: Everything the owner's role may do.
    FULL = "full"


class AuditChannel(StrEnum):
    """How an audited action reached ratingdb (``audit_log.channel``)."""

    #: A signed-in browser (a back-office session).
    WEB = "web"
    #: The back office's JSON API, with a bearer token.
    API = "api"
    #: A ``ratingdb`` command.
    CLI = "cli"
    #: A scheduled job (``python -m jobs``).
    SCHEDULER = "scheduler"
    #: Python code calling the services directly (a script, a test): none of the above.
    DIRECT = "direct"


class PlayerStanding(StrEnum):
    """A player's standing from a date on (``player_status_changes.status``; docs/rules.md,
    "A player's status"): what it does to the lists published from that date."""

    #: Plays and is listed as usual (the standing of every player with no change recorded).
    ACTIVE = "active"
    #: Died: left out of every list published from that date on.
    DECEASED = "deceased"
    #: Barred from rated play for a while (a disciplinary decision): still on the lists,
    #: flagged, their rating kept.
    SUSPENDED = "suspended"
    #: Asked to be taken off (or their federation did): left out of every list published from
    #: that date on, until a later change makes them active again.
    WITHDRAWN = "withdrawn"
