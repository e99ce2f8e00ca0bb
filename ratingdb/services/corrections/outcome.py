"""What every correction shares: a reason, required, and its outcome (the revisions it
published, the open periods it changed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ratingdb.enums import CorrectionKind
from ratingdb.errors import InputError
from ratingdb.rules.messages import N_, Message
from ratingdb.services.revisions import Revision


@dataclass(frozen=True, slots=True)
class CorrectionOutcome:
    correction_id: int
    kind: CorrectionKind
    revisions: tuple[Revision, ...]
    pending: tuple[str, ...]  # "category period" of open periods the correction changes
    #: What the kind of correction reports besides (a merge: both records, their conflicts and
    #: the override), as JSON.
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "correction_id": self.correction_id,
            "kind": self.kind,
            "revisions": [revision.as_json() for revision in self.revisions],
            "open_periods_changed": list(self.pending),
        } | self.extra


#: What ``require_reason`` says of each kind of correction without a reason.
CORRECTION: Final = N_("a correction needs a reason")
WITHDRAWAL: Final = N_("a withdrawal needs a reason")
MERGE: Final = N_("a merge needs a reason")


def require_reason(reason: str, needed: str) -> None:
    """Refused without a reason: ``needed`` says so (``CORRECTION``, ``WITHDRAWAL``,
    ``MERGE``)."""
    if not reason.strip():
        raise InputError(Message(needed), field="reason")
