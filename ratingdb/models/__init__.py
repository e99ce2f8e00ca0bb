"""The ORM tables, one module per family. Importing this package registers every table on
``Base.metadata`` (what migrations/env.py compares the database with)."""

from ratingdb.models.account import (
    ApiTokenRow,
    KnownDeviceRow,
    SignInAttemptRow,
    SignInThrottleRow,
    UserRow,
    WebSessionRow,
)
from ratingdb.models.audit import AuditRow, CorrectionRow
from ratingdb.models.base import Base
from ratingdb.models.calculation import PlayerCalculationsRow, RevisedPlayerRow
from ratingdb.models.correction_preview import CorrectionPreviewRow
from ratingdb.models.game import GameRow
from ratingdb.models.period import PeriodRow
from ratingdb.models.player import PlayerRow
from ratingdb.models.player_history import (
    PlayerEditsRow,
    PlayerFederationRow,
    PlayerStatusChangeRow,
    PlayerTitleRow,
)
from ratingdb.models.publication import PublicationModeRow, PublicationPreviewRow
from ratingdb.models.rating_list import (
    LatestEntryRow,
    LatestListRow,
    ListChunkRow,
    ListEntryRow,
    PlayerStatusRow,
    RatingListRow,
)
from ratingdb.models.submission import SubmissionRow
from ratingdb.models.tournament import TournamentRow

__all__ = [
    "ApiTokenRow",
    "AuditRow",
    "Base",
    "CorrectionPreviewRow",
    "CorrectionRow",
    "GameRow",
    "KnownDeviceRow",
    "LatestEntryRow",
    "LatestListRow",
    "ListChunkRow",
    "ListEntryRow",
    "PeriodRow",
    "PlayerCalculationsRow",
    "PlayerEditsRow",
    "PlayerFederationRow",
    "PlayerRow",
    "PlayerStatusChangeRow",
    "PlayerStatusRow",
    "PlayerTitleRow",
    "PublicationModeRow",
    "PublicationPreviewRow",
    "RatingListRow",
    "RevisedPlayerRow",
    "SignInAttemptRow",
    "SignInThrottleRow",
    "SubmissionRow",
    "TournamentRow",
    "UserRow",
    "WebSessionRow",
]
