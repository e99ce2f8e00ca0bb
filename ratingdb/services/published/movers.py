"""The movers of a published list: who gained and lost the most against the list before it,
who is on it for the first time, and whose activity turned.

A list is compared with the list before it in its category: a computed list with its parent
(the list it was computed from: for a revision, the parent it was recomputed from), an
imported list with the latest revision of the category's previous list. Read set-based: a
computed list's own rows in list_entries are exactly the players whose entry differs from the
parent's carried forward (repositories.list_storage.changes), so only they are read, with their
entries on the parent in one statement; an imported list, which stores every entry, is
compared whole with the previous list from both lists' chunks.

New titles: the players on the list with a title recorded from a date after the list it is
compared with, up to its own date (repositories.player_history, the dated titles).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy.orm import Session

from ratingdb.repositories import player_history
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.repositories.list_storage import players as list_players
from ratingdb.repositories.published import movers as repo
from ratingdb.repositories.published.common import PLAYER_COLUMNS
from ratingdb.rules import Period
from ratingdb.services.published.lists import ListSummary

#: The kinds of movers, in the order the pages show them.
KINDS = ("gainers", "losers", "new_players", "new_titles", "became_active", "became_inactive")
#: Movers of each kind at most (the API's ``limit``).
MAX_MOVERS = 100


@dataclass(frozen=True, slots=True)
class Mover:
    """A player who moved: the rating on the list, the rating on the list it is compared with
    (None: not on it) and the difference (None for a new player)."""

    player_id: str
    name: str
    federation: str | None
    title: str | None
    rating: int
    previous_rating: int | None
    change: int | None
    games: int
    active: bool


@dataclass(frozen=True, slots=True)
class MoverList:
    """The first movers of one kind, and how many there are in all."""

    total: int
    movers: tuple[Mover, ...]


@dataclass(frozen=True, slots=True)
class Movers:
    """The movers of a list, each kind its first ``limit`` (KINDS)."""

    summary: ListSummary
    #: The list it is compared with (None: the category's first list, which has no movers).
    compared_list_id: int | None
    #: That list's period.
    compared_period: Period | None
    gainers: MoverList
    losers: MoverList
    new_players: MoverList
    #: Players on the list awarded a title since the list it is compared with (``title``:
    #: the new one).
    new_titles: MoverList
    became_active: MoverList
    became_inactive: MoverList


_EMPTY = MoverList(0, ())


def _by_rating(mover: Mover) -> tuple[object, ...]:
    return (-mover.rating, mover.player_id)


def _by_gain(mover: Mover) -> tuple[object, ...]:
    return (-(mover.change or 0), -mover.rating, mover.player_id)


def _by_loss(mover: Mover) -> tuple[object, ...]:
    return (mover.change or 0, -mover.rating, mover.player_id)


_ORDER: dict[str, Callable[[Mover], tuple[object, ...]]] = {
    "gainers": _by_gain,
    "losers": _by_loss,
}


def movers(
    session: Session, summary: ListSummary, *, federation: str | None = None, limit: int = 10
) -> Movers:
    """The movers of the list ``summary`` (found with find_list), of ``federation``'s players
    only when given, ``limit`` of each kind: gainers by change descending, losers by change
    ascending (then rating descending, then player_id), the others by rating descending."""
    if not 0 <= limit <= MAX_MOVERS:
        raise ValueError(f"limit must be from 0 to {MAX_MOVERS}, not {limit}")
    found = repo.predecessor(session, summary.list_id)
    if found is None:
        return Movers(summary, None, None, *(_EMPTY for _ in KINDS))
    compared, compared_date, own_lists = found
    if own_lists:
        changed = repo.changed_on_computed(session, own_lists, compared)
    else:
        changed = _compared_whole(session, summary.list_id, compared)
    # The players' names, federations and titles are read for those shown only; with a
    # federation, every changed player's federation first (the federation's movers only).
    of_federation = (
        None
        if federation is None
        else list_players.players_by_id(
            session,
            [player_id for player_id, (now, _) in changed.items() if now is not None],
            (PLAYER_COLUMNS[2],),  # federation
        )
    )
    kinds: dict[str, list[Mover]] = {kind: [] for kind in KINDS}
    for player_id, (now, was) in changed.items():
        if now is None:
            continue  # off the list
        if of_federation is not None and of_federation[player_id][0] != federation:
            continue
        rating, previous_rating, games, active = now
        before = None if was is None else was[0]
        change = None if before is None else rating - before
        mover = Mover(player_id, "", None, None, rating, before, change, games, active)
        if was is None:
            if previous_rating is None:  # a first rating (not a player back above the floor)
                kinds["new_players"].append(mover)
            continue
        if change is not None and change > 0:
            kinds["gainers"].append(mover)
        elif change is not None and change < 0:
            kinds["losers"].append(mover)
        if active != was[3]:
            kinds["became_active" if active else "became_inactive"].append(mover)
    kinds["new_titles"] = _new_titles(
        session, summary, compared_date, changed, federation=federation
    )
    first = {kind: _first(found, _ORDER.get(kind, _by_rating), limit)
             for kind, found in kinds.items()}  # fmt: skip
    first = _named(session, first)
    return Movers(
        summary,
        compared,
        Period.of_list_date(compared_date),
        *(first[kind] for kind in KINDS),
    )


def _new_titles(
    session: Session,
    summary: ListSummary,
    compared_date: date,
    changed: dict[str, tuple[repo.Figures | None, repo.Figures | None]],
    *,
    federation: str | None,
) -> list[Mover]:
    """The players on the list awarded a title from a date after ``compared_date`` up to the
    list's date, each with their entry on the list (and the one compared with, where they
    moved)."""
    awarded = player_history.titles_awarded(session, compared_date, summary.period.list_date)
    if not awarded:
        return []
    entries = list_changes.resolve(session, summary.list_id, awarded)
    players = list_players.players_by_id(
        session,
        list(entries),
        (PLAYER_COLUMNS[1], PLAYER_COLUMNS[2]),  # name, federation
    )
    found = []
    for player_id, entry in entries.items():
        name, player_federation = players[player_id]
        if federation is not None and player_federation != federation:
            continue
        # Unchanged since the list compared with (not among ``changed``): the same rating.
        was = changed[player_id][1] if player_id in changed else (entry.rating,)
        before = None if was is None else was[0]
        found.append(
            Mover(player_id, name, player_federation, awarded[player_id], entry.rating, before,
                  None if before is None else entry.rating - before, entry.games, entry.active)
        )  # fmt: skip
    return found


def _named(session: Session, first: dict[str, MoverList]) -> dict[str, MoverList]:
    """The movers shown, with their names, federations and titles (one query)."""
    shown = {m.player_id for found in first.values() for m in found.movers}
    players = list_players.players_by_id(
        session,
        sorted(shown),
        (PLAYER_COLUMNS[1], PLAYER_COLUMNS[2], PLAYER_COLUMNS[5]),  # name, federation, title
    )
    return {
        kind: MoverList(
            found.total,
            tuple(
                replace(
                    m,
                    name=players[m.player_id][0],
                    federation=players[m.player_id][1],
                    title=m.title or players[m.player_id][2],
                )
                for m in found.movers
            ),
        )
        for kind, found in first.items()
    }


def _first(
    found: Iterable[Mover], key: Callable[[Mover], tuple[object, ...]], limit: int
) -> MoverList:
    ordered = sorted(found, key=key)
    return MoverList(len(ordered), tuple(ordered[:limit]))


def _compared_whole(
    session: Session, list_id: int, compared: int
) -> dict[str, tuple[repo.Figures | None, repo.Figures | None]]:
    """An imported list against the previous list, both whole: the players whose rating or
    activity differs, or who are on one list only."""
    now = repo.whole_figures(session, list_id)
    was = repo.whole_figures(session, compared)
    found: dict[str, tuple[repo.Figures | None, repo.Figures | None]] = {}
    for player_id in now.keys() | was.keys():
        mine, theirs = now.get(player_id), was.get(player_id)
        if mine is None or theirs is None or (mine[0], mine[3]) != (theirs[0], theirs[3]):
            found[player_id] = (mine, theirs)
    return found
