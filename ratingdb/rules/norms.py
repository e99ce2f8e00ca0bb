"""A title norm, checked condition by condition (FIDE Title Regulations §1.4, §1.7).

Plain data in (the player's played games with their opponents' ratings, federations and titles
as the caller read them), plain data out: every condition with its article, its requirement and
the figures it was judged on, so an officer can check the check. Counts "at least a fraction"
and "at most a fraction" are compared exactly (count x denominator against games x numerator):
no rounding enters a count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from ratingdb.rules.games import Score
from ratingdb.rules.messages import Message, game_count
from ratingdb.rules.norm_words import fraction, points, say
from ratingdb.rules.rounding import round_half_up, round_to_hundredths_half_up
from ratingdb.rules.tables import rating_difference_for_score
from ratingdb.rules.titles import FederationExemption, Title, TitleRegulations


class Unplayed(StrEnum):
    """Why a round of the event gave the player no played game."""

    FORFEIT_WIN = "forfeit-win"
    FORFEIT_LOSS = "forfeit-loss"
    #: A bye given by the pairing (not asked for) or an opponent's absence.
    BYE = "bye"
    #: Nothing stored for the round: a bye (asked for or not) or a round missed; ratingdb
    #: stores no byes, so it cannot tell which.
    NO_GAME = "no-game"


@dataclass(frozen=True, slots=True)
class Opponent:
    player_id: str
    #: The rating in force at the event's start (§1.4.6 a); None: unrated.
    rating: int | None
    federation: str | None
    title: Title | None


@dataclass(frozen=True, slots=True)
class NormGame:
    """One played game from the applicant's side: a forfeit is not a game played."""

    round: int
    opponent: Opponent
    score: Score


@dataclass(frozen=True, slots=True)
class Participant:
    """A player of the event, for the Swiss exemption of §1.4.3 d)."""

    player_id: str
    rated: bool
    federation: str | None
    title: Title | None
    rounds_played: int


@dataclass(frozen=True, slots=True)
class NormEvent:
    """What the check needs to know of the event itself."""

    rounds: int
    host_federation: str | None
    #: A 9-round World or Continental team championship (§1.4.1: 7 games suffice).
    team_championship: bool = False
    exemption: FederationExemption | None = None
    #: Every player of the event (only read for the Swiss exemption).
    participants: tuple[Participant, ...] = ()


@dataclass(frozen=True, slots=True)
class Condition:
    """One requirement, met or not, with the figures it was judged on."""

    key: str
    article: str
    met: bool
    #: What the article requires and what was found, as messages with their figures
    #: (``rules.messages``: the command line prints their English, the back office words them).
    required: Message
    actual: Message


@dataclass(frozen=True, slots=True)
class Performance:
    """Rp = Ra + dp (§1.4.6-§1.4.9) for one norm title."""

    games: int
    points: Fraction
    #: p, rounded to a whole per cent (0.5 % up).
    percent: int
    dp: int
    #: Ra with the floor raise (the average the norm is judged on).
    average: int
    performance: int
    #: Ra and Rp without the raise, for comparison.
    average_without_raise: int
    performance_without_raise: int
    #: The opponent raised to the floor (None: none below it), from and to.
    raised_player_id: str | None
    raised_from: int | None
    raised_to: int | None
    unrated_opponents: int


@dataclass(frozen=True, slots=True)
class NormCheck:
    title: Title
    performance: Performance
    #: §1.7: the games the norm counts for (at most 13).
    counts_as_games: int
    conditions: tuple[Condition, ...]

    @property
    def norm(self) -> bool:
        return all(condition.met for condition in self.conditions)


def performance(
    title: Title, games: Sequence[NormGame], regulations: TitleRegulations
) -> Performance:
    """Ra with unrated opponents at 1400 and the lowest opponent below the norm's floor raised
    to it (§1.4.6 b-d), rounded 0.5 up (§1.4.7); p to a whole per cent, 0.5 % up; dp from
    table 1.4.9 (= 8.1.1)."""
    if not games:
        raise ValueError("a performance needs at least one played game")
    floor = regulations.rating_floor[title]
    ratings = [
        regulations.unrated_opponent_rating
        if game.opponent.rating is None
        else game.opponent.rating
        for game in games
    ]
    n = len(games)
    total = sum(ratings)
    lowest = min(range(n), key=lambda index: (ratings[index], games[index].opponent.player_id))
    raised_id: str | None = None
    raised_from: int | None = None
    raised_to: int | None = None
    raised_total = total
    if ratings[lowest] < floor:
        raised_id = games[lowest].opponent.player_id
        raised_from = ratings[lowest]
        raised_to = floor
        raised_total = total - ratings[lowest] + floor
    points = Fraction(sum(int(game.score) for game in games), 2)
    p = round_to_hundredths_half_up(points / n)
    dp = rating_difference_for_score(p)
    average = round_half_up(Fraction(raised_total, n))
    average_without = round_half_up(Fraction(total, n))
    return Performance(
        games=n,
        points=points,
        percent=int(p * 100),
        dp=dp,
        average=average,
        performance=average + dp,
        average_without_raise=average_without,
        performance_without_raise=average_without + dp,
        raised_player_id=raised_id,
        raised_from=raised_from,
        raised_to=raised_to,
        unrated_opponents=sum(1 for game in games if game.opponent.rating is None),
    )


