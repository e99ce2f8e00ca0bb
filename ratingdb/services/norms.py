"""The norm check of a stored tournament (Title Regulations §1.4): load its games, its players,
the ratings on the list in force at its start and the players' federations and titles, then
check every player for every norm title they do not hold yet (ratingdb.rules.norms).

Federations and titles are the players' on the tournament's first day (§1.4.6): their records
with the dated values an officer recorded (repositories.player_history; docs/rules.md §20.5).
Read only: nothing is written.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from sqlalchemy.orm import Session

from ratingdb.errors import InputError
from ratingdb.repositories import games as game_repo
from ratingdb.repositories import player_history
from ratingdb.repositories import players as player_repo
from ratingdb.repositories import titles as title_repo
from ratingdb.repositories import tournaments as tournament_repo
from ratingdb.repositories.list_storage import changes as list_changes
from ratingdb.rules import Category
from ratingdb.rules.games import Score
from ratingdb.rules.messages import N_, Day, Message, worded
from ratingdb.rules.norms import (
    NormCheck,
    NormEvent,
    NormGame,
    Opponent,
    Participant,
    Unplayed,
    check_norm,
)
from ratingdb.rules.titles import (
    NORM_TITLES,
    FederationExemption,
    NoTitleRegulations,
    Title,
    TitleRegulations,
    outranks,
    title_regulations_on,
)

#: §1.1.4: past 30 days the ratings of each game's own date count; games carry no date here.
LONGEST_DAYS = 30

#: (white's score, black's score) in half points of a played result.
_PLAYED = {"1-0": (Score.WIN, Score.LOSS), "0-1": (Score.LOSS, Score.WIN)}
_PLAYED["1/2-1/2"] = (Score.DRAW, Score.DRAW)
#: Why a stored result that is not a played game left each side without a game.
_UNPLAYED = {
    "+-": (Unplayed.FORFEIT_WIN, Unplayed.FORFEIT_LOSS),
    "-+": (Unplayed.FORFEIT_LOSS, Unplayed.FORFEIT_WIN),
    "--": (Unplayed.FORFEIT_LOSS, Unplayed.FORFEIT_LOSS),
    "W-L": (Unplayed.FORFEIT_WIN, Unplayed.FORFEIT_LOSS),
    "L-W": (Unplayed.FORFEIT_LOSS, Unplayed.FORFEIT_WIN),
    "D-D": (Unplayed.NO_GAME, Unplayed.NO_GAME),
    "L-L": (Unplayed.FORFEIT_LOSS, Unplayed.FORFEIT_LOSS),
}


@dataclass(frozen=True, slots=True)
class NormPlayer:
    player_id: str
    name: str
    federation: str | None
    sex: str | None
    title: Title | None
    #: On the list in force at the start (None: unrated there).
    rating: int | None
    games: tuple[NormGame, ...]
    #: Rounds without a played game: (round, why); a round with nothing stored is NO_GAME
    #: (byes are not stored).
    unplayed: tuple[tuple[int, Unplayed], ...]
    checks: tuple[NormCheck, ...]

    @property
    def points(self) -> Fraction:
        return Fraction(sum(int(game.score) for game in self.games), 2)

    def check(self, title: Title) -> NormCheck | None:
        return next((check for check in self.checks if check.title is title), None)


@dataclass(frozen=True, slots=True)
class TournamentNorms:
    tournament_id: str
    name: str
    start_date: date
    end_date: date
    federation: str | None
    rounds: int
    list_date: date
    regulations: TitleRegulations
    exemption: FederationExemption | None
    team_championship: bool
    players: tuple[NormPlayer, ...]
    names: dict[str, str]

    def player(self, player_id: str) -> NormPlayer | None:
        return next((p for p in self.players if p.player_id == player_id), None)


def norm_titles_for(sex: str | None, held: Title | None) -> list[Title]:
    """The norm titles a player can still aim at: women's titles for a woman only; none at or
    below a title held (rules.titles.TITLE_ORDER)."""
    return [
        title
        for title in NORM_TITLES
        if (sex == "F" or not title.for_women) and not outranks(held, title)
    ]


def _title(text: str | None, player_id: str) -> Title | None:
    try:
        return Title.parse(text)
    except ValueError as error:
        raise InputError(player_refusal(player_id, error), field="tournament") from None


def _regulations(start: date) -> TitleRegulations:
    try:
        return title_regulations_on(start)
    except NoTitleRegulations as error:
        raise InputError(
            Message(N_("the tournament started on %(day)s: %(why)s"),
                    {"day": Day(start), "why": error.text}),
            field="tournament",
        ) from None  # fmt: skip


def player_refusal(player_id: str, error: ValueError) -> Message:
    """A player's stored value refused by the rules (``player P1: unknown title 'X' ...``)."""
    return Message(N_("player %(id)s: %(why)s"), {"id": player_id, "why": worded(error)})


