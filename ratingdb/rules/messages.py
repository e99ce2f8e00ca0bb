"""Texts the services and the rules core write for people (a check report's warnings, a quality
flag, a norm condition), kept as a message and its values so that each edge words them in its
reader's language: the command line and the JSON APIs in English (``english()``, exactly the
text written before), the back office in the officer's (``ratingdb.backoffice.i18n``).

``text`` is the English message, a gettext msgid with ``%(name)s`` placeholders (marked ``N_``
for ``pybabel extract``; babel-backoffice.cfg reads this package and the services); ``params``
its values: a string (as is: a name, an id, a code), an int (as ``str()`` writes it: a rating,
a year, a count), a :class:`Number` (a figure with its format), a :class:`Day` (a date: ISO in
English, the reader's way on a page), or a :class:`Message` (a word or a phrase, translated in
turn). A text that counts something (``1 partie``, ``2 parties``) is :func:`counted`: its
singular and plural marked ``Nn_``, the form chosen by the count in the reader's language.
Pure: no gettext, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Final, TypeAlias


def N_(message: str) -> str:
    """Marks a message for ``pybabel extract`` (``-k N_``); translated where it is shown."""
    return message


@dataclass(frozen=True, slots=True)
class Number:
    """A figure written with Python's format ``spec`` (``+.1f``, ``.1f``, ``+d``): in English
    exactly ``format(value, spec)``; another language writes the same digits with its own
    decimal sign and minus."""

    value: int | float
    spec: str

    def english(self) -> str:
        return format(self.value, self.spec)


@dataclass(frozen=True, slots=True)
class Day:
    """A date: in English its ISO form, as the command line and the APIs have always written
    it (``2026-11-01``); a page writes it the reader's way (``1er novembre 2026``)."""

    value: date

    def english(self) -> str:
        return self.value.isoformat()


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a text with a count for ``pybabel extract`` (``-k Nn_:1,2``): its singular and
    plural, gettext's ``msgid`` and ``msgid_plural``."""
    return singular, plural


Param: TypeAlias = "str | int | Number | Day | Message"


@dataclass(frozen=True, slots=True)
class Message:
    """A text for people: the English msgid and its values (module docstring)."""

    text: str
    params: Mapping[str, Param] = field(default_factory=dict)
    #: A text with a count (:func:`counted`): ``text`` is its singular, ``plural`` its plural,
    #: and ``count`` names the value (an int) that chooses between them.
    plural: str | None = None
    count: str | None = None

    def __post_init__(self) -> None:
        if (self.plural is None) != (self.count is None):
            raise ValueError("a counted message has both a plural and a count")
        if self.count is not None and type(self.params.get(self.count)) is not int:
            raise ValueError(f"the count {self.count!r} is not a whole number of the message")

    def english(self) -> str:
        """The text in English, as the command line and the JSON APIs write it: a counted
        text in its plural whatever the count (``1 games``), as they always have."""
        text = self.text if self.plural is None else self.plural
        if not self.params:
            return text
        return text % {name: english(value) for name, value in self.params.items()}

    def __str__(self) -> str:
        return self.english()

    def as_json(self) -> dict[str, Any]:
        """The message as stored with a report (``from_json`` reads it back)."""
        stored: dict[str, Any] = {
            "text": self.text,
            "params": {k: _param_json(v) for k, v in self.params.items()},
        }
        if self.plural is not None:
            stored |= {"plural": self.plural, "count": self.count}
        return stored


def counted(forms: tuple[str, str], count: str, params: Mapping[str, Param]) -> Message:
    """A text that counts: ``forms`` its singular and plural (marked ``Nn_``), ``count`` the
    name of the value among ``params`` (an int) that chooses the form."""
    return Message(forms[0], params, plural=forms[1], count=count)


class MessageError(ValueError):
    """A ValueError whose text is a :class:`Message` (``text``); ``str()`` is its English,
    as ever (the rules' refusals of a category or a period the back office words)."""

    def __init__(self, text: Message) -> None:
        super().__init__(text.english())
        self.text = text


