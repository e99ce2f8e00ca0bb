"""The quality-control flags (issue 28 item 8; the rules core's ``rules.quality``) of a period
about to be published, and of what a submission brings to its period: loaded set-based,
explained with names, never a refusal (docs/backoffice.md, "Quality-control flags").

- A **period** (the publication preview): its played and rated games, its unrated players
  (no rating to start from), the changes of its rated players who played, its new players
  (not on the list it starts from), all from the dry run's computation; one query for the new
  players' birth dates and sex, one for the names of the players flagged.
- A **submission** (the check report): the file's played games with the stored played games of
  its period that its players played, and those of their opponents (one query each, by
  chunks), and their ratings on the list in force at the tournament's start (one more: none
  there is unrated); the new players:
  those the file creates. A gain is the file's own, as the calculator rates its games under
  the period's rules with the ratings and K of that list, and its norm the file's rated
  players' (so a file of 10 rated players or fewer flags none).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.repositories import games as game_repo
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import submissions as submission_repo
from ratingdb.rules import Category, Event, Game, Period, PlayerStatus, Score
from ratingdb.rules.calculator import CalculatorRequest, calculate
from ratingdb.rules.calendar import NotAListPeriod
from ratingdb.rules.quality import (
    FILE_SCOPE,
    THIS_FILE,
    Flag,
    NewPlayerFacts,
    PlayedGame,
    closed_groups,
    large_gains,
    missing_identity,
    repeated_pairings,
)
from ratingdb.rules.versions import NoRuleVersion
from ratingdb.services.close import Computation


def shown(
    session: Session, flags: Sequence[Flag], names: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """The flags as JSON, each with its explanation (``kind``, ``players``, ``message`` in
    English, ``i18n`` the same as a message with its values, and its numbers); the names not
    given are read in one query."""
    known = dict(names or {})
    wanted = {p for flag in flags for p in flag.players} - known.keys()
    if wanted:
        known |= player_repo.names(session, wanted)
    return [flag.as_json(known) for flag in flags]


# --- a period ---------------------------------------------------------------------------------


def period_games(computation: Computation) -> list[PlayedGame]:
    """The period's rated games, each once (both sides hold it: the lower id gives it, or the
    only side that has events)."""
    events = computation.loaded.events
    played = []
    for player, player_events in events.items():
        for event in player_events:
            for game in event.games:
                opponent = game.opponent_id
                if game.not_rated is not None or opponent is None:
                    continue
                if player < opponent or opponent not in events:
                    played.append(PlayedGame(event.event_id or "", player, opponent))
    return played


def period_flags(session: Session, computation: Computation) -> list[dict[str, Any]]:
    """The flags of a computed period (the publication preview)."""
    results = computation.results
    played_ids = list(computation.loaded.events)
    unrated, new, gains = set(), [], {}
    for player_id in played_ids:
        r = results.get(player_id)
        if r is None:
            continue
        if r.base_rating is None:
            unrated.add(player_id)
        if r.published_rating is None:
            new.append(player_id)
        elif r.rated_games and r.new_rating is not None and r.base_rating is not None:
            gains[player_id] = r.new_rating - r.base_rating
    games = period_games(computation)
    facts = player_repo.identities(session, new)
    names = {player_id: name for player_id, (name, _, _) in facts.items()}
    flags: list[Flag] = [*closed_groups(games, unrated), *repeated_pairings(games)]
    flags += large_gains(gains)
    flags += missing_identity(
        NewPlayerFacts(player_id, known, sex) for player_id, (_, known, sex) in facts.items()
    )
    return shown(session, flags, names)


# --- a submission -----------------------------------------------------------------------------


def stored_games(
    session: Session, period_id: int | None, players: Iterable[str]
) -> tuple[list[PlayedGame], set[str]]:
    """The period's stored played games of ``players`` and of their opponents there (two hops),
    and the players met only at the second hop, whose games are not all loaded."""
    if period_id is None:
        return [], set()
    first = set(players)
    found = game_repo.played_in_period_by(session, period_id, first)
    met = {p for _, white, black in found.values() for p in (white, black)} - first
    if met:
        found |= game_repo.played_in_period_by(session, period_id, met)
    partial = {p for _, white, black in found.values() for p in (white, black)} - first - met
    games = [PlayedGame(t, white, black) for _, (t, white, black) in sorted(found.items())]
    return games, partial


#: A played result as white's and black's scores.
SCORES = {
    "1-0": (Score.WIN, Score.LOSS),
    "0-1": (Score.LOSS, Score.WIN),
    "1/2-1/2": (Score.DRAW, Score.DRAW),
}


def file_gains(
    category: Category,
    period: Period,
    start: date,
    games: Iterable[tuple[str, str, str]],
    ratings: Mapping[str, tuple[int, int | None]],
) -> dict[str, int]:
    """Each rated player's change from the file alone, as the calculator rates it under the
    period's rules: their games against rated opponents, with the rating and K of the list in
    force at its start. ``games``: (white, black, result)."""
    played: dict[str, list[Game]] = {}
    for white, black, result in games:
        scores = SCORES.get(result)
        if scores is None:
            continue
        for player, opponent, score in ((white, black, scores[0]), (black, white, scores[1])):
            if player in ratings and opponent in ratings:
                played.setdefault(player, []).append(Game(ratings[opponent][0], score, opponent))
    gains = {}
    for player, own in sorted(played.items()):
        rating, k_factor = ratings[player]
        if k_factor is None:
            continue
        request = CalculatorRequest(
            category, period, PlayerStatus(rating, k_factor=k_factor),
            (Event(tuple(own), rating_used=rating, start_date=start),),
        )  # fmt: skip
        try:
            change = calculate(request).change
        except (NotAListPeriod, NoRuleVersion):
            return {}
        if change is not None:
            gains[player] = change
    return gains


@dataclass(frozen=True, slots=True)
class FileFacts:
    """What a check knows of the file for its flags, in one category: its period (and that
    period's row id, None: no row yet), start, played games (white, black, result), the list
    in force at its start (its id; None: none), the players it creates (id, name, birth known,
    sex) and the names it gives."""

    category: Category
    period: Period
    period_id: int | None
    start: date
    games: Sequence[tuple[str, str, str]]
    in_force: int | None
    new_players: Sequence[tuple[str, str, bool, str | None]]
    names: Mapping[str, str]


def submission_flags(session: Session, facts: FileFacts) -> list[dict[str, Any]]:
    """The flags of what a file brings to its period: groups with one of its players, its own
    pairings met in 3 events with the stored ones, its large gains (against its own rated
    players' norm), its new players without a birth date or sex."""
    file_games, period_id = facts.games, facts.period_id
    ours = [PlayedGame(THIS_FILE, white, black) for white, black, _ in file_games]
    players = {p for g in ours for p in (g.white_id, g.black_id)}
    stored, partial = stored_games(session, period_id, players)
    games = ours + stored
    everyone = {p for g in games for p in (g.white_id, g.black_id)}
    ratings = (
        {}
        if facts.in_force is None
        else submission_repo.ratings_and_k_on(session, facts.in_force, everyone)
    )
    unrated = everyone - ratings.keys()
    flags: list[Flag] = [
        group
        for group in closed_groups(games, unrated, partial=partial)
        if players & set(group.players)
    ]
    pairs = {frozenset((g.white_id, g.black_id)) for g in ours}
    flags += repeated_pairings(games, among=pairs)
    gains = file_gains(facts.category, facts.period, facts.start, file_games, ratings)
    flags += large_gains(gains, scope=FILE_SCOPE)
    new = facts.new_players
    flags += missing_identity(NewPlayerFacts(p, known, sex) for p, _, known, sex in new)
    return shown(session, flags, dict(facts.names) | {p: name for p, name, _, _ in new})
