"""One record line of a TRF at a time: player lines (``001``), National Rating Support records
and the refusal of control characters, each value checked where it stands (the file, line,
column and field are named in every refusal). What a line says about other lines (opponents,
duplicate ranks) is checked by the reader, once all lines are read."""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal, InvalidOperation

from ratingdb.errors import InputError
from ratingdb.formats.numbers import is_digits
from ratingdb.formats.text import (
    MAX_BIRTH_YEAR,
    MIN_DATE,
    Fail,
    check_text,
    control_at,
    control_message,
)
from ratingdb.formats.trf.dates import parse_birth
from ratingdb.formats.trf.records import (
    BIRTH,
    FEDERATION,
    FIDE_ID,
    FIRST_ROUND,
    MAX_RATING,
    NAME,
    POINTS_FIELD,
    PSEUDO_PLAYER_NAMES,
    RANK,
    RATING,
    RESULT_CODES,
    ROUND_WIDTH,
    SEX,
    SEXES,
    TITLE,
    TITLES,
    NationalRecord,
    TrfEntry,
    TrfPlayer,
    field_at,
    field_text,
    field_words,
)
from ratingdb.rules.messages import N_, Message

#: A starting rank left blank or 0.
MISSING = N_("is missing or 0")


class LineReader:
    """Reads single lines of one file; what it notes (values ignored) goes to ``notes``."""

    def __init__(self, source: str, encoding: str) -> None:
        self.source = source
        self.encoding = encoding
        #: What was read leniently, for the report (in English on the command line).
        self.notes: list[Message] = []

    def error(
        self, message: str | Message, line: int, column: int | None, field: str
    ) -> InputError:
        """The refusal of the value at ``line``, ``column``, ``field`` (named in words the
        back office translates: records.field_words)."""
        return InputError(
            message, source=self.source, line=line, column=column, field=field_words(field)
        )

    def _fail(self, line: int, column: int | None, field: str) -> Fail:
        """The error for a message about the value at ``line``, ``column``, ``field``."""
        return lambda message: self.error(message, line, column, field)

    def _check_controls(self, number: int, line: str) -> None:
        """Refuse a control character anywhere in a line, naming the field it is in. Tabs are
        let through in a player line's rounds (some programs put them between the fields of a
        round) and in records not read (real TRF26 files have them); header values are
        checked again, without tabs, when kept."""
        index = control_at(line, allow_tab=True)
        tab = line.find("\t", 0, FIRST_ROUND - 1) if line.startswith("001") else -1
        if tab >= 0 and (index is None or tab < index):
            index = tab
        if index is None:
            return
        message = control_message(line, index)
        if self.encoding != "UTF-8" and "\x80" <= line[index] <= "\x9f":
            message = Message(
                N_("%(message)s (the file is not UTF-8: saved as Windows-1252? save it as UTF-8)"),
                {"message": message},
            )
        raise self.error(message, number, index + 1, field_at(line, index + 1))

    def _number(
        self,
        line: str,
        number: int,
        span: tuple[int, int],
        field: str,
        *,
        high: int,
        zero_is_none: bool = True,
    ) -> int | None:
        text = field_text(line, span).strip()
        if not text:
            return None
        if not is_digits(text):
            raise self.error(
                Message(N_("must be a number, got %(given)s"), {"given": repr(text)}),
                number,
                span[0],
                field,
            )
        value = int(text)
        if value == 0 and zero_is_none:
            return None
        if value > high:
            raise self.error(
                Message(N_("must be at most %(most)s, got %(given)s"),
                        {"most": high, "given": value}),
                number,
                span[0],
                field,
            )  # fmt: skip
        return value

    def _truncated(self, number: int, line: str, spans: Iterable[tuple[int, int, str]]) -> None:
        """A line that stops inside a field that has something in it was cut short."""
        length = len(line)
        for start, end, name in spans:
            if start <= length < end and line[start - 1 :].strip():
                raise self.error(
                    Message(
                        N_(
                            "the line ends inside the field (columns %(start)s-%(end)s): truncated?"
                        ),
                        {"start": start, "end": end},
                    ),
                    number,
                    length + 1,
                    name,
                )

    def _player(self, number: int, line: str) -> TrfPlayer:
        # Right-aligned fields only: a left-aligned name may end early when spaces are trimmed.
        spans = [
            (*RANK, "starting rank"),
            (*RATING, "rating"),
            (*FIDE_ID, "FIDE id"),
            (*POINTS_FIELD, "points"),
        ]
        rounds = max(0, (len(line) - FIRST_ROUND + ROUND_WIDTH) // ROUND_WIDTH)
        for r in range(1, rounds + 1):
            column = FIRST_ROUND + ROUND_WIDTH * (r - 1)
            spans.append((column, column + 3, f"round {r} opponent"))
        self._truncated(number, line, spans)
        if len(line) < RANK[1]:
            raise self.error(Message(N_("the line ends before the starting rank")), number,
                             len(line) + 1, "starting rank")  # fmt: skip
        rank = self._number(line, number, RANK, "starting rank", high=9999, zero_is_none=False)
        if not rank:
            raise self.error(Message(MISSING), number, RANK[0], "starting rank")
        name = check_text(
            field_text(line, NAME).strip(" "),
            lambda message: self.error(message, number, NAME[0], "name"),
        )
        rating = self._number(line, number, RATING, "rating", high=MAX_RATING)
        birth_year, birth_date = self._birth(number, line)
        return TrfPlayer(
            line=number,
            rank=rank,
            name=name,
            sex=self._sex(number, line),
            title=self._title(number, line),
            rating=rating,
            federation=self._federation(number, line),
            fide_id=self._fide_id(number, line),
            birth_year=birth_year,
            birth_date=birth_date,
            points=self._points(number, line),
            entries=self._entries(number, line, rounds),
            pseudo=name.casefold() in PSEUDO_PLAYER_NAMES and not field_text(line, FIDE_ID).strip(),
        )

    def _sex(self, number: int, line: str) -> str | None:
        text = line[SEX - 1 : SEX].strip().upper()
        if not text:
            return None
        if text not in SEXES:
            self.notes.append(
                Message(
                    N_("line %(line)s: sex %(text)s (column %(column)s) not m/w: ignored"),
                    {"line": number, "text": repr(text), "column": SEX},
                )
            )
            return None
        return SEXES[text]

    def _title(self, number: int, line: str) -> str | None:
        text = field_text(line, TITLE).strip().upper()
        if not text:
            return None
        if text not in TITLES:
            self.notes.append(
                Message(
                    N_("line %(line)s: title %(text)s (columns 11-13) unknown: ignored"),
                    {"line": number, "text": repr(text)},
                )
            )
            return None
        return TITLES[text]

    def _federation(self, number: int, line: str) -> str | None:
        text = field_text(line, FEDERATION).strip()
        if not text:
            return None
        if not re.fullmatch(r"[A-Za-z]{3}", text):
            self.notes.append(
                Message(
                    N_("line %(line)s: federation %(text)s is not a 3-letter code"),
                    {"line": number, "text": repr(text)},
                )
            )
            return None
        return text.upper()

    def _fide_id(self, number: int, line: str) -> str | None:
        text = field_text(line, FIDE_ID).strip()
        if not text:
            return None
        if not is_digits(text):
            self.notes.append(
                Message(
                    N_("line %(line)s: %(text)s in the FIDE id column is not an id"),
                    {"line": number, "text": repr(text)},
                )
            )
            return None
        stripped = text.lstrip("0")
        return stripped or None

    def _birth(self, number: int, line: str) -> tuple[int | None, date | None]:
        text = field_text(line, BIRTH).strip()
        if not re.search(r"[1-9]", text):  # blank, "    /  /", ".  .", "0000/00/00"
            return None, None
        found = parse_birth(text)
        if found is None:
            raise self.error(
                Message(
                    N_("not a birth date (YYYY/MM/DD, YYYY, DD.MM.YYYY), got %(given)s"),
                    {"given": repr(text)},
                ),
                number,
                BIRTH[0],
                "birth date",
            )
        if not MIN_DATE.year <= found[0] <= MAX_BIRTH_YEAR:
            raise self.error(
                Message(
                    N_("the year must be from %(first)s to %(last)s, got %(given)s"),
                    {"first": MIN_DATE.year, "last": MAX_BIRTH_YEAR, "given": found[0]},
                ),
                number,
                BIRTH[0],
                "birth date",
            )
        return found

    def _points(self, number: int, line: str) -> Decimal | None:
        text = field_text(line, POINTS_FIELD).strip()
        if not text:
            return None
        try:
            points = Decimal(text.replace(",", "."))
            if not points.is_finite():
                raise InvalidOperation
            return points
        except InvalidOperation:
            self.notes.append(
                Message(
                    N_("line %(line)s: points %(text)s (columns 81-84) not a number"),
                    {"line": number, "text": repr(text)},
                )
            )
            return None

    def _entries(self, number: int, line: str, rounds: int) -> tuple[TrfEntry, ...]:
        entries = []
        for r in range(1, rounds + 1):
            column = FIRST_ROUND + ROUND_WIDTH * (r - 1)
            text = line[column - 1 : column + ROUND_WIDTH - 1]
            if text.strip():
                entries.append(self._entry(number, r, column, text))
        return tuple(entries)

    def _entry(self, number: int, r: int, column: int, text: str) -> TrfEntry:
        """One round field (``text``, not blank) of line ``number``, starting at ``column``."""
        for offset in (4, 6, 8, 9):
            if offset < len(text) and text[offset] not in " \t":
                raise self.error(
                    Message(
                        N_(
                            "unexpected %(character)s between the fields of round %(round)s "
                            "(misaligned columns?)"
                        ),
                        {"character": repr(text[offset]), "round": r},
                    ),
                    number,
                    column + offset,
                    f"round {r}",
                )
        opponent_text = text[0:4].strip()
        if opponent_text and not is_digits(opponent_text):
            raise self.error(
                Message(
                    N_("the opponent must be a starting rank, got %(given)s"),
                    {"given": repr(opponent_text)},
                ),
                number,
                column,
                f"round {r} opponent",
            )
        colour = text[5:6].strip().lower() or "-"
        if colour not in ("w", "b", "-"):
            raise self.error(
                Message(N_("colour must be w, b or -, got %(given)s"), {"given": repr(colour)}),
                number, column + 5, f"round {r} colour",
            )  # fmt: skip
        code = text[7:8].strip().upper()
        if code and code not in RESULT_CODES:
            raise self.error(
                Message(
                    N_("unknown result code %(code)s (TRF: 1 = 0 + - W D L H F U Z or blank)"),
                    {"code": repr(code)},
                ),
                number,
                column + 7,
                f"round {r} result",
            )
        opponent = int(opponent_text) if opponent_text else 0
        return TrfEntry(r, column, opponent or None, colour, code)

    def _national(self, number: int, line: str, kind: str) -> NationalRecord:
        self._truncated(number, line, [(*RANK, "starting rank"), (*RATING, "national rating")])
        rank = self._number(line, number, RANK, "starting rank", high=9999, zero_is_none=False)
        if not rank:
            raise self.error(Message(MISSING), number, RANK[0], "starting rank")
        rating = self._number(line, number, RATING, "national rating", high=MAX_RATING)
        national_id = field_text(line, FIDE_ID).strip() or None
        return NationalRecord(number, kind, rank, rating, national_id)

    # the whole file
