"""Reading a CSV file the way every importer needs: UTF-8, a header with the required columns,
and each row with its line number so every refusal can name file, line and field.

The file is read in chunks so that a line over 64 KiB is refused before it is held, a UTF-16 or
semicolon-separated file is refused with what to do, and no cell may hold a control character
(a quoted cell may span lines in CSV: a line break in a value is refused too). Values are kept
as written, but for the spaces around them."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ratingdb.errors import InputError
from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import (
    check_date,
    check_text,
    control_at,
    control_message,
    read_bounded,
)
from ratingdb.rules.messages import N_, Message, Nn_, counted

#: What to save a CSV file as, when it is in an encoding that is not read.
SAVE_AS = Message(N_("UTF-8 (in Excel: CSV UTF-8 (Comma delimited))"))
#: A value left empty where one is needed.
EMPTY = N_("is empty")

_DIGITS = re.compile(r"[0-9]{1,20}")


@dataclass(frozen=True, slots=True)
class CsvRow:
    source: str
    line: int
    values: dict[str, str]

    def error(self, field: str, message: str | Message) -> InputError:
        return InputError(message, field=field, source=self.source, line=self.line)

    def text(self, field: str, *, required: bool = True, limit: int | None = None) -> str:
        """The value without the spaces around it (nothing else is taken away); ``limit``: at
        most that many characters."""
        value = self.values.get(field, "").strip(" ")
        if required and not value:
            raise self.error(field, Message(EMPTY))
        return check_text(value, lambda message: self.error(field, message), limit=limit)

    def integer(self, field: str, *, low: int, high: int) -> int | None:
        value = self.text(field, required=False)
        if not value:
            return None
        if not is_digits(value.removeprefix("-")):
            shown = value if len(value) <= 40 else value[:40] + "..."
            raise self.error(
                field, Message(N_("must be a whole number, got %(given)s"), {"given": repr(shown)})
            )
        number = int(value)
        if not low <= number <= high:
            raise self.error(
                field,
                Message(
                    N_("must be from %(low)s to %(high)s, got %(given)s"),
                    {"low": low, "high": high, "given": number},
                ),
            )
        return number

    def player_id(self, field: str) -> str:
        value = self.text(field)
        if not _DIGITS.fullmatch(value):
            raise self.error(
                field,
                Message(
                    N_("must be a player id of 1 to 20 digits, got %(given)s"),
                    {"given": repr(value)},
                ),
            )
        return value

    def iso_date(self, field: str) -> date:
        value = self.text(field)
        try:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise ValueError
            parsed = date.fromisoformat(value)
        except ValueError:
            raise self.error(
                field,
                Message(N_("must be a date YYYY-MM-DD, got %(given)s"), {"given": repr(value)}),
            ) from None
        return check_date(parsed, lambda message: self.error(field, message))


def read_csv(path: Path, required: Sequence[str], *, source: str | None = None) -> Iterator[CsvRow]:
    """Rows of a UTF-8 CSV file with a header naming at least ``required`` columns."""
    name = source or str(path)
    raw = read_bounded(path, name, save_as=SAVE_AS)
    return read_csv_text(_decode(raw, name), required, source=name)


def read_csv_text(text: str, required: Sequence[str], *, source: str) -> Iterator[CsvRow]:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(
            Message(N_("the file is empty (a header row is needed)")), source=source, line=1
        ) from None
    except csv.Error as error:
        raise InputError(_bad_csv(error), source=source, line=1) from None
    columns = [column.strip() for column in header]
    missing = [column for column in required if column not in columns]
    if missing and any(";" in column for column in columns):
        raise InputError(
            Message(
                N_(
                    "the file is separated by semicolons, not commas (as Excel saves CSV in some "
                    "languages); save it as CSV with commas: in Excel, File > Save As > "
                    "CSV UTF-8 (Comma delimited)"
                )
            ),
            source=source,
            line=1,
        )
    if missing:
        raise InputError(
            Message(
                N_("missing column (the header needs: %(columns)s)"),
                {"columns": ", ".join(required)},
            ),
            field=missing[0],
            source=source,
            line=1,
        )
    duplicated = sorted({column for column in columns if columns.count(column) > 1})
    if duplicated:
        raise InputError(
            Message(N_("column appears twice")), field=duplicated[0], source=source, line=1
        )
    return _rows(reader, columns, source)


def _rows(reader: Iterator[list[str]], columns: list[str], source: str) -> Iterator[CsvRow]:
    """Each row with the line it starts on (a quoted cell may run onto the next lines)."""
    end = reader.line_num  # type: ignore[attr-defined]
    while True:
        line = end + 1
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise InputError(_bad_csv(error), source=source, line=line) from None
        end = reader.line_num  # type: ignore[attr-defined]
        if not cells or all(not cell.strip() for cell in cells):
            continue
        if len(cells) != len(columns):
            raise InputError(
                counted(
                    Nn_("has %(count)s field, the header has %(columns)s",
                        "has %(count)s fields, the header has %(columns)s"),
                    "count", {"count": len(cells), "columns": len(columns)},
                ),
                source=source,
                line=line,
            )  # fmt: skip
        for column, cell in zip(columns, cells, strict=True):
            index = control_at(cell)
            if index is not None:
                raise InputError(
                    control_message(cell, index), field=column, source=source, line=line
                )
        yield CsvRow(source, line, dict(zip(columns, cells, strict=True)))


def _decode(raw: bytes, source: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = len(re.findall(rb"\r\n|\r|\n", raw[: error.start])) + 1
        raise InputError(
            Message(
                N_("not UTF-8 (byte 0x%(byte)s); save the file as UTF-8"),
                {"byte": f"{raw[error.start]:02x}"},
            ),
            source=source,
            line=line,
        ) from None
    return text.removeprefix("\ufeff")


def _bad_csv(error: csv.Error) -> Message:
    """A CSV the csv module cannot read: its reason as it gives it (in English)."""
    return Message(N_("bad CSV: %(reason)s"), {"reason": str(error)})
