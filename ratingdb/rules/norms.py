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
from ratingdb.rules.messages import N_, Message, Number
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


UNKNOWN = N_("unknown")
NONE = N_("none")


def _count(value: int) -> Message:
    """A count found, as it is (``%(count)s``: no words to translate)."""
    return Message("%(count)s", {"count": value})


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _points(value: Fraction) -> Number:
    """Points in halves: ``6``, ``6.5`` (``6,5`` in French)."""
    if value.denominator not in (1, 2):
        raise ValueError(f"points are counted in halves, not {value}")
    return Number(float(value), "g")


def _games_condition(
    games: int, event: NormEvent, unplayed: Sequence[Unplayed], regulations: TitleRegulations
) -> Condition:
    """§1.4.1: 9 games; 7 in a 9-round World or Continental team championship; 8 games when
    the ninth round was a forfeit win or a bye the player did not ask for (docs/rules.md
    §20.6: a reading, the article was not transcribed)."""
    needed = regulations.min_games
    required = N_("at least %(games)s games")
    if event.team_championship:
        needed = regulations.team_championship_min_games
        required = N_("at least %(games)s games (team championship)")
    elif (
        games == regulations.min_games - 1
        and event.rounds >= regulations.min_games
        and any(kind in (Unplayed.FORFEIT_WIN, Unplayed.BYE) for kind in unplayed)
    ):
        needed = regulations.min_games - 1
        required = N_("at least %(games)s games (a forfeit win or a bye in the other round)")
    return Condition(
        key="games",
        article="1.4.1",
        met=games >= needed,
        required=Message(required, {"games": needed}),
        actual=Message(N_("%(games)s games"), {"games": games}),
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
        required=Message(
            N_(
                "at least %(players)s rated players not of the host federation (%(host)s), from "
                "at least %(federations)s federations, at least %(titled)s of them GM, IM, WGM "
                "or WIM"
            ),
            {
                "players": regulations.swiss_foreign_players_min,
                "host": event.host_federation or Message(UNKNOWN),
                "federations": regulations.swiss_foreign_federations_min,
                "titled": regulations.swiss_foreign_titled_min,
            },
        ),
        actual=Message(
            N_("%(players)s players from %(federations)s federations, %(titled)s titled"),
            {"players": len(foreign), "federations": len(federations), "titled": titled},
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
                    required=Message(N_("federation mix waived for an exempt event")),
                    actual=Message(
                        N_("declared %(exemption)s"), {"exemption": event.exemption.value}
                    ),
                )
            )
        return conditions
    unknown = sum(1 for game in games if game.opponent.federation is None)
    if player_federation is None or unknown:
        opponents = Message(N_("%(count)s opponents' federations unknown"), {"count": unknown})
        own_unknown = Message(N_("the player's federation is unknown"))
        missing = (
            own_unknown
            if not unknown
            else opponents
            if player_federation is not None
            else Message(N_("%(own)s; %(opponents)s"), {"own": own_unknown, "opponents": opponents})
        )
        conditions.append(
            Condition(
                key="federations_known",
                article="1.4.3",
                met=False,
                required=Message(N_("every federation known")),
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
            required=Message(
                N_("at least %(count)s federations other than %(federation)s"),
                {"count": regulations.other_federations_min, "federation": player_federation},
            ),
            actual=Message(
                N_("%(count)s (%(federations)s)"),
                {"count": len(others), "federations": ", ".join(others) or Message(NONE)},
            ),
        )
    )
    conditions.append(
        Condition(
            key="own_federation",
            article="1.4.3 b",
            met=own * own_max.denominator <= n * own_max.numerator,
            required=Message(
                N_("at most %(share)s of %(n)s opponents from %(federation)s (%(count)s)"),
                {
                    "share": _fraction_text(own_max),
                    "n": n,
                    "federation": player_federation,
                    "count": n * own_max.numerator // own_max.denominator,
                },
            ),
            actual=_count(own),
        )
    )
    conditions.append(
        Condition(
            key="one_federation",
            article="1.4.3 b",
            met=top * one_max.denominator <= n * one_max.numerator,
            required=Message(
                N_("at most %(share)s of %(n)s opponents from one federation (%(count)s)"),
                {
                    "share": _fraction_text(one_max),
                    "n": n,
                    "count": n * one_max.numerator // one_max.denominator,
                },
            ),
            actual=Message(
                N_("%(count)s from %(federation)s"), {"count": top, "federation": top_federation}
            ),
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
            required=Message(
                N_(
                    "at least %(share)s of %(n)s opponents title holders, CM and WCM excluded "
                    "(%(count)s)"
                ),
                {
                    "share": _fraction_text(regulations.title_holders_min),
                    "n": n,
                    "count": holders_needed,
                },
            ),
            actual=_count(holders),
        ),
        Condition(
            key="norm_level_opponents",
            article="1.4.4",
            met=level_count >= level_needed,
            required=Message(
                N_(
                    "at least %(share)s of %(n)s opponents, and at least %(least)s, %(titles)s "
                    "(%(count)s)"
                ),
                {
                    "share": _fraction_text(regulations.norm_level_min),
                    "n": n,
                    "least": regulations.norm_level_min_count,
                    "titles": level_names,
                    "count": level_needed,
                },
            ),
            actual=_count(level_count),
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
        Message(N_("Ra %(average)s, %(low)s raised to %(high)s"),
                {"average": perf.average, "low": str(perf.raised_from), "high": perf.raised_to})
        if perf.raised_to is not None
        else Message(N_("Ra %(average)s"), {"average": perf.average})
    )  # fmt: skip
    conditions = [
        _games_condition(n, event, unplayed, regulations),
        Condition(
            key="score",
            article="1.4.8 b",
            met=perf.points * 100 >= min_percent * n,
            required=Message(
                N_("at least %(percent)s %% of %(n)s games"), {"percent": min_percent, "n": n}
            ),
            actual=Message(
                N_("%(points)s points (%(percent)s %%)"),
                {"points": _points(perf.points), "percent": perf.percent},
            ),
        ),
        Condition(
            key="average",
            article="1.4.8 a",
            met=perf.average >= min_average,
            required=Message(N_("Ra at least %(average)s"), {"average": min_average}),
            actual=average,
        ),
        Condition(
            key="performance",
            article="1.4.8",
            met=perf.performance >= min_performance,
            required=Message(N_("Rp at least %(performance)s"), {"performance": min_performance}),
            actual=Message(
                N_("Rp %(performance)s = Ra %(average)s + dp %(dp)s"),
                {"performance": perf.performance, "average": perf.average, "dp": perf.dp},
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
