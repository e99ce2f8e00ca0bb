"""Published lists: importing a list published elsewhere (the starting point: a list CSV or a
FIDE download, TXT or XML), its digest, and exporting a published list.

- ``imported``: what every import shares (checks, the list row, an imported entry);
- ``importing``: ``lists import`` and the list CSV; ``fide``: the FIDE downloads;
- ``digest``: the digest of a list's canonical content;
- ``export``: ``lists export``, the writing (its reading is the read side's:
  ``services.published.lists``).
"""

from ratingdb.models.rating_list import DIGEST_VERSION
from ratingdb.services.lists.digest import (
    DIGEST_FIELDS,
    DIGEST_SLICE,
    SortedDigest,
    digest_of_sorted,
    list_digest,
    stored_digest,
    stored_rows_digest,
)
from ratingdb.services.lists.fide import FIDE_BATCH, derive_status, import_fide_list
from ratingdb.services.lists.imported import ImportedList, Replacement, check_period
from ratingdb.services.lists.importing import IMPORT_FORMATS, import_list_csv, import_list_file

__all__ = [
    "DIGEST_FIELDS",
    "DIGEST_SLICE",
    "DIGEST_VERSION",
    "FIDE_BATCH",
    "IMPORT_FORMATS",
    "ImportedList",
    "Replacement",
    "SortedDigest",
    "check_period",
    "derive_status",
    "digest_of_sorted",
    "import_fide_list",
    "import_list_csv",
    "import_list_file",
    "list_digest",
    "stored_digest",
    "stored_rows_digest",
]