def worded(error: Exception) -> str | Message:
    """An error's text: its message when it has one (a ``text`` that is a :class:`Message`, as
    :class:`MessageError` and ``ratingdb.errors.InputError`` have), else ``str()``."""
    text = getattr(error, "text", None)
    return text if isinstance(text, Message) else str(error)


def english(value: Param) -> str:
    """A message's value in English."""
    if isinstance(value, Message | Number | Day):
        return value.english()
    return str(value)


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.as_json()
    if isinstance(value, Number):
        return {"number": value.value, "spec": value.spec}
    if isinstance(value, Day):
        return {"day": value.value.isoformat()}
    return value


def from_json(document: Mapping[str, Any]) -> Message:
    """A message stored by ``Message.as_json``; ValueError for anything else."""
    text, params = document.get("text"), document.get("params", {})
    plural, count = document.get("plural"), document.get("count")
    if (
        not isinstance(text, str)
        or not isinstance(params, Mapping)
        or not isinstance(plural, str | None)
        or not isinstance(count, str | None)
    ):
        raise ValueError(f"not a stored message: {document!r}")
    values = {name: _param_of(value) for name, value in params.items()}
    return Message(text, values, plural=plural, count=count)


def _param_of(value: Any) -> Param:
    if isinstance(value, str | int) and not isinstance(value, bool):
        return value
    if isinstance(value, Mapping) and "number" in value:
        number = value["number"]
        if not isinstance(number, int | float) or not isinstance(value.get("spec"), str):
            raise ValueError(f"not a stored number: {value!r}")
        return Number(number, value["spec"])
    if isinstance(value, Mapping) and "day" in value:
        if not isinstance(value["day"], str):
            raise ValueError(f"not a stored day: {value!r}")
        return Day(date.fromisoformat(value["day"]))
    if isinstance(value, Mapping):
        return from_json(value)
    raise ValueError(f"not a stored message value: {value!r}")


#: A count of games, the most common count of the texts (``1 partie``, ``12 parties``).
GAMES: Final = Nn_("%(count)s game", "%(count)s games")


def game_count(count: int) -> Message:
    """``12 games`` (English: ``1 games`` as ever; the back office says ``1 game``)."""
    return counted(GAMES, "count", {"count": count})


def one_of(choices: Iterable[str], given: str | None = None) -> Message:
    """A refusal naming the values allowed (``must be one of a, b``), and the one given
    (``, got 'c'``) when there is one."""
    names = ", ".join(choices)
    if given is None:
        return Message(N_("must be one of %(choices)s"), {"choices": names})
    return Message(N_("must be one of %(choices)s, got %(given)s"),
                   {"choices": names, "given": repr(given)})  # fmt: skip


#: Two statements one after the other ("A; B": French writes a narrow space before ";").
THEN: Final = N_("%(first)s; %(next)s")


def in_turn(parts: Sequence[Message]) -> Message:
    """Statements one after the other, separated by semicolons (none: an empty text)."""
    if not parts:
        return Message("")
    joined = parts[0]
    for part in parts[1:]:
        joined = Message(THEN, {"first": joined, "next": part})
    return joined


#: How a list of names is joined: "A", "A and B", "A, B and C", "A, B and 3 more".
PAIR: Final = N_("%(first)s and %(last)s")
AND_MORE: Final = N_("%(names)s and %(more)s more")


def listed(items: Sequence[str], shown: int | None = None) -> Param:
    """``items`` joined with commas and "and", the first ``shown`` of them when there are
    more (then "and N more")."""
    kept = list(items if shown is None else items[:shown])
    more = len(items) - len(kept)
    if more > 0:
        return Message(AND_MORE, {"names": ", ".join(kept), "more": more})
    if len(kept) <= 1:
        return kept[0] if kept else ""
    return Message(PAIR, {"first": ", ".join(kept[:-1]), "last": kept[-1]})
