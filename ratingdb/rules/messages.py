"""Texts the services and the rules core write for people (a check report's warnings, a quality
flag, a norm condition), kept as a message and its values so that each edge words them in its
reader's language: the command line and the JSON APIs in English (``english()``, exactly the
text written before), the back office in the officer's (``ratingdb.backoffice.i18n``).

``text`` is the English message, a gettext msgid with ``%(name)s`` placeholders (marked ``N_``
for ``pybabel extract``; babel-backoffice.cfg reads this package and the services); ``params``
its values: a string (as is: a name, an id, a code), an int (as ``str()`` writes it: a rating,
a year, a count), a :class:`Number` (a figure with its format), or a :class:`Message` (a word
or a phrase, translated in turn). Pure: no gettext, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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


Param: TypeAlias = "str | int | Number | Message"


@dataclass(frozen=True, slots=True)
class Message:
    """A text for people: the English msgid and its values (module docstring)."""

    text: str
    params: Mapping[str, Param] = field(default_factory=dict)

    def english(self) -> str:
        """The text in English, as the command line and the JSON APIs write it."""
        if not self.params:
            return self.text
        return self.text % {name: english(value) for name, value in self.params.items()}

    def __str__(self) -> str:
        return self.english()

    def as_json(self) -> dict[str, Any]:
        """The message as stored with a report (``from_json`` reads it back)."""
        return {"text": self.text, "params": {k: _param_json(v) for k, v in self.params.items()}}


def english(value: Param) -> str:
    """A message's value in English."""
    if isinstance(value, Message | Number):
        return value.english()
    return str(value)


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.as_json()
    if isinstance(value, Number):
        return {"number": value.value, "spec": value.spec}
    return value


def from_json(document: Mapping[str, Any]) -> Message:
    """A message stored by ``Message.as_json``; ValueError for anything else."""
    text, params = document.get("text"), document.get("params", {})
    if not isinstance(text, str) or not isinstance(params, Mapping):
        raise ValueError(f"not a stored message: {document!r}")
    return Message(text, {name: _param_of(value) for name, value in params.items()})


def _param_of(value: Any) -> Param:
    if isinstance(value, str | int) and not isinstance(value, bool):
        return value
    if isinstance(value, Mapping) and "number" in value:
        number = value["number"]
        if not isinstance(number, int | float) or not isinstance(value.get("spec"), str):
            raise ValueError(f"not a stored number: {value!r}")
        return Number(number, value["spec"])
    if isinstance(value, Mapping):
        return from_json(value)
    raise ValueError(f"not a stored message value: {value!r}")


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
