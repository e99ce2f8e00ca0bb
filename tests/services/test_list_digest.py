"""A list's digest is SHA-256 of ``json.dumps`` of its sorted canonical entries, compact: the
stored digests of published lists depend on these exact bytes (``periods verify`` compares
them), so however it is computed, it must be the same as this definition."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from ratingdb.services.lists import DIGEST_SLICE, DIGEST_VERSION, digest_of_sorted, list_digest


def by_definition(entries: list[tuple[Any, ...]]) -> str:
    return hashlib.sha256(
        json.dumps([list(e) for e in entries], separators=(",", ":")).encode()
    ).hexdigest()


ids = st.one_of(st.from_regex(r"[0-9]{1,12}", fullmatch=True), st.text(max_size=12))
numbers = st.one_of(st.none(), st.integers(min_value=-(10**6), max_value=10**6))
entries = st.lists(st.tuples(ids, numbers, numbers, numbers, numbers, numbers), max_size=40)


@given(entries)
def test_the_digest_is_that_of_the_definition(found: list[tuple[Any, ...]]) -> None:
    listed = sorted(found, key=repr)
    assert digest_of_sorted(listed) == by_definition(listed)
    assert digest_of_sorted(iter(listed)) == by_definition(listed)  # streamed
    assert digest_of_sorted([list(e) for e in listed]) == by_definition(listed)  # not tuples


def test_slices_join_into_one_array() -> None:
    # Across the boundaries of the slices the digest is computed in, and of an empty list.
    for count in (0, 1, DIGEST_SLICE - 1, DIGEST_SLICE, DIGEST_SLICE + 1, 2 * DIGEST_SLICE + 3):
        listed = [
            (str(10_000_000 + i), 1400 + i % 1400, None, None, i % 9, 20) for i in range(count)
        ]
        assert digest_of_sorted(listed) == by_definition(listed), count


def test_a_known_digest() -> None:
    # printf '%s' '[["1001",1800,null,null,0,20]]' | sha256sum
    assert digest_of_sorted([("1001", 1800, None, None, 0, 20)]) == (
        "347934d4bae0340dd7a46e7142053a108f46a90b4ef87b88a6d6434769a865c0"
    )


def test_a_known_version_2_digest() -> None:
    """Version 2 (lists written since migration 0017) adds the activity flag, a JSON boolean:
    the same entry active and inactive gives two digests, each as sha256sum gives it."""
    entry = {"player_id": "1001", "rating": 1800, "previous_rating": None, "change": None,
             "games": 0, "k_factor": 20}  # fmt: skip
    # printf '%s' '[["1001",1800,null,null,0,20,false]]' | sha256sum
    assert list_digest([{**entry, "active": False}]) == (
        "a173cfeea5730ee80a2a5023deeefc08a4eb187e169f2e27374c1c81d5a0c7e9"
    )
    # printf '%s' '[["1001",1800,null,null,0,20,true]]' | sha256sum
    assert list_digest([{**entry, "active": True}], version=2) == (
        "2425617a329f7db00bee4bbacc7b9beb319f1e7aecae7f8a7207ca59916c2e13"
    )
    # Version 1 leaves the flag out: the known digest above.
    assert list_digest([{**entry, "active": True}], version=1) == (
        "347934d4bae0340dd7a46e7142053a108f46a90b4ef87b88a6d6434769a865c0"
    )
    assert DIGEST_VERSION == 2
