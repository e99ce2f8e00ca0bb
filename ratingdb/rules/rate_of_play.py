"""Which games a category rates by their rate of play, by rule version (issue 27, item 1).

A time control is written as TRF26's record 222 writes it, in seconds: ``5400+30`` (90 minutes
and 30 seconds a move), ``40/6000+30:900+30`` (40 moves in 100 minutes, then 15 minutes, 30
seconds a move throughout), ``W300-B240`` (the two players have different times). A period
without a number of moves lasts to the end of the game; when every period has one, the last
repeats (``40/7200`` is 2 hours for every 40 moves).

FIDE measures a time control by the time each player has for 60 moves: the base times of the
periods that begin within the first 60 moves plus the increment of each of those moves (B.02
§1.1 for standard, "assuming the game lasts 60 moves"; rapid and blitz "fixed, or time + 60 x
increment", which is the same for one period). Whether increments count for standard is not
written (docs/rules.md, open question 8): they are counted, as for rapid and blitz.

The rules (each dated by the tournament's start date, sources in ``source``):

- standard: at least 120 minutes for 60 moves when a player is rated 2400 or more, 90 when
  one is rated 1800 or more, 60 otherwise (2200/1600 before 2022); a first control that
  names a number of moves names at least 30;
- rapid: more than 10 and less than 60 minutes (2024); at least 15 and less than 60 (2012);
- blitz: more than 3 and at most 10 minutes (2024); at least 5 and less than 15 (2012);
- rapid and blitz: games where the players have different times are not rated (standard too:
  the minimum is each player's).

A game that is not rated says why, with a stable code and words an officer can read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Final, TypeVar

from ratingdb.rules.categories import Category
from ratingdb.rules.messages import N_, Message, MessageError

#: The moves FIDE assumes a game lasts when it measures a time control.
ASSUMED_MOVES: Final = 60

_PERIOD = re.compile(
    r"(?:(?P<moves>[1-9][0-9]{0,2})/)?(?P<seconds>[0-9]{1,6})(?:\+(?P<inc>[0-9]{1,4}))?"
)


@dataclass(frozen=True, slots=True)
class ControlPeriod:
    """One period of a time control: ``seconds`` for ``moves`` moves (None: the rest of the
    game), ``increment`` seconds added after each move."""

    moves: int | None
    seconds: int
    increment: int = 0

    def __str__(self) -> str:
        moves = "" if self.moves is None else f"{self.moves}/"
        increment = f"+{self.increment}" if self.increment else ""
        return f"{moves}{self.seconds}{increment}"


@dataclass(frozen=True, slots=True)
class PlayerTime:
    """One player's time control: its periods in order."""

    periods: tuple[ControlPeriod, ...]

    def __str__(self) -> str:
        return ":".join(str(period) for period in self.periods)

    def for_moves(self, moves: int = ASSUMED_MOVES) -> Fraction:
        """Seconds the player has for the first ``moves`` moves (see the module's docstring)."""
        total = Fraction(0)
        played = 0
        index = 0
        while played < moves:
            period = self.periods[min(index, len(self.periods) - 1)]
            total += period.seconds
            length = moves - played if period.moves is None else min(period.moves, moves - played)
            total += length * period.increment
            played += length
            index += 1
        return total

    def minutes_for_60_moves(self) -> Fraction:
        return self.for_moves(ASSUMED_MOVES) / 60

    @property
    def first_control_moves(self) -> int | None:
        return self.periods[0].moves


@dataclass(frozen=True, slots=True)
class TimeControl:
    """The time control of a game: the same for both players, or each their own."""

    white: PlayerTime
    black: PlayerTime

    @property
    def same_for_both(self) -> bool:
        return self.white == self.black

    def __str__(self) -> str:
        if self.same_for_both:
            return str(self.white)
        return f"W{self.white}-B{self.black}"


def _player_time(text: str, whole: str) -> PlayerTime:
    periods: list[ControlPeriod] = []
    for part in text.split(":"):
        found = _PERIOD.fullmatch(part)
        if found is None:
            raise MessageError(
                Message(
                    N_(
                        "time control %(given)s: %(part)s is not a period such as 5400+30 or "
                        "40/6000+30 (seconds, moves before the slash)"
                    ),
                    {"given": repr(whole), "part": repr(part)},
                )
            )
        seconds = int(found["seconds"])
        moves = None if found["moves"] is None else int(found["moves"])
        periods.append(ControlPeriod(moves, seconds, int(found["inc"] or 0)))
    if all(p.seconds == 0 and p.increment == 0 for p in periods):
        raise MessageError(
            Message(N_("time control %(given)s: gives the players no time"), {"given": repr(whole)})
        )
    for period in periods[:-1]:
        if period.moves is None:
            raise MessageError(
                Message(
                    N_(
                        "time control %(given)s: only the last period may last to the end of "
                        "the game"
                    ),
                    {"given": repr(whole)},
                )
            )
    return PlayerTime(tuple(periods))


