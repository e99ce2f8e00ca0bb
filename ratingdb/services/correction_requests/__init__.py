"""Corrections as the back office receives them: a game's result, a tournament replaced by a
corrected file (or withdrawn: its games replaced by none, ``withdraw``), two players merged,
an imported list replaced by a corrected file.

Each request runs through the same service as the command line (``services.corrections``),
with the signed-in user as the audit actor. A dry run is that same run inside a SAVEPOINT
rolled back: nothing of it stays. Its report, the *impact*, names the lists that would get a
new revision and who changes in each, by how much, with their names.

The web pages keep a previewed correction server-side until the officer confirms it
(``correction_previews``): the request's fields, its reason, the uploaded file's bytes and the
impact shown, with its digest. A confirmation applies exactly that request and only if its
impact is still the one shown: it re-runs the correction and compares; when anything moved in
between (another correction, a close), nothing is applied and the preview is updated with the
new impact for the officer to read and confirm again. A preview belongs to the officer who made
it (nobody else may confirm it), is applied once, and expires after ``PREVIEW_LIFETIME``.

Errors name the request's fields (``tournament``, ``round``, ``white``, ``black``,
``result``, ``keep``, ``drop``, ``override``, ``category``, ``period``, ``format``, ``file``,
``reason``), not the command line's options; an error in a file names the uploaded file, its
line and column. A merge refused for its conflicts raises ``MergeConflicts``, which carries both
records and the conflicts for the form to show; a merge's impact shows them too
(``services.corrections.merges``).

``requests`` checks a request, ``running`` runs it (for real or as a dry run) and reports its
impact, ``previews`` keeps it for the web pages until it is confirmed.
"""

from __future__ import annotations

from ratingdb.services.correction_requests.previews import (
    confirm,
    discard,
    expire_previews,
    list_previews,
    preview,
    show_preview,
)
from ratingdb.services.correction_requests.requests import (
    FIELDS,
    GAME,
    KINDS,
    LIST,
    LIST_FORMATS,
    MERGE,
    OPTIONAL,
    PREVIEW_LIFETIME,
    RESULT_CHOICES,
    TOURNAMENT,
    WITH_FILE,
    WITHDRAW,
    Confirmation,
    CorrectionRequest,
    PreviewConflict,
    PreviewNotFound,
    Ran,
    check_reason,
    form_field,
    is_withdrawal,
)
from ratingdb.services.correction_requests.running import (
    apply,
    document,
    dry_run,
    impact_digest,
)
from ratingdb.services.corrections.merges import MergeConflicts
from ratingdb.services.tournaments import FORMATS as TOURNAMENT_FORMATS

__all__ = [
    "FIELDS",
    "GAME",
    "KINDS",
    "LIST",
    "LIST_FORMATS",
    "MERGE",
    "OPTIONAL",
    "PREVIEW_LIFETIME",
    "RESULT_CHOICES",
    "TOURNAMENT",
    "TOURNAMENT_FORMATS",
    "WITHDRAW",
    "WITH_FILE",
    "Confirmation",
    "CorrectionRequest",
    "MergeConflicts",
    "PreviewConflict",
    "PreviewNotFound",
    "Ran",
    "apply",
    "check_reason",
    "confirm",
    "discard",
    "document",
    "dry_run",
    "expire_previews",
    "form_field",
    "impact_digest",
    "is_withdrawal",
    "list_previews",
    "preview",
    "show_preview",
]