def tournament_norms(
    session: Session,
    tournament_id: str,
    *,
    exemption: FederationExemption | None = None,
    team_championship: bool = False,
) -> TournamentNorms:
    """Every player's norm checks in the tournament; refused with the reason for a tournament
    the check cannot judge (not FIDE standard, too old, too long, no list in force)."""
    row = tournament_repo.get(session, tournament_id)
    if row is None:
        raise InputError(
            Message(N_("no tournament %(id)s"), {"id": repr(tournament_id)}), field="tournament"
        )
    if row.category is not Category.FIDE_STANDARD:
        raise InputError(
            Message(
                N_("tournament %(id)s is rated in %(category)s: norms come from %(standard)s "
                   "tournaments only (Title Regulations §0.5)"),
                {"id": tournament_id, "category": row.category.value,
                 "standard": Category.FIDE_STANDARD.value},
            ),
            field="tournament",
        )  # fmt: skip
    regulations = _regulations(row.start_date)
    days = (row.end_date - row.start_date).days + 1
    if days > LONGEST_DAYS:
        raise InputError(
            Message(
                N_("tournament %(id)s lasted %(days)s days: past %(longest)s the ratings of each "
                   "game's date count (§1.1.4), and ratingdb stores no game dates"),
                {"id": tournament_id, "days": days, "longest": LONGEST_DAYS},
            ),
            field="tournament",
        )  # fmt: skip
    in_force = title_repo.list_in_force(session, Category.FIDE_STANDARD, row.start_date)
    if in_force is None:
        raise InputError(
            Message(
                N_("no %(standard)s list dated on or before %(start)s: the opponents' ratings "
                   "are unknown (§1.4.6 a)"),
                {"standard": Category.FIDE_STANDARD.value, "start": Day(row.start_date)},
            ),
            field="tournament",
        )  # fmt: skip
    games = game_repo.current_games_of_tournament(session, tournament_id)
    if not games:
        raise InputError(
            Message(N_("tournament %(id)s has no games"), {"id": tournament_id}),
            field="tournament",
        )
    rounds = max(game.round for game in games)
    ids = {game.white_id for game in games} | {game.black_id for game in games}
    players = player_repo.by_ids(session, ids)
    ratings = list_changes.ratings_on(session, in_force.list_id, ids)
    # Federations and titles on the first day (§1.4.6): a transfer or title recorded since
    # does not count.
    on_the_day = player_history.federations_and_titles_on(session, ids, row.start_date)
    federations = {pid: on_the_day[pid][0] for pid in ids}
    titles = {pid: _title(on_the_day[pid][1], pid) for pid in ids}

    def opponent(pid: str) -> Opponent:
        return Opponent(pid, ratings.get(pid), federations[pid], titles[pid])

    played: dict[str, list[NormGame]] = defaultdict(list)
    unplayed: dict[str, dict[int, Unplayed]] = defaultdict(dict)
    for game in sorted(games, key=lambda g: (g.round, g.white_id)):
        if game.result in _PLAYED:
            white_score, black_score = _PLAYED[game.result]
            played[game.white_id].append(NormGame(game.round, opponent(game.black_id), white_score))
            played[game.black_id].append(NormGame(game.round, opponent(game.white_id), black_score))
        else:
            white_kind, black_kind = _UNPLAYED[game.result]
            unplayed[game.white_id][game.round] = white_kind
            unplayed[game.black_id][game.round] = black_kind
    event = NormEvent(
        rounds=rounds,
        host_federation=row.federation,
        team_championship=team_championship,
        exemption=exemption,
        participants=tuple(
            Participant(pid, pid in ratings, federations[pid], titles[pid], len(played[pid]))
            for pid in sorted(ids)
        ),
    )
    checked: list[NormPlayer] = []
    for pid in sorted(ids, key=lambda p: (-(ratings.get(p) or 0), players[p].name, p)):
        own = played.get(pid, [])
        if not own:
            continue
        rounds_with_game = {g.round for g in own}
        missing = {
            number: unplayed[pid].get(number, Unplayed.NO_GAME)
            for number in range(1, rounds + 1)
            if number not in rounds_with_game
        }
        player = players[pid]
        checks = tuple(
            check_norm(
                title,
                player_federation=federations[pid],
                games=own,
                unplayed=tuple(missing.values()),
                event=event,
                regulations=regulations,
            )
            for title in norm_titles_for(player.sex, titles[pid])
        )
        checked.append(
            NormPlayer(
                pid,
                player.name,
                federations[pid],
                player.sex,
                titles[pid],
                ratings.get(pid),
                tuple(own),
                tuple(sorted(missing.items())),
                checks,
            )
        )
    return TournamentNorms(
        tournament_id=row.tournament_id,
        name=row.name,
        start_date=row.start_date,
        end_date=row.end_date,
        federation=row.federation,
        rounds=rounds,
        list_date=in_force.list_date,
        regulations=regulations,
        exemption=exemption,
        team_championship=team_championship,
        players=tuple(checked),
        names={pid: players[pid].name for pid in ids},
    )


