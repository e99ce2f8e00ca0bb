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

#: What to save a CSV file as, when it is in an encoding that is not read.
SAVE_AS = "UTF-8 (in Excel: CSV UTF-8 (Comma delimited))"

_DIGITS = re.compile(r"[0-9]{1,20}")


@dataclass(frozen=True, slots=True)
class CsvRow:
    source: str
    line: int
    values: dict[str, str]

    def error(self, field: str, message: str) -> InputError:
        return InputError(message, field=field, source=self.source, line=self.line)

    def text(self, field: str, *, required: bool = True, limit: int | None = None) -> str:
        """The value without the spaces around it (nothing else is taken away); ``limit``: at
        most that many characters."""
        value = self.values.get(field, "").strip(" ")
        if required and not value:
            raise self.error(field, "is empty")
        return check_text(value, lambda message: self.error(field, message), limit=limit)

    def integer(self, field: str, *, low: int, high: int) -> int | None:
        value = self.text(field, required=False)
        if not value:
            return None
        if not is_digits(value.removeprefix("-")):
            shown = value if len(value) <= 40 else value[:40] + "..."
            raise self.error(field, f"must be a whole number, got {shown!r}")
        number = int(value)
        if not low <= number <= high:
            raise self.error(field, f"must be from {low} to {high}, got {number}")
        return number

    def player_id(self, field: str) -> str:
        value = self.text(field)
        if not _DIGITS.fullmatch(value):
            raise self.error(field, f"must be a player id of 1 to 20 digits, got {value!r}")
        return value

    def iso_date(self, field: str) -> date:
        value = self.text(field)
        try:
            if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
                raise ValueError
            parsed = date.fromisoformat(value)
        except ValueError:
            raise self.error(field, f"must be a date YYYY-MM-DD, got {value!r}") from None
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
            "the file is empty (a header row is needed)", source=source, line=1
        ) from None
    except csv.Error as error:
        raise InputError(f"bad CSV: {error}", source=source, line=1) from None
    columns = [column.strip() for column in header]
    missing = [column for column in required if column not in columns]
    if missing and any(";" in column for column in columns):
        raise InputError(
            "the file is separated by semicolons, not commas (as Excel saves CSV in some "
            "languages); save it as CSV with commas: in Excel, File > Save As > "
            "CSV UTF-8 (Comma delimited)",
            source=source,
            line=1,
        )
    if missing:
        raise InputError(
            f"missing column (the header needs: {', '.join(required)})",
            field=missing[0],
            source=source,
            line=1,
        )
    duplicated = sorted({column for column in columns if columns.count(column) > 1})
    if duplicated:
        raise InputError("column appears twice", field=duplicated[0], source=source, line=1)
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
            raise InputError(f"bad CSV: {error}", source=source, line=line) from None
        end = reader.line_num  # type: ignore[attr-defined]
        if not cells or all(not cell.strip() for cell in cells):
            continue
        if len(cells) != len(columns):
            raise InputError(
                f"has {len(cells)} fields, the header has {len(columns)}", source=source, line=line
            )
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
            f"not UTF-8 (byte 0x{raw[error.start]:02x}); save the file as UTF-8",
            source=source,
            line=line,
        ) from None
    return text.removeprefix("\ufeff")
