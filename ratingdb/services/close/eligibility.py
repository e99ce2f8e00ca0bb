"""Which games and players a period rates (issue 27): a tournament's rate of play, checked per
game by the rules core, and the players the category never rates (FIDE's lists: FIDE ids
only). The close and the impact preview load through ``inputs``, which calls these."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import date
from typing import Protocol

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.repositories import players as player_repo
from ratingdb.rules import Category, PlayerStatus
from ratingdb.rules.rate_of_play import NoRateOfPlayRule, RateOfPlayCheck, parse_time_control


class PairedGame(Protocol):
    """What ``unrateable_players`` reads of a game."""

    @property
    def white_id(self) -> str: ...
    @property
    def black_id(self) -> str: ...


def unrateable_players(
    session: Session,
    category: Category,
    games: Iterable[PairedGame],
    statuses: Collection[str],
) -> set[str]:
    """The players of ``games`` and ``statuses`` the category never rates: in FIDE's
    categories, players without a FIDE id (FIDE rates registered players only, issue 27); in a
    national list, players known by no id at all (issue 4). Their games are stored and shown,
    and count as games against an unrated player."""
    players = {row.white_id for row in games} | {row.black_id for row in games}
    if category.needs_fide_id:
        return player_repo.without_fide_id(session, players | set(statuses))
    return player_repo.unidentified(session, players)


def drop_unrateable(statuses: dict[str, PlayerStatus], unrateable: Collection[str]) -> None:
    """No standing for a player the category does not rate (a list of an earlier version of
    ratingdb may hold one)."""
    for player in unrateable:
        statuses.pop(player, None)


def drop_unrateable_ratings(
    ratings_of: Mapping[str, dict[str, int]], unrateable: Collection[str]
) -> None:
    """An older list in force may rate a player the category does not rate: not used."""
    if unrateable:
        for ratings in ratings_of.values():
            for player in unrateable & ratings.keys():
                del ratings[player]


class TimedGame(Protocol):
    """What ``rate_of_play_checks`` reads of a game."""

    @property
    def tournament_id(self) -> str: ...
    @property
    def start_date(self) -> date: ...
    @property
    def time_control(self) -> str | None: ...


def rate_of_play_checks(
    category: Category, games: Iterable[TimedGame]
) -> dict[str, RateOfPlayCheck]:
    """Per tournament of ``games`` that gives a time control, the category's rate-of-play rule
    in force at its start (none before the category's first rule: rated as then)."""
    checks: dict[str, RateOfPlayCheck] = {}
    seen: set[str] = set()
    for row in games:
        if row.tournament_id in seen:
            continue
        seen.add(row.tournament_id)
        if row.time_control is None:
            continue
        try:
            control = parse_time_control(row.time_control)
        except ValueError as error:
            raise InputError(
                f"tournament {row.tournament_id}: {error}", field="time_control"
            ) from None
        try:
            checks[row.tournament_id] = RateOfPlayCheck(category, row.start_date, control)
        except NoRateOfPlayRule:
            continue
    return checks


def not_rated_for_rate_of_play(
    check: RateOfPlayCheck | None, white_rating: int | None, black_rating: int | None
) -> str | None:
    """Why the game is not rated for its rate of play (the words stored), None if it is."""
    if check is None:
        return None
    return check.game(white_rating, black_rating).reason
