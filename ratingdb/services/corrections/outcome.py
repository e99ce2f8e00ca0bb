"""What every correction shares: a reason, required, and its outcome (the revisions it
published, the open periods it changed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ratingdb.enums import CorrectionKind
from ratingdb.errors import InputError
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


def require_reason(reason: str, what: str) -> None:
    if not reason.strip():
        raise InputError(f"{what} needs a reason", field="reason")
