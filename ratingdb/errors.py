"""Errors that are part of the interface: bad input is reported with where it is and what is
wrong, so a rating officer can fix the file without reading code."""

from __future__ import annotations

from ratingdb.rules.messages import Message


class InputError(Exception):
    """Bad input from a file or a request: exit code 2 on the command line, 422 in the API.

    ``source`` names the file (or ``<stdin>``), ``line`` the 1-based line when known, ``field``
    the field at fault (a dotted path such as ``events[0].games[1].score``): raised by a
    service, a domain name (``period``, ``tournament``), which each edge shows as its own
    parameter (the command line's table: ``ratingdb.cli.fields``).

    ``field`` may be a :class:`~ratingdb.rules.messages.Message` too (``field_text``): words
    that describe the field (a TRF's ``starting rank``), which the back office translates; a
    plain ``str`` is a name shown as it is (a CSV column, a parameter). ``field`` is then its
    English, as ever.

    ``message`` may be a :class:`~ratingdb.rules.messages.Message` (``text``), which the back
    office words in the officer's language; ``message`` is then its English, as ever.
    """

    def __init__(
        self,
        message: str | Message,
        *,
        field: str | Message | None = None,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.text = message if isinstance(message, Message) else Message(message)
        self.message = self.text.english()
        super().__init__(self.message)
        self.field_text = field if isinstance(field, Message) else None
        self.field = field.english() if isinstance(field, Message) else field
        self.source = source
        self.line = line
        self.column = column

    def located(self, source: str) -> InputError:
        """The same error, naming the file it came from."""
        return InputError(
            self.text,
            field=self.field_text or self.field,
            source=source,
            line=self.line,
            column=self.column,
        )

    def with_field(self, field: str) -> InputError:
        """The same error under another name of its field (a command's option for it)."""
        return InputError(
            self.text, field=field, source=self.source, line=self.line, column=self.column
        )

    def __str__(self) -> str:
        where = ""
        if self.source is not None:
            where = self.source
            if self.line is not None:
                where += f":{self.line}"
                if self.column is not None:
                    where += f":{self.column}"
            where += ": "
        field = f"{self.field}: " if self.field else ""
        return f"{where}{field}{self.message}"
