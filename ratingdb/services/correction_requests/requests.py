"""A correction request as the back office receives it: its kinds and fields, the checks of its
fields and reason, and its errors in the request's words."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any, Final

from ratingdb.enums import CorrectionKind
from ratingdb.errors import InputError
from ratingdb.formats.games_csv import RESULTS
from ratingdb.models.correction_preview import REASON_LENGTH
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Message, one_of, worded
from ratingdb.services.corrections.merges import too_long
from ratingdb.services.lists import IMPORT_FORMATS
from ratingdb.services.submissions import (
    MAX_UPLOAD_BYTES,
    check_tournament_size,
    safe_filename,
)
from ratingdb.services.submissions.checks import renamed
from ratingdb.services.tournaments import FORMATS as TOURNAMENT_FORMATS

GAME: Final = CorrectionKind.GAME
TOURNAMENT: Final = CorrectionKind.TOURNAMENT
MERGE: Final = CorrectionKind.MERGE
LIST: Final = CorrectionKind.LIST_REPLACE
KINDS: Final = (GAME, TOURNAMENT, MERGE, LIST)
#: The request's fields of each kind (besides ``reason``; ``file`` is the upload; a merge's
#: ``override``, the reason to merge two records that may be two people, when given).
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    GAME: ("tournament", "round", "white", "black", "result"),
    TOURNAMENT: ("tournament", "format"),
    MERGE: ("keep", "drop"),
    LIST: ("category", "period", "format"),
}
#: Fields that may be left empty (the format: from the file's name).
OPTIONAL: Final = frozenset({"format"})
#: A ``tournament`` request with ``withdraw`` set to this withdraws the tournament: its games
#: replaced by none, without a file (the request's only other field is ``tournament``).
WITHDRAW: Final = "yes"
WITH_FILE: Final = frozenset({TOURNAMENT, LIST})
LIST_FORMATS: Final = IMPORT_FORMATS
RESULT_CHOICES: Final = ("1-0", "0-1", "1/2-1/2", "+-", "-+", "--")
#: How long a preview may wait for its confirmation.
PREVIEW_LIFETIME: Final = timedelta(hours=24)


class PreviewNotFound(InputError):
    """No such preview, or one of another user (the same answer: 404)."""


class PreviewConflict(Exception):
    """The preview cannot be confirmed or discarded (decided already, expired, or the page
    confirmed is not its latest impact): 409. ``text`` is the message the back office words;
    ``str()`` its English, as the API says."""

    def __init__(self, text: Message) -> None:
        super().__init__(text.english())
        self.text = text


@dataclass(frozen=True, slots=True)
class CorrectionRequest:
    """A correction as asked for: its kind, its fields as text (a form's or a JSON body's),
    and for a corrected file the uploaded bytes and the file's name."""

    kind: str
    inputs: Mapping[str, str]
    content: bytes | None = None
    filename: str | None = None


@dataclass(frozen=True, slots=True)
class Ran:
    """A correction run: its impact (no row id in it: a dry run and the real run of the same
    request on the same database give the same impact) and the correction's id."""

    impact: dict[str, Any]
    correction_id: int


@dataclass(frozen=True, slots=True)
class Confirmation:
    """A preview confirmed: ``applied`` with the correction's document, or not applied because
    the impact changed since it was shown (``impact`` is the new one, now the preview's)."""

    applied: bool
    preview_id: int
    document: dict[str, Any] = field(default_factory=dict)


# --- the requests ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Checked:
    kind: str
    values: dict[str, Any]
    reason: str
    content: bytes | None
    filename: str | None


def _text(inputs: Mapping[str, str], name: str) -> str:
    value = str(inputs.get(name) or "").strip()
    if not value and name not in OPTIONAL:
        raise InputError(Message(N_("is required")), field=name)
    return value


def check_reason(reason: str | None) -> str:
    """The reason, stripped; refused when empty or too long."""
    text = (reason or "").strip()
    if not text:
        raise InputError(Message(N_("a correction needs a reason")), field="reason")
    if len(text) > REASON_LENGTH:
        raise InputError(too_long(len(text)), field="reason")
    return text


