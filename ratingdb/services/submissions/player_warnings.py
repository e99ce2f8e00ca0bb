"""What a check report says of a file's players beyond matching them (issue 28 item 5): the
players it would create, by name, each with the stored players it may be (the same name
whatever the accents, case and order of its words, and the same year of birth); players of
other federations than the tournament's; and a category with no published list in force at
the tournament's start, or a newer list than the one it is rated with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.formats.games_csv import TournamentFile
from ratingdb.formats.names import search_words
from ratingdb.repositories import periods as period_repo
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, Period
from ratingdb.rules.messages import N_, Day, Message

#: The players a warning names before it says how many more.
NAMES_SHOWN = 10


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A player the file would create (read inside the check's savepoint)."""

    player_id: str
    name: str
    birth_year: int | None
    federation: str | None
    born_known: bool = False  # a birth year or date (the quality flags)
    sex: str | None = None


def new_players(
    session: Session, tournament: TournamentFile, known: Collection[str]
) -> list[NewPlayer]:
    """The file's players not ``known`` before it, by name (inside the check's savepoint:
    the rows the import would create are there)."""
    players = {g.white_id for g in tournament.games} | {g.black_id for g in tournament.games}
    rows = player_repo.by_ids(session, players - set(known))
    return sorted(
        (
            NewPlayer(
                r.player_id,
                r.name,
                r.birth_year,
                r.federation,
                r.birth_year is not None or r.birth_date is not None,
                r.sex,
            )
            for r in rows.values()
        ),
        key=lambda p: (p.name, p.player_id),
    )


def _key(name: str) -> tuple[str, ...]:
    """A name as the duplicate check compares it: its search words, in any order."""
    return tuple(sorted(search_words(name)))


def likely_duplicates(
    session: Session, new: Sequence[NewPlayer]
) -> dict[str, list[dict[str, Any]]]:
    """Per new player (id), the stored players with the same name (accents, case and word
    order aside) and the same year of birth: one query for them all."""
    wanted = [p for p in new if p.birth_year is not None and search_words(p.name)]
    candidates = player_repo.same_names_born(
        session,
        [tuple(search_words(p.name)) for p in wanted],
        {p.birth_year for p in wanted if p.birth_year is not None},
    )
    by_key: dict[tuple[tuple[str, ...], int | None], list[dict[str, Any]]] = {}
    for player_id, name, birth_year, search_name in candidates:
        candidate = {"player_id": player_id, "name": name, "birth_year": birth_year}
        by_key.setdefault((tuple(sorted(search_name.split())), birth_year), []).append(candidate)
    new_ids = {p.player_id for p in new}
    found: dict[str, list[dict[str, Any]]] = {}
    for p in wanted:
        stored = [
            c for c in by_key.get((_key(p.name), p.birth_year), []) if c["player_id"] not in new_ids
        ]
        if stored:
            found[p.player_id] = stored
    return found


def player_warnings(
    new: Sequence[NewPlayer],
    duplicates: Mapping[str, Sequence[Mapping[str, Any]]],
    federations: Mapping[str, str | None],
    home: str | None,
) -> list[Message]:
    """The warnings of the players: likely duplicates among the new, and players of other
    federations than the tournament's (``home``, the TRF's 032; none: not checked)."""
    warnings = []
    for player in new:
        for other in duplicates.get(player.player_id, ()):
            warnings.append(Message(
                N_("new player %(name)s (born %(year)s) may be %(other)s (id %(id)s, born "
                   "%(other_year)s), already stored: merge them after the import if they are "
                   "one person"),
                {"name": player.name, "year": str(player.birth_year), "other": other["name"],
                 "id": other["player_id"], "other_year": str(other["birth_year"])},
            ))  # fmt: skip
    if home is not None:
        foreign = Counter(f for f in federations.values() if f is not None and f != home)
        if foreign:
            listed = ", ".join(f"{code} {count}" for code, count in sorted(foreign.items()))
            warnings.append(Message(
                N_("%(count)s player(s) of other federations than the tournament's (%(home)s): "
                   "%(federations)s"),
                {"count": sum(foreign.values()), "home": home, "federations": listed},
            ))  # fmt: skip
    return warnings


def list_warnings(session: Session, categories: Sequence[Category], start: date) -> list[Message]:
    """Per category: no published list in force at the tournament's start (its players are
    rated as unrated), or a list published since its start (it is rated with the older one,
    in force at its start, as the rules say)."""
    warnings = []
    for category in categories:
        lists = period_repo.lists_of(session, category)
        if not lists:
            continue  # a category's first tournaments: nothing published yet, nothing to say
        in_force = period_repo.in_force(lists, start)
        if in_force is None:
            warnings.append(Message(
                N_("%(category)s: no published list in force at the start (%(start)s): its "
                   "players are rated as unrated (the first list is of %(first)s)"),
                {"category": category.value, "start": Day(start),
                 "first": f"{lists[0].list_date:%Y-%m}"},
            ))  # fmt: skip
        elif lists[-1].list_date > start:
            warnings.append(Message(
                N_("%(category)s: the tournament starts before the latest list (%(latest)s): "
                   "its games are rated with the %(list)s list, in force at its start"),
                {"category": category.value,
                 "latest": str(Period.of_list_date(lists[-1].list_date)),
                 "list": str(Period.of_list_date(in_force.list_date))},
            ))  # fmt: skip
    return warnings
