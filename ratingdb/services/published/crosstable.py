"""A tournament's crosstable: players ranked by points, each one's rating used, score,
performance (the rules core's) and the rating change the event brought on its period's list,
and the games round by round. What ``/tournaments/{id}`` shows.

Starting ranks are not stored (a games CSV has none): the starting rank is the order of the
ratings used, highest first (unrated last), then name and id; the crosstable breaks ties on
points with it. Byes are not stored as games, so a player's round without a game shows empty.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.repositories import player_history
from ratingdb.repositories.published import crosstable as repo
from ratingdb.rules.games import Score
from ratingdb.rules.performance import performance_rating
from ratingdb.services.published.tournaments import Tournament, TournamentGame, tournament

#: Points of each stored result for (white, black); forfeits count as the arbiter scored them.
POINTS: dict[str, tuple[Decimal, Decimal]] = {
    "1-0": (Decimal(1), Decimal(0)),
    "0-1": (Decimal(0), Decimal(1)),
    "1/2-1/2": (Decimal("0.5"), Decimal("0.5")),
    "+-": (Decimal(1), Decimal(0)),
    "-+": (Decimal(0), Decimal(1)),
    "--": (Decimal(0), Decimal(0)),
    "W-L": (Decimal(1), Decimal(0)),
    "L-W": (Decimal(0), Decimal(1)),
    "D-D": (Decimal("0.5"), Decimal("0.5")),
    "L-L": (Decimal(0), Decimal(0)),
}
PLAYED = frozenset({"1-0", "0-1", "1/2-1/2"})
FORFEITS = frozenset({"+-", "-+", "--"})


class Outcome(Enum):
    """What the event did to a player's rating on its period's list."""

    PENDING = "pending"  # the period's list is not out yet
    CHANGED = "changed"  # K x the sum of this event's deltas
    FIRST = "first"  # a first rating on that list (no change: see the player page)
    OFF_LIST = "off-list"  # not on that list (games kept for a first rating)
    NO_RATED_GAME = "no-rated-game"  # none of the player's games here counted


@dataclass(frozen=True, slots=True)
class Cell:
    """One round of one player: the opponent's rank, the colour and the player's points."""

    opponent_rank: int
    white: bool
    points: Decimal
    forfeit: bool


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    starting_rank: int
    player_id: str
    name: str
    rating_used: int | None
    points: Decimal
    games: int
    #: Rp over the played games against rated opponents (None: no such game).
    performance: int | None
    outcome: Outcome
    #: K x sum of deltas of this event's games, exact (CHANGED only).
    change: Decimal | None
    k_factor: int | None
    #: The rating on the period's list (FIRST: the first rating).
    rating: int | None
    rounds: dict[int, Cell]
    #: The player's federation and title on the tournament's first day (issue 28 item 2).
    federation: str | None = None
    title: str | None = None


@dataclass(frozen=True, slots=True)
class RoundGame:
    game: TournamentGame
    white_rank: int
    black_rank: int

    @property
    def forfeit(self) -> bool:
        return self.game.result in FORFEITS

    @property
    def played(self) -> bool:
        return self.game.result in PLAYED


@dataclass(frozen=True, slots=True)
class Crosstable:
    tournament: Tournament
    rounds: tuple[int, ...]
    standings: tuple[Standing, ...]
    games_by_round: tuple[tuple[int, tuple[RoundGame, ...]], ...]


def crosstable(session: Session, tournament_id: str) -> Crosstable:
    """The crosstable of a tournament (NotFound: no such id)."""
    found = tournament(session, tournament_id)
    names: dict[str, str] = {}
    points: dict[str, Decimal] = defaultdict(Decimal)
    games: dict[str, int] = defaultdict(int)
    for game in found.games:
        names[game.white_id] = game.white_name
        names[game.black_id] = game.black_name
        white, black = POINTS[game.result]
        points[game.white_id] += white
        points[game.black_id] += black
        games[game.white_id] += 1
        games[game.black_id] += 1

    rows = repo.tournament_calculations(session, tournament_id) if found.published else ()
    used: dict[str, int] = {}
    for row in rows:  # the ratings the close rated the event with
        if row.rating_used is not None:
            used.setdefault(row.player_id, int(row.rating_used))
        if row.opponent_rating_used is not None:
            used.setdefault(row.opponent_id, int(row.opponent_rating_used))
    missing = names.keys() - used.keys()
    if missing:  # not yet rated, or only forfeits: the list in force at the start (rules A1)
        in_force = repo.ratings_in_force(session, found.category, found.start_date, missing)
        used |= in_force

    order = sorted(names, key=lambda p: (used.get(p) is None, -used.get(p, 0), names[p], p))
    starting = {player: number for number, player in enumerate(order, start=1)}
    ranked = sorted(names, key=lambda p: (-points[p], starting[p]))
    rank = {player: number for number, player in enumerate(ranked, start=1)}

    by_player: dict[str, list[tuple[int, Score]]] = defaultdict(list)
    cells: dict[str, dict[int, Cell]] = defaultdict(dict)
    for game in found.games:
        white, black = POINTS[game.result]
        forfeit = game.result in FORFEITS
        cells[game.white_id][game.round] = Cell(rank[game.black_id], True, white, forfeit)
        cells[game.black_id][game.round] = Cell(rank[game.white_id], False, black, forfeit)
        if game.result not in PLAYED:
            continue
        if game.black_id in used:
            by_player[game.white_id].append((used[game.black_id], Score.from_points(white)))
        if game.white_id in used:
            by_player[game.black_id].append((used[game.white_id], Score.from_points(black)))

    calculated: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        calculated[row.player_id].append(row)

    on_the_day = player_history.federations_and_titles_on(session, names, found.start_date)
    standings = []
    for player in ranked:
        played = by_player.get(player, [])
        performance = (
            performance_rating([r for r, _ in played], [s for _, s in played]) if played else None
        )
        outcome, change, k, rating = _outcome(found.published, calculated.get(player, []))
        standings.append(
            Standing(
                rank=rank[player],
                starting_rank=starting[player],
                player_id=player,
                name=names[player],
                rating_used=used.get(player),
                points=points[player],
                games=games[player],
                performance=performance,
                outcome=outcome,
                change=change,
                k_factor=k,
                rating=rating,
                rounds=cells[player],
                federation=on_the_day.get(player, (None, None))[0],
                title=on_the_day.get(player, (None, None))[1],
            )
        )
    by_round: dict[int, list[RoundGame]] = defaultdict(list)
    for game in found.games:
        by_round[game.round].append(RoundGame(game, rank[game.white_id], rank[game.black_id]))
    return Crosstable(
        tournament=found,
        rounds=tuple(sorted(by_round)),
        standings=tuple(standings),
        games_by_round=tuple((r, tuple(by_round[r])) for r in sorted(by_round)),
    )


def _outcome(
    published: bool, rows: list[Any]
) -> tuple[Outcome, Decimal | None, int | None, int | None]:
    """What the period's list did with the player's games of this event: K (applied on the
    list) x the sum of their deltas, as the player page's calculation shows it."""
    if not published:
        return Outcome.PENDING, None, None, None
    if not rows:  # forfeits only: nothing was computed
        return Outcome.NO_RATED_GAME, None, None, None
    first = rows[0]
    rating = first.rating
    if rating is None:
        return Outcome.OFF_LIST, None, None, None
    if first.previous_rating is None:
        return Outcome.FIRST, None, None, int(rating)
    deltas = [row.delta for row in rows if row.rated and row.delta is not None]
    k = first.k_used
    if not deltas or k is None:
        return Outcome.NO_RATED_GAME, None, None, int(rating)
    return Outcome.CHANGED, int(k) * sum(deltas, Decimal(0)), int(k), int(rating)