def _games_condition(
    games: int, event: NormEvent, unplayed: Sequence[Unplayed], regulations: TitleRegulations
) -> Condition:
    """§1.4.1: 9 games; 7 in a 9-round World or Continental team championship; 8 games when
    the ninth round was a forfeit win or a bye the player did not ask for (docs/rules.md
    §20.6: a reading, the article was not transcribed)."""
    needed, required = regulations.min_games, "games"
    if event.team_championship:
        needed, required = regulations.team_championship_min_games, "games_team"
    elif (
        games == regulations.min_games - 1
        and event.rounds >= regulations.min_games
        and any(kind in (Unplayed.FORFEIT_WIN, Unplayed.BYE) for kind in unplayed)
    ):
        needed, required = regulations.min_games - 1, "games_one_less"
    return Condition(
        key="games",
        article="1.4.1",
        met=games >= needed,
        required=say(required, games=needed),
        actual=game_count(games),
    )


def _swiss_exemption(event: NormEvent, regulations: TitleRegulations) -> Condition:
    """§1.4.3 d): in every round at least 20 rated players not of the host federation, from at
    least 3 federations, at least 10 of them GM, IM, WGM or WIM; only players who played every
    round but one at least count (QC, 2023-05-01)."""
    foreign = [
        player
        for player in event.participants
        if player.rated
        and player.federation is not None
        and event.host_federation is not None
        and player.federation != event.host_federation
        and player.rounds_played >= event.rounds - 1
    ]
    federations = {player.federation for player in foreign}
    titled = sum(1 for player in foreign if player.title in regulations.swiss_titled)
    met = (
        event.host_federation is not None
        and len(foreign) >= regulations.swiss_foreign_players_min
        and len(federations) >= regulations.swiss_foreign_federations_min
        and titled >= regulations.swiss_foreign_titled_min
    )
    return Condition(
        key="swiss_exemption",
        article="1.4.3 d",
        met=met,
        required=say(
            "swiss",
            players=regulations.swiss_foreign_players_min,
            host=event.host_federation or say("unknown"),
            federations=regulations.swiss_foreign_federations_min,
            titled=regulations.swiss_foreign_titled_min,
        ),
        actual=say(
            "swiss_found", players=len(foreign), federations=len(federations), titled=titled
        ),
    )


def _federation_conditions(
    player_federation: str | None,
    games: Sequence[NormGame],
    event: NormEvent,
    regulations: TitleRegulations,
) -> list[Condition]:
    """§1.4.3 a)-b): at least 2 federations other than the applicant's, at most 3/5 of the
    opponents from the applicant's federation, at most 2/3 from one federation; waived for the
    exempt events (the Swiss one only when its field qualifies)."""
    n = len(games)
    conditions: list[Condition] = []
    if event.exemption is not None:
        if event.exemption is FederationExemption.SWISS_FOREIGN_FIELD:
            conditions.append(_swiss_exemption(event, regulations))
        else:
            conditions.append(
                Condition(
                    key="federation_exemption",
                    article="1.4.3",
                    met=True,
                    required=say("exempt"),
                    actual=say("exempt_found", exemption=event.exemption.value),
                )
            )
        return conditions
    unknown = sum(1 for game in games if game.opponent.federation is None)
    if player_federation is None or unknown:
        opponents = say("opponents_unknown", count=unknown)
        missing = (
            say("own_unknown")
            if not unknown
            else opponents
            if player_federation is not None
            else say("both_unknown", own=say("own_unknown"), opponents=opponents)
        )
        conditions.append(
            Condition(
                key="federations_known",
                article="1.4.3",
                met=False,
                required=say("known"),
                actual=missing,
            )
        )
        return conditions
    counts = Counter(game.opponent.federation or "" for game in games)
    others = sorted(fed for fed in counts if fed != player_federation)
    own = counts.get(player_federation, 0)
    top_federation, top = counts.most_common(1)[0]
    own_max = regulations.own_federation_max
    one_max = regulations.one_federation_max
    conditions.append(
        Condition(
            key="other_federations",
            article="1.4.3 a",
            met=len(others) >= regulations.other_federations_min,
            required=say(
                "others", count=regulations.other_federations_min, federation=player_federation
            ),
            actual=say(
                "others_found", count=len(others), federations=", ".join(others) or say("none")
            ),
        )
    )
    conditions.append(
        Condition(
            key="own_federation",
            article="1.4.3 b",
            met=own * own_max.denominator <= n * own_max.numerator,
            required=say(
                "own",
                share=fraction(own_max),
                n=n,
                federation=player_federation,
                count=n * own_max.numerator // own_max.denominator,
            ),
            actual=say("count", count=own),
        )
    )
    conditions.append(
        Condition(
            key="one_federation",
            article="1.4.3 b",
            met=top * one_max.denominator <= n * one_max.numerator,
            required=say(
                "one",
                share=fraction(one_max),
                n=n,
                count=n * one_max.numerator // one_max.denominator,
            ),
            actual=say("one_found", count=top, federation=top_federation),
        )
    )
    return conditions