def parse_time_control(text: str) -> TimeControl:
    """A time control as TRF26's record 222 writes it; ValueError naming what is wrong (a
    MessageError: the back office words it)."""
    written = text.strip()
    if not written:
        raise MessageError(Message(N_("time control is empty")))
    different = re.fullmatch(r"W(?P<white>[^-]+)-B(?P<black>.+)", written)
    if different is not None:
        return TimeControl(
            _player_time(different["white"], written), _player_time(different["black"], written)
        )
    both = _player_time(written, written)
    return TimeControl(both, both)


# The rules ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandardRateOfPlay:
    """Standard: minutes for 60 moves by the higher rating of the two players."""

    effective_from: date
    source: str
    high_rating: int
    high_minutes: int
    middle_rating: int
    middle_minutes: int
    low_minutes: int
    first_control_min_moves: int

    def minimum(self, white: int | None, black: int | None) -> tuple[int, Message]:
        """The minutes the game needs, and why (the rating band)."""
        top = max((r for r in (white, black) if r is not None), default=None)
        rated_at_least = N_("a player is rated %(rating)s or more")
        if top is not None and top >= self.high_rating:
            return self.high_minutes, Message(rated_at_least, {"rating": self.high_rating})
        if top is not None and top >= self.middle_rating:
            return self.middle_minutes, Message(rated_at_least, {"rating": self.middle_rating})
        return self.low_minutes, Message(
            N_("both players are rated below %(rating)s"), {"rating": self.middle_rating}
        )


#: A fast category's minutes, by whether its lowest and highest bounds are allowed.
_BOUNDS: Final = {
    (True, True): N_("at least %(lowest)s and at most %(highest)s minutes"),
    (True, False): N_("at least %(lowest)s and less than %(highest)s minutes"),
    (False, True): N_("more than %(lowest)s and at most %(highest)s minutes"),
    (False, False): N_("more than %(lowest)s and less than %(highest)s minutes"),
}


@dataclass(frozen=True, slots=True)
class FastRateOfPlay:
    """Rapid or blitz: the minutes for 60 moves within bounds (each open or closed)."""

    effective_from: date
    source: str
    lowest: int
    lowest_allowed: bool
    highest: int
    highest_allowed: bool

    def admits(self, minutes: Fraction) -> bool:
        above = minutes >= self.lowest if self.lowest_allowed else minutes > self.lowest
        below = minutes <= self.highest if self.highest_allowed else minutes < self.highest
        return above and below

    def describe(self) -> Message:
        text = _BOUNDS[self.lowest_allowed, self.highest_allowed]
        return Message(text, {"lowest": self.lowest, "highest": self.highest})


_B02_2017 = "FIDE Handbook B.02 (1 Jul 2017) §1.1-1.2 (docs/rules.md §2.1; verbatim UNCONFIRMED)"
_B02_2022 = "FIDE Handbook B.02 (1 Jan 2022) §1.1-1.2 (docs/rules.md §2.1, S11)"
_B02_2024 = "FIDE Handbook B.02 (1 Mar 2024) §1.1-1.2 [P]"
_RB_2012 = "FIDE rapid and blitz regulations (tournaments from 1 Jan 2012) [S9]"
_RB_2024 = "FIDE Handbook B.02 rapid and blitz (1 Mar 2024) §1.1.1-1.2 [P, S2]"
_FFE = (
    "FFE homologation: a 'Tournoi C' gives each player between 15 and less than 60 minutes "
    "[S18]; the FIDE rapid bounds of the same date are applied (docs/rules.md open question 9)"
)

#: Oldest first, per category. Before 2017 the standard bands are taken as 2200/1600 too
#: (docs/rules.md §4: "(?)"), which the source text says.
STANDARD_RULES: Final = (
    StandardRateOfPlay(date(2009, 7, 1), _B02_2017 + "; taken back to 2009 (UNCONFIRMED)",
                       2200, 120, 1600, 90, 60, 30),
    StandardRateOfPlay(date(2022, 1, 1), _B02_2022, 2400, 120, 1800, 90, 60, 30),
    StandardRateOfPlay(date(2024, 3, 1), _B02_2024, 2400, 120, 1800, 90, 60, 30),
)  # fmt: skip
FAST_RULES: Final[dict[Category, tuple[FastRateOfPlay, ...]]] = {
    Category.FIDE_RAPID: (
        FastRateOfPlay(date(2012, 1, 1), _RB_2012, 15, True, 60, False),
        FastRateOfPlay(date(2024, 3, 1), _RB_2024, 10, False, 60, False),
    ),
    Category.FIDE_BLITZ: (
        FastRateOfPlay(date(2012, 1, 1), _RB_2012, 5, True, 15, False),
        FastRateOfPlay(date(2024, 3, 1), _RB_2024, 3, False, 10, True),
    ),
    Category.FFE_RAPID: (
        FastRateOfPlay(date(2012, 1, 1), _FFE, 15, True, 60, False),
        FastRateOfPlay(date(2024, 3, 1), _FFE, 10, False, 60, False),
    ),
}


