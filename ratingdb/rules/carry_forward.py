"""Which entry a list shows for a player: the carry-forward rule.

A computed list stores only its changes against the list it was computed from (its parent): a
row for a player whose entry differs from the parent's carried forward, and a marker (a row
whose rating is None) for a player of the parent not on the list. The entry a list shows for a
player is then:

- its own row, where it has one (a marker: none, the player is off the list);
- else the parent's entry carried forward (:func:`carried`: as a close writes a player who did
  not play), or none when the parent shows none.

A correction's revision of a list stores only what it changes too, against the revision it
replaces (its parent then is a list of the same list date): there the parent's entry is shown
as it is, not carried forward (a revision is the same period, not a later one).

Carrying forward twice is carrying forward once (``carried(carried(e)) == carried(e)``), so the
entry is also the player's row on the nearest list of the ancestry, carried forward when that
list is not the list itself: the form the database reads it in (one row a player). The SQL
that does so (ratingdb.repositories.list_storage) is pinned to this module by
tests/db/test_carry_forward.py on both databases.

Pure: plain data in, plain data out.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import date
from decimal import Decimal
from typing import Any, NamedTuple


class Entry(NamedTuple):
    """A player's entry on a list (the fields of a list_entries row but list_id, in the order
    of ratingdb.db.chunks.ENTRY). A tuple too, so that it compares equal to the plain tuple
    of its fields."""

    player_id: str
    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    k_factor: int
    k_used: int | None
    sum_delta: Decimal | None
    rated_games: int
    peak_rating: int
    #: The list date of the last period that rated games of the player (None: none known).
    last_rated: date | None
    #: Whether the list shows the player active (rules.activity, or an imported list's flag).
    active: bool


def carried(entry: Sequence[Any]) -> Entry:
    """An entry (the fields of :class:`Entry`) carried forward to a later list, as a close
    writes a player who did not play: the same rating as before (change 0), no games, no K
    used nor sum of deltas, the same K, rated games, peak and activity (a close writes an
    entry of its own where the player's activity changes)."""
    player_id, rating, _, _, _, k_factor, _, _, rated_games, peak, last_rated, active = entry
    return Entry(
        player_id, rating, rating, 0, 0, k_factor, None, None, rated_games, peak, last_rated, active
    )


def shown(own: Sequence[Any] | None, parents: Entry | None, carry: bool = True) -> Entry | None:
    """The entry a list shows for a player: ``own``, the list's row of the player (the fields
    of :class:`Entry`; None: the list has none), a marker (rating None) leaving the player
    off; without a row, ``parents`` (the parent's entry, None: none) carried forward, or as it
    is where the list is a revision of its parent (``carry`` False)."""
    if own is not None:
        return None if own[1] is None else Entry._make(own)
    if parents is None:
        return None
    return carried(parents) if carry else parents


def nearest_shown(carry: bool, row: Sequence[Any]) -> Entry | None:
    """The entry a list shows for a player from their ``row`` (the fields of :class:`Entry`)
    on the nearest list of its ancestry that has one: :func:`shown` applied down the
    ancestry, carried forward once however far (``carry``: the row is on a list of an earlier
    date; False: on the list itself or a revision of it it replaces)."""
    if row[1] is None:
        return None
    return carried(row) if carry else Entry._make(row)


def ancestry_of(parents: Mapping[int, int | None], list_id: int) -> list[int]:
    """``list_id`` and the lists it was computed from, nearest first, from ``parents`` (list
    id -> parent id, None for an imported list or a category's first): the walk up to a list
    without a parent."""
    chain: list[int] = []
    current: int | None = list_id
    while current is not None:
        if current in chain:
            raise ValueError(f"list {list_id}: its parents make a loop at list {current}")
        if current not in parents:
            raise LookupError(f"list {list_id}: list {current} of its ancestry is unknown")
        chain.append(current)
        current = parents[current]
    return chain


def resolved(
    chain: Sequence[int], rows: Iterable[Sequence[Any]], same_date: int = 1
) -> dict[str, Entry]:
    """player_id -> entry on the list ``chain[0]``, from ``rows`` ((list_id, *fields of
    :class:`Entry`) on lists of ``chain``, its ancestry nearest first, in any order): each
    player's row on the nearest list, as :func:`nearest_shown` reads it (``same_date``: how
    many lists at the head of the chain are of the list's date, the list and the revisions it
    replaces; rows there are not carried)."""
    depth = {list_id: index for index, list_id in enumerate(chain)}
    nearest: dict[str, tuple[int, Sequence[Any]]] = {}
    for row in rows:
        where = depth[row[0]]
        found = nearest.get(row[1])
        if found is None or where < found[0]:
            nearest[row[1]] = (where, row)
    entries: dict[str, Entry] = {}
    for player_id, (where, row) in nearest.items():
        entry = nearest_shown(where >= same_date, row[1:])
        if entry is not None:
            entries[player_id] = entry
    return entries


def entries_on_lists(
    parents: Mapping[int, int | None],
    rows: Iterable[Sequence[Any]],
    revising: Collection[int] = (),
) -> dict[int, Entry]:
    """One player's entry on every list of ``parents`` (list id -> parent id, every list of a
    category) they are on, from their ``rows`` ((list_id, *fields of :class:`Entry`)): each
    list's :func:`shown` entry, every list resolved once, its parent before it.
    ``revising``: the lists whose parent is a revision of the same list (of the same date)."""
    own = {int(row[0]): tuple(row[1:]) for row in rows}
    found: dict[int, Entry | None] = {}
    for list_id in parents:
        path: list[int] = []
        current: int | None = list_id
        while current is not None and current not in found:
            if current in path:
                raise ValueError(f"list {list_id}: its parents make a loop at list {current}")
            if current not in parents:
                raise LookupError(f"list {list_id}: list {current} of its ancestry is unknown")
            path.append(current)
            current = None if current in own else parents[current]
        below = None if current is None else found[current]
        for step in reversed(path):
            below = shown(own.get(step), below, step not in revising)
            found[step] = below
    return {list_id: entry for list_id, entry in found.items() if entry is not None}


def changes_against(
    parent: Mapping[str, Entry] | None, entries: Iterable[Entry], carry: bool = True
) -> tuple[list[Entry], list[str]]:
    """What a list keeps in list_entries, from the whole list (``entries``) and its parent's
    (player_id -> entry; None: the list has no parent, and every entry is a row): the entries
    that are not the parent's carried forward, and the players of the parent not on the list
    (a marker each, in player_id order). The inverse of :func:`shown`: for every player,
    ``shown(their row or marker or None, parent.get(player), carry)`` is their entry on the
    list (``carry`` False: the list is a revision of its parent, of the same date)."""
    if parent is None:
        return list(entries), []
    rows: list[Entry] = []
    listed: set[str] = set()
    for entry in entries:
        listed.add(entry.player_id)
        before = parent.get(entry.player_id)
        if before is None or (carried(before) if carry else before) != entry:
            rows.append(entry)
    return rows, sorted(player_id for player_id in parent if player_id not in listed)
