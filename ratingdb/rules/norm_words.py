"""The words of a norm check's conditions (rules.norms): what each article requires and what
was found, by name, as messages with their figures (``rules.messages``: the command line prints
their English, the back office words them in the officer's language)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Final

from ratingdb.rules.messages import N_, Message, Number, Param

WORDS: Final[Mapping[str, str]] = {
    "games": N_("at least %(games)s games"),
    "games_team": N_("at least %(games)s games (team championship)"),
    "games_one_less": N_("at least %(games)s games (a forfeit win or a bye in the other round)"),
    "swiss": N_(
        "at least %(players)s rated players not of the host federation (%(host)s), from at "
        "least %(federations)s federations, at least %(titled)s of them GM, IM, WGM or WIM"
    ),
    "swiss_found": N_("%(players)s players from %(federations)s federations, %(titled)s titled"),
    "exempt": N_("federation mix waived for an exempt event"),
    "exempt_found": N_("declared %(exemption)s"),
    "known": N_("every federation known"),
    "own_unknown": N_("the player's federation is unknown"),
    "opponents_unknown": N_("%(count)s opponents' federations unknown"),
    "both_unknown": N_("%(own)s; %(opponents)s"),
    "others": N_("at least %(count)s federations other than %(federation)s"),
    "others_found": N_("%(count)s (%(federations)s)"),
    "own": N_("at most %(share)s of %(n)s opponents from %(federation)s (%(count)s)"),
    "one": N_("at most %(share)s of %(n)s opponents from one federation (%(count)s)"),
    "one_found": N_("%(count)s from %(federation)s"),
    "holders": N_(
        "at least %(share)s of %(n)s opponents title holders, CM and WCM excluded (%(count)s)"
    ),
    "level": N_(
        "at least %(share)s of %(n)s opponents, and at least %(least)s, %(titles)s (%(count)s)"
    ),
    "score": N_("at least %(percent)s %% of %(n)s games"),
    "score_found": N_("%(points)s points (%(percent)s %%)"),
    "average": N_("Ra at least %(average)s"),
    "average_found": N_("Ra %(average)s"),
    "average_raised": N_("Ra %(average)s, %(low)s raised to %(high)s"),
    "performance": N_("Rp at least %(performance)s"),
    "performance_found": N_("Rp %(performance)s = Ra %(average)s + dp %(dp)s"),
    # A count found, as it is (no words to translate).
    "count": "%(count)s",
    "unknown": N_("unknown"),
    "none": N_("none"),
}


def say(name: str, **values: Param) -> Message:
    """The words ``name`` with their figures."""
    return Message(WORDS[name], values)


def fraction(value: Fraction) -> str:
    """A share as the regulations write it: ``3/5``."""
    return f"{value.numerator}/{value.denominator}"


def points(value: Fraction) -> Number:
    """Points in halves: ``6``, ``6.5`` (``6,5`` in French)."""
    if value.denominator not in (1, 2):
        raise ValueError(f"points are counted in halves, not {value}")
    return Number(float(value), "g")
