"""The reasons a game did not count (rules.period.NotRated, stored in English with each
calculation) and the initial-rating methods, as messages to translate on the pages."""

from __future__ import annotations

from collections.abc import Mapping
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