def _check(request: CorrectionRequest, reason: str | None) -> _Checked:
    """The request's fields read and checked before anything runs."""
    if request.kind not in KINDS:
        raise InputError(one_of(KINDS), field="kind")
    withdraw = request.kind == TOURNAMENT and is_withdrawal(request.inputs)
    names = ("tournament",) if withdraw else FIELDS[request.kind]
    values: dict[str, Any] = {name: _text(request.inputs, name) for name in names}
    if withdraw:
        values["withdraw"] = True
        if request.content:
            raise InputError(Message(N_("a withdrawal takes no file")), field="file")
    if request.kind == GAME:
        text = values["round"]
        if not (text.isdigit() and 0 < int(text) < 10_000):
            raise InputError(Message(N_("must be a round number (1, 2, ...), got %(given)s"),
                                     {"given": repr(text)}), field="round")  # fmt: skip
        values["round"] = int(text)
        if values["result"] not in RESULTS:
            raise InputError(Message(N_("must be one of %(choices)s; got %(given)s"),
                                     {"choices": ", ".join(RESULT_CHOICES),
                                      "given": repr(values["result"])}),
                             field="result")  # fmt: skip
    if request.kind == MERGE and request.inputs.get("override") is not None:
        # An override given (even blank: the merge service refuses it, naming the field).
        values["override"] = str(request.inputs["override"])
    if request.kind == LIST:
        try:
            values["category"] = Category.parse(values["category"]).value
        except ValueError as error:
            raise InputError(worded(error), field="category") from None
        try:
            values["period"] = str(Period.parse(values["period"]))
        except ValueError as error:
            raise InputError(worded(error), field="period") from None
    if request.kind in WITH_FILE and not withdraw:
        formats = TOURNAMENT_FORMATS if request.kind == TOURNAMENT else LIST_FORMATS
        if values["format"] and values["format"] not in formats:
            raise InputError(Message(N_("must be one of %(choices)s, or empty (from the file's "
                                        "name)"), {"choices": ", ".join(formats)}),
                             field="format")  # fmt: skip
        if not request.content:
            raise InputError(Message(N_("choose the corrected file")), field="file")
        if len(request.content) > MAX_UPLOAD_BYTES:
            raise InputError(Message(N_("the file is larger than %(most)s bytes"),
                                     {"most": MAX_UPLOAD_BYTES}), field="file")  # fmt: skip
        if request.kind == TOURNAMENT:
            check_tournament_size(request.content)
    checked_reason = check_reason(reason)
    filename = None
    if request.kind in WITH_FILE and not withdraw:
        filename = safe_filename(request.filename, _format(request.kind, values, None))
        values["format"] = _format(request.kind, values, filename)
    return _Checked(request.kind, values, checked_reason, request.content, filename)


def is_withdrawal(inputs: Mapping[str, Any]) -> bool:
    """A ``tournament`` request's fields ask to withdraw it (a form's "yes", a stored preview's
    true)."""
    return inputs.get("withdraw") in (WITHDRAW, True)


def _format(kind: str, values: Mapping[str, Any], filename: str | None) -> str:
    """The file's format: as given, else from its name (as the command line does)."""
    given = str(values.get("format") or "")
    if given:
        return given
    suffix = Path(filename or "").suffix.lower()
    if kind == TOURNAMENT:
        return "csv" if suffix == ".csv" else "trf"
    return {".xml": "fide-xml", ".txt": "fide-txt"}.get(suffix, "csv")


@contextmanager
def _as_file(content: bytes, filename: str) -> Iterator[Path]:
    """The bytes as a file named ``filename`` (the correction services read files)."""
    with tempfile.TemporaryDirectory(prefix="ratingdb-correction-") as folder:
        path = Path(folder) / filename
        path.write_bytes(content)
        yield path


def _located(kind: str, error: InputError, path: Path | None, filename: str | None) -> InputError:
    """The service's error in the request's words: the uploaded file's name instead of its
    temporary copy's, the request's fields for the replaced tournament or list."""
    text = error.text
    source = error.source
    if path is not None and filename is not None:
        text = renamed(text, str(path), filename)
        if source is not None:
            source = source.replace(str(path), filename)
    name: str | Message | None = error.field_text or error.field  # a TRF's field in words
    if error.field == "replacement":
        # The tournament or list replaced (its id, its period), or the file that cannot replace it.
        name = "file" if source is not None else ("tournament" if kind == TOURNAMENT else "period")
    elif error.field == "period" and kind == TOURNAMENT:
        name = "file"  # a file without dates asks for a period; a replacement keeps its own
    return InputError(text, field=name, source=source, line=error.line, column=error.column)


def form_field(error: InputError) -> str | None:
    """The form's field an error belongs to: the file for an error inside the file."""
    return "file" if error.source is not None else error.field