def _at_least(fraction: Fraction, n: int) -> int:
    """The smallest count that is at least ``fraction`` of ``n``."""
    return -((-n * fraction.numerator) // fraction.denominator)


def _title_conditions(
    title: Title, games: Sequence[NormGame], regulations: TitleRegulations
) -> list[Condition]:
    """§1.4.4: at least 50 % title holders (CM, WCM excluded); at least 1/3, and at least 3,
    opponents of the norm's level (MO)."""
    n = len(games)
    holders = sum(1 for game in games if game.opponent.title in regulations.title_holder_titles)
    level = regulations.norm_level_titles[title]
    level_count = sum(1 for game in games if game.opponent.title in level)
    holders_needed = _at_least(regulations.title_holders_min, n)
    level_needed = max(_at_least(regulations.norm_level_min, n), regulations.norm_level_min_count)
    level_names = ", ".join(
        t.value for t in (Title.GM, Title.IM, Title.WGM, Title.WIM) if t in level
    )
    return [
        Condition(
            key="title_holders",
            article="1.4.4 a",
            met=holders >= holders_needed,
            required=say(
                "holders",
                share=fraction(regulations.title_holders_min),
                n=n,
                count=holders_needed,
            ),
            actual=say("count", count=holders),
        ),
        Condition(
            key="norm_level_opponents",
            article="1.4.4",
            met=level_count >= level_needed,
            required=say(
                "level",
                share=fraction(regulations.norm_level_min),
                n=n,
                least=regulations.norm_level_min_count,
                titles=level_names,
                count=level_needed,
            ),
            actual=say("count", count=level_count),
        ),
    ]


def check_norm(
    title: Title,
    *,
    player_federation: str | None,
    games: Sequence[NormGame],
    unplayed: Sequence[Unplayed],
    event: NormEvent,
    regulations: TitleRegulations,
) -> NormCheck:
    """Every condition of a ``title`` norm for one player's games of one event."""
    if title not in regulations.norm_performance:
        raise ValueError(f"{title.value} is not a norm title")
    perf = performance(title, games, regulations)
    n = perf.games
    min_average = regulations.norm_min_average[title]
    min_performance = regulations.norm_performance[title]
    min_percent = regulations.min_score_percent
    average = (
        say("average_raised", average=perf.average, low=str(perf.raised_from),
            high=perf.raised_to)
        if perf.raised_to is not None
        else say("average_found", average=perf.average)
    )  # fmt: skip
    conditions = [
        _games_condition(n, event, unplayed, regulations),
        Condition(
            key="score",
            article="1.4.8 b",
            met=perf.points * 100 >= min_percent * n,
            required=say("score", percent=min_percent, n=n),
            actual=say("score_found", points=points(perf.points), percent=perf.percent),
        ),
        Condition(
            key="average",
            article="1.4.8 a",
            met=perf.average >= min_average,
            required=say("average", average=min_average),
            actual=average,
        ),
        Condition(
            key="performance",
            article="1.4.8",
            met=perf.performance >= min_performance,
            required=say("performance", performance=min_performance),
            actual=say(
                "performance_found", performance=perf.performance, average=perf.average, dp=perf.dp
            ),
        ),
        *_federation_conditions(player_federation, games, event, regulations),
        *_title_conditions(title, games, regulations),
    ]
    return NormCheck(
        title=title,
        performance=perf,
        counts_as_games=min(n, regulations.counted_games_max),
        conditions=tuple(conditions),
    )
