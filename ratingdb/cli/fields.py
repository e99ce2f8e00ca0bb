"""The option of each command behind the fields its services name.

Services raise ``InputError`` with domain field names (``period``, ``tournament``, ``reason``),
the same whoever calls them; the command line shows the option the user typed instead
(``--period``), the API and the back office their own parameters. This is the one table of the
command line: a field a command has no option for (a file's column, a calculator field, the
``from`` of a diff) is shown as it is.
"""

from __future__ import annotations

from ratingdb.errors import InputError

#: ``tournaments import`` and ``lists import``: a file for a category and a period, or a
#: corrected one with ``--replace`` and ``--reason``.
_IMPORT = {
    "category": "--category",
    "period": "--period",
    "format": "--format",
    "reason": "--reason",
    "replacement": "--replace",
}

#: (command, action) -> field -> the option (or argument) that gives it.
OPTIONS: dict[tuple[str, str], dict[str, str]] = {
    ("tournaments", "import"): _IMPORT,
    ("lists", "import"): _IMPORT,
    ("lists", "export"): {"period": "--period", "revision": "--revision", "format": "--format"},
    ("periods", "close"): {"period": "--period"},
    ("tournaments", "norms"): {"tournament": "TOURNAMENT_ID"},
    ("players", "title-watch"): {"category": "--category", "period": "--period"},
    ("games", "correct"): {
        "tournament": "--tournament",
        "white": "--white",
        "result": "--result",
        "reason": "--reason",
    },
    ("players", "merge"): {
        "keep": "KEEP",
        "drop": "DROP",
        "reason": "--reason",
        "override": "--override",
    },
    ("users", "add"): {"username": "USERNAME", "role": "--role"},
    ("users", "disable"): {"username": "USERNAME"},
    ("users", "token"): {"username": "USERNAME", "label": "--label", "days": "--days"},
    ("users", "revoke-token"): {"username": "USERNAME", "label": "--label"},
}


def as_typed(error: InputError, command: str, action: str | None) -> InputError:
    """``error`` naming the option of ``command action`` behind its field, if it has one."""
    options = OPTIONS.get((command, action or ""), {})
    if error.field is None or error.field not in options:
        return error
    return error.with_field(options[error.field])