def _points(value: Fraction) -> str:
    return f"{value.numerator // value.denominator}" + (".5" if value.denominator == 2 else "")


def check_json(check: NormCheck) -> dict[str, Any]:
    """One norm check as the command line prints it (docs/cli.md)."""
    perf = check.performance
    raised = None
    if perf.raised_player_id is not None:
        raised = {
            "player_id": perf.raised_player_id,
            "from": perf.raised_from,
            "to": perf.raised_to,
        }
    return {
        "title": check.title.value,
        "norm": check.norm,
        "games": perf.games,
        "counts_as_games": check.counts_as_games,
        "points": _points(perf.points),
        "percent": perf.percent,
        "dp": perf.dp,
        "average": perf.average,
        "performance": perf.performance,
        "average_without_raise": perf.average_without_raise,
        "performance_without_raise": perf.performance_without_raise,
        "raised": raised,
        "unrated_opponents": perf.unrated_opponents,
        "conditions": [
            {
                "key": c.key,
                "article": c.article,
                "met": c.met,
                "required": c.required.english(),
                "actual": c.actual.english(),
            }
            for c in check.conditions
        ],
    }


def player_json(norms: TournamentNorms, player: NormPlayer) -> dict[str, Any]:
    """One player's line of ``ratingdb tournaments norms``."""
    return {
        "tournament_id": norms.tournament_id,
        "list_date": norms.list_date.isoformat(),
        "regulations": norms.regulations.name,
        "player_id": player.player_id,
        "name": player.name,
        "federation": player.federation,
        "title": None if player.title is None else player.title.value,
        "rating": player.rating,
        "games": len(player.games),
        "points": _points(player.points),
        "unplayed": [{"round": r, "why": why.value} for r, why in player.unplayed],
        "checks": [check_json(check) for check in player.checks],
    }