class NoRateOfPlayRule(ValueError):
    """No rate-of-play rule is known for that category on that date."""


Rule = TypeVar("Rule", StandardRateOfPlay, FastRateOfPlay)


def _in_force(rules: tuple[Rule, ...], start: date) -> Rule:
    found = [rule for rule in rules if rule.effective_from <= start]
    if not found:
        raise NoRateOfPlayRule(f"no rate-of-play rule before {rules[0].effective_from}")
    return found[-1]


@dataclass(frozen=True, slots=True)
class Eligibility:
    """Whether a game is rated for its rate of play; when not, ``code`` (stable) and ``reason``
    (the words stored with the game's calculation and shown after "not rated:")."""

    rated: bool
    code: str | None = None
    reason: str | None = None
    source: str | None = None
    #: ``reason`` as a message with its values (the back office words it in French).
    message: Message | None = None

    @classmethod
    def refused(cls, code: str, message: Message, source: str) -> Eligibility:
        return cls(False, code, message.english(), source, message)


RATED: Final = Eligibility(True)

#: How each reason's words begin, by its code (``code_of_reason`` reads a stored reason back).
REASON_STARTS: Final = (
    ("different-playing-times", "the players had different playing times"),
    ("first-control-too-short", "the first time control is for "),
    ("rate-of-play-too-fast", "rate of play ", " min required when "),
    ("rate-of-play-outside-category", "rate of play ", " needs "),
)


def code_of_reason(reason: str) -> str | None:
    """The code of a rate-of-play reason as stored, None if it is not one."""
    for code, start, *inside in REASON_STARTS:
        if reason.startswith(start) and all(part in reason for part in inside):
            return code
    return None


def _minutes(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


class RateOfPlayCheck:
    """The rate-of-play rule of one tournament's games: its category, start date and time
    control, measured once; ``game`` answers for a pair of ratings (standard's bands)."""

    __slots__ = ("_answers", "_category", "_control", "_fast", "_minutes", "_standard", "source")

    def __init__(self, category: Category, start: date, control: TimeControl) -> None:
        self._category = category
        self._control = control
        self._standard: StandardRateOfPlay | None = None
        self._fast: FastRateOfPlay | None = None
        if category is Category.FIDE_STANDARD:
            self._standard = _in_force(STANDARD_RULES, start)
            self.source = self._standard.source
        else:
            self._fast = _in_force(FAST_RULES[category], start)
            self.source = self._fast.source
        self._minutes = control.white.minutes_for_60_moves()
        self._answers: dict[int, Eligibility] = {}

    @property
    def bands(self) -> tuple[int, ...]:
        """The ratings from which a game needs more time (standard: 1800 and 2400 today)."""
        rule = self._standard
        return () if rule is None else (rule.middle_rating, rule.high_rating)

    def game(self, white_rating: int | None = None, black_rating: int | None = None) -> Eligibility:
        """Whether a game between players of these ratings (the category's list in force at
        the start; None: unrated) is rated."""
        control, source = self._control, self.source
        if not control.same_for_both:
            return Eligibility.refused(
                "different-playing-times",
                Message(N_("the players had different playing times (%(control)s)"),
                        {"control": str(control)}),
                source,
            )  # fmt: skip
        minutes = self._minutes
        if self._standard is None:
            assert self._fast is not None
            if self._fast.admits(minutes):
                return RATED
            return Eligibility.refused(
                "rate-of-play-outside-category",
                Message(N_("rate of play %(minutes)s min for 60 moves, %(category)s needs "
                           "%(bounds)s"),
                        {"minutes": _minutes(minutes), "category": self._category.value,
                         "bounds": self._fast.describe()}),
                source,
            )  # fmt: skip
        rule = self._standard
        first = control.white.first_control_moves
        if first is not None and first < rule.first_control_min_moves:
            return Eligibility.refused(
                "first-control-too-short",
                Message(N_("the first time control is for %(moves)s moves, fewer than "
                           "%(least)s"),
                        {"moves": first, "least": rule.first_control_min_moves}),
                source,
            )  # fmt: skip
        needed, why = rule.minimum(white_rating, black_rating)
        if minutes >= needed:
            return RATED
        answer = self._answers.get(needed)
        if answer is None:
            answer = self._answers[needed] = Eligibility.refused(
                "rate-of-play-too-fast",
                Message(N_("rate of play %(minutes)s min for 60 moves, below the %(needed)s min "
                           "required when %(why)s"),
                        {"minutes": _minutes(minutes), "needed": needed, "why": why}),
                source,
            )  # fmt: skip
        return answer


def eligibility(
    category: Category,
    start: date,
    control: TimeControl,
    white_rating: int | None = None,
    black_rating: int | None = None,
) -> Eligibility:
    """Whether ``category`` rates a game of a tournament starting on ``start`` played at
    ``control`` (the players' ratings in the category's rate-of-play bands: the list in force at
    the start; None for an unrated player)."""
    return RateOfPlayCheck(category, start, control).game(white_rating, black_rating)
