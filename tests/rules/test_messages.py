"""A service's text as a message and its values (rules.messages): its English is the text the
command line and the JSON APIs always wrote; stored with a report and read back, it is the same
message."""

from __future__ import annotations

import json

import pytest

from ratingdb.rules.messages import Message, Number, english, from_json, listed


def test_the_english_is_the_text_with_its_values() -> None:
    state = Message("submitted")
    message = Message(
        "submission %(id)s (%(state)s): %(change)s, mean %(mean)s, %(share)s%% of %(n)s",
        {"id": 12, "state": state, "change": Number(110, "+d"),
         "mean": Number(56 / 12, "+.1f"), "share": Number(80.0, "g"), "n": "T000001"},
    )  # fmt: skip
    assert message.english() == "submission 12 (submitted): +110, mean +4.7, 80% of T000001"
    assert str(message) == message.english()


def test_a_message_without_values_is_its_text_even_with_a_percent_sign() -> None:
    """Reports kept before their warnings were messages: the English words as kept."""
    assert Message("at least 50 % of the games").english() == "at least 50 % of the games"


def test_a_stored_message_reads_back_the_same() -> None:
    message = Message(
        "%(count)s entries differ: %(entries)s",
        {"count": 3, "entries": Message("%(a)s; %(b)s", {"a": "x", "b": Number(-1.25, "+.1f")})},
    )
    stored = json.loads(json.dumps(message.as_json()))
    assert from_json(stored) == message
    assert from_json(stored).english() == "3 entries differ: x; -1.2"


@pytest.mark.parametrize(
    "document",
    [{"params": {}}, {"text": 3}, {"text": "%(a)s", "params": {"a": [1]}},
     {"text": "%(a)s", "params": {"a": {"number": "1", "spec": "d"}}},
     {"text": "%(a)s", "params": {"a": True}}],
)  # fmt: skip
def test_anything_else_is_refused(document: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="not a stored"):
        from_json(document)


@pytest.mark.parametrize(
    ("items", "shown", "expected"),
    [
        ([], None, ""),
        (["A"], None, "A"),
        (["A", "B"], None, "A and B"),
        (["A", "B", "C"], None, "A, B and C"),
        (["A", "B", "C", "D"], 2, "A, B and 2 more"),
        (["A", "B"], 2, "A and B"),
    ],
)
def test_names_are_listed_with_and(items: list[str], shown: int | None, expected: str) -> None:
    assert english(listed(items, shown)) == expected
