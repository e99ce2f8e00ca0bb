"""The reasons a game did not count (rules.period.NotRated, stored in English with each
calculation) and the initial-rating methods, as messages to translate on the pages."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Final

from ratingdb.api.i18n import N_
from ratingdb.rules.period import (
    EXCLUDED_600,
    FIRST_EVENT_DISREGARDED,
    MATCH_WITH_UNRATED,
    OPPONENT_UNRATED,
)
from ratingdb.rules.versions import InitialRatingMethod

NOT_RATED: Final[Mapping[str, str]] = {
    OPPONENT_UNRATED: N_("the opponent was unrated"),
    EXCLUDED_600: N_(
        "600-point rule: a rating difference of 600 or more with a player rated above 2600"
    ),
    MATCH_WITH_UNRATED: N_("a match with an unrated player is not rated"),
    FIRST_EVENT_DISREGARDED: N_(
        "the first event did not reach the minimum score, so it is disregarded"
    ),
}

INITIAL_METHODS: Final[Mapping[str, str]] = {
    InitialRatingMethod.RA_PLUS_12_5: N_("Ra + dp below 50 %, Ra + 12.5 per half point above 50 %"),
    InitialRatingMethod.RA_PLUS_20: N_("Ra + dp below 50 %, Ra + 20 per half point above 50 %"),
    InitialRatingMethod.HYPOTHETICAL_DRAWS_1800: N_(
        "Ra + dp, with two hypothetical draws against 1800-rated opponents"
    ),
}

#: The rate-of-play reasons (rules.rate_of_play), which carry numbers: their English form as
#: stored, and the message that words them again with those numbers.
RATE_OF_PLAY: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    (
        re.compile(r"the players had different playing times \((?P<control>.+)\)"),
        N_("the players had different playing times (%(control)s)"),
    ),
    (
        re.compile(
            r"the first time control is for (?P<moves>\d+) moves, fewer than (?P<least>\d+)"
        ),
        N_("the first time control is for %(moves)s moves, fewer than %(least)s"),
    ),
    (
        re.compile(
            r"rate of play (?P<minutes>[\d.]+) min for 60 moves, below the (?P<needed>\d+) min "
            r"required when a player is rated (?P<rating>\d+) or more"
        ),
        N_(
            "rate of play %(minutes)s min for 60 moves, below the %(needed)s min required when "
            "a player is rated %(rating)s or more"
        ),
    ),
    (
        re.compile(
            r"rate of play (?P<minutes>[\d.]+) min for 60 moves, below the (?P<needed>\d+) min "
            r"required when both players are rated below (?P<rating>\d+)"
        ),
        N_(
            "rate of play %(minutes)s min for 60 moves, below the %(needed)s min required when "
            "both players are rated below %(rating)s"
        ),
    ),
    (
        re.compile(
            r"rate of play (?P<minutes>[\d.]+) min for 60 moves, (?P<category>[a-z-]+) needs "
            r"more than (?P<low>\d+) and at most (?P<high>\d+) minutes"
        ),
        N_(
            "rate of play %(minutes)s min for 60 moves, %(category)s needs more than %(low)s "
            "and at most %(high)s minutes"
        ),
    ),
    (
        re.compile(
            r"rate of play (?P<minutes>[\d.]+) min for 60 moves, (?P<category>[a-z-]+) needs "
            r"more than (?P<low>\d+) and less than (?P<high>\d+) minutes"
        ),
        N_(
            "rate of play %(minutes)s min for 60 moves, %(category)s needs more than %(low)s "
            "and less than %(high)s minutes"
        ),
    ),
    (
        re.compile(
            r"rate of play (?P<minutes>[\d.]+) min for 60 moves, (?P<category>[a-z-]+) needs "
            r"at least (?P<low>\d+) and less than (?P<high>\d+) minutes"
        ),
        N_(
            "rate of play %(minutes)s min for 60 moves, %(category)s needs at least %(low)s "
            "and less than %(high)s minutes"
        ),
    ),
)


def reason_words(
    reason: str, gettext: Callable[[str], str], category_name: Callable[[str], str]
) -> str:
    """A stored reason in the reader's language; one no message words, as stored."""
    if reason in NOT_RATED:
        return gettext(NOT_RATED[reason])
    for pattern, message in RATE_OF_PLAY:
        found = pattern.fullmatch(reason)
        if found is not None:
            values = found.groupdict()
            if "category" in values:
                values["category"] = category_name(values["category"])
            return gettext(message) % values
    return reason
