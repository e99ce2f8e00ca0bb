"""Publication: each category's next list previewed as a close now would publish it (the dry
run), published on an officer's approval, and the scheduled close of a category published with
approval (docs/backoffice.md, "Publication").

Each category is published ``automatic`` (the default: the scheduled close publishes its list
at the cut-off) or with ``approval`` (``Settings.publication_approval``): the scheduled close
then computes the list at the cut-off, leaves the period ``awaiting-approval`` with when it
computed it and its digest, publishes nothing, and closes no later period of the category (each
starts from the one before). An officer previews the list and approves it: the approval
recomputes the list inside the close itself (``close_period(before_publishing=...)``, the code
``ratingdb periods close`` runs) and publishes it only if it is the list previewed, the same
digest; otherwise nothing is written and the officer is told why it differs: tournaments added,
removed or corrected since the preview, corrections, revised starting lists, and the entries
that differ. Approved before the cut-off, the list is published by the scheduled close if it is
still the same then. ``ratingdb periods close`` stays the trusted path and publishes directly.

Every preview shown is kept (``publication_previews``, once per distinct list): what it was
computed from and the entries that change, to explain a difference later.
"""

from ratingdb.services.publication.approval import approve, scheduled_close
from ratingdb.services.publication.modes import (
    MODES,
    CategoryMode,
    approval_categories,
    category_modes,
    set_mode,
)
from ratingdb.services.publication.preview import (
    next_periods,
    parse_category,
    parse_period,
    preview,
)
from ratingdb.services.publication.shown import (
    APPROVAL,
    AUTOMATIC,
    AWAITING_APPROVAL,
    AlreadyPublished,
    Approval,
    Approved,
    Change,
    IncludedTournament,
    ListChanged,
    NextPeriod,
    Preview,
    PublicationConflict,
    mode_of,
)

__all__ = [
    "APPROVAL",
    "AUTOMATIC",
    "AWAITING_APPROVAL",
    "MODES",
    "AlreadyPublished",
    "Approval",
    "Approved",
    "CategoryMode",
    "Change",
    "IncludedTournament",
    "ListChanged",
    "NextPeriod",
    "Preview",
    "PublicationConflict",
    "approval_categories",
    "approve",
    "category_modes",
    "mode_of",
    "next_periods",
    "parse_category",
    "parse_period",
    "preview",
    "scheduled_close",
    "set_mode",
]
